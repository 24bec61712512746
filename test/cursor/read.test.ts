/**
 * Cursor read from stores built from the documented format (the public
 * readers docs/formats/cursor.md cites): both layouts of the agent CLI
 * (chat stores and agent transcripts, nested and flat), every message and
 * block kind, unknown kinds kept in the Body, a newer chat schema named,
 * malformed, truncated, hostile and huge inputs refused in one line naming
 * the file, and the store refusing to write or delete.
 */

import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { type CursorBody, CursorStore } from "../../src/harness/cursor/index.js";
import { harness } from "../../src/harness/index.js";
import { sampleOf } from "../../src/sniff.js";
import { timestampFromMillis } from "../../src/time.js";
import type { Store } from "../../src/transcript.js";
import {
  agentRecord,
  CHAT_ID,
  CWD,
  chatJson,
  createCursorChat,
  createCursorTranscript,
  everyKindTranscript,
  TRANSCRIPT_ID,
} from "../support/cursor.js";
import { hashTree, tempDir } from "../support/tmp.js";

const cursor = harness("cursor");

function store() {
  const root = tempDir("cursor-read-");
  return { root, store: new CursorStore({ root }) };
}

describe("Cursor chat stores (~/.cursor/chats)", () => {
  it("reads every blob kind: prompts, images, reasoning, tool calls and results, models, times", () => {
    const { root, store: s } = store();
    createCursorChat(root, { id: CHAT_ID });
    const native = s.load(CHAT_ID);
    const t = cursor.codec.toCommon(native);
    expect(t.meta).toEqual({
      id: CHAT_ID,
      timestamp: timestampFromMillis(1_754_000_000_000),
      cwd: CWD,
      title: "Fix the cart total",
      model: "composer-2.5",
    });
    // The system prompt, the injected <user_info> and the unknown role add no message.
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const [prompt, answer, results, edits, editResults, last] = t.body;
    expect(prompt?.content).toEqual([
      { type: "text", text: "Why does npm test fail on the cart total?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw==" } },
    ]);
    expect(prompt?.timestamp).toBe(timestampFromMillis(1_754_000_010_000));
    expect(answer?.model).toBe("composer-2.5");
    expect(answer?.content).toEqual([
      { type: "thinking", text: "Run the tests first.", signature: "sig-1" },
      { type: "thinking", text: "", encrypted: "AQID" },
      { type: "text", text: "Running the tests." },
      { type: "tool_use", id: "c1", tool: { name: "Bash", command: "npm test" } },
      { type: "tool_use", id: "c2", tool: { name: "Read", file_path: "src/cart.ts" } },
    ]);
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: "1 failing", is_error: true },
      { type: "tool_result", tool_use_id: "c2", content: "export const TAX = 0.2;" },
    ]);
    expect(edits?.model).toBe("gpt-5");
    expect(edits?.content).toEqual([
      {
        type: "tool_use",
        id: "c3",
        tool: { name: "Edit", file_path: "src/cart.ts", old_string: "0.2", new_string: "0.02" },
      },
      {
        type: "tool_use",
        id: "c4",
        tool: { name: "Write", file_path: "NOTES.md", content: "tax fixed\n" },
      },
      {
        type: "tool_use",
        id: "c5",
        tool: { name: "Raw", tool_name: "mcp_github_search", input: { q: "tax" } },
      },
    ]);
    expect(editResults?.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "c3",
      content: { ok: true },
    });
    expect(last?.content).toEqual([{ type: "text", text: "Fixed: the tax constant was wrong." }]);
    // The protobuf blob is counted, the unknown role kept in the Body.
    expect(native.body.layout === "chat" && native.body.opaque).toBe(1);
    expect(native.body.layout === "chat" && native.body.messages.at(-1)?.role).toBe("critic");
  });

  it("reads the agent record as plain JSON too, and falls back to it without meta.json", async () => {
    const { root, store: s } = store();
    createCursorChat(root, {
      id: CHAT_ID,
      hexMeta: false,
      chat: null,
      agent: agentRecord(CHAT_ID, { name: "From the record" }),
    });
    const t = cursor.codec.toCommon(s.load(CHAT_ID));
    expect(t.meta.title).toBe("From the record");
    expect(t.meta.timestamp).toBe(timestampFromMillis(1_754_000_000_000));
    const found = await s.discover();
    // A listing counts records, the injected context among them (view shows 6 messages).
    expect(found.sessions.map((x) => [x.id, x.message_count])).toEqual([[CHAT_ID, 7]]);
  });

  it("names a newer chat schema instead of guessing at it", async () => {
    const { root, store: s } = store();
    createCursorChat(root, { id: CHAT_ID, chat: chatJson({ schemaVersion: 2 }) });
    expect(() => s.load(CHAT_ID)).toThrow(UnsupportedError);
    expect(() => s.load(CHAT_ID)).toThrow(/schemaVersion 2 is newer than the 1/);
    const found = await s.discover();
    expect(found.sessions).toEqual([]);
    expect(found.skipped.map((x) => x.reason)).toEqual([expect.stringMatching(/schemaVersion 2/)]);
  });

  it("skips a damaged or foreign store.db in one line naming it, and lists the rest", async () => {
    const { root, store: s } = store();
    createCursorChat(root, { id: CHAT_ID });
    const garbage = join(root, "chats", "0".repeat(32), "11111111-1111-4111-8111-111111111111");
    mkdirSync(garbage, { recursive: true });
    writeFileSync(join(garbage, "store.db"), "SQLite format 3\0 but then nothing");
    const foreign = createCursorChat(root, {
      id: "22222222-2222-4222-8222-222222222222",
      cwd: "/x",
    });
    const { createDatabase } = await import("../../src/sqlite.js");
    const other = join(foreign, "other.db");
    createDatabase(other).exec("CREATE TABLE t (x)");
    writeFileSync(join(foreign, "store.db"), readFileSync(other));
    const before = hashTree(root);
    const found = await s.discover();
    expect(found.sessions.map((x) => x.id)).toEqual([CHAT_ID]);
    expect(found.skipped).toHaveLength(2);
    for (const skip of found.skipped) expect(skip.reason).not.toContain("\n");
    expect(found.skipped.map((x) => x.reason).join(" ")).toContain("no blobs table");
    expect(hashTree(root)).toEqual(before);
  });

  it("reads a meta.json that is not JSON as a one-line error naming it", () => {
    const { root, store: s } = store();
    const dir = createCursorChat(root, { id: CHAT_ID });
    writeFileSync(join(dir, "meta.json"), "{not json");
    expect(() => s.load(CHAT_ID)).toThrow(ParseError);
    expect(() => s.load(CHAT_ID)).toThrow(/meta\.json/);
  });
});

describe("Cursor prompt_history.json", () => {
  const graph = [Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]), Buffer.from([0x12, 0x00])];

  it("is read only when no blob is a message: a graph-only store shows its prompts once", async () => {
    const { root, store: s } = store();
    // Beside JSON message blobs, the prompts repeat the user blobs: not read.
    createCursorChat(root, { id: CHAT_ID, prompts: ["Why does npm test fail?", "and now?"] });
    const full = cursor.codec.toCommon(s.load(CHAT_ID));
    const prompts = full.body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "text" && b.text === "and now?" ? [b] : [])),
    );
    expect(prompts).toEqual([]);
    // A store of protobuf graph blobs only: the prompts, at the session's time, hostile items skipped.
    const id = "4b1f0c3e-8a2d-4e6f-9b7c-2d5e8f1a3c61";
    createCursorChat(root, {
      id,
      blobs: graph,
      prompts: ["Add a login page", 7, null, { text: "x" }, "  ", "Make it <b>bold</b>"],
    });
    const t = s.load(id);
    expect(t.body.layout === "chat" && t.body.opaque).toBe(2);
    const c = cursor.codec.toCommon(t);
    expect(c.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "Add a login page" }],
        timestamp: c.meta.timestamp,
      },
      {
        role: "user",
        content: [{ type: "text", text: "Make it <b>bold</b>" }],
        timestamp: c.meta.timestamp,
      },
    ]);
    const listed = (await s.discover()).sessions.find((x) => x.id === id);
    expect(listed?.message_count).toBe(2);
    expect(listed?.fingerprint.files.map((f) => f.path.split("/").pop())).toContain(
      "prompt_history.json",
    );
    // The text form keeps the prompts, and reads back to the same messages.
    const text = cursor.text.render(t);
    expect(cursor.codec.toCommon(cursor.text.parse(text)).body).toEqual(c.body);
  });

  it("names a prompt_history.json that is not JSON in one line; a non-array reads as none", () => {
    const { root, store: s } = store();
    const dir = createCursorChat(root, { id: CHAT_ID, blobs: graph, prompts: { a: 1 } });
    expect(cursor.codec.toCommon(s.load(CHAT_ID)).body).toEqual([]);
    writeFileSync(join(dir, "prompt_history.json"), '["cut sh');
    expect(() => s.load(CHAT_ID)).toThrow(ParseError);
    try {
      s.load(CHAT_ID);
    } catch (e) {
      expect((e as Error).message).toContain(join(dir, "prompt_history.json"));
      expect((e as Error).message).not.toContain("\n");
    }
    // A huge history reads whole.
    const many = Array.from({ length: 50_000 }, (_, i) => `prompt ${i}`);
    writeFileSync(join(dir, "prompt_history.json"), JSON.stringify(many));
    expect(cursor.codec.toCommon(s.load(CHAT_ID)).body).toHaveLength(many.length);
  });
});

describe("Cursor agent transcripts (~/.cursor/projects/<slug>/agent-transcripts)", () => {
  it("reads every line and block kind of a nested transcript, its time from the file", () => {
    const { root, store: s } = store();
    const path = createCursorTranscript(root, TRANSCRIPT_ID);
    const native = s.load(TRANSCRIPT_ID);
    const t = cursor.codec.toCommon(native);
    const at = timestampFromMillis(statSync(path).mtimeMs);
    expect(t.meta).toEqual({ id: TRANSCRIPT_ID, timestamp: at });
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "assistant",
    ]);
    expect(t.body.every((m) => m.timestamp === at)).toBe(true);
    const [prompt, answer, results, edits, last] = t.body;
    // The query inside <user_query>, without the injected <user_info>.
    expect(prompt?.content).toEqual([
      { type: "text", text: "Why does npm test fail on the cart total?" },
    ]);
    expect(answer?.content).toEqual([
      { type: "thinking", text: "Run the tests first.", signature: "sig-1" },
      { type: "text", text: "Running the tests." },
      { type: "tool_use", id: "tu_1", tool: { name: "Bash", command: "npm test", workdir: CWD } },
      { type: "tool_use", id: "tu_2", tool: { name: "Read", file_path: "src/cart.ts" } },
    ]);
    expect(results?.content).toEqual([
      { type: "tool_result", tool_use_id: "tu_1", content: "1 failing", is_error: true },
      {
        type: "tool_result",
        tool_use_id: "tu_2",
        content: [{ type: "text", text: "export const TAX = 0.2;" }],
      },
    ]);
    expect(edits?.content).toEqual([
      {
        type: "tool_use",
        id: "tu_3",
        tool: { name: "Edit", file_path: "src/cart.ts", old_string: "0.2", new_string: "0.02" },
      },
      {
        type: "tool_use",
        id: "tu_4",
        tool: { name: "Raw", tool_name: "Grep", input: { pattern: "TAX" } },
      },
    ]);
    expect(last?.content).toEqual([{ type: "text", text: "Fixed: the tax constant was wrong." }]);
    // Marker lines, unknown roles and unknown blocks stay in the Body.
    expect(native.body.layout === "transcript" && native.body.lines).toEqual(everyKindTranscript());
  });

  it("reads the older flat layout, and a session in both places from its chat store", async () => {
    const { root, store: s } = store();
    createCursorTranscript(root, TRANSCRIPT_ID, everyKindTranscript(), { nested: false });
    createCursorTranscript(root, CHAT_ID, [{ role: "user", message: { content: "only here" } }]);
    createCursorChat(root, { id: CHAT_ID });
    expect(s.ids()).toEqual([CHAT_ID, TRANSCRIPT_ID].sort());
    const found = await s.discover();
    expect(found.sessions.map((x) => [x.id, x.path.includes("store.db")])).toEqual(
      [
        [CHAT_ID, true],
        [TRANSCRIPT_ID, false],
      ].sort(),
    );
    expect(cursor.codec.toCommon(s.load(TRANSCRIPT_ID)).body).toHaveLength(5);
  });

  it("names the plain-text transcripts of the oldest builds without reading them", async () => {
    const { root, store: s } = store();
    const path = createCursorTranscript(root, TRANSCRIPT_ID, everyKindTranscript(), {
      nested: false,
    });
    writeFileSync(path.replace(/\.jsonl$/, ".txt").replace(TRANSCRIPT_ID, "old"), "user:\nhi\n");
    const found = await s.discover();
    expect(found.sessions.map((x) => x.id)).toEqual([TRANSCRIPT_ID]);
    expect(found.skipped).toEqual([
      { path: expect.stringMatching(/old\.txt$/), reason: expect.stringContaining("plain-text") },
    ]);
  });

  it("refuses a malformed or truncated line in one line naming the file and line", async () => {
    const { root, store: s } = store();
    const path = createCursorTranscript(root, TRANSCRIPT_ID);
    appendFileSync(path, '{"role":"assistant","message":{"content":"cut o');
    expect(() => s.load(TRANSCRIPT_ID)).toThrow(ParseError);
    try {
      s.load(TRANSCRIPT_ID);
    } catch (e) {
      expect((e as ParseError).message).not.toContain("\n");
      expect((e as ParseError).file).toBe(path);
      expect((e as ParseError).at).toBe("line 9");
    }
    expect(() => cursor.text.parse("[1,2]\n", "x.jsonl")).toThrow(/expected a JSON object/);
    const found = await s.discover();
    expect(found.sessions).toEqual([]);
    expect(found.skipped).toHaveLength(1);
  });

  it("reads a huge transcript whole, and refuses a hostile id without touching the disk", () => {
    const { root, store: s } = store();
    const big = "x".repeat(4_000_000);
    const lines = Array.from({ length: 2000 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      message: { content: i === 1 ? big : `line ${i}` },
    }));
    createCursorTranscript(root, TRANSCRIPT_ID, lines);
    const t = cursor.codec.toCommon(s.load(TRANSCRIPT_ID));
    expect(t.body).toHaveLength(2000);
    expect(t.body[1]?.content[0]).toEqual({ type: "text", text: big });
    expect(() => s.load("../../etc/passwd")).toThrow();
    expect(s.fingerprint("../x")).toBeUndefined();
  });
});

describe("the Cursor text form and store", () => {
  it("renders a parsed transcript byte for byte, and is detected by its first line", () => {
    const text = `${everyKindTranscript()
      .map((l) => JSON.stringify(l))
      .join("\n")}\n`;
    expect(cursor.text.render(cursor.text.parse(text, "a.jsonl"))).toBe(text);
    expect(cursor.text.detect?.(sampleOf(Buffer.from(text)))).toBe("text");
    expect(
      cursor.text.detect?.(sampleOf(Buffer.from('{"type":"user","message":{}}\n'))),
    ).toBeUndefined();
  });

  it("refuses to write or delete, in one line, leaving the files untouched", () => {
    const { root, store: s } = store();
    createCursorChat(root, { id: CHAT_ID });
    const before = hashTree(root);
    const t = s.load(CHAT_ID);
    const st: Store<CursorBody> = s;
    expect(() => st.save(t)).toThrow(UnsupportedError);
    expect(() => st.save(t)).toThrow(/does not write them/);
    expect(() => st.delete(CHAT_ID)).toThrow(/only reads them/);
    expect(hashTree(root)).toEqual(before);
  });
});
