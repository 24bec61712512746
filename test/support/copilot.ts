/**
 * GitHub Copilot CLI sessions for tests, built from the events the real
 * Copilot CLI 1.0.102 wrote against the mock server (test/real/copilot.test.ts
 * shows them): `session.start`, `user.message`, `assistant.turn_start`,
 * `session.usage_record`, `assistant.message` with `toolRequests` and
 * reasoning, `tool.execution_start`/`_complete` (a shell exit code), and
 * `session.shutdown`. The system prompt event is left out.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const COPILOT_ID = "b9a02c05-e4ad-4b91-857f-7398f9837b66";
export const COPILOT_CWD = "/home/dana/shop";

export function copilotEvents(id = COPILOT_ID, cwd = COPILOT_CWD): string[] {
  let n = 0;
  let parent: string | null = null;
  const at = (s: number) => `2026-12-06T00:21:${String(s).padStart(2, "0")}.000Z`;
  const ev = (type: string, data: Record<string, unknown>, s: number) => {
    const eid = `0000000${n++}-0000-4000-8000-000000000000`.slice(-36);
    const line = JSON.stringify({ type, data, id: eid, timestamp: at(s), parentId: parent });
    parent = eid;
    return line;
  };
  const usage = (input: number, output: number) => ({
    usage: {
      model: "claude-sonnet-4.5",
      inputTokens: input,
      outputTokens: output,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cost: 0,
    },
  });
  return [
    ev(
      "session.start",
      {
        sessionId: id,
        version: 1,
        producer: "copilot-agent",
        copilotVersion: "1.0.102",
        startTime: at(0),
        selectedModel: "claude-sonnet-4.5",
        context: { cwd },
      },
      0,
    ),
    ev(
      "user.message",
      {
        content: "Fix the cart total",
        transformedContent: "<current_datetime>x</current_datetime>\n\nFix the cart total",
        turnId: "0",
      },
      1,
    ),
    ev("assistant.turn_start", { turnId: "0" }, 1),
    ev("session.usage_record", usage(100, 20), 2),
    ev(
      "assistant.message",
      {
        messageId: "m1",
        model: "claude-sonnet-4.5",
        content: "Running the tests.",
        toolRequests: [
          {
            toolCallId: "toolu_1",
            name: "bash",
            arguments: { command: "npm test", description: "Run tests" },
            type: "function",
          },
        ],
        reasoningText: "Tests first.",
        reasoningOpaque: "sig-1",
      },
      2,
    ),
    ev(
      "tool.execution_start",
      {
        toolCallId: "toolu_1",
        toolName: "bash",
        arguments: { command: "npm test", description: "Run tests" },
      },
      2,
    ),
    ev(
      "tool.execution_complete",
      {
        toolCallId: "toolu_1",
        success: true,
        shellExecution: { exitCode: 1 },
        result: { content: "1 failing\n<shellId: 0 completed with exit code 1>" },
      },
      3,
    ),
    ev("assistant.turn_end", { turnId: "0" }, 3),
    ev("session.usage_record", usage(200, 30), 4),
    ev(
      "assistant.message",
      {
        messageId: "m2",
        model: "claude-sonnet-4.5",
        content: "",
        toolRequests: [
          {
            toolCallId: "toolu_2",
            name: "view",
            arguments: { path: "src/cart.ts" },
            type: "function",
          },
          {
            toolCallId: "toolu_3",
            name: "edit",
            arguments: { path: "src/cart.ts", old_str: "0.1", new_str: "0.01" },
            type: "function",
          },
        ],
      },
      4,
    ),
    ev(
      "tool.execution_complete",
      { toolCallId: "toolu_2", success: true, result: { content: "const RATE = 0.1;" } },
      5,
    ),
    ev(
      "tool.execution_complete",
      { toolCallId: "toolu_3", success: true, result: { content: "Edited." } },
      5,
    ),
    ev("future.kind", { whatever: true }, 6),
    ev("session.usage_record", usage(300, 40), 7),
    ev(
      "assistant.message",
      {
        messageId: "m3",
        model: "claude-sonnet-4.5",
        content: "Fixed: the constant was wrong.",
        toolRequests: [],
      },
      7,
    ),
    ev("session.shutdown", { accountingSnapshot: {} }, 8),
  ];
}

/** `<root>/session-state/<id>/events.jsonl` for each id. */
export function createCopilotSessions(root: string, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const dir = join(root, "session-state", id);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "events.jsonl");
    writeFileSync(path, `${copilotEvents(id).join("\n")}\n`);
    return path;
  });
}
