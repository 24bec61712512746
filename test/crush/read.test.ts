/**
 * Crush read from the documented format: every part kind of a project's
 * `crush.db`, the projects list, lineage (task and title sessions, the
 * summary message), the tolerant-reading rules (unknown part kinds and
 * columns kept in the Body, a newer schema read and named), hostile,
 * truncated and huge inputs, and the write refusal.
 */

import { statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ConflictError, UnsupportedError } from "../../src/errors.js";
import { crushRoot } from "../../src/harness/crush/probe.js";
import { CrushStore } from "../../src/harness/crush/store.js";
import { harness, openStore } from "../../src/harness/index.js";
import {
  CRUSH_SCHEMA,
  createCrushDatabase,
  createCrushProject,
  everyKindSessions,
  part,
} from "../support/crush.js";
import { hashTree, tempDir } from "../support/tmp.js";

const crush = harness("crush");
const ID = "5f0c3a52-6a1e-4c1b-9a51-3d1f0b6c2e11";

function setup(): { root: string; project: string; db: string } {
  const root = tempDir("crush-root-");
  const project = tempDir("crush-project-");
  const db = createCrushProject(root, project, everyKindSessions());
  return { root, project, db };
}

function loaded(root: string, id: string) {
  const store = openStore(crush, { root, env: {} });
  if (!store) throw new Error("crush has a store");
  return store.load(id);
}

describe("Crush crush.db", () => {
  it("reads every part kind into Common, leaving the databases untouched", () => {
    const { root, project } = setup();
    const before = [hashTree(root), hashTree(project)];
    const t = loaded(root, ID);
    expect(t.meta).toEqual({
      id: ID,
      timestamp: "2026-10-01T10:00:00Z",
      cwd: project,
      title: "Fix the failing test",
      model: "claude-sonnet-4-5",
    });
    // m5 (a canceled turn with no content) and m7 (system) are not messages of the transcript.
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "assistant",
    ]);
    const [ask, act, results, done, summary] = t.body;
    expect(ask?.timestamp).toBe("2026-10-01T10:00:00Z");
    expect(ask?.content).toEqual([
      { type: "text", text: "Why does the test fail?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      {
        type: "artifact",
        artifact: {
          id: "notes.txt",
          name: "notes.txt",
          source: { type: "text", text: "remember the constant", media_type: "text/plain" },
        },
      },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
      { type: "text", text: "[image https://example.com/a.png]" },
      { type: "text", text: "$ git status\nclean\n(exit code 0)" },
    ]);
    expect(ask?.model).toBeUndefined();
    expect(act?.content).toEqual([
      { type: "thinking", text: "Look at the test first.", signature: "sig-1" },
      { type: "text", text: "Let me look." },
      {
        type: "tool_use",
        id: "toolu_1",
        tool: { name: "Bash", command: "npm test", description: "Run tests" },
      },
      { type: "tool_use", id: "toolu_2", tool: { name: "Read", file_path: "/srv/app/a.ts" } },
      {
        type: "tool_use",
        id: "toolu_3",
        tool: { name: "Edit", file_path: "/srv/app/a.ts", old_string: "= 2", new_string: "= 1" },
      },
      {
        type: "tool_use",
        id: "toolu_4",
        tool: { name: "Raw", tool_name: "agent", input: { prompt: "find the callers" } },
      },
      // An unfinished call whose input is not JSON keeps its text.
      {
        type: "tool_use",
        id: "toolu_5",
        tool: { name: "Raw", tool_name: "mcp_github_search", input: "{not json" },
      },
    ]);
    expect(act?.model).toBe("claude-sonnet-4-5");
    expect(act?.stop_reason).toBe("tool_use");
    expect(act?.timestamp).toBe("2026-10-01T10:00:05Z");
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "1 failing", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_2", content: "export const a = 2;" },
      {
        type: "tool_result",
        tool_use_id: "toolu_3",
        content: [
          { type: "text", text: "edited" },
          {
            type: "image",
            source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
          },
        ],
      },
      { type: "tool_result", tool_use_id: "toolu_4", content: "two callers" },
    ]);
    expect(done?.stop_reason).toBe("end_turn");
    expect(summary?.content).toEqual([
      { type: "text", text: "Summary: the constant in a.ts was fixed." },
    ]);
    expect([hashTree(root), hashTree(project)]).toEqual(before);
  });

  it("keeps unknown part kinds and every column verbatim in the native Body; the text form round-trips", () => {
    const { root } = setup();
    const t = new CrushStore({ root, env: {} }).load(ID);
    expect(t.body.session.summary_message_id).toBe("m6");
    expect(t.body.session.cost).toBe(0.0123);
    expect(t.body.session.prompt_tokens).toBe(1200);
    const tool = t.body.messages.find((m) => m.id === "m3");
    expect(String(tool?.parts)).toContain('{"type":"hologram","data":{"shimmer":true}}');
    expect(t.body.messages.find((m) => m.id === "m6")?.is_summary_message).toBe(1);
    expect(t.body.messages.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
    const text = crush.text.render(t);
    const back = crush.text.parse(text, "s.json");
    expect(back.body).toEqual(t.body);
    expect(back.meta).toEqual(t.meta);
    expect(crush.text.render(back)).toBe(text);
    expect(crush.text.detect?.({ bytes: Buffer.from(text), text })).toBe("text");
  });

  it("lists every project's sessions with lineage, lanes, counts, cwd and times", async () => {
    const { root, project, db } = setup();
    const other = tempDir("crush-other-");
    createCrushProject(root, other, [
      {
        id: "b1",
        title: "",
        created_at: 1790900000,
        updated_at: 1790900100,
        messages: [
          {
            id: "x1",
            role: "user",
            created_at: 1790900000,
            parts: [part("text", { text: "  Untitled: list the files\nplease" })],
          },
        ],
      },
    ]);
    const store = new CrushStore({ root, env: {} });
    expect(store.ids()).toEqual([`m2$$toolu_4`, ID, "b1", `title-${ID}`].sort());
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    const rows = sessions.map((s) => [s.id, s.parent_id, s.lane, s.message_count, s.meta.cwd]);
    expect(rows).toEqual([
      [ID, undefined, undefined, 6, project],
      [`title-${ID}`, ID, "title", 1, project],
      [`m2$$toolu_4`, ID, "task", 2, project],
      ["b1", undefined, undefined, 1, other],
    ]);
    const main = sessions[0];
    expect(main?.path).toBe(db);
    expect(main?.updated).toBe("2026-10-01T10:00:40Z");
    expect(main?.meta.model).toBe("claude-sonnet-4-5");
    expect(sessions[3]?.meta.title).toBe("Untitled: list the files please");
    expect(loaded(root, "b1").meta.title).toBe("Untitled: list the files please");
    expect(store.fingerprint(ID)?.files[0]?.path).toBe(db);
    expect(store.fingerprint("nope")).toBeUndefined();
  });

  it("reads a millisecond time column as milliseconds (the schema's comments say ms; the queries write s)", () => {
    const root = tempDir("crush-root-");
    createCrushProject(root, tempDir("crush-p-"), [
      {
        id: "ms",
        title: "t",
        created_at: 1790848800123,
        messages: [
          {
            id: "a",
            role: "user",
            created_at: 1790848800456,
            parts: [part("text", { text: "hi" })],
          },
        ],
      },
    ]);
    const t = loaded(root, "ms");
    expect(t.meta.timestamp).toBe("2026-10-01T10:00:00.123Z");
    expect(t.body[0]?.timestamp).toBe("2026-10-01T10:00:00.456Z");
  });

  it("reads a newer schema whose columns are there, and names the version of one that lacks a column", async () => {
    const { root, db } = setup();
    const d = new Database(db);
    d.prepare(
      "INSERT INTO goose_db_version (version_id, is_applied) VALUES (20270101000000, 1)",
    ).run();
    d.exec("ALTER TABLE messages ADD COLUMN reactions TEXT DEFAULT 'none'");
    d.close();
    const t = new CrushStore({ root, env: {} }).load(ID);
    expect(t.body.messages[0]?.reactions).toBe("none");
    const d2 = new Database(db);
    d2.exec("ALTER TABLE messages DROP COLUMN parts");
    d2.close();
    const store = new CrushStore({ root, env: {} });
    const { sessions, skipped } = await store.discover();
    expect(sessions).toEqual([]);
    expect(skipped).toEqual([
      {
        path: db,
        reason: expect.stringMatching(
          /Crush schema 20270101000000 \(newer than 20260127000000, the newest this version knows\): table messages has no parts column/,
        ),
      },
    ]);
    expect(() => store.load(ID)).toThrow(/no Crush session/);
  });

  it("skips a database that is not Crush's, garbage and a truncated file, each named with why", async () => {
    const root = tempDir("crush-root-");
    const a = createCrushProject(root, tempDir("crush-a-"), everyKindSessions());
    const b = createCrushDatabase(
      join(tempDir("crush-b-"), ".crush"),
      [],
      "CREATE TABLE other (x);",
    );
    const c = createCrushProject(root, tempDir("crush-c-"), []);
    const list = JSON.parse(
      (await import("node:fs")).readFileSync(join(root, "projects.json"), "utf8"),
    ) as { projects: unknown[] };
    list.projects.push({ path: join(b, "..", ".."), data_dir: join(b, "..") });
    writeFileSync(join(root, "projects.json"), JSON.stringify(list));
    writeFileSync(c, "\u0000 not sqlite at all ".repeat(100));
    // Truncated: the first database cut to half its pages.
    const d = new Database(a);
    d.pragma("wal_checkpoint(TRUNCATE)");
    d.close();
    truncateSync(a, Math.floor(statSync(a).size / 2));
    const store = new CrushStore({ root, env: {} });
    const { sessions, skipped } = await store.discover();
    expect(sessions).toEqual([]);
    expect(skipped.map((s) => s.path).sort()).toEqual([a, b, c].sort());
    for (const s of skipped) expect(s.reason).not.toContain("\n");
    expect(skipped.find((s) => s.path === b)?.reason).toMatch(/not a Crush database/);
    expect(store.ids()).toEqual([]);
  });

  it("reads a parts column that is not JSON, or nests too deep, as no parts; a hostile part as nothing", () => {
    const root = tempDir("crush-root-");
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    createCrushProject(root, tempDir("crush-p-"), [
      {
        id: "h",
        title: "hostile",
        messages: [
          { id: "1", role: "user", created_at: 1, parts: "{broken" },
          { id: "2", role: "user", created_at: 2, parts: deep },
          { id: "3", role: "user", created_at: 3, parts: "null" },
          {
            id: "4",
            role: "assistant",
            created_at: 4,
            parts: [
              part("text", 42),
              part("tool_call", { id: 7, name: null, input: 5 }),
              part("finish", { reason: 9 }),
              { nonsense: true },
              part("text", { text: "survivor" }),
            ],
          },
          {
            id: "5",
            role: 17 as unknown as string,
            created_at: 5,
            parts: [part("text", { text: "?" })],
          },
        ],
      },
    ]);
    const t = loaded(root, "h");
    expect(t.body).toEqual([
      {
        role: "assistant",
        timestamp: "1970-01-01T00:00:04Z",
        content: [
          { type: "tool_use", id: "", tool: { name: "Raw", tool_name: "", input: {} } },
          { type: "text", text: "survivor" },
        ],
      },
    ]);
  });

  it("reads a huge session: 5,000 rows and a 20 MB part", () => {
    const root = tempDir("crush-root-");
    const big = "x".repeat(20 * 1024 * 1024);
    const messages = Array.from({ length: 5000 }, (_, i) => ({
      id: `r${i}`,
      role: i % 2 === 0 ? "user" : "assistant",
      created_at: 1790848800 + i,
      parts: [part("text", { text: i === 1 ? big : `turn ${i}` })],
    }));
    createCrushProject(root, tempDir("crush-p-"), [{ id: "big", title: "big", messages }]);
    const t = loaded(root, "big");
    expect(t.body).toHaveLength(5000);
    expect(t.body[1]?.content[0]).toEqual({ type: "text", text: big });
  });

  it("names a projects.json that is not Crush's, and reads what a damaged list still names", async () => {
    const root = tempDir("crush-root-");
    writeFileSync(join(root, "projects.json"), "{ not json");
    const store = new CrushStore({ root, env: {} });
    const { sessions, skipped } = await store.discover();
    expect(sessions).toEqual([]);
    expect(skipped).toEqual([
      { path: join(root, "projects.json"), reason: "projects.json is not Crush's project list" },
    ]);
    const project = tempDir("crush-p-");
    createCrushDatabase(join(project, ".crush"), everyKindSessions());
    writeFileSync(
      join(root, "projects.json"),
      JSON.stringify({
        projects: [
          7,
          null,
          { path: 3 },
          // A data directory through a file: nothing there, not a failure.
          { path: "/elsewhere", data_dir: join(project, ".crush", "crush.db") },
          { path: project, data_dir: join(project, ".crush") },
        ],
      }),
    );
    expect((await store.discover()).sessions).toHaveLength(3);
    expect(store.stamp()).toContain(join(project, ".crush", "crush.db", "crush.db"));
  });

  it("lists a session id two projects share once, naming the second database", async () => {
    const root = tempDir("crush-root-");
    createCrushProject(root, tempDir("crush-a-"), everyKindSessions());
    const second = createCrushProject(root, tempDir("crush-b-"), everyKindSessions().slice(0, 1));
    const { sessions, skipped } = await new CrushStore({ root, env: {} }).discover();
    expect(sessions).toHaveLength(3);
    expect(skipped).toEqual([
      { path: second, reason: expect.stringContaining(`session ${ID} is also in`) },
    ]);
  });

  it("reads the global workspace's own .crush/crush.db", async () => {
    const root = tempDir("crush-root-");
    createCrushDatabase(join(root, ".crush"), everyKindSessions().slice(0, 1));
    const { sessions } = await new CrushStore({ root, env: {} }).discover();
    expect(sessions.map((s) => [s.id, s.meta.cwd])).toEqual([[ID, root]]);
  });

  it("refuses to delete, and to save a loaded session over itself, in one line; resumes with --session", () => {
    const { root, project } = setup();
    const store = openStore(crush, { root, env: {} });
    const t = store?.load(ID);
    if (!store || !t) throw new Error("loaded");
    const before = hashTree(project);
    expect(() => store.save(t)).toThrow(ConflictError);
    expect(() => store.save(t)).toThrow(`session ${ID} already exists`);
    expect(() => store.native.delete(ID)).toThrow(UnsupportedError);
    expect(hashTree(project)).toEqual(before);
    const saved = {
      harness: "crush" as const,
      id: ID,
      path: join(project, ".crush", "crush.db"),
      files: [],
    };
    expect(crush.resume?.(saved, t.meta)).toEqual({
      argv: ["crush", "--data-dir", join(project, ".crush"), "--session", ID],
      cwd: project,
    });
  });
});

describe("Crush roots", () => {
  it("follows TXCRIPT_CRUSH_ROOT, CRUSH_GLOBAL_DATA, XDG_DATA_HOME, then ~/.local/share/crush", () => {
    expect(crushRoot({ env: { HOME: "/h", TXCRIPT_CRUSH_ROOT: "/t" } })).toBe("/t");
    expect(crushRoot({ env: { HOME: "/h", CRUSH_GLOBAL_DATA: "/g" } })).toBe("/g");
    expect(crushRoot({ env: { HOME: "/h", XDG_DATA_HOME: "/x" } })).toBe("/x/crush");
    expect(crushRoot({ env: { HOME: "/h" } })).toBe("/h/.local/share/crush");
  });

  it("has a schema restatement with every table the reader needs", () => {
    for (const table of ["sessions", "messages", "files", "read_files", "goose_db_version"])
      expect(CRUSH_SCHEMA).toContain(`CREATE TABLE ${table}`);
  });
});
