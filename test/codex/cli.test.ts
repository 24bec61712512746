/**
 * The Codex harness through the built binary, as a user runs it: convert
 * to and from the rollout text form, list and view a Codex home, continue a
 * document into Codex, and clear one-line errors for bad rollouts.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyId } from "../../src/local.js";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { resumeProblems } from "./support.js";

const FIX = join(ROOT, "test/fixtures/codex");
const ID = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b";

function home(): string {
  const h = tempDir("codex-cli-");
  const dir = join(h, "sessions/2026/08/10");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `rollout-2026-08-10T12-00-00-${ID}.jsonl`),
    readFileSync(join(FIX, "session.jsonl")),
  );
  writeFileSync(
    join(h, "session_index.jsonl"),
    `${JSON.stringify({ id: ID, thread_name: "Flaky login", updated_at: "2026-08-10T13:00:00Z" })}\n`,
  );
  return h;
}

describe("txcript with Codex", () => {
  it("converts a rollout to Common JSON and a Simple document back into a resumable rollout", () => {
    const common = txcript([
      "convert",
      join(FIX, "session.jsonl"),
      "--from",
      "codex",
      "--to",
      "common",
    ]);
    expect(common.status).toBe(0);
    const doc = JSON.parse(common.stdout);
    expect(doc.meta.id).toBe(ID);
    expect(doc.messages).toHaveLength(12);
    const rollout = txcript([
      "convert",
      join(ROOT, "test/fixtures/common/full.simple.json"),
      "--from",
      "simple",
      "--to",
      "codex",
    ]);
    expect(rollout.status).toBe(0);
    expect(resumeProblems(rollout.stdout, "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41")).toEqual([]);
    // codex -> codex through Common is stable after one pass.
    const again = txcript(["convert", "-", "--from", "codex", "--to", "codex"], {
      input: rollout.stdout,
    });
    expect(again.stdout).toBe(rollout.stdout);
  });

  it("lists and views the sessions of a Codex home without changing it", () => {
    const h = home();
    const before = hashTree(h);
    const list = txcript(["list", "--from", "codex", "--json"], { env: { CODEX_HOME: h } });
    expect(list.status).toBe(0);
    const sessions = JSON.parse(list.stdout).sessions;
    expect(
      sessions.map((s: { id: string; title: string; message_count: number }) => [
        s.id,
        s.title,
        s.message_count,
      ]),
    ).toEqual([[ID, "Flaky login", 12]]);
    const view = txcript(["view", ID.slice(0, 8), "--from", "codex"], {
      env: { TXCRIPT_CODEX_ROOT: h },
    });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("The test sleeps instead of waiting. Patching it.");
    expect(hashTree(h)).toEqual(before);
  });

  it("continues a Simple document into a Codex home as a rollout codex resume accepts", () => {
    const h = tempDir("codex-cli-");
    const r = txcript(
      [
        "continue",
        join(ROOT, "test/fixtures/common/full.simple.json"),
        "--with",
        "codex",
        "--no-resume",
      ],
      { env: { TXCRIPT_CODEX_ROOT: h } },
    );
    expect(r.status).toBe(0);
    // The copy has its own id, derived from the document's and the target.
    const id = copyId(
      { harness: "simple", id: "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41" },
      "codex",
      0,
    );
    expect(r.stdout.split("\n")[0]).toBe(id);
    const path = join(h, `sessions/2026/08/10/rollout-2026-08-10T12-00-00-${id}.jsonl`);
    expect(resumeProblems(readFileSync(path, "utf8"), id)).toEqual([]);
    expect(r.stdout).toContain(`codex resume ${id}`);
  });

  it("names the file and the problem, in one line, for input that is not a rollout", () => {
    const dir = tempDir();
    const bad = join(dir, "claude.jsonl");
    writeFileSync(bad, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    const r = txcript(["convert", bad, "--from", "codex", "--to", "common"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `txcript: ${bad}: no session_meta line with an id: not a Codex rollout\n`,
    );
  });
});
