/**
 * Amp thread files for tests, built from the documented format
 * (docs/formats/amp.md, from the public readers it cites):
 * `<root>/threads/T-<uuid>.json`, one pretty-printed thread each. No Amp
 * binary runs here, so these are the fixtures.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../src/common.js";

export const THREAD_ID = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";

/** Every message, block, tool-run status and state kind the sources show, and unknown ones. */
export function everyKindThread(id = THREAD_ID): JsonObject {
  return {
    v: 42,
    id,
    created: 1_768_178_184_664,
    title: "Fix the off-by-one",
    agentMode: "smart",
    nextMessageId: 9,
    env: {
      initial: {
        trees: [
          {
            displayName: "my proj",
            uri: "file:///Users/dev/my%20proj",
            repository: { ref: "refs/heads/main", type: "git" },
          },
        ],
        platform: { client: "CLI", clientVersion: "0.0.1768178000-gaaaaaa" },
        tags: [],
      },
    },
    messages: [
      {
        role: "user",
        messageId: 0,
        meta: { sentAt: 1_768_178_271_390 },
        content: [
          { type: "text", text: "fix the loop bound" },
          { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw==" } },
        ],
      },
      {
        role: "assistant",
        messageId: 1,
        content: [
          {
            type: "thinking",
            thinking: "Run the tests.",
            signature: "sig-1",
            provider: "anthropic",
          },
          { type: "text", text: "Running the tests." },
          {
            type: "tool_use",
            complete: true,
            id: "toolu_01",
            name: "Bash",
            input: { cmd: "cargo test", cwd: "/Users/dev/my proj" },
          },
          {
            type: "tool_use",
            complete: true,
            id: "toolu_02",
            name: "Read",
            input: { path: "src/lib.rs", read_range: [10, 19] },
          },
          { type: "server_tool_use", id: "x" },
        ],
        state: { type: "complete", stopReason: "tool_use" },
        usage: {
          model: "claude-opus-4-5-20251101",
          inputTokens: 12,
          outputTokens: 80,
          cacheReadInputTokens: 3400,
          cacheCreationInputTokens: 900,
          maxInputTokens: 168000,
          totalInputTokens: 4312,
          timestamp: "2026-01-12T00:38:00.000Z",
        },
      },
      {
        role: "user",
        messageId: 2,
        content: [
          {
            type: "tool_result",
            toolUseID: "toolu_01",
            run: { status: "done", result: { output: "1 failed\n", exitCode: 101 } },
          },
          {
            type: "tool_result",
            toolUseID: "toolu_02",
            run: { status: "done", result: "for i in 0..=n {" },
          },
        ],
      },
      {
        role: "assistant",
        messageId: 3,
        content: [
          {
            type: "tool_use",
            id: "toolu_03",
            name: "edit_file",
            input: { path: "src/lib.rs", old_str: "0..=n", new_str: "0..n" },
          },
          {
            type: "tool_use",
            id: "toolu_04",
            name: "shell_command",
            input: { command: "cargo test", workdir: "/w" },
          },
          { type: "tool_use", id: "toolu_05", name: "painter", input: { prompt: "a cat" } },
          { type: "tool_use", id: "toolu_06", name: "glob", input: { filePattern: "**/*.rs" } },
        ],
        state: { type: "complete", stopReason: "tool_use" },
        usage: { model: "claude-opus-4-5-20251101", inputTokens: 20, outputTokens: 40 },
      },
      {
        role: "user",
        messageId: 4,
        content: [
          { type: "tool_result", toolUseID: "toolu_03", run: { status: "done", result: "ok" } },
          {
            type: "tool_result",
            toolUseID: "toolu_04",
            run: { status: "error", error: { message: "exit 1" } },
          },
          {
            type: "tool_result",
            toolUseID: "toolu_05",
            run: { status: "rejected-by-user", reason: "not now" },
          },
          { type: "tool_result", toolUseID: "toolu_06", run: { status: "cancelled" } },
        ],
      },
      {
        role: "assistant",
        messageId: 5,
        content: [{ type: "text", text: "Fixed: the bound was inclusive." }],
        state: { type: "complete", stopReason: "end_turn" },
        usage: { model: "claude-opus-4-5-20251101", inputTokens: 30, outputTokens: 10 },
      },
      { role: "parent", messageId: 6, content: [{ type: "text", text: "a shared-thread record" }] },
      {
        role: "assistant",
        messageId: 7,
        content: [{ type: "text", text: "Interrupted" }],
        state: { type: "cancelled" },
      },
      { role: "assistant", messageId: 8, content: "still streaming", state: { type: "streaming" } },
    ],
    "~debug": { traces: [] },
  };
}

/** Thread files under `<root>/threads/`; returns that folder. */
export function createAmpThreads(root: string, threads: readonly JsonObject[]): string {
  const dir = join(root, "threads");
  mkdirSync(dir, { recursive: true });
  for (const t of threads)
    writeFileSync(join(dir, `${String(t.id)}.json`), `${JSON.stringify(t, null, 2)}\n`);
  return dir;
}
