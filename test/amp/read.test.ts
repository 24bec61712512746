/**
 * Amp read from thread files built from the documented format: every
 * message, block, tool-run status and state, unknown roles and blocks kept
 * in the Body, malformed, truncated and foreign files refused in one line
 * naming the file, and the store refusing to write or delete.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { type AmpBody, AmpStore } from "../../src/harness/amp/index.js";
import { harness } from "../../src/harness/index.js";
import { sampleOf } from "../../src/sniff.js";
import { timestampFromMillis } from "../../src/time.js";
import type { Store } from "../../src/transcript.js";
import { createAmpThreads, everyKindThread, THREAD_ID } from "../support/amp.js";
import { hashTree, tempDir } from "../support/tmp.js";

const amp = harness("amp");

describe("Amp threads (~/.local/share/amp/threads)", () => {
  it("reads every message, block, run status and state into Common", () => {
    const root = tempDir("amp-read-");
    createAmpThreads(root, [everyKindThread()]);
    const t = amp.codec.toCommon(new AmpStore({ root }).load(THREAD_ID));
    expect(t.meta).toEqual({
      id: THREAD_ID,
      timestamp: timestampFromMillis(1_768_178_184_664),
      cwd: "/Users/dev/my proj",
      git_branch: "main",
      title: "Fix the off-by-one",
      cli_version: "0.0.1768178000-gaaaaaa",
      model: "claude-opus-4-5-20251101",
    });
    // The "parent" record adds no message.
    expect(t.body.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "assistant",
      "assistant",
    ]);
    const [prompt, answer, results, edits, errors, last, cancelled, streaming] = t.body;
    expect(prompt?.timestamp).toBe(timestampFromMillis(1_768_178_271_390));
    expect(prompt?.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw==" },
    });
    expect(answer?.timestamp).toBe("2026-01-12T00:38:00Z");
    expect(answer?.content).toEqual([
      { type: "thinking", text: "Run the tests.", signature: "sig-1" },
      { type: "text", text: "Running the tests." },
      {
        type: "tool_use",
        id: "toolu_01",
        tool: { name: "Bash", command: "cargo test", workdir: "/Users/dev/my proj" },
      },
      {
        type: "tool_use",
        id: "toolu_02",
        tool: { name: "Read", file_path: "src/lib.rs", offset: 10, limit: 10 },
      },
    ]);
    expect(answer?.stop_reason).toBe("tool_use");
    expect(answer?.usage).toEqual({
      input_tokens: 12,
      output_tokens: 80,
      cache_read_input_tokens: 3400,
      cache_creation_input_tokens: 900,
    });
    // A result carrier takes the time before it.
    expect(results?.timestamp).toBe("2026-01-12T00:38:00Z");
    expect(results?.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01",
      content: { output: "1 failed\n", exitCode: 101 },
    });
    expect(edits?.content.map((b) => (b.type === "tool_use" ? b.tool : b))).toEqual([
      {
        name: "Raw",
        tool_name: "edit_file",
        input: { path: "src/lib.rs", old_str: "0..=n", new_str: "0..n" },
      },
      { name: "Bash", command: "cargo test", workdir: "/w" },
      { name: "Raw", tool_name: "painter", input: { prompt: "a cat" } },
      { name: "Raw", tool_name: "glob", input: { filePattern: "**/*.rs" } },
    ]);
    expect(errors?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_03", content: "ok" },
      { type: "tool_result", tool_use_id: "toolu_04", content: "exit 1", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_05", content: "not now", is_error: true },
      { type: "tool_result", tool_use_id: "toolu_06", content: "cancelled", is_error: true },
    ]);
    expect(last?.stop_reason).toBe("end_turn");
    expect(cancelled?.stop_reason).toBe("aborted");
    expect(streaming?.stop_reason).toBeUndefined();
    expect(streaming?.content).toEqual([{ type: "text", text: "still streaming" }]);
  });

  it("lists threads and skips malformed, truncated and foreign files in one line each", async () => {
    const root = tempDir("amp-read-");
    const dir = createAmpThreads(root, [everyKindThread()]);
    writeFileSync(join(dir, "T-00000000-0000-4000-8000-000000000001.json"), '{"v": 1, "id": "T-0');
    writeFileSync(join(dir, "settings.json"), '{"theme": "dark"}');
    writeFileSync(join(dir, "list.json"), "[1, 2]");
    const before = hashTree(root);
    const found = await new AmpStore({ root }).discover();
    expect(found.sessions.map((s) => [s.id, s.message_count, s.meta.title])).toEqual([
      [THREAD_ID, 8, "Fix the off-by-one"],
    ]);
    expect(found.skipped.map((s) => s.reason).sort()).toEqual([
      "an Amp thread is a JSON object",
      "not a JSON document",
      "not an Amp thread (no messages list)",
    ]);
    expect(hashTree(root)).toEqual(before);
  });

  it("renders a thread that parses back the same, detected by its first key and id", () => {
    const text = `${JSON.stringify(everyKindThread(), null, 2)}\n`;
    const t = amp.text.parse(text, `${THREAD_ID}.json`);
    expect(amp.text.render(t)).toBe(text);
    expect(amp.text.detect?.(sampleOf(Buffer.from(text)))).toBe("text");
    expect(amp.text.detect?.(sampleOf(Buffer.from('{"v": 1, "id": "x"}')))).toBeUndefined();
    expect(() => amp.text.parse(text.slice(0, 200), "cut.json")).toThrow(ParseError);
  });

  it("reads a huge thread, refuses a hostile id, and refuses to write or delete", () => {
    const root = tempDir("amp-read-");
    const thread = everyKindThread();
    const big = "y".repeat(3_000_000);
    thread.messages = Array.from({ length: 3000 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: [{ type: "text", text: i === 3 ? big : `m${i}` }],
    }));
    const dir = createAmpThreads(root, [thread]);
    const store: Store<AmpBody> = new AmpStore({ root });
    expect(amp.codec.toCommon(store.load(THREAD_ID)).body).toHaveLength(3000);
    expect(() => store.load("../x")).toThrow();
    const before = hashTree(root);
    expect(() => store.save(store.load(THREAD_ID))).toThrow(UnsupportedError);
    expect(() => store.save(store.load(THREAD_ID))).toThrow(/server/);
    expect(() => store.delete(THREAD_ID)).toThrow(/only reads them/);
    expect(hashTree(root)).toEqual(before);
    writeFileSync(join(dir, "notes.txt"), "x");
    expect(store.ids()).toEqual([THREAD_ID]);
  });
});
