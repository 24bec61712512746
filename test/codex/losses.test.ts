/**
 * Every loss listed in docs/formats/codex.md ("What conversion loses"), one
 * test each, named as in the document. Common -> Codex losses are observed
 * by writing a rollout and reading it back with our reader; Codex -> Common
 * losses on hand-built lines.
 */

import { parse } from "shell-quote";
import { describe, expect, it } from "vitest";
import type { Block, Message, Meta } from "../../src/common.js";
import { codexCodec } from "../../src/harness/codex/codec.js";
import { codexText } from "../../src/harness/codex/text.js";
import { stableUuid } from "../../src/ids.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { resumeProblems } from "./support.js";

const ID = "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41";
const TS = "2026-08-10T12:00:00Z";
const T1 = "2026-08-10T12:00:01Z";
const meta = (extra: Partial<Meta> = {}): Meta => ({ id: ID, timestamp: TS, cwd: "/w", ...extra });
const user = (...content: Block[]): Message => ({ role: "user", content, timestamp: T1 });
const assistant = (content: Block[], extra: Partial<Message> = {}): Message => ({
  role: "assistant",
  content,
  timestamp: T1,
  model: "gpt-5-codex",
  ...extra,
});

function through(body: Common, m: Meta = meta()): { text: string; back: Transcript<Common> } {
  const text = codexText.render(codexCodec.fromCommon({ meta: m, body }));
  return { text, back: codexCodec.toCommon(codexText.parse(text)) };
}
const read = (lines: object[]) =>
  codexCodec.toCommon(
    codexText.parse(
      [
        {
          timestamp: TS,
          type: "session_meta",
          payload: {
            id: ID,
            timestamp: TS,
            cwd: "/w",
            originator: "codex_cli_rs",
            cli_version: "0.60.0",
            source: "vscode",
            model_provider: "azure",
            base_instructions: { text: "be terse" },
            git: { commit_hash: "abc", branch: "main", repository_url: "u" },
          },
        },
        ...lines.map((payload) => ({ timestamp: T1, ...payload })),
      ]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    ),
  );

describe("Common -> Codex loses", () => {
  it("the title, in the text form (the store keeps it in session_index.jsonl)", () => {
    const { text, back } = through(
      [user({ type: "text", text: "hi" })],
      meta({ title: "My title" }),
    );
    expect(text).not.toContain("My title");
    expect(back.meta.title).toBeUndefined();
  });

  it("slash commands: a /command call and its output become plain user text", () => {
    const { back } = through([
      user({
        type: "tool_use",
        id: "k1",
        tool: { name: "Command", command: "/review", args: "--fast" },
      }),
      user({ type: "tool_result", tool_use_id: "k1", content: "review started" }),
    ]);
    expect(back.body.map((m) => m.content)).toEqual([
      [{ type: "text", text: "/review --fast" }],
      [{ type: "text", text: "review started" }],
    ]);
  });

  it("thinking signatures and encrypted reasoning; encrypted-only thinking disappears", () => {
    const { text, back } = through([
      assistant([
        { type: "thinking", text: "plan", signature: "sig-anthropic" },
        { type: "thinking", text: "", encrypted: "gAAAA-opaque" },
        { type: "thinking", text: "more", encrypted: "gAAAA-second" },
        { type: "text", text: "done" },
      ]),
    ]);
    expect(text).not.toMatch(/sig-anthropic|gAAAA/);
    expect(back.body[0]?.content).toEqual([
      { type: "thinking", text: "plan" },
      { type: "thinking", text: "more" },
      { type: "text", text: "done" },
    ]);
  });

  it("Bash description and run_in_background", () => {
    const { back } = through([
      assistant([
        {
          type: "tool_use",
          id: "b1",
          tool: {
            name: "Bash",
            command: "npm test",
            workdir: "/w",
            timeout_ms: 1000,
            description: "tests",
            run_in_background: true,
          },
        },
      ]),
      user({ type: "tool_result", tool_use_id: "b1", content: "ok" }),
    ]);
    expect(back.body[0]?.content[0]).toEqual({
      type: "tool_use",
      id: "b1",
      tool: { name: "Bash", command: "npm test", workdir: "/w", timeout_ms: 1000 },
    });
  });

  it("stop reasons", () => {
    const { back } = through([
      assistant([{ type: "text", text: "a" }], { stop_reason: "max_tokens" }),
      assistant([{ type: "text", text: "b" }], { stop_reason: { other: "refusal" } }),
    ]);
    expect(back.body.map((m) => m.stop_reason)).toEqual([undefined, undefined]);
    expect(back.body.map((m) => m.content)).toEqual([
      [{ type: "text", text: "a" }],
      [{ type: "text", text: "b" }],
    ]);
  });

  it("cache-creation tokens fold into input tokens; a missing cache-read count comes back as 0", () => {
    const { back } = through([
      assistant([{ type: "text", text: "a" }], {
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          cache_read_input_tokens: 900,
          cache_creation_input_tokens: 50,
        },
      }),
      assistant([{ type: "text", text: "b" }], { usage: { input_tokens: 7, output_tokens: 3 } }),
    ]);
    expect(back.body.map((m) => m.usage)).toEqual([
      { input_tokens: 150, output_tokens: 20, cache_read_input_tokens: 900 },
      { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0 },
    ]);
  });

  it("structured results become JSON text; non-shell error flags; non-text shell results become text", () => {
    const { back } = through([
      assistant([
        { type: "tool_use", id: "r1", tool: { name: "Read", file_path: "/a" } },
        { type: "tool_use", id: "r2", tool: { name: "Raw", tool_name: "mcp__x__y", input: {} } },
        { type: "tool_use", id: "r3", tool: { name: "Bash", command: "ls" } },
      ]),
      user(
        { type: "tool_result", tool_use_id: "r1", content: { lines: 3 }, is_error: true },
        {
          type: "tool_result",
          tool_use_id: "r2",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
          is_error: true,
        },
        {
          type: "tool_result",
          tool_use_id: "r3",
          content: [
            { type: "text", text: "x" },
            { type: "text", text: "y" },
          ],
          is_error: true,
        },
      ),
    ]);
    expect(back.body[1]?.content).toEqual([
      { type: "tool_result", tool_use_id: "r1", content: '{"lines":3}' },
      {
        type: "tool_result",
        tool_use_id: "r2",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { type: "tool_result", tool_use_id: "r3", content: "x\ny", is_error: true },
    ]);
  });

  it("images in assistant messages", () => {
    const { back } = through([
      assistant([
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
      ]),
    ]);
    expect(back.body[0]?.content).toEqual([{ type: "text", text: "look" }]);
  });

  it("artifacts become text", () => {
    const { back } = through([
      user({
        type: "artifact",
        artifact: { id: "a1", name: "plan.md", source: { type: "text", text: "# Plan" } },
      }),
      assistant([
        {
          type: "artifact",
          artifact: { id: "a2", name: "out.bin", source: { type: "path", path: "/tmp/out.bin" } },
        },
      ]),
    ]);
    expect(back.body.map((m) => m.content)).toEqual([
      [{ type: "text", text: "[artifact plan.md]\n# Plan" }],
      [{ type: "text", text: "[artifact out.bin: /tmp/out.bin]" }],
    ]);
  });

  it("per-message models: a message without one inherits the model in effect; meta.model becomes the first turn's", () => {
    const { back } = through(
      [
        assistant([{ type: "text", text: "a" }], { model: "model-a" }),
        assistant([{ type: "text", text: "b" }], { model: undefined as unknown as string }),
      ].map((m) => {
        if (m.model === undefined) delete m.model;
        return m;
      }),
      meta({ model: "session-model" }),
    );
    expect(back.body.map((m) => m.model)).toEqual(["model-a", "model-a"]);
    expect(back.meta.model).toBe("model-a");
  });

  it("session ids that are not UUIDs are replaced by a stable UUID; UUIDs are lowercased", () => {
    const a = codexCodec.fromCommon({ meta: meta({ id: "my-session" }), body: [] });
    expect(a.meta.id).toBe(stableUuid("codex-session", "my-session"));
    expect(codexCodec.fromCommon({ meta: meta({ id: "my-session" }), body: [] }).meta.id).toBe(
      a.meta.id,
    );
    const b = codexCodec.fromCommon({ meta: meta({ id: ID.toUpperCase() }), body: [] });
    expect(b.meta.id).toBe(ID);
  });

  it("tool names outside [A-Za-z0-9_-] are rewritten for OpenAI", () => {
    const { text, back } = through([
      assistant([
        {
          type: "tool_use",
          id: "n1",
          tool: { name: "Raw", tool_name: "server.tool/search", input: { q: 1 } },
        },
      ]),
      user({ type: "tool_result", tool_use_id: "n1", content: "ok" }),
    ]);
    expect(resumeProblems(text)).toEqual([]);
    expect(back.body[0]?.content[0]).toEqual({
      type: "tool_use",
      id: "n1",
      tool: { name: "Raw", tool_name: "server_tool_search", input: { q: 1 } },
    });
  });

  it("results that answer no call, empty messages and thinking in user messages", () => {
    const { back } = through([
      user({ type: "tool_result", tool_use_id: "ghost", content: "orphan" }),
      assistant([]),
      assistant([{ type: "tool_use", id: "twice", tool: { name: "Read", file_path: "/a" } }]),
      user(
        { type: "tool_result", tool_use_id: "twice", content: "first" },
        { type: "tool_result", tool_use_id: "twice", content: "second" },
      ),
      user({ type: "thinking", text: "users do not think here" }, { type: "text", text: "hello" }),
    ]);
    expect(back.body.map((m) => m.content)).toEqual([
      [{ type: "tool_use", id: "twice", tool: { name: "Read", file_path: "/a" } }],
      [{ type: "tool_result", tool_use_id: "twice", content: "first" }],
      [{ type: "text", text: "hello" }],
    ]);
  });

  it("order inside a user message: its tool results are written before its text", () => {
    const { back } = through([
      assistant([{ type: "tool_use", id: "o1", tool: { name: "Read", file_path: "/a" } }]),
      user(
        { type: "text", text: "also look at b" },
        { type: "tool_result", tool_use_id: "o1", content: "A" },
      ),
    ]);
    expect(back.body.slice(1).map((m) => m.content)).toEqual([
      [{ type: "tool_result", tool_use_id: "o1", content: "A" }],
      [{ type: "text", text: "also look at b" }],
    ]);
  });
});

describe("Codex -> Common loses", () => {
  it("session_meta's originator, source, provider, base instructions and git commit/URL", () => {
    const t = read([]);
    expect(t.meta).toEqual({
      id: ID,
      timestamp: TS,
      cwd: "/w",
      git_branch: "main",
      cli_version: "0.60.0",
    });
  });

  it("turn_context policies and reasoning effort (only the model is kept)", () => {
    const t = read([
      {
        type: "turn_context",
        payload: {
          turn_id: "t",
          cwd: "/w",
          approval_policy: "never",
          sandbox_policy: { type: "danger-full-access" },
          model: "gpt-5-codex",
          effort: "high",
          summary: "detailed",
        },
      },
      {
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "x" }],
        },
      },
    ]);
    expect(t.body).toEqual([assistant([{ type: "text", text: "x" }])]);
  });

  it("shell execution hints (yield time, output caps, tty, login, sandbox escalation)", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "function_call",
          name: "exec_command",
          call_id: "e1",
          arguments: JSON.stringify({
            cmd: "make",
            workdir: "/w",
            yield_time_ms: 1000,
            max_output_tokens: 100,
            tty: true,
            login: false,
            shell: "/bin/zsh",
            sandbox_permissions: "require_escalated",
            justification: "why",
          }),
        },
      },
    ]);
    expect(t.body[0]?.content[0]).toEqual({
      type: "tool_use",
      id: "e1",
      tool: { name: "Bash", command: "make", workdir: "/w" },
    });
  });

  it("the model-facing shell output header and duration (exec_command_end's output and exit code are kept)", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "function_call",
          name: "shell_command",
          call_id: "s1",
          arguments: '{"command":"false"}',
        },
      },
      {
        type: "event_msg",
        payload: {
          type: "exec_command_end",
          call_id: "s1",
          aggregated_output: "boom\n",
          exit_code: 2,
          duration: { secs: 3, nanos: 0 },
        },
      },
      {
        type: "response_item",
        payload: {
          type: "function_call_output",
          call_id: "s1",
          output: "Exit code: 2\nWall time: 3 seconds\nOutput:\nboom\n",
        },
      },
    ]);
    expect(t.body[1]?.content).toEqual([
      { type: "tool_result", tool_use_id: "s1", content: "boom\n", is_error: true },
    ]);
  });

  it("an argv that is not a shell script becomes one shell-quoted command line", () => {
    const argv = ["git", "commit", "-m", "it's done", "$HOME"];
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "function_call",
          name: "shell",
          call_id: "a1",
          arguments: JSON.stringify({ command: argv }),
        },
      },
    ]);
    const tool = (t.body[0]!.content[0] as { tool: { name: string; command: string } }).tool;
    expect(tool.name).toBe("Bash");
    // A shell splits the line back into the same words, unexpanded.
    expect(parse(tool.command, (name) => `$${name}`)).toEqual(argv);
  });

  it("encrypted reasoning is kept in Common but never written to any harness", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "reasoning",
          summary: [{ type: "summary_text", text: "s" }],
          encrypted_content: "gAAAA",
        },
      },
    ]);
    expect(t.body[0]?.content).toEqual([{ type: "thinking", text: "s", encrypted: "gAAAA" }]);
    expect(codexText.render(codexCodec.fromCommon(t))).not.toContain("gAAAA");
  });

  it("reasoning token counts, running totals and rate limits (per-response usage is kept)", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "x" }],
        },
      },
      {
        type: "event_msg",
        payload: {
          type: "token_count",
          info: {
            total_token_usage: {
              input_tokens: 9e5,
              cached_input_tokens: 0,
              output_tokens: 9e5,
              reasoning_output_tokens: 9e5,
              total_tokens: 18e5,
            },
            last_token_usage: {
              input_tokens: 10,
              cached_input_tokens: 4,
              output_tokens: 5,
              reasoning_output_tokens: 3,
              total_tokens: 15,
            },
          },
          rate_limits: { primary: { used_percent: 50 } },
        },
      },
    ]);
    expect(t.body[0]?.usage).toEqual({
      input_tokens: 6,
      output_tokens: 5,
      cache_read_input_tokens: 4,
    });
  });

  it("display-only events, compaction summaries, ghost snapshots and user `!` shell commands", () => {
    const t = read([
      {
        type: "event_msg",
        payload: {
          type: "exec_command_end",
          call_id: "u1",
          source: "user_shell",
          aggregated_output: "ls output",
          exit_code: 0,
        },
      },
      { type: "event_msg", payload: { type: "plan_update", plan: [] } },
      { type: "event_msg", payload: { type: "turn_aborted", reason: "interrupted" } },
      { type: "compacted", payload: { message: "summary so far", replacement_history: [] } },
      { type: "response_item", payload: { type: "ghost_snapshot", ghost_commit: { id: "c" } } },
      { type: "response_item", payload: { type: "compaction", encrypted_content: "x" } },
    ]);
    expect(t.body).toEqual([]);
  });

  it("web search results: only the query is kept", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "web_search_call",
          status: "completed",
          action: { type: "search", query: "q" },
        },
      },
      { type: "event_msg", payload: { type: "web_search_end", call_id: "ws9", query: "q" } },
    ]);
    expect(t.body[1]?.content).toEqual([{ type: "tool_result", tool_use_id: "ws9", content: "q" }]);
  });

  it("stop reasons are not recorded by Codex, so none are read", () => {
    const t = read([
      {
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "x" }],
        },
      },
      {
        type: "event_msg",
        payload: { type: "task_complete", turn_id: "t", last_agent_message: "x" },
      },
    ]);
    expect(t.body[0]?.stop_reason).toBeUndefined();
  });
});
