/**
 * A realistic Common session to write as Claude Code, built by hand in
 * Claude Code's own shape (signed thinking, Anthropic tool ids, full usage,
 * millisecond timestamps), so a round trip can be compared field by field.
 */

import type { Block, Json, Message, Meta, Tool } from "../../src/common.js";
import type { Common, Transcript } from "../../src/transcript.js";

export const SID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";
export const CWD = "/home/al/my_app";
export const META: Meta = {
  id: SID,
  timestamp: "2026-08-10T12:00:00Z",
  cwd: CWD,
  git_branch: "main",
  title: "Fix the flaky login test",
  model: "claude-opus-5",
};

export const at = (s: number) =>
  new Date(Date.UTC(2026, 7, 10, 12, 0, s)).toISOString().replace(".000", "");
export const tool = (id: string, t: Tool): Block => ({ type: "tool_use", id, tool: t });
export const result = (id: string, content: Json, isError = false): Block =>
  isError
    ? { type: "tool_result", tool_use_id: id, content, is_error: true }
    : { type: "tool_result", tool_use_id: id, content };

/**
 * A realistic 50-message session in Claude Code's own shape: prompts, signed
 * thinking, text, typed and raw tool calls with successful and failed
 * results, an image, usage with every counter, stop reasons.
 */
export function realisticSession(): Transcript<Common> {
  const body: Message[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "The login test is flaky; here is the CI screenshot." },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
        },
      ],
      timestamp: at(0),
    },
  ];
  const tools: Tool[] = [
    {
      name: "Bash",
      command: "npm test -- login",
      timeout_ms: 120000,
      description: "Run the login test",
    },
    { name: "Read", file_path: `${CWD}/test/login.ts`, offset: 10, limit: 40 },
    {
      name: "Edit",
      file_path: `${CWD}/test/login.ts`,
      old_string: "sleep(10)",
      new_string: "await ready()",
    },
    { name: "Write", file_path: `${CWD}/notes.md`, content: "# notes\n" },
    { name: "Raw", tool_name: "Grep", input: { pattern: "ready\\(", path: "src" } },
    { name: "Raw", tool_name: "mcp__github__search_issues", input: { q: "flaky login" } },
  ];
  let s = 1;
  for (let turn = 0; body.length < 49; turn++) {
    const id = `toolu_01${String(turn).padStart(4, "0")}ABCDEFGHIJKLMNOP`;
    const t = tools[turn % tools.length]!;
    body.push({
      role: "assistant",
      content: [
        {
          type: "thinking",
          text: `Step ${turn}: decide what to check.`,
          signature: `EqQBCkYIBxgC${turn}`,
        },
        { type: "text", text: `Checking step ${turn}.` },
        tool(id, t),
      ],
      timestamp: at(s++),
      model: "claude-opus-5",
      stop_reason: "tool_use",
      usage: {
        input_tokens: 1000 + turn,
        output_tokens: 50 + turn,
        cache_read_input_tokens: 900 * turn,
        cache_creation_input_tokens: turn % 3,
      },
    });
    body.push({
      role: "user",
      content: [
        turn % 5 === 4 ? result(id, `exit 1: step ${turn} failed`, true) : result(id, `ok ${turn}`),
      ],
      timestamp: at(s++),
    });
  }
  body.push({
    role: "assistant",
    content: [{ type: "text", text: "Fixed: the test now waits for readiness." }],
    timestamp: at(s++),
    model: "claude-opus-5",
    stop_reason: "end_turn",
    usage: {
      input_tokens: 2000,
      output_tokens: 12,
      cache_read_input_tokens: 1900,
      cache_creation_input_tokens: 0,
    },
  });
  return { meta: META, body };
}
