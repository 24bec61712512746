/**
 * Goose read from the documented format: every content kind of a
 * `sessions.db` (schema v9) session, the legacy `.jsonl` layout, the
 * tolerant-reading rules (unknown kinds kept in the Body, a newer schema
 * named), and the write refusal.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { UnsupportedError } from "../../src/errors.js";
import { GooseStore, gooseRoot, WRITE_REFUSAL } from "../../src/harness/goose/index.js";
import { harness, openStore } from "../../src/harness/index.js";
import { createGooseDatabase, everyKindSession, writeGooseLegacy } from "../support/goose.js";
import { hashTree, tempDir } from "../support/tmp.js";

const goose = harness("goose");

function loaded(root: string, id: string) {
  const store = openStore(goose, { root, env: {} });
  if (!store) throw new Error("goose has a store");
  return store.load(id);
}

describe("Goose sessions.db", () => {
  it("reads every content kind into Common, leaving the database untouched", () => {
    const root = tempDir("goose-");
    createGooseDatabase(root, [everyKindSession()]);
    const before = hashTree(root);
    const t = loaded(root, "20261001_1");
    expect(t.meta).toEqual({
      id: "20261001_1",
      timestamp: "2026-10-01T10:00:00Z",
      cwd: "/srv/app",
      title: "Fix the failing test",
      model: "claude-sonnet-4-5",
    });
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const [ask, think, results, edit, results2, done] = t.body;
    expect(ask?.timestamp).toBe("2026-10-01T10:00:00Z");
    expect(ask?.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
    expect(think?.content).toEqual([
      { type: "thinking", text: "Look at the test first.", signature: "sig-1" },
      { type: "thinking", text: "", encrypted: "b64-redacted" },
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_1", tool: { name: "Bash", command: "npm test" } },
      { type: "tool_use", id: "toolu_2", tool: { name: "Read", file_path: "/srv/app/a.ts" } },
      {
        type: "tool_use",
        id: "toolu_3",
        tool: {
          name: "Raw",
          tool_name: "invalid_tool_call",
          input: { status: "error", error: "Could not interpret tool use parameters" },
        },
      },
    ]);
    expect(think?.model).toBe("claude-sonnet-4-5");
    expect(results?.content).toEqual([
      // The copy meant for the user alone is left out of what the model saw.
      { type: "tool_result", tool_use_id: "toolu_1", content: "1 failing" },
      { type: "tool_result", tool_use_id: "toolu_2", content: "export const a = 1;" },
      { type: "tool_result", tool_use_id: "toolu_3", content: "bad parameters", is_error: true },
    ]);
    // UI-only kinds and the unknown `hologram` are not in Common...
    expect(edit?.content).toEqual([
      {
        type: "tool_use",
        id: "toolu_4",
        tool: { name: "Edit", file_path: "/srv/app/a.ts", old_string: "1", new_string: "2" },
      },
      {
        type: "tool_use",
        id: "toolu_5",
        tool: { name: "Raw", tool_name: "browser__open", input: { url: "http://localhost" } },
      },
    ]);
    expect(results2?.content[1]).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_5",
      content: [{ type: "image", data: "R0lGOD", mimeType: "image/gif" }],
      is_error: true,
    });
    expect(done?.content).toEqual([{ type: "text", text: "Fixed: the constant was wrong." }]);
    expect(hashTree(root)).toEqual(before);
  });

  it("keeps unknown content kinds and row columns verbatim in the native Body", () => {
    const root = tempDir("goose-");
    createGooseDatabase(root, [everyKindSession()]);
    const t = new GooseStore({ root, env: {} }).load("20261001_1");
    expect(t.body.messages[3]?.content).toContainEqual({ type: "hologram", beam: 3 });
    expect(t.body.session.accumulated_total_tokens).toBe(1540);
    expect(t.body.messages[2]?.metadata).toEqual({ userVisible: false, agentVisible: true });
    // The text form carries the Body: parse(render(body)) keeps it whole.
    const text = goose.text.render(t);
    expect(goose.text.parse(text, "20261001_1.jsonl").body).toEqual(t.body);
  });

  it("lists sessions with their counts, lanes and times", async () => {
    const root = tempDir("goose-");
    createGooseDatabase(root, [
      everyKindSession("20261001_1"),
      {
        ...everyKindSession("20261001_2"),
        session_type: "scheduled",
        updated_at: "2026-10-02T09:00:00.5+00:00",
      },
    ]);
    const store = new GooseStore({ root, env: {} });
    expect(store.ids()).toEqual(["20261001_1", "20261001_2"]);
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.message_count, s.lane, s.updated])).toEqual([
      ["20261001_1", 6, undefined, "2026-10-01T10:05:00Z"],
      ["20261001_2", 6, "scheduled", "2026-10-02T09:00:00.500Z"],
    ]);
  });

  it("names a newer schema instead of misreading it", async () => {
    const root = tempDir("goose-");
    const path = createGooseDatabase(root, [everyKindSession()]);
    const db = new Database(path);
    db.prepare("INSERT INTO schema_version (version) VALUES (10)").run();
    db.close();
    const store = new GooseStore({ root, env: {} });
    expect(() => store.load("20261001_1")).toThrow(/schema v10 is newer than the v9/);
    const { sessions, skipped } = await store.discover();
    expect(sessions).toEqual([]);
    expect(skipped[0]?.reason).toMatch(/schema v10 is newer/);
  });

  it("refuses a database that is not Goose's, and garbage, in one line naming the file", async () => {
    const root = tempDir("goose-");
    const path = join(root, "sessions", "sessions.db");
    createGooseDatabase(root, [], "CREATE TABLE other (x);");
    const store = new GooseStore({ root, env: {} });
    expect(() => store.load("x")).toThrow(/not a Goose sessions database/);
    writeFileSync(path, "\u0000 not sqlite at all ".repeat(100));
    expect(() => store.load("x")).toThrow(path);
    expect((await store.discover()).skipped[0]?.path).toBe(path);
  });

  it("reads a message whose JSON column is damaged as a one-line error", () => {
    const root = tempDir("goose-");
    const path = createGooseDatabase(root, [everyKindSession()]);
    const db = new Database(path);
    db.prepare("UPDATE messages SET content_json = '{broken' WHERE message_id = 'msg_2'").run();
    db.close();
    expect(() => loaded(root, "20261001_1")).toThrow(
      /messages row 2: a message's JSON column is not JSON/,
    );
  });

  it("refuses to write or delete, in one line saying why", () => {
    const root = tempDir("goose-");
    createGooseDatabase(root, [everyKindSession()]);
    const store = openStore(goose, { root, env: {} });
    const t = store?.load("20261001_1");
    if (!store || !t) throw new Error("loaded");
    expect(() => store.save(t)).toThrow(UnsupportedError);
    expect(() => store.save(t)).toThrow(WRITE_REFUSAL);
    expect(WRITE_REFUSAL).not.toContain("\n");
    expect(() => store.native.delete("20261001_1")).toThrow(UnsupportedError);
    expect(goose.resume).toBeUndefined();
  });
});

describe("Goose legacy .jsonl sessions", () => {
  it("reads a legacy file beside the database; the database's copy wins", async () => {
    const root = tempDir("goose-");
    createGooseDatabase(root, [everyKindSession("20261001_1")]);
    const msg = {
      role: "user",
      created: 1700000000,
      content: [{ type: "text", text: "legacy hello" }],
    };
    writeGooseLegacy(root, "20261001_1", { working_dir: "/old", description: "stale copy" }, [msg]);
    const legacyPath = writeGooseLegacy(
      root,
      "old-session",
      { working_dir: "/srv/old", description: "An old session", message_count: 1 },
      [msg],
    );
    const store = new GooseStore({ root, env: {} });
    expect(store.ids()).toEqual(["20261001_1", "old-session"]);
    const t = loaded(root, "old-session");
    expect(t.meta.id).toBe("old-session");
    expect(t.meta.title).toBe("An old session");
    expect(t.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "legacy hello" }],
        timestamp: "2023-11-14T22:13:20Z",
      },
    ]);
    expect(loaded(root, "20261001_1").meta.cwd).toBe("/srv/app");
    const found = (await store.discover()).sessions.find((s) => s.id === "old-session");
    expect(found?.lane).toBe("legacy");
    expect(found?.path).toBe(legacyPath);
    expect(readFileSync(legacyPath, "utf8")).toContain("legacy hello");
  });

  it("names the line of a malformed legacy file", () => {
    const root = tempDir("goose-");
    const path = writeGooseLegacy(root, "bad", { working_dir: "/x" }, []);
    writeFileSync(path, `{"working_dir":"/x"}\n{"role":"user",\n`);
    expect(() => loaded(root, "bad")).toThrow(`${path}: line 2: not a JSON line`);
    writeFileSync(path, `[1,2]\n`);
    expect(() => loaded(root, "bad")).toThrow(/line 1: expected a JSON object/);
  });
});

describe("Goose roots", () => {
  it("follows TXCRIPT_GOOSE_ROOT, GOOSE_PATH_ROOT, XDG_DATA_HOME, then ~/.local/share/goose", () => {
    expect(gooseRoot({ env: { HOME: "/h", TXCRIPT_GOOSE_ROOT: "/t" } })).toBe("/t");
    expect(gooseRoot({ env: { HOME: "/h", GOOSE_PATH_ROOT: "/g" } })).toBe("/g/data");
    expect(gooseRoot({ env: { HOME: "/h", XDG_DATA_HOME: "/x" } })).toBe("/x/goose");
    expect(gooseRoot({ env: { HOME: "/h" } })).toBe("/h/.local/share/goose");
  });
});
