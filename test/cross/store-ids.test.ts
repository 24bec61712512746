/**
 * The Store contract's cheap id listing, for every harness with a store:
 * the ids of what was saved, sorted and unique, read from file names alone
 * (a damaged session file is still listed, so it can be named and deleted),
 * and a superset of what discovery lists.
 */

import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseToCommon } from "../../src/convert.js";
import { harness, storedHarnesses } from "../../src/harness/index.js";
import { OpenCodeStore } from "../../src/harness/opencode/index.js";
import { createOpenCodeDatabase } from "../support/opencode.js";
import { tempDir } from "../support/tmp.js";

const doc = (id: string, n: number) =>
  JSON.stringify({
    id,
    cwd: "/srv/app",
    timestamp: `2026-10-0${n}T10:00:00Z`,
    messages: [
      { role: "user", content: `question ${n}` },
      { role: "assistant", content: `answer ${n}`, model: "claude-opus-5" },
    ],
  });

const IDS = [
  "7b0e2c1a-0000-4000-8000-000000000003",
  "7b0e2c1a-0000-4000-8000-000000000001",
  "1f00aa00-0000-4000-8000-000000000002",
];

// OpenCode and Kilo keep every session in one database: OpenCode's test follows.
// Crush keeps each project's sessions in its crush.db (test/crush/write.test.ts lists them); Goose's, Kiro CLI's, Cursor's, Amp's and Grok CLI's stores are read-only: their own folders list their ids.
const READ_ONLY_STORES = new Set([
  "opencode",
  "kilo",
  "goose",
  "kiro",
  "cursor",
  "amp",
  "crush",
  "grok",
]);
const fileStores = storedHarnesses().filter((h) => !READ_ONLY_STORES.has(h.id));

describe.each(fileStores.map((h) => [h.id, h] as const))("%s store", (_id, h) => {
  it("lists the saved ids from file names, damaged files included", async () => {
    const store = h.store!({ root: tempDir(), env: {} });
    expect(store.ids()).toEqual([]);
    const paths: string[] = [];
    IDS.forEach((id, i) => {
      const saved = store.save(h.codec.fromCommon(parseToCommon(doc(id, i + 1), "simple")));
      expect(saved.id).toBe(id);
      paths.push(saved.path);
    });
    expect(store.ids()).toEqual([...IDS].sort());
    // Damage one session file: discovery skips it, ids() still names it.
    writeFileSync(paths[0]!, "\u0000garbage that no harness can read\n");
    writeFileSync(`${dirname(paths[1]!)}/unrelated.txt`, "not a session");
    // Gemini CLI file names hold only the id's first 8 characters: a damaged file goes by them.
    const damaged = h.id === "gemini_cli" ? IDS[0]!.slice(0, 8) : IDS[0]!;
    expect(store.ids()).toEqual([damaged, ...IDS.slice(1)].sort());
    const discovered = (await store.discover()).sessions.map((s) => s.id);
    for (const id of discovered) expect(store.ids()).toContain(id);
    expect(discovered).not.toContain(IDS[0]);
  });
});

describe("opencode store", () => {
  it("lists the saved sessions' ids from the database, damaged rows included", async () => {
    const h = harness("opencode");
    const root = tempDir();
    const path = createOpenCodeDatabase(root);
    const store = new OpenCodeStore({ root, env: {} });
    expect(store.ids()).toEqual([]);
    const saved = IDS.map((id, i) =>
      store.save(h.codec.fromCommon(parseToCommon(doc(id, i + 1), "simple"))),
    );
    const ids = saved.map((s) => s.id);
    for (const id of ids) expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(new Set(ids).size).toBe(3);
    expect(store.ids()).toEqual([...ids].sort());
    // A session whose rows hold garbage is still named, listed and loadable.
    const db = new Database(path);
    db.prepare("UPDATE message SET data = ? WHERE session_id = ?").run("\u0000garbage", ids[0]);
    db.close();
    expect(store.ids()).toEqual([...ids].sort());
    expect((await store.discover()).sessions.map((s) => s.id).sort()).toEqual([...ids].sort());
  });
});
