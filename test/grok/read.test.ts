/**
 * Grok CLI read from session folders built from the documented format
 * (test/fixtures/grok): every update kind, chunks joined, calls merged
 * with their updates, the chat history fallback, the `.cwd` file,
 * lineage; unknown kinds kept in the Body; malformed, truncated, hostile
 * and huge files refused in one line naming the file (or skipped by
 * discovery); and the store refusing to write or delete.
 */

import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { GrokStore } from "../../src/harness/grok/store.js";
import { harness } from "../../src/harness/index.js";
import { sampleOf } from "../../src/sniff.js";
import {
  CHILD_ID,
  copyGrokHome,
  EVERY_KIND_ID,
  grokSessionDir,
  HISTORY_ONLY_ID,
} from "../support/grok.js";
import { hashTree, tempDir } from "../support/tmp.js";

const grok = harness("grok");
const T = 1_784_388_056;
const at = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

/** The Raw record a failed `retry_state` update (the fields [F] shows) is read as. */
function retry(event: string, message: string) {
  return {
    type: "tool_use",
    id: `grok-update:${event}`,
    tool: {
      name: "Raw",
      tool_name: "retry_state",
      input: { type: "failed", error_type: "api", message },
    },
  };
}

function home(): string {
  return copyGrokHome(tempDir("grok-read-"));
}

describe("Grok CLI sessions ($GROK_HOME/sessions)", () => {
  it("reads every update kind into Common", () => {
    const root = home();
    const t = grok.codec.toCommon(new GrokStore({ root }).load(EVERY_KIND_ID));
    expect(t.meta).toEqual({
      id: EVERY_KIND_ID,
      timestamp: "2026-07-18T15:20:56.012345678Z",
      cwd: "/data/projects/demo",
      title: "Fix the off-by-one",
      model: "grok-code-fast-1",
    });
    // A call that finishes before the next one starts closes its message: results ride on user messages.
    expect(t.body.map((m) => m.role)).toEqual([
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const [hook, prompt, first, failed, second, edited, reading, read, last] = t.body;
    // A hook run (x.ai's own kind) is a Raw record: a Raw tool_use named by its kind, at its own time.
    expect(hook).toEqual({
      role: "assistant",
      timestamp: at(T * 1000 + 50),
      content: [
        {
          type: "tool_use",
          id: "grok-update:ev-1784388056050",
          tool: {
            name: "Raw",
            tool_name: "hook_execution",
            input: { event_name: "user_prompt_submit", runs: [] },
          },
        },
      ],
    });
    // Chunks in a row join; the image is its own block; the time is update._meta's.
    expect(prompt).toEqual({
      role: "user",
      timestamp: at(T * 1000 + 100),
      content: [
        { type: "text", text: "Why does `cargo test` fail?" },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
        },
      ],
    });
    expect(first?.timestamp).toBe(at((T + 1) * 1000 + 200));
    expect(first?.content).toEqual([
      { type: "thinking", text: "Run the tests first." },
      { type: "text", text: "Plan:\n- [in_progress] Run the tests\n- [pending] Fix the bound" },
      { type: "text", text: "Running the tests." },
      {
        type: "tool_use",
        id: "call_run",
        tool: { name: "Raw", tool_name: "run_terminal_cmd", input: { command: "cargo test" } },
      },
    ]);
    // A failed call: its update's content as text, an error.
    expect(failed).toEqual({
      role: "user",
      timestamp: at((T + 4) * 1000),
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_run",
          content: "test bound ... FAILED",
          is_error: true,
        },
      ],
    });
    // A retry opens the next assistant message as a Raw record.
    expect(second?.content[0]).toEqual(
      retry("ev-1784388061000", "API error (status 429 Too Many Requests)"),
    );
    expect(second?.content.map((b) => b.type)).toEqual(["tool_use", "text", "tool_use"]);
    expect(edited?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "call_edit",
        content: "--- src/lib.rs\n+++ src/lib.rs\n-i <= n\n+i < n",
      },
    ]);
    expect(reading?.content).toEqual([
      {
        type: "tool_use",
        id: "call_read",
        tool: { name: "Raw", tool_name: "read_file", input: { target_file: "src/lib.rs" } },
      },
    ]);
    // A call that arrives finished: its rawOutput is the result.
    expect(read?.content).toEqual([
      { type: "tool_result", tool_use_id: "call_read", content: "fn bound(n: u32) {}" },
    ]);
    // A kind no source names is a Raw record too, never dropped.
    expect(last?.content).toEqual([
      { type: "text", text: "Fixed: the bound was inclusive." },
      {
        type: "tool_use",
        id: "grok-update:ev-1784388064001",
        tool: { name: "Raw", tool_name: "future_kind", input: { payload: { x: 1 } } },
      },
    ]);
    expect(t.body.some((m) => m.usage !== undefined || m.stop_reason !== undefined)).toBe(false);
  });

  it("keeps every line, unknown kinds and foreign lines included, in the Body and its text", () => {
    const root = home();
    const t = new GrokStore({ root }).load(EVERY_KIND_ID);
    expect(t.body.updates).toHaveLength(20);
    expect(t.body.history).toHaveLength(3);
    expect(t.body.summary.session_summary).toBe("Fixed an inclusive bound in src/lib.rs.");
    const text = grok.text.render(t);
    expect(text).toContain('"sessionUpdate":"future_kind"');
    expect(text).toContain('"method":"session/other"');
    const back = grok.text.parse(text, "x.jsonl");
    expect(back.body).toEqual(t.body);
    expect(grok.text.render(back)).toBe(text);
    expect(grok.text.detect?.(sampleOf(new TextEncoder().encode(text)))).toBe("text");
  });

  it("falls back to chat_history.jsonl when the updates hold only Raw records", () => {
    const root = home();
    // A chunk with nothing to read makes no conversation either.
    appendFileSync(
      join(grokSessionDir(root, HISTORY_ONLY_ID), "updates.jsonl"),
      `${JSON.stringify({ params: { update: { sessionUpdate: "agent_message_chunk", content: { type: "audio" } } } })}\n`,
    );
    const t = grok.codec.toCommon(new GrokStore({ root }).load(HISTORY_ONLY_ID));
    expect(t.meta).toEqual({
      id: HISTORY_ONLY_ID,
      timestamp: "2026-07-18T15:22:36Z",
      cwd: "/data/projects/demo",
    });
    // The prompt from the history, then the failed retry as a Raw record at its own time.
    expect(t.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "Add a README" }],
        timestamp: "2026-07-18T15:22:36Z",
      },
      {
        role: "assistant",
        timestamp: "2026-07-18T15:22:36Z",
        content: [retry("ev-1784388156000", "API error (status 404 Not Found)")],
      },
    ]);
  });

  it("reads a group's .cwd file, the child's parent and its message model", async () => {
    const root = home();
    const store = new GrokStore({ root });
    const t = grok.codec.toCommon(store.load(CHILD_ID));
    expect(t.meta.cwd).toBe("/data/projects/a very long folder name/deeper");
    expect(t.meta.model).toBe("grok-4");
    expect(t.body[1]?.model).toBe("grok-4");
    const found = await store.discover();
    expect(found.skipped).toEqual([]);
    expect(found.sessions.map((s) => [s.id, s.parent_id, s.message_count, s.meta.title])).toEqual([
      [EVERY_KIND_ID, undefined, 9, "Fix the off-by-one"],
      [HISTORY_ONLY_ID, undefined, 2, undefined],
      [CHILD_ID, EVERY_KIND_ID, 2, "Summarize lib.rs"],
    ]);
    expect(store.ids()).toEqual([EVERY_KIND_ID, HISTORY_ONLY_ID, CHILD_ID]);
    expect(store.fingerprint(EVERY_KIND_ID)?.files.map((f) => f.path.split("/").pop())).toEqual([
      "updates.jsonl",
      "chat_history.jsonl",
      "summary.json",
    ]);
    expect(store.fingerprint("../etc")).toBeUndefined();
    expect(store.fingerprint("nope")).toBeUndefined();
  });

  it("finds its folder by TXCRIPT_GROK_ROOT, then GROK_HOME, then ~/.grok", () => {
    expect(
      new GrokStore({ env: { TXCRIPT_GROK_ROOT: "/a", GROK_HOME: "/b", HOME: "/h" } }).root,
    ).toBe("/a");
    expect(new GrokStore({ env: { GROK_HOME: "/b", HOME: "/h" } }).root).toBe("/b");
    expect(new GrokStore({ env: { GROK_HOME: "", HOME: "/h" } }).root).toBe("/h/.grok");
    expect(new GrokStore({ root: "/r", env: { GROK_HOME: "/b" } }).root).toBe("/r");
  });

  it("drops a last line cut short, and names any other bad line", () => {
    const root = home();
    const updates = join(grokSessionDir(root, CHILD_ID), "updates.jsonl");
    appendFileSync(updates, '{"timestamp":1784388300,"method":"session/upd');
    const store = new GrokStore({ root });
    expect(grok.codec.toCommon(store.load(CHILD_ID)).body).toHaveLength(2);
    writeFileSync(updates, '{"a":1}\nnot json\n{"b":2}\n');
    expect(() => store.load(CHILD_ID)).toThrow(ParseError);
    try {
      store.load(CHILD_ID);
    } catch (e) {
      expect((e as Error).message).toContain("line 2");
      expect((e as Error).message).toContain(updates);
      expect((e as Error).message).not.toContain("\n");
    }
    writeFileSync(updates, "[1,2]\n");
    expect(() => store.load(CHILD_ID)).toThrow(/expected a JSON object/);
  });

  it("skips a damaged session in discovery, naming why, and reads the others", async () => {
    const root = home();
    writeFileSync(join(grokSessionDir(root, EVERY_KIND_ID), "summary.json"), "{ truncated");
    const found = await new GrokStore({ root }).discover();
    expect(found.sessions.map((s) => s.id)).toEqual([HISTORY_ONLY_ID, CHILD_ID]);
    expect(found.skipped).toHaveLength(1);
    expect(found.skipped[0]?.path).toContain(EVERY_KIND_ID);
  });

  it("reads hostile values as data: odd shapes, huge text, no crash", () => {
    const root = home();
    const dir = grokSessionDir(root, CHILD_ID);
    const big = "x".repeat(2_000_000);
    const lines = [
      {
        params: {
          update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: big } },
        },
      },
      {
        params: {
          update: { sessionUpdate: "agent_message_chunk", content: [1, null, { type: "audio" }] },
        },
      },
      {
        params: {
          update: { sessionUpdate: "tool_call_update", toolCallId: "c", status: "failed" },
        },
      },
      { params: { update: { sessionUpdate: "tool_call", toolCallId: 7, rawInput: "<script>" } } },
      { params: { update: { sessionUpdate: "plan", entries: "nope" } } },
      { timestamp: "soon", params: { _meta: { agentTimestampMs: 1e300 }, update: null } },
      { params: { update: { sessionUpdate: "__proto__", content: { type: "text", text: "x" } } } },
    ];
    const proto = '{"params":{"update":{"sessionUpdate":"odd","__proto__":{"polluted":true}}}}';
    writeFileSync(
      join(dir, "updates.jsonl"),
      [...lines.map((l) => JSON.stringify(l)), proto].join("\n"),
    );
    writeFileSync(
      join(dir, "summary.json"),
      JSON.stringify({ info: [], created_at: 5, generated_title: {} }),
    );
    const t = grok.codec.toCommon(new GrokStore({ root }).load(CHILD_ID));
    expect(t.body.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(t.body[0]?.content).toEqual([{ type: "text", text: big }]);
    expect(t.body[1]?.content).toEqual([
      { type: "tool_use", id: "c", tool: { name: "Raw", tool_name: "tool", input: {} } },
    ]);
    expect(t.body[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "c", content: "", is_error: true },
    ]);
    // Unknown kinds, even hostile names and keys, are Raw records of data: no prototype is set.
    const [odd, polluted] = t.body[3]?.content ?? [];
    expect(odd).toMatchObject({
      tool: { tool_name: "__proto__", input: { content: { text: "x" } } },
    });
    const input =
      polluted?.type === "tool_use" && polluted.tool.name === "Raw" ? polluted.tool.input : null;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.keys(input ?? {})).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("lists nothing but session folders, and never follows an id outside", () => {
    const root = tempDir("grok-empty-");
    const store = new GrokStore({ root });
    expect(store.ids()).toEqual([]);
    mkdirSync(join(root, "sessions", "g", "not-a-session"), { recursive: true });
    writeFileSync(join(root, "sessions", "g", "file"), "x");
    symlinkSync("/", join(root, "sessions", "g", "link"));
    expect(store.ids()).toEqual([]);
    expect(() => store.load("../../etc")).toThrow();
    expect(() => store.load("missing")).toThrow(/no Grok session missing/);
    rmSync(root, { recursive: true });
    expect(store.ids()).toEqual([]);
  });

  it("follows no link out of the store: such a session is refused, and skipped by discovery", async () => {
    const root = home();
    const outside = copyGrokHome(tempDir("grok-outside-"));
    const dir = grokSessionDir(root, CHILD_ID);
    rmSync(dir, { recursive: true });
    symlinkSync(grokSessionDir(outside, CHILD_ID), dir);
    const store = new GrokStore({ root });
    expect(() => store.load(CHILD_ID)).toThrow(/outside the store/);
    const found = await store.discover();
    expect(found.sessions.map((s) => s.id)).toEqual([EVERY_KIND_ID, HISTORY_ONLY_ID]);
    expect(found.skipped.map((s) => s.reason).join()).toContain("outside the store");
    const file = join(grokSessionDir(root, HISTORY_ONLY_ID), "chat_history.jsonl");
    rmSync(file);
    symlinkSync(join(grokSessionDir(outside, HISTORY_ONLY_ID), "chat_history.jsonl"), file);
    expect(() => store.load(HISTORY_ONLY_ID)).toThrow(/outside the store/);
  });

  it("refuses to write or delete, in one line, touching nothing", () => {
    const root = home();
    const before = hashTree(root);
    const store = new GrokStore({ root });
    expect(() => store.save()).toThrow(UnsupportedError);
    expect(() => store.save()).toThrow(/does not write them/);
    expect(() => store.delete()).toThrow(/does not delete Grok CLI sessions/);
    expect(hashTree(root)).toEqual(before);
  });
});
