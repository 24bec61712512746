/**
 * Every loss listed in docs/formats/codex.md ("What conversion loses"), one
 * case each, named as in the document. The cases are tables: Common -> Codex
 * losses are a body written as a rollout, read back with our reader, and
 * what the read-back shows instead (every rollout written must also pass
 * Codex's resume checks); Codex -> Common losses are hand-built rollout
 * lines and what the reader keeps of them. The few that check something
 * else (ids, shell quoting, a render) follow the tables.
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

const contents = (t: Transcript<Common>) => t.body.map((m) => m.content);
const nth = (n: number) => (t: Transcript<Common>) => t.body[n]?.content;
const unmodelled = (m: Message): Message => {
  const { model: _dropped, ...rest } = m;
  return rest;
};

/** A Common -> Codex loss: what is written, and what reading it back shows. */
interface WriteLoss {
  loss: string;
  body: Common;
  meta?: Meta;
  see: (back: Transcript<Common>) => unknown;
  want: unknown;
  /** Text the rollout must not contain. */
  absent?: RegExp;
}

const WRITE_LOSSES: WriteLoss[] = [
  {
    loss: "the title, in the text form (the store keeps it in session_index.jsonl)",
    body: [user({ type: "text", text: "hi" })],
    meta: meta({ title: "My title" }),
    see: (t) => t.meta.title,
    // Read back, the session is named by its first prompt, as Codex lists it.
    want: "hi",
    absent: /My title/,
  },
  {
    loss: "slash commands: a /command call and its output become plain user text",
    body: [
      user({
        type: "tool_use",
        id: "k1",
        tool: { name: "Command", command: "/review", args: "--fast" },
      }),
      user({ type: "tool_result", tool_use_id: "k1", content: "review started" }),
    ],
    see: contents,
    want: [[{ type: "text", text: "/review --fast" }], [{ type: "text", text: "review started" }]],
  },
  {
    loss: "thinking signatures and encrypted reasoning; encrypted-only thinking disappears",
    body: [
      assistant([
        { type: "thinking", text: "plan", signature: "sig-anthropic" },
        { type: "thinking", text: "", encrypted: "gAAAA-opaque" },
        { type: "thinking", text: "more", encrypted: "gAAAA-second" },
        { type: "text", text: "done" },
      ]),
    ],
    see: nth(0),
    want: [
      { type: "thinking", text: "plan" },
      { type: "thinking", text: "more" },
      { type: "text", text: "done" },
    ],
    absent: /sig-anthropic|gAAAA/,
  },
  {
    loss: "Bash description and run_in_background",
    body: [
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
    ],
    see: (t) => t.body[0]?.content[0],
    want: {
      type: "tool_use",
      id: "b1",
      tool: { name: "Bash", command: "npm test", workdir: "/w", timeout_ms: 1000 },
    },
  },
  {
    loss: "stop reasons",
    body: [
      assistant([{ type: "text", text: "a" }], { stop_reason: "max_tokens" }),
      assistant([{ type: "text", text: "b" }], { stop_reason: { other: "refusal" } }),
    ],
    see: (t) => t.body.map((m) => [m.stop_reason, m.content]),
    want: [
      [undefined, [{ type: "text", text: "a" }]],
      [undefined, [{ type: "text", text: "b" }]],
    ],
  },
  {
    loss: "cache-creation tokens fold into input tokens; a missing cache-read count comes back as 0",
    body: [
      assistant([{ type: "text", text: "a" }], {
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          cache_read_input_tokens: 900,
          cache_creation_input_tokens: 50,
        },
      }),
      assistant([{ type: "text", text: "b" }], { usage: { input_tokens: 7, output_tokens: 3 } }),
    ],
    see: (t) => t.body.map((m) => m.usage),
    want: [
      { input_tokens: 150, output_tokens: 20, cache_read_input_tokens: 900 },
      { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0 },
    ],
  },
  {
    loss: "structured results become JSON text; non-shell error flags; non-text shell results become text",
    body: [
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
    ],
    see: nth(1),
    want: [
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
    ],
  },
  {
    loss: "images in assistant messages",
    body: [
      assistant([
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
      ]),
    ],
    see: nth(0),
    want: [{ type: "text", text: "look" }],
  },
  {
    loss: "artifacts become text",
    body: [
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
    ],
    see: contents,
    want: [
      [{ type: "text", text: "[artifact plan.md]\n# Plan" }],
      [{ type: "text", text: "[artifact out.bin: /tmp/out.bin]" }],
    ],
  },
  {
    loss: "per-message models: a message without one inherits the model in effect; meta.model becomes the first turn's",
    body: [
      assistant([{ type: "text", text: "a" }], { model: "model-a" }),
      unmodelled(assistant([{ type: "text", text: "b" }])),
    ],
    meta: meta({ model: "session-model" }),
    see: (t) => [t.body.map((m) => m.model), t.meta.model],
    want: [["model-a", "model-a"], "model-a"],
  },
  {
    loss: "tool names outside [A-Za-z0-9_-] are rewritten for OpenAI",
    body: [
      assistant([
        {
          type: "tool_use",
          id: "n1",
          tool: { name: "Raw", tool_name: "server.tool/search", input: { q: 1 } },
        },
      ]),
      user({ type: "tool_result", tool_use_id: "n1", content: "ok" }),
    ],
    see: (t) => t.body[0]?.content[0],
    want: {
      type: "tool_use",
      id: "n1",
      tool: { name: "Raw", tool_name: "server_tool_search", input: { q: 1 } },
    },
  },
  {
    loss: "results that answer no call, empty messages and thinking in user messages",
    body: [
      user({ type: "tool_result", tool_use_id: "ghost", content: "orphan" }),
      assistant([]),
      assistant([{ type: "tool_use", id: "twice", tool: { name: "Read", file_path: "/a" } }]),
      user(
        { type: "tool_result", tool_use_id: "twice", content: "first" },
        { type: "tool_result", tool_use_id: "twice", content: "second" },
      ),
      user({ type: "thinking", text: "users do not think here" }, { type: "text", text: "hello" }),
    ],
    see: contents,
    want: [
      [{ type: "tool_use", id: "twice", tool: { name: "Read", file_path: "/a" } }],
      [{ type: "tool_result", tool_use_id: "twice", content: "first" }],
      [{ type: "text", text: "hello" }],
    ],
  },
  {
    loss: "order inside a user message: its tool results are written before its text",
    body: [
      assistant([{ type: "tool_use", id: "o1", tool: { name: "Read", file_path: "/a" } }]),
      user(
        { type: "text", text: "also look at b" },
        { type: "tool_result", tool_use_id: "o1", content: "A" },
      ),
    ],
    see: (t) => contents(t).slice(1),
    want: [
      [{ type: "tool_result", tool_use_id: "o1", content: "A" }],
      [{ type: "text", text: "also look at b" }],
    ],
  },
];

describe("Common -> Codex loses", () => {
  for (const c of WRITE_LOSSES) {
    it(c.loss, () => {
      const { text, back } = through(c.body, c.meta);
      expect(c.see(back)).toEqual(c.want);
      if (c.absent) expect(text).not.toMatch(c.absent);
      expect(resumeProblems(text)).toEqual([]);
    });
  }

  it("session ids that are not UUIDs are replaced by a stable UUID; UUIDs are lowercased", () => {
    const a = codexCodec.fromCommon({ meta: meta({ id: "my-session" }), body: [] });
    expect(a.meta.id).toBe(stableUuid("codex-session", "my-session"));
    expect(codexCodec.fromCommon({ meta: meta({ id: "my-session" }), body: [] }).meta.id).toBe(
      a.meta.id,
    );
    const b = codexCodec.fromCommon({ meta: meta({ id: ID.toUpperCase() }), body: [] });
    expect(b.meta.id).toBe(ID);
  });
});

/** A Codex -> Common loss: rollout lines after a full session_meta, and what the reader keeps. */
interface ReadLoss {
  loss: string;
  lines: object[];
  see: (t: Transcript<Common>) => unknown;
  want: unknown;
}

const call = (name: string, call_id: string, args: object | string) => ({
  type: "response_item",
  payload: {
    type: "function_call",
    name,
    call_id,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  },
});
const said = (text: string) => ({
  type: "response_item",
  payload: { type: "message", role: "assistant", content: [{ type: "output_text", text }] },
});

const READ_LOSSES: ReadLoss[] = [
  {
    loss: "session_meta's originator, source, provider, base instructions and git commit/URL",
    lines: [],
    see: (t) => t.meta,
    want: { id: ID, timestamp: TS, cwd: "/w", git_branch: "main", cli_version: "0.60.0" },
  },
  {
    loss: "turn_context policies and reasoning effort (only the model is kept)",
    lines: [
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
      said("x"),
    ],
    see: (t) => t.body,
    want: [assistant([{ type: "text", text: "x" }])],
  },
  {
    loss: "shell execution hints (yield time, output caps, tty, login, sandbox escalation)",
    lines: [
      call("exec_command", "e1", {
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
    ],
    see: (t) => t.body[0]?.content[0],
    want: { type: "tool_use", id: "e1", tool: { name: "Bash", command: "make", workdir: "/w" } },
  },
  {
    loss: "the model-facing shell output header and duration (exec_command_end's output and exit code are kept)",
    lines: [
      call("shell_command", "s1", '{"command":"false"}'),
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
    ],
    see: nth(1),
    want: [{ type: "tool_result", tool_use_id: "s1", content: "boom\n", is_error: true }],
  },
  {
    loss: "reasoning token counts, running totals and rate limits (per-response usage is kept)",
    lines: [
      said("x"),
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
    ],
    see: (t) => t.body[0]?.usage,
    want: { input_tokens: 6, output_tokens: 5, cache_read_input_tokens: 4 },
  },
  {
    loss: "display-only events, compaction summaries, ghost snapshots and user `!` shell commands",
    lines: [
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
    ],
    see: (t) => t.body,
    want: [],
  },
  {
    loss: "web search results: only the query is kept",
    lines: [
      {
        type: "response_item",
        payload: {
          type: "web_search_call",
          status: "completed",
          action: { type: "search", query: "q" },
        },
      },
      { type: "event_msg", payload: { type: "web_search_end", call_id: "ws9", query: "q" } },
    ],
    see: nth(1),
    want: [{ type: "tool_result", tool_use_id: "ws9", content: "q" }],
  },
  {
    loss: "stop reasons are not recorded by Codex, so none are read",
    lines: [
      said("x"),
      {
        type: "event_msg",
        payload: { type: "task_complete", turn_id: "t", last_agent_message: "x" },
      },
    ],
    see: (t) => [t.body.length, t.body[0]?.stop_reason],
    want: [1, undefined],
  },
];

describe("Codex -> Common loses", () => {
  for (const c of READ_LOSSES) {
    it(c.loss, () => {
      expect(c.see(read(c.lines))).toEqual(c.want);
    });
  }

  it("an argv that is not a shell script becomes one shell-quoted command line", () => {
    const argv = ["git", "commit", "-m", "it's done", "$HOME"];
    const block = read([call("shell", "a1", { command: argv })]).body[0]?.content[0];
    expect(block?.type === "tool_use" && block.tool.name).toBe("Bash");
    const command =
      block?.type === "tool_use" && block.tool.name === "Bash" ? block.tool.command : "";
    // A shell splits the line back into the same words, unexpanded.
    expect(parse(command, (name) => `$${name}`)).toEqual(argv);
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
});
