/**
 * Reading Codex rollouts into the canonical model, on fixtures written by
 * hand from the format facts (test/fixtures/codex/), never by our writer.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Block, Message, Tool } from "../../src/common.js";
import { ParseError } from "../../src/errors.js";
import { codexCodec } from "../../src/harness/codex/codec.js";
import { codexText } from "../../src/harness/codex/text.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { ROOT } from "../support/cli.js";

const fixture = (name: string) => readFileSync(join(ROOT, "test/fixtures/codex", name), "utf8");
const read = (text: string, origin = "x.jsonl"): Transcript<Common> =>
  codexCodec.toCommon(codexText.parse(text, origin));

const toolOf = (messages: Message[], id: string): Tool => {
  for (const m of messages) {
    for (const b of m.content) if (b.type === "tool_use" && b.id === id) return b.tool;
  }
  throw new Error(`no tool_use ${id}`);
};
const resultsOf = (messages: Message[], id: string) =>
  messages.flatMap((m) =>
    m.content.filter(
      (b): b is Extract<Block, { type: "tool_result" }> =>
        b.type === "tool_result" && b.tool_use_id === id,
    ),
  );

const META = (id = "0199aa00-1111-7222-8333-944455556666") =>
  `{"timestamp":"2026-08-11T09:00:00.000Z","type":"session_meta","payload":{"id":"${id}","timestamp":"2026-08-11T09:00:00.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.60.1","source":"cli","model_provider":"openai","base_instructions":null}}`;
const line = (type: string, payload: object, ts = "2026-08-11T09:00:01.000Z") =>
  JSON.stringify({ timestamp: ts, type, payload });

describe("a realistic Codex session", () => {
  const t = read(fixture("session.jsonl"));
  const m = t.body;

  it("takes the metadata from session_meta and the first turn_context", () => {
    expect(t.meta).toEqual({
      id: "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b",
      timestamp: "2026-08-10T12:00:00Z",
      cwd: "/home/al/my_app",
      git_branch: "main",
      cli_version: "0.50.0",
      model: "gpt-5-codex",
      // No thread_name: the first prompt, as `codex resume` lists it.
      title: "The login test is flaky, see the screenshot",
    });
  });

  it("skips instruction and environment preludes and developer messages", () => {
    const texts = m.flatMap((x) => x.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    expect(texts.some((x) => x.includes("AGENTS.md") || x.includes("environment_context"))).toBe(
      false,
    );
    expect(texts.some((x) => x.includes("permissions instructions"))).toBe(false);
    expect(m[0]?.role).toBe("user");
    expect(m[0]?.content[0]).toEqual({
      type: "text",
      text: "The login test is flaky, see the screenshot",
    });
  });

  it("reads a data-URL image as a base64 image block", () => {
    expect(m[0]?.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
  });

  it("joins reasoning summaries into one thinking block and keeps the encrypted content", () => {
    expect(m[1]?.content[0]).toEqual({
      type: "thinking",
      text: "**Reproducing**\n\nRun the test first.\n\nThen read it.",
      encrypted: "gAAAAABpRz-opaque",
    });
  });

  it("collapses a bash -lc argv into a Bash command and keeps workdir and timeout", () => {
    expect(toolOf(m, "call_A")).toEqual({
      name: "Bash",
      command: "npm test -- login",
      workdir: "/home/al/my_app",
      timeout_ms: 120000,
    });
    expect(toolOf(m, "call_B")).toEqual({
      name: "Bash",
      command: "sed -n '1,40p' test/login.ts",
      workdir: "/home/al/my_app",
    });
    expect(toolOf(m, "call_D")).toEqual({
      name: "Bash",
      command: "git commit -am 'Wait for readiness in the login test'",
      workdir: "/home/al/my_app",
    });
  });

  it("counts each duplicated shell result once, from exec_command_end, with its exit code", () => {
    expect(resultsOf(m, "call_A")).toEqual([
      {
        type: "tool_result",
        tool_use_id: "call_A",
        content: "1 failing\nAssertionError: timeout\n",
        is_error: true,
      },
    ]);
    expect(resultsOf(m, "call_B")).toEqual([
      { type: "tool_result", tool_use_id: "call_B", content: "await sleep(10)\n" },
    ]);
    // exec_command_end after the mirror: still one result, the event's output, at the mirror's place.
    const d = resultsOf(m, "call_D");
    expect(d).toHaveLength(1);
    expect(d[0]?.content).toBe("[main 1a2b3c4] Wait for readiness in the login test\n");
    expect(m[10]?.content[0]).toMatchObject({ tool_use_id: "call_D" });
    expect(m[10]?.timestamp).toBe("2026-08-10T12:01:02.500Z");
  });

  it("maps a bare one-hunk apply_patch Update to Edit and unwraps its JSON output", () => {
    expect(toolOf(m, "call_C")).toEqual({
      name: "Edit",
      file_path: "test/login.ts",
      old_string: "await sleep(10)",
      new_string: "await ready()",
    });
    expect(resultsOf(m, "call_C")[0]?.content).toBe(
      "Success. Updated the following files:\nM test/login.ts\n",
    );
  });

  it("makes one assistant message per model response, with that response's usage", () => {
    const assistants = m.filter((x) => x.role === "assistant");
    expect(assistants).toHaveLength(6);
    expect(assistants.map((x) => x.usage)).toEqual([
      { input_tokens: 1000, output_tokens: 90, cache_read_input_tokens: 4000 },
      { input_tokens: 400, output_tokens: 30, cache_read_input_tokens: 4900 },
      { input_tokens: 300, output_tokens: 50, cache_read_input_tokens: 5200 },
      { input_tokens: 300, output_tokens: 20, cache_read_input_tokens: 5400 },
      { input_tokens: 300, output_tokens: 40, cache_read_input_tokens: 5600 },
      { input_tokens: 300, output_tokens: 10, cache_read_input_tokens: 5700 },
    ]);
  });

  it("attributes each assistant message to its turn's model", () => {
    const models = m.filter((x) => x.role === "assistant").map((x) => x.model);
    expect(models).toEqual([
      "gpt-5-codex",
      "gpt-5-codex",
      "gpt-5-codex",
      "gpt-5-codex",
      "gpt-5.1-codex-max",
      "gpt-5.1-codex-max",
    ]);
  });

  it("keeps message order and line timestamps", () => {
    expect(m.map((x) => `${x.role}@${x.timestamp}`)).toEqual([
      "user@2026-08-10T12:00:00.020Z",
      "assistant@2026-08-10T12:00:01.500Z",
      "user@2026-08-10T12:00:04Z",
      "assistant@2026-08-10T12:00:05Z",
      "user@2026-08-10T12:00:05.200Z",
      "assistant@2026-08-10T12:00:06Z",
      "user@2026-08-10T12:00:06.301Z",
      "assistant@2026-08-10T12:00:07Z",
      "user@2026-08-10T12:01:00.002Z",
      "assistant@2026-08-10T12:01:02Z",
      "user@2026-08-10T12:01:02.500Z",
      "assistant@2026-08-10T12:01:03Z",
    ]);
  });
});

describe("every tool shape", () => {
  const m = read(fixture("tools.jsonl")).body;

  it("maps a single Add File to Write, with every line newline-terminated", () => {
    expect(toolOf(m, "p_add")).toEqual({
      name: "Write",
      file_path: "docs/notes.md",
      content: "# Notes\n\nfirst line\n",
    });
    expect(toolOf(m, "p_fn")).toEqual({ name: "Write", file_path: "f.txt", content: "hi\n" });
  });

  it("maps an implicit first hunk with context lines to Edit (context in both strings)", () => {
    expect(toolOf(m, "p_ctx")).toEqual({
      name: "Edit",
      file_path: "/work/proj/src/b.ts",
      old_string: "keep\nold\ntail",
      new_string: "keep\nnew\ntail",
    });
  });

  it("keeps anchored, multi-hunk, multi-file, move and malformed patches Raw, verbatim", () => {
    for (const id of ["p_anchor", "p_two", "p_files", "p_move", "p_bad"]) {
      const tool = toolOf(m, id);
      expect(tool.name).toBe("Raw");
      expect(tool).toMatchObject({ tool_name: "apply_patch" });
      expect(typeof (tool as { input: unknown }).input).toBe("string");
    }
    expect(toolOf(m, "p_bad")).toEqual({
      name: "Raw",
      tool_name: "apply_patch",
      input: "not a patch at all",
    });
  });

  it("shell-quotes an argv that is not a shell -c script", () => {
    expect(toolOf(m, "s_argv")).toEqual({ name: "Bash", command: "ls -la 'my dir'" });
  });

  it("reads shell's `timeout` alias and drops execution hints", () => {
    expect(toolOf(m, "s_zsh")).toEqual({ name: "Bash", command: "echo $HOME", timeout_ms: 5000 });
    expect(toolOf(m, "s_cmd")).toEqual({
      name: "Bash",
      command: "cat README.md",
      workdir: "/work/proj",
      timeout_ms: 10000,
    });
  });

  it("keeps a shell call with an unknown key Raw, with its input untouched", () => {
    expect(toolOf(m, "s_unknown_key")).toEqual({
      name: "Raw",
      tool_name: "exec_command",
      input: { cmd: "make", env_override: { CI: "1" } },
    });
  });

  it("maps local_shell_call to Bash", () => {
    expect(toolOf(m, "s_local")).toEqual({ name: "Bash", command: "pwd", workdir: "/work/proj" });
  });

  it("keeps other tools Raw; unparseable arguments stay the string they were", () => {
    expect(toolOf(m, "u_plan")).toEqual({
      name: "Raw",
      tool_name: "update_plan",
      input: { plan: [{ step: "read", status: "completed" }] },
    });
    expect(toolOf(m, "m_badjson")).toEqual({
      name: "Raw",
      tool_name: "mcp__github__search",
      input: '{"q":"flaky"',
    });
    expect(toolOf(m, "w_stdin")).toMatchObject({ name: "Raw", tool_name: "write_stdin" });
  });

  it("pairs a web search with its web_search_end and adopts its call_id", () => {
    expect(toolOf(m, "ws_1")).toEqual({
      name: "Raw",
      tool_name: "web_search",
      input: { type: "search", query: "vitest fake timers" },
    });
    expect(resultsOf(m, "ws_1")).toEqual([
      { type: "tool_result", tool_use_id: "ws_1", content: "vitest fake timers" },
    ]);
  });

  it("reads error flags from the old {content, success} shape and legacy shell JSON", () => {
    expect(resultsOf(m, "s_argv")[0]).toEqual({
      type: "tool_result",
      tool_use_id: "s_argv",
      content: "ls: my dir: No such file",
      is_error: true,
    });
    expect(resultsOf(m, "s_zsh")[0]).toEqual({
      type: "tool_result",
      tool_use_id: "s_zsh",
      content: "/root\n",
    });
    expect(resultsOf(m, "s_cmd")[0]?.is_error).toBe(true);
  });

  it("reads content-item outputs as text and image blocks", () => {
    expect(resultsOf(m, "m_badjson")[0]?.content).toEqual([
      { type: "text", text: "2 issues" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
    ]);
  });

  it("drops duplicate outputs, orphan outputs and user shell commands", () => {
    expect(resultsOf(m, "u_plan")).toHaveLength(1);
    expect(resultsOf(m, "u_plan")[0]?.content).toBe("Plan updated");
    expect(resultsOf(m, "nobody_called")).toEqual([]);
    expect(resultsOf(m, "user_shell_1")).toEqual([]);
  });

  it("leaves calls without an output unanswered rather than inventing one", () => {
    for (const id of ["p_anchor", "p_two", "s_unknown_key", "s_local", "w_stdin"]) {
      expect(resultsOf(m, id)).toEqual([]);
    }
  });

  it("skips compacted markers, unknown line kinds and unknown content items", () => {
    const last = m[m.length - 1];
    expect(last?.role).toBe("assistant");
    expect(last?.content).toEqual([{ type: "text", text: "Done." }]);
    const all = JSON.stringify(m);
    expect(all).not.toContain("summary of earlier work");
    expect(all).not.toContain("anything");
  });
});

describe("tolerant reading of damaged and drifting rollouts", () => {
  it("skips malformed, truncated, non-object and blank lines, as Codex does", () => {
    const text = [
      META(),
      "",
      "{not json",
      "42",
      '["an","array"]',
      '{"type":"response_item"}',
      '{"type":"response_item","payload":"text"}',
      line("response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "hi" }],
      }),
      '{"timestamp":"2026-08-11T09:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assis',
    ].join("\n");
    const t = read(text);
    expect(t.body).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }], timestamp: "2026-08-11T09:00:01Z" },
    ]);
  });

  it("accepts a session_meta that is not the first line and a byte-order mark", () => {
    const text = `\uFEFF${line("event_msg", { type: "task_started" })}\n${META()}\n`;
    expect(read(text).meta.id).toBe("0199aa00-1111-7222-8333-944455556666");
    expect(read(`\uFEFF${META()}`).meta.id).toBe("0199aa00-1111-7222-8333-944455556666");
  });

  it("falls back to the previous timestamp when a line's is missing or invalid", () => {
    const text = [
      META(),
      JSON.stringify({
        type: "response_item",
        payload: { type: "message", role: "user", content: "plain string" },
      }),
      JSON.stringify({
        timestamp: "yesterday",
        type: "response_item",
        payload: {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "ok" }],
        },
      }),
    ].join("\n");
    const t = read(text);
    expect(t.body.map((x) => x.timestamp)).toEqual([
      "2026-08-11T09:00:00Z",
      "2026-08-11T09:00:00Z",
    ]);
    expect(t.body[0]?.content).toEqual([{ type: "text", text: "plain string" }]);
  });

  it("refuses text with no session_meta, naming the file", () => {
    const claudeLike = '{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}\n';
    expect(() => read(claudeLike, "/tmp/a.jsonl")).toThrow(ParseError);
    expect(() => read(claudeLike, "/tmp/a.jsonl")).toThrow(/\/tmp\/a\.jsonl: no session_meta line/);
    expect(() => read("", "/tmp/empty.jsonl")).toThrow(/\/tmp\/empty\.jsonl: the rollout is empty/);
    expect(() => read(`${line("session_meta", { cwd: "/w" })}\n`)).toThrow(
      /no session_meta line with an id/,
    );
  });

  it("survives hostile nesting and huge lines", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const hugeText = "x".repeat(20 * 1024 * 1024);
    const text = [
      META(),
      `{"timestamp":"2026-08-11T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":${deep}}}`,
      line("response_item", {
        type: "function_call",
        name: "f",
        arguments: `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
        call_id: "c1",
      }),
      line("response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: hugeText }],
      }),
    ].join("\n");
    const t = read(text);
    expect(t.body).toHaveLength(2);
    expect(t.body[0]?.content[0]).toMatchObject({ type: "tool_use", id: "c1" });
    expect((t.body[1]!.content[0] as { text: string }).text.length).toBe(hugeText.length);
  });

  it("keeps reasoning that has only encrypted content as an empty thinking block", () => {
    const text = [
      META(),
      line("response_item", { type: "reasoning", summary: [], encrypted_content: "gAAA" }),
      line("response_item", {
        type: "reasoning",
        summary: [],
        content: [{ type: "reasoning_text", text: "raw thoughts" }],
        encrypted_content: null,
      }),
    ].join("\n");
    expect(read(text).body[0]?.content).toEqual([
      { type: "thinking", text: "", encrypted: "gAAA" },
      { type: "thinking", text: "raw thoughts" },
    ]);
  });

  it("gives a call without call_id a stable id from its line", () => {
    const text = [
      META(),
      line("response_item", { type: "function_call", name: "f", arguments: "{}" }),
    ].join("\n");
    expect(read(text).body[0]?.content[0]).toMatchObject({ type: "tool_use", id: "call_line_2" });
  });
});
