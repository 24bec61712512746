/**
 * pi session files for tests, built from pi 0.73.1's documented format
 * (docs/session-format.md in @mariozechner/pi-coding-agent, and its
 * session-manager.js): a header, then entries chained by id/parentId, with
 * an abandoned branch, a name, a compaction, extension entries, a line pi
 * skips and a kind this version does not know.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PI_ID = "019a6c1e-7a41-7d2e-9c3b-5e0f4a1b2c3d";
export const PI_CWD = "/home/dana/shop";
export const PI_FILE = `2026-09-14T08-30-00-000Z_${PI_ID}.jsonl`;

const usage = (input: number, output: number, cacheRead = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite: 0,
  totalTokens: input + output + cacheRead,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

const at = (s: number) => `2026-09-14T08:30:${String(s).padStart(2, "0")}.000Z`;
const ms = (s: number) => Date.parse(at(s));

/** Every entry kind: the active branch ends with "Fixed"; "wrong way" is on an abandoned branch. */
export function everyKindLines(id = PI_ID, cwd = PI_CWD): string[] {
  const assistant = (s: number, content: unknown[], stopReason: string, u = usage(100, 20)) => ({
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: u,
    stopReason,
    timestamp: ms(s),
  });
  const entries: Record<string, unknown>[] = [
    { type: "session", version: 3, id, timestamp: at(0), cwd },
    {
      type: "model_change",
      id: "a0000001",
      parentId: null,
      timestamp: at(0),
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
    },
    {
      type: "thinking_level_change",
      id: "a0000002",
      parentId: "a0000001",
      timestamp: at(0),
      thinkingLevel: "high",
    },
    {
      type: "message",
      id: "a0000003",
      parentId: "a0000002",
      timestamp: at(1),
      message: { role: "user", content: "Fix the cart total", timestamp: ms(1) },
    },
    {
      type: "message",
      id: "a0000004",
      parentId: "a0000003",
      timestamp: at(2),
      message: assistant(
        2,
        [
          { type: "thinking", thinking: "Run the tests first.", thinkingSignature: "sig-1" },
          { type: "text", text: "Running the tests." },
          {
            type: "toolCall",
            id: "toolu_01",
            name: "bash",
            arguments: { command: "npm test", timeout: 60 },
          },
        ],
        "toolUse",
      ),
    },
    {
      type: "message",
      id: "a0000005",
      parentId: "a0000004",
      timestamp: at(3),
      message: {
        role: "toolResult",
        toolCallId: "toolu_01",
        toolName: "bash",
        content: [{ type: "text", text: "1 failing" }],
        isError: true,
        timestamp: ms(3),
      },
    },
    // The abandoned branch, left with /tree.
    {
      type: "message",
      id: "b0000001",
      parentId: "a0000005",
      timestamp: at(4),
      message: assistant(4, [{ type: "text", text: "going the wrong way" }], "stop"),
    },
    {
      type: "branch_summary",
      id: "a0000006",
      parentId: "a0000005",
      timestamp: at(5),
      fromId: "b0000001",
      summary: "Tried the wrong way.",
    },
    {
      type: "message",
      id: "a0000007",
      parentId: "a0000006",
      timestamp: at(6),
      message: assistant(
        6,
        [
          {
            type: "toolCall",
            id: "toolu_02",
            name: "read",
            arguments: { path: "src/cart.ts", offset: 3, limit: 10 },
          },
          {
            type: "toolCall",
            id: "toolu_03",
            name: "edit",
            arguments: { path: "src/cart.ts", edits: [{ oldText: "0.1", newText: "0.01" }] },
          },
        ],
        "toolUse",
        usage(200, 30, 50),
      ),
    },
    {
      type: "message",
      id: "a0000008",
      parentId: "a0000007",
      timestamp: at(7),
      message: {
        role: "toolResult",
        toolCallId: "toolu_02",
        toolName: "read",
        content: [{ type: "text", text: "const RATE = 0.1;" }],
        isError: false,
        timestamp: ms(7),
      },
    },
    {
      type: "message",
      id: "a0000009",
      parentId: "a0000008",
      timestamp: at(7),
      message: {
        role: "toolResult",
        toolCallId: "toolu_03",
        toolName: "edit",
        content: [{ type: "text", text: "Edited." }],
        isError: false,
        timestamp: ms(7),
      },
    },
    {
      type: "custom",
      id: "a0000010",
      parentId: "a0000009",
      timestamp: at(8),
      customType: "my-ext",
      data: { n: 1 },
    },
    {
      type: "message",
      id: "a0000011",
      parentId: "a0000010",
      timestamp: at(9),
      message: {
        role: "bashExecution",
        command: "git diff --stat",
        output: "1 file changed",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: ms(9),
      },
    },
    {
      type: "message",
      id: "a0000012",
      parentId: "a0000011",
      timestamp: at(10),
      message: {
        role: "bashExecution",
        command: "secret",
        output: "hidden",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
        timestamp: ms(10),
      },
    },
    {
      type: "session_info",
      id: "a0000013",
      parentId: "a0000012",
      timestamp: at(11),
      name: "Cart rounding",
    },
    {
      type: "future_kind",
      id: "a0000014",
      parentId: "a0000013",
      timestamp: at(11),
      whatever: true,
    },
    {
      type: "message",
      id: "a0000015",
      parentId: "a0000014",
      timestamp: at(12),
      message: assistant(12, [{ type: "text", text: "Fixed: the constant was wrong." }], "stop"),
    },
  ];
  const lines = entries.map((e) => JSON.stringify(e));
  // A line pi skips (not JSON), kept in the Body.
  lines.splice(3, 0, "{not json");
  return lines;
}

/** Write sessions into `<root>/--<cwd>--/<file>`, as pi does. */
export function writePiSession(
  root: string,
  lines: string[],
  file = PI_FILE,
  cwd = PI_CWD,
): string {
  const dir = join(root, `--${cwd.replace(/^\//, "").replace(/[/\\:]/g, "-")}--`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
