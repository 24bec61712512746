/**
 * toCommon: agy conversations (built from the field table by the fixture
 * builder, never by fromCommon) read as the canonical model. Both layouts,
 * every step kind and status, pairing, user text precedence, images and
 * media, planner thinking / usage / model / stop reasons, tool
 * normalization, metadata and lineage.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block, Message, ToolResultBlock, ToolUseBlock } from "../../src/common.js";
import { renderCommon } from "../../src/common-json.js";
import type { AntigravityBody, StepRow } from "../../src/harness/antigravity/body.js";
import { emptyBody } from "../../src/harness/antigravity/body.js";
import {
  antigravityLineage,
  fromCommon,
  nativeTool,
  toCommon,
} from "../../src/harness/antigravity/codec.js";
import { encode } from "../../src/protobuf.js";
import { EPOCH } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";
import {
  agencyToolCallPayload,
  checkpointPayload,
  codeActionPayload,
  errorDetails,
  errorMessagePayload,
  findPayload,
  genericPayload,
  genMetadataRow,
  grepPayload,
  LEGACY_BRANCH,
  LEGACY_CWD,
  LEGACY_MODEL_ENUM,
  LEGACY_SESSION_ID,
  LEGACY_TITLE,
  legacyLayoutSession,
  mainBlobData,
  PNG_1X1,
  parentReferenceRow,
  plannerPayload,
  RESUMED_PROMPTS,
  readSample,
  resumedSession120,
  runCommandPayload,
  S,
  SAMPLE_CWD,
  SAMPLE_MODEL_NAME,
  SRC,
  seedUserStep,
  stepRow,
  T,
  TOOLS_PROMPT,
  type ToolCallSpec,
  textPayload,
  toolsSession120,
  userInputPayload,
  viewFilePayload,
} from "../support/agy-fixtures.js";

const AT = "2026-09-10T10:00:00Z";

function read(body: AntigravityBody): Transcript<Common> {
  return toCommon({ meta: { id: body.id, timestamp: EPOCH }, body });
}

function bodyOf(steps: StepRow[], id = "conv-1"): AntigravityBody {
  return { ...emptyBody(id), steps };
}

const user = (idx: number, text: string, at = AT) =>
  stepRow({
    idx,
    type: T.USER_INPUT,
    status: S.DONE,
    meta: { at, source: SRC.USER_EXPLICIT },
    payload: userInputPayload(text),
  });

const planner = (
  idx: number,
  calls: ToolCallSpec[],
  extra: Parameters<typeof plannerPayload>[0] = {},
) =>
  stepRow({
    idx,
    type: T.PLANNER_RESPONSE,
    status: S.DONE,
    meta: { at: AT, source: SRC.MODEL },
    payload: plannerPayload({ calls, ...extra }),
  });

const call = (id: string, name = "list_dir", args: Record<string, unknown> | string = {}) => ({
  id,
  name,
  args,
});

/** A tool step of any kind executing `c`. */
const toolStep = (
  idx: number,
  type: number,
  status: number,
  c: ToolCallSpec,
  payload?: Uint8Array,
  extra: Partial<Parameters<typeof stepRow>[0]> = {},
) =>
  stepRow({
    idx,
    type,
    status,
    meta: { at: AT, source: SRC.MODEL, toolCall: c },
    ...(payload ? { payload } : {}),
    ...extra,
  });

function results(messages: Message[]): ToolResultBlock[] {
  return messages.flatMap((m) =>
    m.content.filter((b): b is ToolResultBlock => b.type === "tool_result"),
  );
}

function uses(messages: Message[]): ToolUseBlock[] {
  return messages.flatMap((m) => m.content.filter((b): b is ToolUseBlock => b.type === "tool_use"));
}

function resultOf(body: AntigravityBody, id: string): ToolResultBlock | undefined {
  return results(read(body).body).find((r) => r.tool_use_id === id);
}

describe("the seed's real step", () => {
  it("decodes to the user turn `Fix the flaky test` with its timestamp", () => {
    const c = read(bodyOf([seedUserStep()]));
    expect(c.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "Fix the flaky test" }],
        timestamp: "2025-08-10T10:00:00Z",
      },
    ]);
    expect(c.meta.timestamp).toBe("2025-08-10T10:00:00Z");
    expect(c.meta.title).toBe("Fix the flaky test");
  });
});

// ---------------------------------------------------------------------------
// The agy 1.2.0 samples: the database replicas decode to the turns the mirrors show.

interface Turn {
  role: "user" | "assistant";
  text?: string;
  thinking?: string;
  calls?: { name: string; args: unknown }[];
  results?: string[];
}

/** The turns a brain mirror shows: prompts unwrapped, GENERIC results without their time header. */
function mirrorTurns(text: string): Turn[] {
  const turns: Turn[] = [];
  for (const line of text.split("\n").filter((l) => l !== "")) {
    const o = JSON.parse(line) as Record<string, unknown>;
    const content = o.content as string | undefined;
    switch (o.type) {
      case "USER_INPUT": {
        const m = /^<USER_REQUEST>\n([\s\S]*?)\n<\/USER_REQUEST>/.exec(content ?? "");
        turns.push({ role: "user", text: m![1]! });
        break;
      }
      case "PLANNER_RESPONSE": {
        const t: Turn = { role: "assistant" };
        if (o.thinking !== undefined) t.thinking = o.thinking as string;
        if (content !== undefined) t.text = content;
        if (o.tool_calls !== undefined) t.calls = o.tool_calls as NonNullable<Turn["calls"]>;
        turns.push(t);
        break;
      }
      case "GENERIC":
        if (o.status === "DONE") {
          const result = content!.replace(/^Created At: [^\n]*\nCompleted At: [^\n]*\n/, "");
          turns.push({ role: "user", results: [result] });
        }
        break;
      default:
        break; // SYSTEM_MESSAGE and other bookkeeping: not a turn
    }
  }
  return turns;
}

/** The same shape from Common messages; tools back under agy's own names. */
function commonTurns(messages: Message[]): Turn[] {
  return messages.map((m) => {
    const t: Turn = { role: m.role };
    for (const b of m.content) {
      if (b.type === "text") t.text = b.text;
      if (b.type === "thinking") t.thinking = b.text;
      if (b.type === "tool_use") {
        const tool = b.tool;
        const entry =
          tool.name === "Raw"
            ? { name: tool.tool_name, args: tool.input }
            : tool.name === "Read"
              ? { name: "view_file", args: { AbsolutePath: tool.file_path } }
              : { name: tool.name, args: tool };
        t.calls = [...(t.calls ?? []), entry];
      }
      if (b.type === "tool_result") t.results = [...(t.results ?? []), b.content as string];
    }
    return t;
  });
}

describe("agy 1.2.0 samples (GENERIC layout)", () => {
  it("tools session: the replica decodes to the turns transcript_full.jsonl shows", () => {
    const c = read(toolsSession120());
    const shown = mirrorTurns(readSample("tools-1.2.0.transcript_full.jsonl"));
    // The failed view (step 4, ERROR) is not in the mirror; the database has it.
    const decoded = commonTurns(c.body);
    const failed = decoded.findIndex((t) => t.results?.[0]?.includes("missing.txt"));
    expect(failed).toBeGreaterThan(0);
    decoded.splice(failed, 1);
    expect(decoded.length).toBe(shown.length);
    decoded.forEach((turn, i) => {
      const want = shown[i]!;
      expect(turn.role).toBe(want.role);
      expect(turn.text).toBe(want.text);
      expect(turn.thinking).toBe(want.thinking);
      expect(turn.results).toEqual(want.results);
      // view_file calls become Read (display keys dropped); run_command with a
      // WaitMsBeforeAsync of 5000 stays Raw, arguments intact.
      (want.calls ?? []).forEach((wc, j) => {
        expect(turn.calls?.[j]?.name).toBe(wc.name);
        expect(wc.args).toMatchObject(turn.calls?.[j]?.args as object);
      });
      expect(turn.calls?.length ?? 0).toBe(want.calls?.length ?? 0);
    });
  });

  it("tools session: the failed view is an error result, the failed command says exit 1", () => {
    const c = read(toolsSession120());
    const all = results(c.body);
    expect(all.map((r) => r.tool_use_id)).toEqual(["call_1", "call_2", "call_3", "call_4"]);
    expect(all[1]).toEqual({
      type: "tool_result",
      tool_use_id: "call_2",
      content: `open ${SAMPLE_CWD}/missing.txt: no such file or directory`,
      is_error: true,
    });
    // 1.2.0 reports `false` as DONE with the exit status in the text.
    expect(all[2]!.content).toContain("The command exited with code 1.");
    expect(all[2]!.is_error).toBe(true);
    expect(all[0]!.is_error).toBeUndefined();
    expect(all[3]!.is_error).toBeUndefined();
  });

  it("tools session: meta from the main blob, model name from gen_metadata", () => {
    const c = read(toolsSession120());
    expect(c.meta).toEqual({
      id: "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
      timestamp: "2026-09-10T15:14:15Z",
      cwd: SAMPLE_CWD,
      title: `${Array.from(TOOLS_PROMPT).slice(0, 79).join("")}…`,
      model: SAMPLE_MODEL_NAME,
    });
    const assistant = c.body.filter((m) => m.role === "assistant");
    expect(assistant.every((m) => m.model === SAMPLE_MODEL_NAME)).toBe(true);
  });

  it("resumed session: the RUNNING step has no result, the restart notice is no message", () => {
    const c = read(resumedSession120());
    const shown = mirrorTurns(readSample("resumed-1.2.0.transcript_full.jsonl"));
    const decoded = commonTurns(c.body);
    expect(decoded.map((t) => t.role)).toEqual(shown.map((t) => t.role));
    expect(decoded.map((t) => t.text)).toEqual(shown.map((t) => t.text));
    expect(results(c.body)).toEqual([]);
    expect(uses(c.body).map((u) => u.id)).toEqual(["call_1"]);
    expect(c.body.filter((m) => m.role === "user").map((m) => m.content[0])).toEqual(
      RESUMED_PROMPTS.map((text) => ({ type: "text", text })),
    );
    // WaitMsBeforeAsync 1000 is not the CLI constant: the call stays Raw.
    expect(uses(c.body)[0]!.tool).toMatchObject({ name: "Raw", tool_name: "run_command" });
  });
});

// ---------------------------------------------------------------------------

describe("agy 1.0.x typed layout", () => {
  const c = read(legacyLayoutSession());
  const byId = new Map(results(c.body).map((r) => [r.tool_use_id, r]));

  it("reads the prompt with its image, thinking with signature, text and every call", () => {
    expect(c.body[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "The login test is flaky" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_1X1 } },
      ],
      timestamp: "2026-08-10T12:00:00.250Z",
    });
    const first = c.body[1]!;
    expect(first.content.slice(0, 2)).toEqual([
      { type: "thinking", text: "Check the test first.", signature: "EqQBCkYIBxgCKkB" },
      { type: "text", text: "Looking." },
    ]);
    expect(first.usage).toEqual({
      input_tokens: 1200,
      output_tokens: 80,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 10,
    });
    expect(first.model).toBe(`model-${LEGACY_MODEL_ENUM}`);
    expect(first.stop_reason).toBe("tool_use");
  });

  it("normalizes native tools and drops display keys only from typed calls", () => {
    const tools = Object.fromEntries(uses(c.body).map((u) => [u.id, u.tool]));
    expect(tools.igay6rl3).toEqual({
      name: "Bash",
      command: "npm test -- login",
      workdir: LEGACY_CWD,
    });
    expect(tools.k2mfa9qz).toEqual({
      name: "Read",
      file_path: `${LEGACY_CWD}/test/login.ts`,
      offset: 10,
      limit: 20,
    });
    expect(tools.w9c4ej2s).toEqual({
      name: "Write",
      file_path: `${LEGACY_CWD}/notes.md`,
      content: "# notes\n",
    });
    expect(tools.e5r1ty7u).toEqual({
      name: "Edit",
      file_path: `${LEGACY_CWD}/test/login.ts`,
      old_string: "sleep(10)",
      new_string: "await ready()",
      replace_all: true,
    });
    expect(tools.p0d8xw1c).toEqual({
      name: "Raw",
      tool_name: "list_dir",
      input: { DirectoryPath: LEGACY_CWD },
    });
    expect(tools.m1c2p3t4).toEqual({
      name: "Raw",
      tool_name: "mcp_github_search_issues",
      input: { q: "flaky login" },
    });
  });

  it("groups consecutive results into one user message, in step order", () => {
    const m = c.body[2]!;
    expect(m.role).toBe("user");
    expect(m.content.map((b) => (b as ToolResultBlock).tool_use_id)).toEqual([
      "igay6rl3",
      "k2mfa9qz",
      "p0d8xw1c",
      "b7nq2lhe",
      "u3vt6yro",
      "w9c4ej2s",
      "e5r1ty7u",
      "m1c2p3t4",
    ]);
    expect(m.timestamp).toBe("2026-08-10T12:00:02.250Z");
  });

  it("reads each typed result kind", () => {
    expect(byId.get("igay6rl3")).toMatchObject({ content: "1 failing\n", is_error: true });
    expect(byId.get("k2mfa9qz")!.content).toBe("test('login', async () => {\n  sleep(10);\n});\n");
    expect(byId.get("p0d8xw1c")!.content).toEqual({
      path: LEGACY_CWD,
      entries: [
        { name: "src", is_dir: true },
        { name: "package.json", size_bytes: 612 },
      ],
    });
    expect(byId.get("b7nq2lhe")).toEqual({
      type: "tool_result",
      tool_use_id: "b7nq2lhe",
      content: "test/login.ts:12:  sleep(10);\n",
    });
    expect(byId.get("u3vt6yro")).toMatchObject({
      content: "regex parse error: unclosed character class",
      is_error: true,
    });
    expect(byId.get("w9c4ej2s")!.content).toEqual({
      file: `${LEGACY_CWD}/notes.md`,
      created: true,
    });
    expect(byId.get("e5r1ty7u")!.content).toEqual({
      file: `${LEGACY_CWD}/test/login.ts`,
      edited: true,
    });
    expect(byId.get("m1c2p3t4")!.content).toBe("3 issues");
    expect(byId.get("r8s7d6f5")).toEqual({
      type: "tool_result",
      tool_use_id: "r8s7d6f5",
      content: "12 passing\n",
    });
  });

  it("drops the checkpoint from messages and takes its title; cwd percent-decoded; branch", () => {
    expect(c.body.every((m) => m.content.length > 0)).toBe(true);
    expect(c.body.length).toBe(6);
    expect(c.meta).toEqual({
      id: LEGACY_SESSION_ID,
      timestamp: "2026-08-10T12:00:00.250Z",
      cwd: LEGACY_CWD,
      git_branch: LEGACY_BRANCH,
      title: LEGACY_TITLE,
      model: `model-${LEGACY_MODEL_ENUM}`,
    });
    expect(c.body[5]).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Fixed: the test now waits for readiness." }],
      stop_reason: "end_turn",
    });
  });
});

// ---------------------------------------------------------------------------

describe("statuses and pairing", () => {
  const c1 = call("c1");
  it.each([
    ["PENDING", S.PENDING],
    ["RUNNING", S.RUNNING],
    ["GENERATING", S.GENERATING],
    ["WAITING", S.WAITING],
    ["QUEUED", S.QUEUED],
  ])("an in-flight status (%s) gives no result yet", (_, status) => {
    const body = bodyOf([
      planner(0, [c1]),
      toolStep(1, T.GENERIC, status, c1, genericPayload("x")),
    ]);
    expect(results(read(body).body)).toEqual([]);
    expect(uses(read(body).body).map((u) => u.id)).toEqual(["c1"]);
  });

  it.each([
    ["CANCELED", S.CANCELED],
    ["ERROR", S.ERROR],
    ["INTERRUPTED", S.INTERRUPTED],
  ])("a settled failure (%s) gives an error result", (_, status) => {
    const body = bodyOf([
      planner(0, [c1]),
      toolStep(1, T.GENERIC, status, c1, genericPayload("partial")),
    ]);
    expect(resultOf(body, "c1")).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      content: "partial",
      is_error: true,
    });
  });

  it("pairs by call id, not by position, and keeps the first of two results for one call", () => {
    const a = call("a");
    const b = call("b");
    const body = bodyOf([
      planner(0, [a, b]),
      toolStep(1, T.GENERIC, S.DONE, b, genericPayload("for b")),
      toolStep(2, T.GENERIC, S.DONE, a, genericPayload("for a")),
      toolStep(3, T.GENERIC, S.DONE, a, genericPayload("replayed")),
    ]);
    const got = results(read(body).body);
    expect(got.map((r) => [r.tool_use_id, r.content])).toEqual([
      ["b", "for b"],
      ["a", "for a"],
    ]);
  });

  it("sorts steps by idx whatever their row order", () => {
    const body = bodyOf([user(2, "second"), user(0, "first"), user(1, "middle")]);
    expect(read(body).body.map((m) => (m.content[0] as { text: string }).text)).toEqual([
      "first",
      "middle",
      "second",
    ]);
  });

  it("a step with a tool call but no call id, or no tool call at all, is no result", () => {
    const body = bodyOf([
      planner(0, [call("x")]),
      toolStep(1, T.GENERIC, S.DONE, call(""), genericPayload("no id")),
      stepRow({
        idx: 2,
        type: T.GENERIC,
        status: S.DONE,
        meta: { at: AT },
        payload: genericPayload("no call"),
      }),
    ]);
    expect(results(read(body).body)).toEqual([]);
  });
});

describe("error details", () => {
  const c1 = call("c1", "view_file", { AbsolutePath: "/x" });
  it("prefer the model-facing message, then full, short, user-facing; they replace the content", () => {
    const cases: [Parameters<typeof errorDetails>[0], string][] = [
      [{ user: "u", short: "s", full: "f", model: "m" }, "m"],
      [{ user: "u", short: "s", full: "f" }, "f"],
      [{ user: "u", short: "s" }, "s"],
      [{ user: "u" }, "u"],
      [{ user: "u", model: "   " }, "u"],
    ];
    for (const [details, want] of cases) {
      const body = bodyOf([
        planner(0, [c1]),
        toolStep(1, T.VIEW_FILE, S.DONE, c1, viewFilePayload({ path: "/x", content: "body" }), {
          errorDetails: errorDetails(details),
        }),
      ]);
      expect(resultOf(body, "c1")).toEqual({
        type: "tool_result",
        tool_use_id: "c1",
        content: want,
        is_error: true,
      });
    }
  });

  it("are read from Step field 31 when the error_details column is empty", () => {
    const row = toolStep(
      1,
      T.VIEW_FILE,
      S.DONE,
      c1,
      viewFilePayload({ path: "/x", content: "x" }),
      {
        errorDetails: errorDetails({ short: "denied" }),
      },
    );
    row.error_details = null;
    expect(resultOf(bodyOf([planner(0, [c1]), row]), "c1")).toMatchObject({
      content: "denied",
      is_error: true,
    });
  });

  it("blank details are no error", () => {
    const body = bodyOf([
      planner(0, [c1]),
      toolStep(1, T.VIEW_FILE, S.DONE, c1, viewFilePayload({ path: "/x", content: "ok" }), {
        errorDetails: errorDetails({ user: " \n" }),
      }),
    ]);
    expect(resultOf(body, "c1")).toEqual({ type: "tool_result", tool_use_id: "c1", content: "ok" });
  });
});

describe("result kinds", () => {
  const run = call("r", "run_command", { CommandLine: "make", WaitMsBeforeAsync: 2000 });
  const runStep = (payload: Uint8Array) =>
    bodyOf([planner(0, [run]), toolStep(1, T.RUN_COMMAND, S.DONE, run, payload)]);

  it("RUN_COMMAND text: combined 21.1, then stdout 19.1, then the older field 4", () => {
    expect(
      resultOf(
        runStep(
          runCommandPayload({
            command: "make",
            output: "combined",
            stdout: "out",
            legacyOutput: "old",
          }),
        ),
        "r",
      )!.content,
    ).toBe("combined");
    expect(
      resultOf(
        runStep(runCommandPayload({ command: "make", stdout: "out", legacyOutput: "old" })),
        "r",
      )!.content,
    ).toBe("out");
    expect(
      resultOf(runStep(runCommandPayload({ command: "make", legacyOutput: "old" })), "r")!.content,
    ).toBe("old");
    expect(resultOf(runStep(runCommandPayload({ command: "make" })), "r")!.content).toBe("");
  });

  it("RUN_COMMAND: a non-zero (also negative) exit code is an error, zero is not", () => {
    expect(
      resultOf(runStep(runCommandPayload({ command: "make", output: "x", exitCode: 2 })), "r")!
        .is_error,
    ).toBe(true);
    expect(
      resultOf(runStep(runCommandPayload({ command: "make", output: "x", exitCode: -1 })), "r")!
        .is_error,
    ).toBe(true);
    expect(
      resultOf(runStep(runCommandPayload({ command: "make", output: "x", exitCode: 0 })), "r")!
        .is_error,
    ).toBeUndefined();
  });

  it("VIEW_FILE: content, else raw content", () => {
    const v = call("v", "view_file", { AbsolutePath: "/a" });
    const body = (p: Uint8Array) =>
      bodyOf([planner(0, [v]), toolStep(1, T.VIEW_FILE, S.DONE, v, p)]);
    expect(
      resultOf(body(viewFilePayload({ path: "/a", content: "c", rawContent: "r" })), "v")!.content,
    ).toBe("c");
    expect(resultOf(body(viewFilePayload({ path: "/a", rawContent: "r" })), "v")!.content).toBe(
      "r",
    );
  });

  it("GREP_SEARCH and FIND: the output, or their error marked as one", () => {
    const g = call("g", "grep_search");
    const f = call("f", "find_by_name");
    const body = bodyOf([
      planner(0, [g, f]),
      toolStep(1, T.GREP_SEARCH, S.DONE, g, grepPayload({ output: "a:1", error: "" })),
      toolStep(2, T.FIND, S.DONE, f, findPayload({ pattern: "*.ts", error: "bad glob" })),
    ]);
    expect(resultOf(body, "g")).toEqual({ type: "tool_result", tool_use_id: "g", content: "a:1" });
    expect(resultOf(body, "f")).toMatchObject({ content: "bad glob", is_error: true });
    const ok = bodyOf([
      planner(0, [f]),
      toolStep(1, T.FIND, S.DONE, f, findPayload({ pattern: "*", output: "x.ts\ny.ts" })),
    ]);
    expect(resultOf(ok, "f")).toEqual({
      type: "tool_result",
      tool_use_id: "f",
      content: "x.ts\ny.ts",
    });
  });

  it("CODE_ACTION without a result section takes the path from the action spec", () => {
    const w = call("w", "write_to_file", { TargetFile: "/a b/n.md", CodeContent: "x" });
    const body = bodyOf([
      planner(0, [w]),
      toolStep(
        1,
        T.CODE_ACTION,
        S.DONE,
        w,
        codeActionPayload({ create: true, path: "/a%20b/n.md", content: "x", done: false }),
      ),
    ]);
    expect(resultOf(body, "w")!.content).toEqual({ file: "/a b/n.md", created: true });
  });

  it("GENERIC: JSON objects and arrays come back as JSON, anything else as text", () => {
    const cases: [string, unknown][] = [
      ['{"a": [1, 2]}', { a: [1, 2] }],
      [' [{"type":"text","text":"hi"}]', [{ type: "text", text: "hi" }]],
      ["42", "42"],
      ['"quoted"', '"quoted"'],
      ["{not json", "{not json"],
      ["", ""],
    ];
    for (const [text, want] of cases) {
      const x = call("x", "mcp_tool");
      const body = bodyOf([
        planner(0, [x]),
        toolStep(1, T.GENERIC, S.DONE, x, genericPayload(text)),
      ]);
      expect(resultOf(body, "x")!.content).toEqual(want);
    }
  });

  it("GENERIC run_command: the exit status in the result text marks an error (1.2.0)", () => {
    const r = call("r", "run_command", { CommandLine: "x", WaitMsBeforeAsync: 1000 });
    const o = call("o", "other_tool");
    const body = bodyOf([
      planner(0, [r, o]),
      toolStep(
        1,
        T.GENERIC,
        S.DONE,
        r,
        genericPayload("\nThe command exited with code 127.\nOutput:\n"),
      ),
      toolStep(2, T.GENERIC, S.DONE, o, genericPayload("The command exited with code 1.")),
    ]);
    expect(resultOf(body, "r")!.is_error).toBe(true);
    expect(resultOf(body, "o")!.is_error).toBeUndefined();
  });

  it("AGENCY_TOOL_CALL: the ToolResponse result JSON", () => {
    const a = call("a", "browser_open");
    const body = bodyOf([
      planner(0, [a]),
      toolStep(
        1,
        T.AGENCY_TOOL_CALL,
        S.DONE,
        a,
        agencyToolCallPayload("browser_open", [{ tool: "browser_open", json: '{"ok":true}' }]),
      ),
    ]);
    expect(resultOf(body, "a")!.content).toEqual({ ok: true });
    const two = bodyOf([
      planner(0, [a]),
      toolStep(
        1,
        T.AGENCY_TOOL_CALL,
        S.DONE,
        a,
        agencyToolCallPayload("f", [
          { tool: "f", json: "plain" },
          { tool: "f", json: "[1]" },
        ]),
      ),
    ]);
    expect(resultOf(two, "a")!.content).toEqual(["plain", [1]]);
  });

  it("ERROR_MESSAGE: the result of its call when it has one, else an assistant error turn", () => {
    const e = call("e", "run_command");
    const withCall = bodyOf([
      planner(0, [e]),
      toolStep(
        1,
        T.ERROR_MESSAGE,
        S.DONE,
        e,
        errorMessagePayload(errorDetails({ user: "quota exceeded" })),
      ),
    ]);
    expect(resultOf(withCall, "e")).toEqual({
      type: "tool_result",
      tool_use_id: "e",
      content: "quota exceeded",
      is_error: true,
    });
    const alone = bodyOf([
      user(0, "hi"),
      stepRow({
        idx: 1,
        type: T.ERROR_MESSAGE,
        status: S.DONE,
        meta: { at: AT, source: SRC.SYSTEM },
        payload: errorMessagePayload(errorDetails({ model: "model overloaded" })),
      }),
    ]);
    expect(read(alone).body[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "model overloaded" }],
      timestamp: AT,
      stop_reason: "error",
    });
  });

  it("an unknown step kind with a call and a final status is that call's empty result", () => {
    const u = call("u", "future_tool");
    const body = bodyOf([
      planner(0, [u]),
      toolStep(1, 999, S.DONE, u, undefined, { extra: (w) => w.string(1010, "unmodeled") }),
    ]);
    expect(resultOf(body, "u")).toEqual({ type: "tool_result", tool_use_id: "u", content: "" });
    // Without a call it is kept in the Body but yields nothing.
    const lone = bodyOf([stepRow({ idx: 0, type: 999, status: S.DONE, meta: { at: AT } })]);
    expect(read(lone).body).toEqual([]);
  });

  it("bookkeeping steps are never messages, even with text", () => {
    const body = bodyOf([
      user(0, "hi"),
      stepRow({
        idx: 1,
        type: T.SYSTEM_MESSAGE,
        status: S.DONE,
        meta: { at: AT },
        payload: textPayload("notice"),
      }),
      stepRow({
        idx: 2,
        type: T.EPHEMERAL_MESSAGE,
        status: S.DONE,
        meta: { at: AT },
        payload: textPayload("eph"),
      }),
      stepRow({
        idx: 3,
        type: T.CONVERSATION_HISTORY,
        status: S.DONE,
        meta: { at: AT },
        payload: textPayload("hist"),
      }),
      stepRow({
        idx: 4,
        type: T.CHECKPOINT,
        status: S.DONE,
        meta: { at: AT },
        payload: checkpointPayload({ title: "T" }),
      }),
    ]);
    expect(read(body).body.length).toBe(1);
  });

  it("results stay grouped across bookkeeping and in-flight steps, and split at a turn", () => {
    const a = call("a");
    const b = call("b");
    const p = call("p");
    const body = bodyOf([
      planner(0, [a, p, b]),
      toolStep(1, T.GENERIC, S.DONE, a, genericPayload("A")),
      stepRow({
        idx: 2,
        type: T.EPHEMERAL_MESSAGE,
        status: S.DONE,
        meta: { at: AT },
        payload: textPayload("eph"),
      }),
      toolStep(3, T.GENERIC, S.RUNNING, p, genericPayload("...")),
      toolStep(4, T.GENERIC, S.DONE, b, genericPayload("B")),
      user(5, "next"),
    ]);
    const c = read(body);
    expect(c.body.map((m) => m.content.map((x) => x.type))).toEqual([
      ["tool_use", "tool_use", "tool_use"],
      ["tool_result", "tool_result"],
      ["text"],
    ]);
  });
});

describe("user input", () => {
  it("text precedence: user_response, else the first non-blank item, else query; kept as written", () => {
    const input = (build: Parameters<typeof encode>[0]) =>
      read(
        bodyOf([
          stepRow({
            idx: 0,
            type: T.USER_INPUT,
            status: S.DONE,
            meta: { at: AT },
            payload: encode(build),
          }),
        ]),
      ).body[0]?.content[0];
    expect(
      input((w) =>
        w
          .string(1, "q")
          .string(2, "  spaced\n")
          .message(3, (i) => i.string(1, "item")),
      ),
    ).toEqual({ type: "text", text: "  spaced\n" });
    expect(
      input((w) =>
        w
          .string(1, "q")
          .string(2, " ")
          .message(3, (i) => i.string(1, ""))
          .message(3, (i) => i.string(1, "second")),
      ),
    ).toEqual({ type: "text", text: "second" });
    expect(input((w) => w.string(1, "the query").string(2, ""))).toEqual({
      type: "text",
      text: "the query",
    });
    expect(input((w) => w.string(1, "  "))).toBeUndefined();
  });

  it("images default to image/png; media become images or artifacts", () => {
    const payload = encode((w) => {
      w.string(2, "look");
      w.message(5, (i) => i.string(1, "AAAA"));
      w.message(5, (i) => i.string(1, "BBBB").string(2, "image/jpeg"));
      w.message(9, (m) => m.string(1, "image/gif").bytes(2, new Uint8Array([1, 2, 3])));
      w.message(9, (m) =>
        m
          .string(1, "application/pdf")
          .bytes(2, new Uint8Array([37, 80]))
          .string(5, "file:///tmp/a%20b.pdf"),
      );
      w.message(9, (m) => m.string(1, "text/plain").string(5, "file:///tmp/notes.txt"));
    });
    const m = read(
      bodyOf([stepRow({ idx: 3, type: T.USER_INPUT, status: S.DONE, meta: { at: AT }, payload })]),
    ).body[0]!;
    expect(m.content).toEqual<Block[]>([
      { type: "text", text: "look" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } },
      { type: "image", source: { type: "base64", media_type: "image/gif", data: "AQID" } },
      {
        type: "artifact",
        artifact: {
          id: "media-3-4",
          name: "a b.pdf",
          source: { type: "base64", data: "JVA=", media_type: "application/pdf" },
        },
      },
      {
        type: "artifact",
        artifact: {
          id: "media-3-5",
          name: "notes.txt",
          source: { type: "path", path: "/tmp/notes.txt", media_type: "text/plain" },
        },
      },
    ]);
  });

  it("an image-only prompt is a message; an empty one is not", () => {
    const img = userInputPayload("", { images: [{ data: PNG_1X1 }] });
    const c = read(
      bodyOf([
        stepRow({ idx: 0, type: T.USER_INPUT, status: S.DONE, meta: { at: AT }, payload: img }),
        stepRow({
          idx: 1,
          type: T.USER_INPUT,
          status: S.DONE,
          meta: { at: AT },
          payload: userInputPayload(""),
        }),
      ]),
    );
    expect(c.body.length).toBe(1);
    expect(c.body[0]!.content.map((b) => b.type)).toEqual(["image"]);
  });
});

describe("planner", () => {
  const plan = (
    p: Parameters<typeof plannerPayload>[0],
    meta: Parameters<typeof stepRow>[0]["meta"] = { at: AT },
  ) =>
    read(
      bodyOf([
        stepRow({
          idx: 0,
          type: T.PLANNER_RESPONSE,
          status: S.DONE,
          meta,
          payload: plannerPayload(p),
        }),
      ]),
    ).body[0];

  it("blank thinking and text are no blocks; a planner with nothing is no message", () => {
    expect(plan({ thinking: " \n", response: "hi" })!.content).toEqual([
      { type: "text", text: "hi" },
    ]);
    expect(plan({ thinking: "why", signature: "" })!.content).toEqual([
      { type: "thinking", text: "why" },
    ]);
    expect(plan({ thinking: "", response: "  " })).toBeUndefined();
  });

  it.each([
    [2, "end_turn"],
    [3, "max_tokens"],
    [10, "tool_use"],
    [13, "error"],
    [16, "aborted"],
    [7, { other: "stop-7" }],
  ])("stop reason %s reads as %j", (n, want) => {
    expect(plan({ response: "x", stop: n })!.stop_reason).toEqual(want);
  });

  it("usage only when input or output is non-zero; cache counters only when non-zero", () => {
    expect(
      plan({ response: "x" }, { at: AT, usage: { input: 0, output: 0, cacheRead: 5 } })!.usage,
    ).toBeUndefined();
    expect(
      plan(
        { response: "x" },
        { at: AT, usage: { input: 0, output: 3, cacheRead: 0, cacheWrite: 0 } },
      )!.usage,
    ).toEqual({ input_tokens: 0, output_tokens: 3 });
  });

  it("model: gen_metadata's readable name for that enum, else model-<n>", () => {
    const body = bodyOf([
      stepRow({
        idx: 0,
        type: T.PLANNER_RESPONSE,
        status: S.DONE,
        meta: { at: AT, model: 1018 },
        payload: plannerPayload({ response: "a" }),
      }),
      stepRow({
        idx: 1,
        type: T.PLANNER_RESPONSE,
        status: S.DONE,
        meta: { at: AT, model: 1020 },
        payload: plannerPayload({ response: "b" }),
      }),
    ]);
    body.gen_metadata = [genMetadataRow(0, { name: "gemini-3.8-flash", model: 1018 })];
    const c = read(body);
    expect(c.body.map((m) => m.model)).toEqual(["gemini-3.8-flash", "model-1020"]);
    // The session model is the latest gen_metadata row's name.
    expect(c.meta.model).toBe("gemini-3.8-flash");
  });

  it("tool arguments that are not JSON stay Raw with the original string; a missing id is minted", () => {
    const m = plan({ calls: [{ id: "", name: "run_command", args: "{broken" }] })!;
    expect(m.content).toEqual([
      {
        type: "tool_use",
        id: "call-0-0",
        tool: { name: "Raw", tool_name: "run_command", input: "{broken" },
      },
    ]);
  });
});

describe("tool normalization", () => {
  it("run_command: Bash only with the CLI's WaitMsBeforeAsync (or none) and no other key", () => {
    expect(
      nativeTool("run_command", {
        CommandLine: "ls",
        Cwd: "/w",
        WaitMsBeforeAsync: 2000,
        toolAction: "a",
        toolSummary: "s",
      }),
    ).toEqual({ name: "Bash", command: "ls", workdir: "/w" });
    expect(nativeTool("run_command", { CommandLine: "ls" })).toEqual({
      name: "Bash",
      command: "ls",
    });
    const waits = { CommandLine: "ls", WaitMsBeforeAsync: 5000, toolAction: "a" };
    expect(nativeTool("run_command", waits)).toEqual({
      name: "Raw",
      tool_name: "run_command",
      input: waits,
    });
    const extra = { CommandLine: "ls", Blocking: true };
    expect(nativeTool("run_command", extra)).toEqual({
      name: "Raw",
      tool_name: "run_command",
      input: extra,
    });
    expect(nativeTool("run_command", { CommandLine: 5 }).name).toBe("Raw");
  });

  it("view_file: inclusive EndLine becomes limit; an inverted range stays Raw", () => {
    expect(nativeTool("view_file", { AbsolutePath: "/a", StartLine: 5, EndLine: 5 })).toEqual({
      name: "Read",
      file_path: "/a",
      offset: 5,
      limit: 1,
    });
    expect(nativeTool("view_file", { AbsolutePath: "/a", EndLine: 9 })).toEqual({
      name: "Read",
      file_path: "/a",
      limit: 9,
    });
    expect(nativeTool("view_file", { AbsolutePath: "/a", StartLine: 9, EndLine: 3 }).name).toBe(
      "Raw",
    );
    expect(nativeTool("view_file", { AbsolutePath: "/a", StartLine: -1 }).name).toBe("Raw");
  });

  it("write_to_file: Overwrite false cannot be a Write", () => {
    expect(
      nativeTool("write_to_file", {
        TargetFile: "/a",
        CodeContent: "x",
        Overwrite: true,
        Description: "d",
      }),
    ).toEqual({ name: "Write", file_path: "/a", content: "x" });
    expect(
      nativeTool("write_to_file", { TargetFile: "/a", CodeContent: "x", Overwrite: false }).name,
    ).toBe("Raw");
  });

  it("replace_file_content: AllowMultiple true is replace_all; line hints are dropped", () => {
    expect(
      nativeTool("replace_file_content", {
        TargetFile: "/a",
        TargetContent: "o",
        ReplacementContent: "n",
        AllowMultiple: false,
        StartLine: 1,
        EndLine: 2,
      }),
    ).toEqual({ name: "Edit", file_path: "/a", old_string: "o", new_string: "n" });
    expect(
      nativeTool("replace_file_content", {
        TargetFile: "/a",
        TargetContent: "o",
        ReplacementContent: "n",
        ReplacementChunks: [],
      }).name,
    ).toBe("Raw");
  });

  it("canonical names come back typed; other names stay Raw", () => {
    expect(nativeTool("Bash", { command: "ls" })).toEqual({ name: "Bash", command: "ls" });
    expect(nativeTool("/review", { args: "--fast" })).toEqual({
      name: "Command",
      command: "/review",
      args: "--fast",
    });
    expect(nativeTool("list_dir", { DirectoryPath: "/" })).toEqual({
      name: "Raw",
      tool_name: "list_dir",
      input: { DirectoryPath: "/" },
    });
  });
});

describe("meta", () => {
  it("id: cascade id, else the main blob's conversation id, else the db stem", () => {
    const b = bodyOf([user(0, "x")], "stem-id");
    expect(read(b).meta.id).toBe("stem-id");
    b.trajectory_metadata_blob = [
      { id: "main", data: mainBlobData({ conversationId: "blob-id" }) },
    ];
    expect(read(b).meta.id).toBe("blob-id");
    b.trajectory_meta = [
      { trajectory_id: "t", cascade_id: "cascade-id", trajectory_type: 4, source: 17 },
    ];
    expect(read(b).meta.id).toBe("cascade-id");
  });

  it("created-at: the main blob's, else the first step's", () => {
    const b = bodyOf([
      user(1, "later", "2026-01-01T00:00:09Z"),
      user(0, "first", "2026-01-01T00:00:05.5Z"),
    ]);
    expect(read(b).meta.timestamp).toBe("2026-01-01T00:00:05.500Z");
    b.trajectory_metadata_blob = [
      { id: "main", data: mainBlobData({ createdAt: "2025-12-31T23:59:59.123456789Z" }) },
    ];
    expect(read(b).meta.timestamp).toBe("2025-12-31T23:59:59.123456789Z");
  });

  it("cwd from workspace URIs: percent-decoded; file:///C:/x reads as C:/x", () => {
    const cwd = (uri: string) => {
      const b = bodyOf([]);
      b.trajectory_metadata_blob = [
        { id: "main", data: encode((w) => w.message(1, (ws) => ws.string(1, uri))) },
      ];
      return read(b).meta.cwd;
    };
    expect(cwd("file:///home/al/my%20app")).toBe("/home/al/my app");
    expect(cwd("file:///C:/Users/al/proj")).toBe("C:/Users/al/proj");
    expect(cwd("file:///tmp/100%25")).toBe("/tmp/100%");
    expect(cwd("file:///tmp/bad%zz")).toBe("/tmp/bad%zz");
    // Field 7 when the workspace message has no URI.
    const b = bodyOf([]);
    b.trajectory_metadata_blob = [
      { id: "main", data: encode((w) => w.string(7, "file:///srv/x")) },
    ];
    expect(read(b).meta.cwd).toBe("/srv/x");
  });

  it("title: the latest checkpoint's title, else its intent, else the first prompt cut to 80 code points", () => {
    const long = `${"word ".repeat(10)}\n\n  ${"🙂".repeat(60)}`;
    const b = bodyOf([user(0, long), user(1, "second prompt")]);
    const title = read(b).meta.title!;
    expect(Array.from(title).length).toBe(80);
    expect(title.endsWith("…")).toBe(true);
    expect(title.startsWith("word word")).toBe(true);
    expect(title).not.toMatch(/\s{2}|\n/);
    const cp = (idx: number, p: Parameters<typeof checkpointPayload>[0]) =>
      stepRow({
        idx,
        type: T.CHECKPOINT,
        status: S.DONE,
        meta: { at: AT },
        payload: checkpointPayload(p),
      });
    b.steps.push(cp(2, { title: "old title" }), cp(3, { intent: "the intent" }));
    expect(read(b).meta.title).toBe("the intent");
    b.steps.push(cp(4, { title: "new title", intent: "ignored" }));
    expect(read(b).meta.title).toBe("new title");
    expect(read(bodyOf([user(0, "short one")])).meta.title).toBe("short one");
  });

  it("fills what the Body does not say from the transcript's meta", () => {
    const body = bodyOf([]);
    const c = toCommon({
      meta: { id: "x", timestamp: "2026-01-01T00:00:00Z", cwd: "/given", cli_version: "1.2.0" },
      body,
    });
    expect(c.meta).toEqual({
      id: "conv-1",
      timestamp: "2026-01-01T00:00:00Z",
      cwd: "/given",
      cli_version: "1.2.0",
    });
  });
});

describe("lineage", () => {
  it("a subagent names its parent; a fork names where it came from", () => {
    const sub = bodyOf([]);
    sub.trajectory_metadata_blob = [
      {
        id: "main",
        data: mainBlobData({ parentConversationId: "parent-1", conversationId: "root-1" }),
      },
    ];
    expect(antigravityLineage(sub)).toEqual({ parent_id: "parent-1", references: [] });

    const fork = bodyOf([]);
    fork.parent_references = [
      parentReferenceRow(0, { trajectoryId: "t0", step: 12, type: 2, conversationId: "origin-1" }),
    ];
    expect(antigravityLineage(fork)).toEqual({
      forked_from: "origin-1",
      references: [{ trajectory_id: "t0", step_index: 12, type: 2, conversation_id: "origin-1" }],
    });

    const subFork = bodyOf([]);
    subFork.parent_references = [parentReferenceRow(0, { type: 6, conversationId: "parent-2" })];
    expect(antigravityLineage(subFork).parent_id).toBe("parent-2");
  });
});

describe("the Body is read, never changed", () => {
  it("toCommon leaves every row and blob as it found it", () => {
    const body = legacyLayoutSession();
    const before = structuredClone(body);
    read(body);
    expect(body).toEqual(before);
  });

  it("reads blobs that are views into a larger buffer (as SQLite drivers return them)", () => {
    const body = legacyLayoutSession();
    const want = read(body);
    const slab = Buffer.alloc(1 << 20, 0xee);
    let at = 7;
    const relocate = (b: Uint8Array | null) => {
      if (b === null) return null;
      const view = slab.subarray(at, at + b.length);
      view.set(b);
      at += b.length + 3;
      return view;
    };
    for (const row of body.steps) {
      row.step_payload = relocate(row.step_payload);
      row.metadata = relocate(row.metadata);
    }
    body.trajectory_metadata_blob = body.trajectory_metadata_blob.map((r) => ({
      ...r,
      data: relocate(r.data),
    }));
    expect(read(body)).toEqual(want);
  });
});

describe("corrupt input", () => {
  it("a corrupt blob decodes to its readable prefix and never throws", () => {
    const body = legacyLayoutSession();
    for (const [i, row] of body.steps.entries()) {
      const p = row.step_payload!;
      row.step_payload = p.subarray(0, Math.floor((p.length * (i + 1)) / (body.steps.length + 1)));
      row.metadata = new Uint8Array([0xff, 0xff, 0xff]);
    }
    body.trajectory_metadata_blob = [{ id: "main", data: new Uint8Array([0x0a, 0x40, 0x01]) }];
    body.gen_metadata = [{ idx: 0, data: new Uint8Array([0x0a]), size: 1 }];
    const c = read(body);
    expect(c.meta.id).toBe(LEGACY_SESSION_ID);
    expect(Array.isArray(c.body)).toBe(true);
  });

  it("arguments or results nested deeper than 512 levels stay text (no stack overflow later)", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const c = call("d", "mcp_tool", deep);
    const body = bodyOf([planner(0, [c]), toolStep(1, T.GENERIC, S.DONE, c, genericPayload(deep))]);
    const common = read(body);
    expect(uses(common.body)[0]!.tool).toEqual({ name: "Raw", tool_name: "mcp_tool", input: deep });
    expect(resultOf(body, "d")!.content).toBe(deep);
    expect(() => renderCommon(common)).not.toThrow();
    const ok = `${"[".repeat(500)}${"]".repeat(500)}`;
    const fine = bodyOf([planner(0, [call("o", "t", ok)])]);
    expect(uses(read(fine).body)[0]!.tool).toMatchObject({
      name: "Raw",
      input: [expect.anything()],
    });
  });

  it("flipped and cut bytes in real-shaped steps: toCommon, Common JSON and fromCommon never throw", () => {
    const bases = [legacyLayoutSession(), toolsSession120(), resumedSession120()];
    const edit = fc.record({
      base: fc.nat({ max: bases.length - 1 }),
      edits: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 6,
      }),
      cut: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
    });
    fc.assert(
      fc.property(edit, ({ base, edits, cut }) => {
        const body = structuredClone(bases[base]!);
        for (const [row, at, value] of edits) {
          const step = body.steps[row % body.steps.length]!;
          const bytes = new Uint8Array(step.step_payload!);
          bytes[at % bytes.length] = value;
          step.step_payload = bytes;
        }
        if (cut) {
          const step = body.steps[cut[0] % body.steps.length]!;
          step.step_payload = step.step_payload!.subarray(
            0,
            cut[1] % (step.step_payload!.length + 1),
          );
        }
        const common = read(body);
        renderCommon(common);
        fromCommon(common);
      }),
      { numRuns: 300 },
    );
  });

  it("random bytes in every blob column never throw", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 300; round++) {
      const junk = () => new Uint8Array(Array.from({ length: rand() % 60 }, () => rand() % 256));
      const rows: StepRow[] = Array.from({ length: 6 }, (_, idx) => ({
        idx,
        step_type: [14, 15, 21, 132, 8, 5, 17, 103, 999][rand() % 9]!,
        status: rand() % 13,
        has_subtrajectory: false,
        metadata: junk(),
        error_details: junk(),
        permissions: null,
        task_details: null,
        render_info: null,
        step_payload: junk(),
        step_format: 0,
      }));
      const body = bodyOf(rows);
      body.trajectory_metadata_blob = [{ id: "main", data: junk() }];
      body.parent_references = [{ idx: 0, data: junk() }];
      body.gen_metadata = [{ idx: 0, data: junk(), size: 0 }];
      expect(() => read(body)).not.toThrow();
      expect(() => antigravityLineage(body)).not.toThrow();
    }
  });
});
