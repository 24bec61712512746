/**
 * Hand-built Claude Code session lines, written from the format facts in
 * docs/formats/claude-code.md (envelope keys in Claude Code's order, an
 * Anthropic `message` inside), never through txcript's own writer.
 */

export const SID = "5f0c9d3e-1111-4a2b-9c3d-222233334444";
export const CWD = "/home/al/my_app";

export type Rec = Record<string, unknown>;

/** A real-looking UUID for line number k. */
export function u(k: number): string {
  return `0b1e7c2a-0000-4000-8000-${String(k).padStart(12, "0")}`;
}

function ts(k: number): string {
  return new Date(Date.UTC(2026, 7, 10, 12, 0, k)).toISOString();
}

function envelope(parent: number | null, type: string, sid = SID): Rec {
  return {
    parentUuid: parent === null ? null : u(parent),
    isSidechain: false,
    userType: "external",
    cwd: CWD,
    sessionId: sid,
    version: "2.1.200",
    gitBranch: "main",
    type,
  };
}

export function user(k: number, parent: number | null, content: unknown, extra: Rec = {}): Rec {
  return {
    ...envelope(parent, "user"),
    message: { role: "user", content },
    ...extra,
    uuid: u(k),
    timestamp: ts(k),
  };
}

export interface AssistantOptions {
  model?: string;
  stop?: string | null;
  usage?: Rec;
  extra?: Rec;
}

export function assistant(
  k: number,
  parent: number | null,
  messageId: string,
  content: unknown[],
  options: AssistantOptions = {},
): Rec {
  return {
    ...envelope(parent, "assistant"),
    requestId: `req_${messageId}`,
    message: {
      id: messageId,
      type: "message",
      role: "assistant",
      model: options.model ?? "claude-sonnet-4-5",
      content,
      stop_reason: options.stop === undefined ? null : options.stop,
      stop_sequence: null,
      usage: options.usage ?? {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 5,
      },
    },
    ...options.extra,
    uuid: u(k),
    timestamp: ts(k),
  };
}

export function system(k: number, parent: number | null, subtype: string, content: string): Rec {
  return {
    ...envelope(parent, "system"),
    subtype,
    content,
    level: "info",
    uuid: u(k),
    timestamp: ts(k),
    isMeta: false,
  };
}

export const text = (t: string) => ({ type: "text", text: t });
export const toolUse = (id: string, name: string, input: unknown) => ({
  type: "tool_use",
  id,
  name,
  input,
});
export const toolResult = (id: string, content: unknown, isError = false) => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

/** JSONL with a final newline, as Claude Code writes it. */
export function jsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** A small realistic session: prompt, a split response with a tool call, its result, an answer. */
export function basicSession(sid = SID): string {
  const usage = {
    input_tokens: 1200,
    cache_creation_input_tokens: 30,
    cache_read_input_tokens: 900,
    output_tokens: 41,
  };
  const sess = (r: Rec) => ({ ...r, sessionId: sid });
  return jsonl([
    { type: "summary", summary: "Old summary title", leafUuid: u(5) },
    sess(user(1, null, "Run the tests")),
    sess(
      assistant(2, 1, "msg_01A", [{ type: "thinking", thinking: "Use npm.", signature: "sig-A" }], {
        usage,
      }),
    ),
    sess(assistant(3, 2, "msg_01A", [text("Running them.")], { usage })),
    sess(
      assistant(
        4,
        3,
        "msg_01A",
        [
          toolUse("toolu_01", "Bash", {
            command: "npm test",
            description: "Run tests",
            timeout: 60000,
          }),
        ],
        { usage, stop: "tool_use" },
      ),
    ),
    sess(
      user(5, 4, [toolResult("toolu_01", "3 passing")], {
        toolUseResult: { stdout: "3 passing", stderr: "", interrupted: false },
      }),
    ),
    sess(
      assistant(6, 5, "msg_01B", [text("All 3 tests pass.")], {
        stop: "end_turn",
        usage: {
          input_tokens: 1300,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 1100,
          output_tokens: 9,
        },
      }),
    ),
    { type: "file-history-snapshot", messageId: u(1), snapshot: { trackedFileBackups: {} } },
    { type: "custom-title", customTitle: "Run the tests", sessionId: sid },
  ]);
}
