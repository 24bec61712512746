/**
 * fromCommon: determinism, the codec fixpoint toCommon(fromCommon(c)) == c
 * for every transcript agy can represent (fast-check), the step kinds and
 * envelopes written, and what happens to what agy cannot represent.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Block,
  type Json,
  type Message,
  type Meta,
  type StopReason,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
  toolFromCanonical,
} from "../../src/common.js";
import { readCommon } from "../../src/common-json.js";
import { fromCommon, toCommon } from "../../src/harness/antigravity/codec.js";
import { decodeStep, stepPayload, titleFromPrompt } from "../../src/harness/antigravity/decode.js";
import { antigravityText } from "../../src/harness/antigravity/text.js";
import { Checker } from "../../src/json.js";
import { decode } from "../../src/protobuf.js";
import type { Common, Transcript } from "../../src/transcript.js";
import {
  jsonObjectArb,
  pathArb,
  sessionIdArb,
  textArb,
  timestampArb,
  toolArb,
} from "../support/arbitraries.js";
import { ROOT } from "../support/cli.js";

/** Through the text form, as a saved and reloaded conversation is read. */
function viaText(c: Transcript<Common>): Transcript<Common> {
  const native = fromCommon(c);
  return toCommon(antigravityText.parse(antigravityText.render(native)));
}

// ---------------------------------------------------------------------------
// Arbitraries: transcripts agy can represent exactly.

const NATIVE_NAMES = new Set(["run_command", "view_file", "write_to_file", "replace_file_content"]);
const nonBlank = textArb().filter((t) => t.trim() !== "");
/** Result text: not JSON-looking (a GENERIC result that parses as JSON comes back as JSON). */
const resultText = textArb().filter((t) => {
  const c = t.trimStart()[0];
  return c !== "{" && c !== "[";
});
const toolArbAgy = toolArb.filter((t) => !(t.name === "Raw" && NATIVE_NAMES.has(t.tool_name)));
const modelArb = fc.option(
  fc.nat({ max: 10_000 }).map((n) => `model-${n}`),
  { nil: undefined },
);
const stopArb: fc.Arbitrary<StopReason | undefined> = fc.option(
  fc.oneof(
    fc.constantFrom<StopReason>("end_turn", "tool_use", "max_tokens", "aborted", "error"),
    fc
      .integer({ min: 0, max: 1_000_000 })
      .filter((n) => ![2, 3, 10, 13, 16].includes(n))
      .map((n): StopReason => ({ other: `stop-${n}` })),
  ),
  { nil: undefined },
);
const positive = fc.integer({ min: 1, max: 2_000_000_000 });
const usageArb = fc.option(
  fc.record(
    {
      input_tokens: fc.oneof(fc.constant(0), positive),
      output_tokens: positive,
      cache_read_input_tokens: positive,
      cache_creation_input_tokens: positive,
    },
    { requiredKeys: ["input_tokens", "output_tokens"] },
  ),
  { nil: undefined },
);

/** The result a call can get: text, structured JSON, errors. */
function resultArb(tool: Tool): fc.Arbitrary<Json | undefined> {
  const options: fc.Arbitrary<Json | undefined>[] = [
    fc.constant(undefined), // not answered (yet)
    resultText,
    jsonObjectArb,
    fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
  ];
  if (tool.name === "Write" || tool.name === "Edit") {
    const key = tool.name === "Write" ? "created" : "edited";
    options.push(fc.constant({ file: tool.file_path, [key]: true }));
  }
  return fc.oneof(...options);
}

interface TurnDraft {
  prompt: string;
  images: { media_type: string; data: string }[];
  assistants: {
    thinking: { text: string; signature?: string } | undefined;
    text: string | undefined;
    calls: { tool: Tool; result: Json | undefined; error: boolean }[];
    model: string | undefined;
    stop: StopReason | undefined;
    usage: Message["usage"];
    at: string;
    resultsAt: string;
  }[];
  at: string;
}

const assistantArb = fc
  .record({
    thinking: fc.option(
      fc.record(
        { text: nonBlank, signature: fc.stringMatching(/^[A-Za-z0-9+/]{4,20}$/) },
        { requiredKeys: ["text"] },
      ),
      { nil: undefined },
    ),
    text: fc.option(nonBlank, { nil: undefined }),
    calls: fc.array(
      toolArbAgy.chain((tool) =>
        fc.record({
          tool: fc.constant(tool),
          result: resultArb(tool),
          error: fc.boolean(),
        }),
      ),
      { maxLength: 3 },
    ),
    model: modelArb,
    stop: stopArb,
    usage: usageArb,
    at: timestampArb,
    resultsAt: timestampArb,
  })
  .filter((a) => a.thinking !== undefined || a.text !== undefined || a.calls.length > 0);

const turnArb = fc.record({
  prompt: nonBlank,
  images: fc.array(
    fc.record({
      media_type: fc.constantFrom("image/png", "image/jpeg", "image/webp"),
      data: fc.base64String({ minLength: 4, maxLength: 40 }),
    }),
    { maxLength: 2 },
  ),
  assistants: fc.array(assistantArb, { maxLength: 3 }),
  at: timestampArb,
});

/** A transcript whose every part has an exact agy representation. */
const representableArb: fc.Arbitrary<Transcript<Common>> = fc
  .record({
    id: sessionIdArb,
    timestamp: timestampArb,
    cwd: fc.option(
      fc.oneof(
        pathArb,
        pathArb.map((p) => `C:${p}`),
        fc.constant("/tmp/100% sure#?"),
      ),
      { nil: undefined },
    ),
    git_branch: fc.option(nonBlank, { nil: undefined }),
    turns: fc.array(turnArb as fc.Arbitrary<TurnDraft>, { maxLength: 4 }),
    leadingAssistant: fc.option(assistantArb, { nil: undefined }),
  })
  .map(({ id, timestamp, cwd, git_branch, turns, leadingAssistant }) => {
    const messages: Message[] = [];
    let n = 0;
    const assistant = (a: TurnDraft["assistants"][number]) => {
      const content: Block[] = [];
      if (a.thinking) content.push({ type: "thinking", ...a.thinking });
      if (a.text !== undefined) content.push({ type: "text", text: a.text });
      const calls = a.calls.map((c) => ({ ...c, id: `call_${++n}` }));
      for (const c of calls) content.push({ type: "tool_use", id: c.id, tool: c.tool });
      const m: Message = { role: "assistant", content, timestamp: a.at };
      if (a.model !== undefined) m.model = a.model;
      if (a.stop !== undefined) m.stop_reason = a.stop;
      if (a.usage !== undefined) m.usage = a.usage;
      messages.push(m);
      const results: ToolResultBlock[] = calls
        .filter((c) => c.result !== undefined)
        .map((c) => {
          const r: ToolResultBlock = { type: "tool_result", tool_use_id: c.id, content: c.result! };
          if (c.error) r.is_error = true;
          return r;
        });
      if (results.length > 0)
        messages.push({ role: "user", content: results, timestamp: a.resultsAt });
    };
    if (leadingAssistant) assistant(leadingAssistant);
    for (const t of turns) {
      messages.push({
        role: "user",
        content: [
          { type: "text", text: t.prompt },
          ...t.images.map(
            (source): Block => ({ type: "image", source: { type: "base64", ...source } }),
          ),
        ],
        timestamp: t.at,
      });
      for (const a of t.assistants) assistant(a);
    }
    // What agy derives: the title from the first prompt, the model from the last planner step.
    const meta: Meta = { id, timestamp };
    if (cwd !== undefined) meta.cwd = cwd;
    if (git_branch !== undefined) meta.git_branch = git_branch;
    const first = turns[0];
    if (first !== undefined) meta.title = titleFromPrompt(first.prompt)!;
    const last = [...messages].reverse().find((m) => m.role === "assistant");
    if (last?.model !== undefined) meta.model = last.model;
    return { meta, body: messages };
  });

// ---------------------------------------------------------------------------

describe("fixpoint", () => {
  it("toCommon(fromCommon(c)) == c for representable transcripts, directly and through the text form", () => {
    fc.assert(
      fc.property(representableArb, (c) => {
        expect(viaText(c)).toEqual(c);
        expect(toCommon(fromCommon(c))).toEqual(c);
      }),
      { numRuns: 300 },
    );
  });

  it("fromCommon twice gives identical bytes, for any transcript", () => {
    fc.assert(
      fc.property(representableArb, (c) => {
        const a = antigravityText.render(fromCommon(c));
        const b = antigravityText.render(fromCommon(structuredClone(c)));
        expect(a).toBe(b);
      }),
      { numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------------------

const T0 = "2026-08-10T12:00:00.250Z";
const T1 = "2026-08-10T12:00:01Z";
const T2 = "2026-08-10T12:00:02.500Z";
/** 2026-08-10T12:00:00Z in epoch seconds. */
const NOON = Date.UTC(2026, 7, 10, 12) / 1000;

function steps(c: Transcript<Common>) {
  return fromCommon(c).body.steps.map((row) => {
    const d = decodeStep(row);
    return { row, d, payload: stepPayload(d) };
  });
}

const use = (id: string, tool: Tool): ToolUseBlock => ({ type: "tool_use", id, tool });
const res = (id: string, content: Json, is_error?: true): ToolResultBlock =>
  is_error
    ? { type: "tool_result", tool_use_id: id, content, is_error }
    : { type: "tool_result", tool_use_id: id, content };

function convo(calls: ToolUseBlock[], results: ToolResultBlock[]): Transcript<Common> {
  return {
    meta: { id: "s-1", timestamp: T0 },
    body: [
      { role: "user", content: [{ type: "text", text: "go" }], timestamp: T0 },
      { role: "assistant", content: calls, timestamp: T1 },
      ...(results.length ? [{ role: "user" as const, content: results, timestamp: T2 }] : []),
    ],
  };
}

describe("steps written", () => {
  it("typed steps for Bash, Read, Write, Edit with results they carry; GENERIC otherwise", () => {
    const c = convo(
      [
        use("b", { name: "Bash", command: "ls", workdir: "/w" }),
        use("r", { name: "Read", file_path: "/w/a.ts", offset: 3, limit: 2 }),
        use("w", { name: "Write", file_path: "/w/n.md", content: "# n" }),
        use("e", {
          name: "Edit",
          file_path: "/w/a.ts",
          old_string: "a",
          new_string: "b",
          replace_all: true,
        }),
        use("m", { name: "Raw", tool_name: "mcp__x__y", input: { q: 1 } }),
        use("r2", { name: "Read", file_path: "/w/missing" }),
        use("e2", {
          name: "Edit",
          file_path: "/w/a.ts",
          old_string: "a",
          new_string: "b",
          replace_all: true,
        }),
        use("p", { name: "Bash", command: "sleep 9" }),
      ],
      [
        res("b", "a.ts\n", true),
        res("r", "line3\nline4"),
        res("w", { file: "/w/n.md", created: true }),
        res("e", { file: "/w/a.ts", edited: true }),
        res("m", { hits: 3 }),
        res("r2", "no such file", true),
        res("e2", "applied 1 edit"),
      ],
    );
    const s = steps(c);
    expect(s.map(({ row }) => [row.step_type, row.status])).toEqual([
      [14, 3],
      [15, 3],
      [21, 3], // RUN_COMMAND, failed: DONE with exit code 1
      [8, 3], // VIEW_FILE
      [5, 3], // CODE_ACTION create
      [5, 3], // CODE_ACTION edit
      [132, 3], // GENERIC for the MCP tool
      [132, 7], // an error on a read: GENERIC, ERROR
      [132, 3], // free-form text on an edit: GENERIC
      [21, 1], // unanswered: PENDING
    ]);
    const run = s[2]!.payload;
    expect(run.int32(6)).toBe(1);
    expect(run.string(23)).toBe("ls");
    expect(run.string(2)).toBe("/w");
    expect(run.uint(12)).toBe(2000);
    expect(run.message(21)?.string(1)).toBe("a.ts\n");
    const view = s[3]!.payload;
    expect([view.string(1), view.uint(2), view.uint(3), view.string(4)]).toEqual([
      "file:///w/a.ts",
      3,
      4,
      "line3\nline4",
    ]);
    expect(s[7]!.payload.message(2)?.string(1)).toBe("no such file");
    expect(s[8]!.payload.message(2)?.string(1)).toBe("applied 1 edit");
    expect(s[6]!.payload.message(2)?.string(1)).toBe('{"hits":3}');
    // And they read back to the same results.
    expect(viaText(c).body.slice(1)).toEqual(c.body.slice(1));
  });

  it("the planner declares each call; the executing step's envelope carries the same ChatToolCall", () => {
    const c = convo([use("b", { name: "Bash", command: "ls" })], [res("b", "x")]);
    const s = steps(c);
    const declared = s[1]!.payload.allBytes(7);
    const executed = s[2]!.d.meta.bytesOf(4)!;
    expect(declared.length).toBe(1);
    expect(Buffer.from(executed)).toEqual(Buffer.from(declared[0]!));
    const call = decode(executed);
    expect([call.string(1), call.string(2), JSON.parse(call.string(3)!), call.string(9)]).toEqual([
      "b",
      "run_command",
      { CommandLine: "ls", WaitMsBeforeAsync: 2000 },
      "run_command",
    ]);
  });

  it("full metadata envelopes: created-at, source, usage, numeric model, execution id, step info", () => {
    const c: Transcript<Common> = {
      meta: { id: "sess-9", timestamp: T0 },
      body: [
        {
          role: "user",
          content: [{ type: "text", text: "q" }],
          timestamp: "2026-08-10T12:00:00.123456789Z",
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "a" }],
          timestamp: T1,
          model: "model-1018",
          stop_reason: "end_turn",
          usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 7 },
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "b" }],
          timestamp: T2,
          model: "claude-opus-5",
        },
      ],
    };
    const body = fromCommon(c).body;
    const [u, p, q] = body.steps.map((r) => decodeStep(r));
    expect(u!.meta.timestamp(1)).toEqual({ seconds: NOON, nanos: 123456789 });
    expect(u!.meta.uint(3)).toBe(4);
    expect(p!.meta.uint(3)).toBe(2);
    expect(p!.meta.uint(11)).toBe(1018);
    const usage = p!.meta.message(9)!;
    expect([usage.uint(1), usage.uint(2), usage.uint(3), usage.uint(4), usage.uint(5)]).toEqual([
      1018,
      10,
      2,
      undefined,
      7,
    ]);
    expect(q!.meta.uint(11)).toBeUndefined(); // a readable name has no enum
    const info = p!.meta.message(20)!;
    expect(info.string(1)).toBe(body.trajectory_meta[0]!.trajectory_id);
    expect(info.uint(2)).toBe(1);
    expect(info.string(4)).toBe("sess-9");
    expect(p!.meta.string(12)).toBe(u!.meta.string(12)); // one execution id per turn
    // The metadata column mirrors Step field 5.
    for (const row of body.steps) {
      expect(Buffer.from(row.metadata!)).toEqual(Buffer.from(decode(row.step_payload).bytesOf(5)!));
    }
  });

  it("trajectory_meta (type 4, source 17) and the main blob (workspace, branch, created-at, ids, project)", () => {
    const body = fromCommon({
      meta: { id: "abc", timestamp: T0, cwd: "C:/Users/al/my app", git_branch: "main" },
      body: [],
    }).body;
    expect(body.id).toBe("abc");
    expect(body.trajectory_meta).toEqual([
      { trajectory_id: expect.any(String), cascade_id: "abc", trajectory_type: 4, source: 17 },
    ]);
    expect(body.trajectory_metadata_blob.map((r) => r.id)).toEqual(["main"]);
    const main = decode(body.trajectory_metadata_blob[0]!.data);
    expect(main.message(1)?.string(1)).toBe("file:///C:/Users/al/my%20app");
    expect(main.message(1)?.string(4)).toBe("main");
    expect(main.timestamp(2)).toEqual({ seconds: NOON, nanos: 250_000_000 });
    expect(main.string(6)).toBe("abc");
    expect(main.string(7)).toBe("file:///C:/Users/al/my%20app");
    expect(main.string(18)).toBe("default-cli-project");
  });

  it("results whose call is absent become user text; assistant images become placeholders", () => {
    const c: Transcript<Common> = {
      meta: { id: "s", timestamp: T0 },
      body: [
        {
          role: "user",
          content: [res("ghost", "boo", true), res("ghost2", { a: 1 })],
          timestamp: T0,
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Here:" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          ],
          timestamp: T1,
        },
        {
          role: "user",
          content: [
            {
              type: "tool_use",
              id: "cmd",
              tool: { name: "Command", command: "/review", args: "--fast" },
            },
          ],
          timestamp: T2,
        },
        { role: "user", content: [res("cmd", "review started")], timestamp: T2 },
      ],
    };
    const back = viaText(c).body;
    expect(back.map((m) => [m.role, m.content])).toEqual([
      [
        "user",
        [{ type: "text", text: 'Tool error for ghost:\nboo\n\nTool result for ghost2:\n{"a":1}' }],
      ],
      ["assistant", [{ type: "text", text: "Here:\n\n[image: image/png]" }]],
      ["user", [{ type: "text", text: "/review --fast" }]],
      ["user", [{ type: "text", text: "Tool result for cmd:\nreview started" }]],
    ]);
  });

  it("calls agy has no tool for ride GENERIC under their canonical names and come back typed", () => {
    const tools: Tool[] = [
      { name: "Bash", command: "npm test", timeout_ms: 120000, run_in_background: true },
      { name: "Read", file_path: "/a", offset: 5, limit: 0 },
      { name: "Edit", file_path: "/a", old_string: "x", new_string: "y", replace_all: false },
      { name: "MultiEdit", file_path: "/a", edits: [{ old_string: "a", new_string: "b" }] },
      { name: "Command", command: "/compact" },
      toolFromCanonical("Bash", { command: "ls", unknown_key: 1 }),
      { name: "Raw", tool_name: "grep_search", input: "not json {" },
      { name: "Raw", tool_name: "x", input: "[1]" },
    ];
    const c = convo(
      tools.map((t, i) => use(`t${i}`, t)),
      tools.map((_, i) => res(`t${i}`, `ok ${i}`)),
    );
    const s = steps(c);
    const names = s.slice(2).map(({ d }) => decode(d.meta.bytesOf(4)).string(2));
    expect(names).toEqual([
      "Bash",
      "Read",
      "Edit",
      "MultiEdit",
      "/compact",
      "Bash",
      "grep_search",
      "x",
    ]);
    expect(s.slice(2).every(({ row }) => row.step_type === 132)).toBe(true);
    expect(viaText(c).body).toEqual(c.body);
  });

  it("the brain mirror is regenerated with the steps", () => {
    const body = fromCommon(
      convo([use("b", { name: "Bash", command: "ls" })], [res("b", "x")]),
    ).body;
    expect(body.transcript_full).toBeUndefined(); // made as it is written
    const lines = [...(body.mirror?.transcript_full ?? [])]
      .join("")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.step_index, l.type, l.status])).toEqual([
      [0, "USER_INPUT", "DONE"],
      [1, "PLANNER_RESPONSE", "DONE"],
      [2, "RUN_COMMAND", "DONE"],
    ]);
    expect(lines[1].tool_calls).toEqual([
      { name: "run_command", args: { CommandLine: "ls", WaitMsBeforeAsync: 2000 } },
    ]);
    const compact = [...(body.mirror?.transcript ?? [])]
      .join("")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(compact[1].tool_calls).toEqual([
      { name: "run_command", args: { CommandLine: '"ls"', WaitMsBeforeAsync: "2000" } },
    ]);
  });

  it("a session without an id gets one derived from its content", () => {
    const c: Transcript<Common> = { meta: { id: "", timestamp: T0 }, body: [] };
    const a = fromCommon(c).body.id;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(fromCommon(structuredClone(c)).body.id).toBe(a);
  });
});

describe("the reference Common document through agy", () => {
  const text = readFileSync(join(ROOT, "test", "fixtures", "common", "full.common.json"), "utf8");
  const full = readCommon(new Checker("common"), JSON.parse(text));
  const back = viaText(full);

  it("keeps every call and result, typed where agy has the tool", () => {
    const uses = (m: Message[]) => m.flatMap((x) => x.content.filter((b) => b.type === "tool_use"));
    const results = (m: Message[]) =>
      m.flatMap((x) => x.content.filter((b) => b.type === "tool_result"));
    const assistantUses = full.body.filter((m) => m.role === "assistant");
    expect(uses(back.body)).toEqual(uses(assistantUses));
    // The user-side slash command has no agy form: its call and result become text.
    expect(results(back.body)).toEqual(
      results(full.body).filter((r) => (r as ToolResultBlock).tool_use_id !== "cmd1"),
    );
  });

  it("keeps session metadata agy stores; the foreign model name cannot be written", () => {
    expect(back.meta).toEqual({
      id: full.meta.id,
      timestamp: full.meta.timestamp,
      cwd: full.meta.cwd,
      git_branch: full.meta.git_branch,
      // The title is kept in annotations/<id>.pbtxt, not taken from the first prompt.
      title: "Fix the flaky test",
    });
    expect(back.body.some((m) => m.model !== undefined)).toBe(false);
  });

  it("loses the encrypted thinking and maps stop_sequence-free stop reasons back", () => {
    const stops = back.body.filter((m) => m.role === "assistant").map((m) => m.stop_reason);
    expect(stops).toEqual(
      full.body.filter((m) => m.role === "assistant").map((m) => m.stop_reason),
    );
    expect(JSON.stringify(back.body)).not.toContain("gAAAAB");
  });
});
