/**
 * Hostile and malformed rows: `data` columns that are not JSON, not
 * objects, absurdly deep or huge, of the wrong SQL type, parts whose fields
 * have the wrong types. Discovery, load and toCommon never throw; each
 * damaged row costs only its own content, and the listed count stays the
 * count toCommon gives. The legacy `storage/` JSON layout is read as the
 * rows OpenCode's migration would insert.
 */

import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { OpenCodeStore, openCodeCodec, openCodeText } from "../../src/harness/opencode/index.js";
import { copyOpenCodeFixture, createOpenCodeDatabase } from "../support/opencode.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { integrity } from "./support.js";

const SID = "ses_hostile000000AAAAAAAAAAAAA";

function withRows(parts: unknown[], messageData: unknown = { role: "assistant", modelID: "m" }) {
  const root = tempDir();
  const path = createOpenCodeDatabase(root);
  const db = new Database(path);
  db.prepare(
    "INSERT INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES ('global', '/', 0, 0, '[]')",
  ).run();
  db.prepare(
    "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', 's', '/w', 't', 'v', 1, 2)",
  ).run(SID);
  db.prepare(
    "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_u', ?, 1, 1, ?)",
  ).run(SID, JSON.stringify({ role: "user", time: { created: 1 } }));
  db.prepare(
    "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_u', 'msg_u', ?, 1, 1, ?)",
  ).run(SID, JSON.stringify({ type: "text", text: "hello" }));
  db.prepare(
    "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_a', ?, 2, 2, ?)",
  ).run(SID, typeof messageData === "string" ? messageData : JSON.stringify(messageData));
  parts.forEach((data, i) => {
    db.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, 'msg_a', ?, 2, 2, ?)",
    ).run(
      `prt_a${String(i).padStart(3, "0")}`,
      SID,
      typeof data === "string" || Buffer.isBuffer(data) || typeof data === "number"
        ? data
        : JSON.stringify(data),
    );
  });
  db.close();
  return { root, path, store: new OpenCodeStore({ root, env: {} }) };
}

async function readAll(store: OpenCodeStore) {
  const { sessions, skipped } = await store.discover();
  expect(skipped).toEqual([]);
  const common = openCodeCodec.toCommon(store.load(SID));
  expect(sessions[0]!.message_count).toBe(common.body.length);
  // The text form renders and parses back without losing what reads (a
  // message with no time of its own falls back to another: the export has no row times).
  const text = openCodeText.render(store.load(SID));
  const untimed = (body: typeof common.body) => body.map(({ timestamp: _, ...m }) => m);
  expect(untimed(openCodeCodec.toCommon(openCodeText.parse(text)).body)).toEqual(
    untimed(common.body),
  );
  return common;
}

const deep = (n: number): string => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("hostile data columns", async () => {
  it.each([
    ["not JSON", "{not json"],
    ["JSON but not an object", "[1,2,3]"],
    ["null", "null"],
    ["a number", 42],
    ["invalid UTF-8 bytes", Buffer.from([0xff, 0xfe, 0x7b, 0x22])],
    ["nested 100,000 deep", `{"type":"text","text":"x","n":${deep(100_000)}}`],
    ["an empty string", ""],
  ])("a part whose data is %s costs only that part", async (_name, bad) => {
    const { store, path } = withRows([
      { type: "text", text: "before" },
      bad,
      { type: "text", text: "after" },
    ]);
    const common = await readAll(store);
    expect(common.body[1]!.content).toEqual([
      { type: "text", text: "before" },
      { type: "text", text: "after" },
    ]);
    expect(integrity(path).integrity).toBe("ok");
  });

  it("a message whose data is damaged is skipped, its parts with it", async () => {
    const { store } = withRows([{ type: "text", text: "lost" }], '{"role":');
    const common = await readAll(store);
    expect(common.body).toEqual([
      { role: "user", content: [{ type: "text", text: "hello" }], timestamp: expect.any(String) },
    ]);
  });

  it("parts with fields of the wrong types read tolerantly", async () => {
    const { store } = withRows(
      [
        { type: "text", text: 42 },
        { type: "reasoning", text: ["x"] },
        { type: "file", url: { no: 1 } },
        { type: "tool", tool: 7, callID: null, state: "completed" },
        {
          type: "tool",
          tool: "bash",
          callID: "c2",
          state: { status: "completed", input: [1], output: { a: 1 } },
        },
        {
          type: "tool",
          tool: "read",
          callID: "c3",
          state: { status: "running", input: { filePath: 9 } },
        },
        {
          type: "tool",
          tool: "edit",
          callID: "c4",
          state: { status: "error", error: null, time: { start: "x", end: 1e300 } },
        },
        { type: "step-finish", tokens: { input: -5, output: "x", cache: 3 } },
        { type: "__proto__", text: "x" },
      ],
      {
        role: "assistant",
        modelID: 5,
        tokens: { input: 1e300, output: -1, reasoning: 2.5 },
        finish: "constructor",
        time: { created: "soon" },
      },
    );
    const common = await readAll(store);
    const calls = common.body.flatMap((m) => m.content).filter((b) => b.type === "tool_use");
    expect(calls.map((b) => (b.type === "tool_use" ? [b.id, b.tool] : []))).toEqual([
      ["prt_a003", { name: "Raw", tool_name: "unknown", input: {} }],
      ["c2", { name: "Raw", tool_name: "bash", input: {} }],
      ["c3", { name: "Raw", tool_name: "read", input: { filePath: 9 } }],
      ["c4", { name: "Raw", tool_name: "edit", input: {} }],
    ]);
    const results = common.body.flatMap((m) => m.content).filter((b) => b.type === "tool_result");
    expect(results).toEqual([
      {
        type: "tool_result",
        tool_use_id: "prt_a003",
        content: "[Tool execution was interrupted]",
        is_error: true,
      },
      { type: "tool_result", tool_use_id: "c2", content: '{"a":1}' },
      {
        type: "tool_result",
        tool_use_id: "c3",
        content: "[Tool execution was interrupted]",
        is_error: true,
      },
      { type: "tool_result", tool_use_id: "c4", content: "", is_error: true },
    ]);
    const assistant = common.body.find((m) => m.role === "assistant")!;
    expect(assistant.stop_reason).toEqual({ other: "constructor" });
    expect(assistant.usage).toBeUndefined();
    expect(assistant.model).toBeUndefined();
  });

  it("a huge text part is read whole", async () => {
    const big = "y".repeat(4 * 1024 * 1024);
    const { store } = withRows([{ type: "text", text: big }]);
    const common = await readAll(store);
    expect((common.body[1]!.content[0] as { text: string }).text).toHaveLength(big.length);
  });
});

describe("the legacy storage/ layout (OpenCode before 1.2)", async () => {
  /** The fixture's tools session written out as OpenCode 1.1 kept it: one JSON file per record. */
  function legacyTree(root: string) {
    const source = new OpenCodeStore({ root: join(root, "src"), env: {} });
    copyOpenCodeFixture(join(root, "src"));
    const doc = JSON.parse(openCodeText.render(source.load("ses_dc5706968ffewv6oHAOSJ6GSwm"))) as {
      info: { id: string; projectID: string };
      messages: { info: { id: string }; parts: { id: string }[] }[];
    };
    const storage = join(root, "data", "storage");
    const write = (rel: string, value: unknown) => {
      const path = join(storage, rel);
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, JSON.stringify(value, null, 2));
    };
    write(`session/${doc.info.projectID}/${doc.info.id}.json`, doc.info);
    for (const m of doc.messages) {
      write(`message/${doc.info.id}/${m.info.id}.json`, m.info);
      for (const p of m.parts) write(`part/${m.info.id}/${p.id}.json`, p);
    }
    return { data: join(root, "data"), storage, source, id: doc.info.id };
  }

  it("lists and reads a legacy session as the database copy reads", async () => {
    const root = tempDir();
    const { data, source, id } = legacyTree(root);
    const store = new OpenCodeStore({ root: data, env: {} });
    const before = hashTree(data);
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.lane, s.message_count])).toEqual([[id, "legacy", 16]]);
    expect(store.ids()).toEqual([id]);
    const legacy = openCodeCodec.toCommon(store.load(id));
    expect(legacy).toEqual(openCodeCodec.toCommon(source.load(id)));
    expect(store.fingerprint(id)!.files.length).toBe(1 + 10 + 30);
    expect(hashTree(data)).toEqual(before);
  });

  it("prefers the database's copy of a session OpenCode has migrated, and deletes legacy files only", async () => {
    const root = tempDir();
    const { data, id } = legacyTree(root);
    const store = new OpenCodeStore({ root: data, env: {} });
    cpSync(join(root, "src", "opencode.db"), join(data, "opencode.db"));
    const listed = (await store.discover()).sessions.filter((s) => s.id === id);
    expect(listed.map((s) => s.lane)).toEqual([undefined]);
    // Delete removes the database's copy; the legacy one is then what is left, and goes next.
    expect(store.delete(id)).toEqual([join(data, "opencode.db")]);
    const removed = store.delete(id);
    expect(removed).toHaveLength(1 + 1 + 10);
    expect(store.ids()).toEqual(store.ids().filter((x) => x !== id));
    expect(() => store.load(id)).toThrow(/no OpenCode session/);
  });
});
