/**
 * Store shapes agy wrote after 1.2.0, on real databases (facts and their
 * versions in docs/formats/antigravity.md, "After 1.2.0: titles, caches and history edits"):
 * - a conversation's last gen_metadata row may be a conversation-level
 *   aggregate naming no model: the model shown is the newest row's that
 *   names one, in `list` and in `view`;
 * - `/rewind` deletes steps and reuses their idx values: only the current
 *   branch is shown, each message once.
 * (A step WAITING for approval, status 9, is tested in
 * test/antigravity/to-common.test.ts.)
 */

import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { antigravityCodec } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { encode } from "../../src/protobuf.js";
import { buildConversation, genMetadataRow } from "../support/agy-fixtures.js";
import { BIN } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { writeAgyDatabase } from "./support.js";

const cli = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, "--no-cache", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: root, TXCRIPT_ANTIGRAVITY_ROOT: root },
    encoding: "utf8",
  });

/** A conversation-level gen_metadata row: usage totals, a model enum, no name. */
function aggregateRow(idx: number) {
  const data = encode((w) =>
    w.message(1, (chat) =>
      chat.message(4, (u) => {
        u.uint(1, 1018);
        u.uint(2, 99_999);
        u.uint(3, 9_999);
      }),
    ),
  );
  return { idx, data, size: data.length };
}

describe("agy after 1.2.0", () => {
  it("a last gen_metadata row naming no model leaves the named model in list and view", async () => {
    const root = tempDir("txcript-agy-since-");
    const body = buildConversation({ id: "6c6c6c6c-0000-4000-8000-000000000001", steps: 12 });
    body.gen_metadata = [
      genMetadataRow(0, { name: "gemini-3.1-pro", model: 1018 }),
      aggregateRow(1),
    ];
    writeAgyDatabase(root, body);
    const store = new AntigravityStore({ root, env: {} });
    const found = (await store.discover()).sessions[0];
    expect(found?.meta.model).toBe("gemini-3.1-pro");
    expect(antigravityCodec.toCommon(store.load(body.id)).meta.model).toBe("gemini-3.1-pro");
    const listed = cli(root, "list", "--json");
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).sessions[0].model).toBe("gemini-3.1-pro");
  });

  it("a rewound conversation shows its current branch only, each message once", () => {
    const root = tempDir("txcript-agy-rewind-");
    const body = buildConversation({ id: "6c6c6c6c-0000-4000-8000-000000000002", steps: 30 });
    const path = writeAgyDatabase(root, body);
    const store = new AntigravityStore({ root, env: {} });
    const before = antigravityCodec.toCommon(store.load(body.id)).body;
    // What /rewind does to the table: later steps deleted, their idx values reused.
    const steps = [...body.steps].sort((a, b) => a.idx - b.idx);
    const cut = steps.findIndex((s, i) => i > 0 && s.step_type === 14); // the second prompt
    expect(cut).toBeGreaterThan(0);
    const db = new Database(path);
    const kept = steps[cut - 1]!.idx;
    db.prepare("DELETE FROM steps WHERE idx > ?").run(kept);
    // The branch taken instead: the first prompt's step again, at the reused idx.
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('steps')")
      .pluck()
      .all()
      .map(String);
    const picks = columns.map((c) => (c === "idx" ? "? AS idx" : c)).join(", ");
    db.prepare(
      `INSERT INTO steps (${columns.join(", ")}) SELECT ${picks} FROM steps WHERE idx = ?`,
    ).run(kept + 1, steps[0]!.idx);
    db.close();
    const after = antigravityCodec.toCommon(store.load(body.id)).body;
    const prompts = (ms: typeof after) =>
      ms.filter((m) => m.role === "user" && m.content.some((b) => b.type === "text"));
    // Everything before the cut, then the new branch's one prompt: nothing from the old branch.
    expect(prompts(after)).toHaveLength(2);
    expect(after.length).toBeLessThan(before.length);
    const viewed = cli(root, "view", body.id);
    expect(viewed.status).toBe(0);
    const firstPrompt = prompts(before)[0]!.content.find((b) => b.type === "text");
    const text = firstPrompt?.type === "text" ? firstPrompt.text : "";
    expect(viewed.stdout.split(text).length - 1).toBe(2);
  });
});
