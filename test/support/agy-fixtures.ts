/**
 * Realistic agy conversations for tests and benchmarks, built straight from
 * the field table in spec/antigravity-wire.md (literal field numbers, each
 * commented with its agy name) and NOT through the codec's fromCommon, so
 * that codec tests check the codec against the format rather than against
 * itself.
 *
 * Stable API (other test suites depend on these names):
 * - `toolsSession120()`, `resumedSession120()`: replicas of the agy 1.2.0
 *   sample sessions in test/fixtures/agy-samples (their brain mirrors are the
 *   sample files, verbatim; their steps decode to the turns those show);
 * - `legacyLayoutSession()`: agy 1.0.x typed tool steps (RUN_COMMAND,
 *   VIEW_FILE, LIST_DIRECTORY, GREP_SEARCH, CODE_ACTION, MCP_TOOL) with
 *   thinking, a failed command, an image and a checkpoint;
 * - `buildConversation(spec)`: an N-step conversation in either layout with
 *   realistic payload sizes, deterministic for a given spec;
 * - `seedUserStep()`: the real user step quoted in the seed document;
 * - the step builders below, for hand-made edge cases.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type {
  AntigravityBody,
  GenMetadataRow,
  IdxBlobRow,
  StepRow,
} from "../../src/harness/antigravity/body.js";
import { encode, type ProtoWriter } from "../../src/protobuf.js";
import { type EpochTime, timestampToEpoch } from "../../src/time.js";
import { ROOT } from "./cli.js";

export const SAMPLES_DIR = join(ROOT, "test", "fixtures", "agy-samples");

export function readSample(name: string): string {
  return readFileSync(join(SAMPLES_DIR, name), "utf8");
}

// ---------------------------------------------------------------------------
// Enums (spec: gemini_coder.Step table, CortexStepStatus, CortexStepSource)

export const T = {
  CODE_ACTION: 5,
  GREP_SEARCH: 7,
  VIEW_FILE: 8,
  LIST_DIRECTORY: 9,
  USER_INPUT: 14,
  PLANNER_RESPONSE: 15,
  ERROR_MESSAGE: 17,
  RUN_COMMAND: 21,
  CHECKPOINT: 23,
  FIND: 25,
  MCP_TOOL: 38,
  TASK_BOUNDARY: 81,
  EPHEMERAL_MESSAGE: 90,
  CONVERSATION_HISTORY: 98,
  SYSTEM_MESSAGE: 101,
  AGENCY_TOOL_CALL: 103,
  GENERIC: 132,
} as const;

export const S = {
  PENDING: 1,
  RUNNING: 2,
  DONE: 3,
  CANCELED: 6,
  ERROR: 7,
  GENERATING: 8,
  WAITING: 9,
  QUEUED: 11,
  INTERRUPTED: 12,
} as const;

export const SRC = { MODEL: 2, USER_EXPLICIT: 4, SYSTEM: 5 } as const;

/** Step field holding each kind's payload. */
const PAYLOAD: Record<number, number> = {
  [T.CODE_ACTION]: 10,
  [T.GREP_SEARCH]: 13,
  [T.VIEW_FILE]: 14,
  [T.LIST_DIRECTORY]: 15,
  [T.USER_INPUT]: 19,
  [T.PLANNER_RESPONSE]: 20,
  [T.ERROR_MESSAGE]: 24,
  [T.RUN_COMMAND]: 28,
  [T.CHECKPOINT]: 30,
  [T.FIND]: 34,
  [T.MCP_TOOL]: 47,
  [T.TASK_BOUNDARY]: 93,
  [T.EPHEMERAL_MESSAGE]: 103,
  [T.CONVERSATION_HISTORY]: 111,
  [T.SYSTEM_MESSAGE]: 114,
  [T.AGENCY_TOOL_CALL]: 116,
  [T.GENERIC]: 140,
};

// ---------------------------------------------------------------------------
// Envelope pieces

export interface ToolCallSpec {
  id: string;
  name: string;
  /** Arguments: an object is JSON-encoded; a string is written as is (even invalid JSON). */
  args: Record<string, unknown> | string;
}

export interface UsageSpec {
  model?: number;
  input: number;
  output: number;
  cacheWrite?: number;
  cacheRead?: number;
}

export interface MetaSpec {
  /** RFC 3339. */
  at?: string;
  completedAt?: string;
  source?: number;
  toolCall?: ToolCallSpec;
  usage?: UsageSpec;
  /** CortexStepMetadata.11, the generator model enum. */
  model?: number;
  executionId?: string;
  trajectoryId?: string;
  conversationId?: string;
  turn?: number;
}

function epoch(ts: string): EpochTime {
  return timestampToEpoch(ts);
}

function timestampField(w: ProtoWriter, no: number, ts: string): void {
  const { seconds, nanos } = epoch(ts);
  w.message(no, (t) => {
    if (seconds !== 0) t.int(1, seconds); // Timestamp.seconds
    if (nanos !== 0) t.uint(2, nanos); // Timestamp.nanos
  });
}

export function chatToolCall(call: ToolCallSpec): Uint8Array {
  return encode((w) => {
    w.string(1, call.id); // ChatToolCall.id
    w.string(2, call.name); // ChatToolCall.name
    w.string(3, typeof call.args === "string" ? call.args : JSON.stringify(call.args)); // arguments_json
    w.string(9, call.name); // ChatToolCall.9: the name again
  });
}

/** A `CortexStepMetadata` envelope. */
export function stepMetadata(spec: MetaSpec, idx: number): Uint8Array {
  return encode((w) => {
    if (spec.at !== undefined) timestampField(w, 1, spec.at); // created_at
    if (spec.source !== undefined) w.uint(3, spec.source); // source
    if (spec.toolCall) w.bytes(4, chatToolCall(spec.toolCall)); // tool call executed
    if (spec.completedAt !== undefined) timestampField(w, 8, spec.completedAt); // completed_at
    if (spec.usage) {
      const u = spec.usage;
      w.message(9, (m) => {
        if (u.model !== undefined) m.uint(1, u.model); // ModelUsageStats.model
        m.uint(2, u.input); // input tokens
        m.uint(3, u.output); // output tokens
        if (u.cacheWrite !== undefined) m.uint(4, u.cacheWrite);
        if (u.cacheRead !== undefined) m.uint(5, u.cacheRead);
      });
    }
    if (spec.model !== undefined) w.uint(11, spec.model); // generator model enum
    if (spec.executionId !== undefined) w.string(12, spec.executionId); // execution id
    if (spec.trajectoryId !== undefined || spec.conversationId !== undefined) {
      w.message(20, (m) => {
        if (spec.trajectoryId !== undefined) m.string(1, spec.trajectoryId); // trajectory id
        if (idx > 0) m.uint(2, idx); // step idx
        if ((spec.turn ?? 0) > 0) m.uint(3, spec.turn!); // turn index
        if (spec.conversationId !== undefined) m.string(4, spec.conversationId); // conversation id
      });
      w.uint(21, 1); // observed 1
    }
  });
}

export interface RowSpec {
  idx: number;
  type: number;
  status: number;
  meta: MetaSpec;
  /** The payload message body (Step field per the kind), if any. */
  payload?: Uint8Array;
  /** CortexErrorDetails bytes: written to the `error_details` column and Step field 31. */
  errorDetails?: Uint8Array;
  /** Extra raw Step fields appended after the payload (for drift tests). */
  extra?: (w: ProtoWriter) => void;
  hasSubtrajectory?: boolean;
}

/** A full `steps` row: Step payload (1 type, 4 status, 5 metadata, N payload) and the mirror columns. */
export function stepRow(spec: RowSpec): StepRow {
  const metadata = stepMetadata(spec.meta, spec.idx);
  const field = PAYLOAD[spec.type];
  const payload = encode((w) => {
    w.uint(1, spec.type); // Step.step_type
    w.uint(4, spec.status); // Step.status
    w.bytes(5, metadata); // Step.metadata
    if (spec.payload !== undefined && field !== undefined) w.bytes(field, spec.payload);
    if (spec.errorDetails !== undefined) w.bytes(31, spec.errorDetails); // Step.error
    spec.extra?.(w);
  });
  return {
    idx: spec.idx,
    step_type: spec.type,
    status: spec.status,
    has_subtrajectory: spec.hasSubtrajectory ?? false,
    metadata,
    error_details: spec.errorDetails ?? null,
    permissions: null,
    task_details: null,
    render_info: null,
    step_payload: payload,
    step_format: 0,
  };
}

// ---------------------------------------------------------------------------
// Payload bodies

export function userInputPayload(
  text: string,
  opts: { images?: { data: string; mime?: string }[]; query?: string; itemsOnly?: boolean } = {},
): Uint8Array {
  return encode((w) => {
    if (opts.query !== undefined) w.string(1, opts.query); // query
    if (!opts.itemsOnly && text !== "") w.string(2, text); // user_response
    if (text !== "") w.message(3, (i) => i.string(1, text)); // items[].text
    for (const img of opts.images ?? []) {
      w.message(5, (m) => {
        m.string(1, img.data); // base64 data
        if (img.mime !== undefined) m.string(2, img.mime); // mime type
      });
    }
  });
}

export interface PlannerSpec {
  response?: string;
  thinking?: string;
  signature?: string;
  messageId?: string;
  calls?: ToolCallSpec[];
  stop?: number;
}

export function plannerPayload(p: PlannerSpec): Uint8Array {
  return encode((w) => {
    if (p.response !== undefined) w.string(1, p.response); // response
    if (p.thinking !== undefined) w.string(3, p.thinking); // thinking
    if (p.signature !== undefined) w.string(4, p.signature); // thinking signature
    if (p.messageId !== undefined) w.string(6, p.messageId); // message id
    for (const call of p.calls ?? []) w.bytes(7, chatToolCall(call)); // tool calls
    if (p.response !== undefined) w.string(8, p.response); // modified response
    if (p.stop !== undefined) w.uint(12, p.stop); // stop reason
  });
}

export function genericPayload(result: string | undefined): Uint8Array {
  return encode((w) => {
    if (result !== undefined) w.message(2, (r) => r.string(1, result)); // result.result
  });
}

export function runCommandPayload(p: {
  cwd?: string;
  command: string;
  output?: string;
  exitCode?: number;
  legacyOutput?: string;
  stdout?: string;
  waitMs?: number;
}): Uint8Array {
  return encode((w) => {
    if (p.cwd !== undefined) w.string(2, p.cwd); // cwd
    if (p.legacyOutput !== undefined) w.string(4, p.legacyOutput); // output (older)
    if (p.exitCode !== undefined) w.int(6, p.exitCode); // exit code
    w.uint(11, 1); // observed 1
    w.uint(12, p.waitMs ?? 2000); // wait-ms-before-async
    if (p.stdout !== undefined) w.message(19, (o) => o.string(1, p.stdout!)); // stdout
    if (p.output !== undefined) w.message(21, (o) => o.string(1, p.output!)); // combined output
    w.string(23, p.command); // command line
    w.string(25, p.command); // proposed command line
  });
}

export function viewFilePayload(p: {
  path: string;
  start?: number;
  end?: number;
  content?: string;
  rawContent?: string;
}): Uint8Array {
  return encode((w) => {
    w.string(1, `file://${p.path}`); // absolute uri
    if (p.start !== undefined) w.uint(2, p.start);
    if (p.end !== undefined) w.uint(3, p.end);
    if (p.content !== undefined) w.string(4, p.content);
    if (p.rawContent !== undefined) w.string(9, p.rawContent);
    const text = p.content ?? p.rawContent ?? "";
    w.uint(11, text.split("\n").length); // line count
    w.uint(12, Buffer.byteLength(text)); // byte count
  });
}

export function listDirectoryPayload(
  dir: string,
  entries: { name: string; dir?: boolean; size?: number }[],
): Uint8Array {
  return encode((w) => {
    w.string(1, `file://${dir}`); // directory uri
    for (const e of entries) {
      w.message(3, (m) => {
        m.string(1, e.name);
        if (e.dir) m.uint(2, 1); // is_dir
        if (e.size !== undefined) m.uint(4, e.size); // size bytes
      });
    }
  });
}

export function grepPayload(p: { output?: string; error?: string }): Uint8Array {
  return encode((w) => {
    if (p.output !== undefined) w.string(3, p.output); // raw output
    if (p.error !== undefined) w.string(5, p.error); // grep error
  });
}

export function findPayload(p: { pattern: string; output?: string; error?: string }): Uint8Array {
  return encode((w) => {
    w.string(1, p.pattern);
    if (p.error !== undefined) w.string(8, p.error);
    if (p.output !== undefined) w.string(11, p.output);
  });
}

/** CODE_ACTION creating a file (ActionSpec.create_file) or editing one (ActionSpec.command). */
export function codeActionPayload(
  p:
    | { create: true; path: string; content: string; done: boolean }
    | {
        create: false;
        path: string;
        old: string;
        new: string;
        all?: boolean;
        done: boolean;
        original?: string;
      },
): Uint8Array {
  const uri = `file://${p.path}`;
  return encode((w) => {
    w.message(1, (spec) => {
      if (p.create) {
        spec.message(2, (c) => {
          c.string(1, p.content); // create_file.content
          c.message(2, (ps) => ps.string(5, uri)); // PathScope.absolute_uri
          c.uint(4, 1);
        });
      } else {
        spec.message(1, (c) => {
          c.uint(2, 1);
          c.message(4, (ps) => ps.string(5, uri)); // file: PathScope.absolute_uri
          c.uint(8, 1);
          c.message(9, (chunk) => {
            chunk.string(1, p.old); // target content
            chunk.string(2, p.new); // replacement
            if (p.all) chunk.uint(3, 1); // allow multiple
          });
        });
      }
    });
    if (p.done) {
      w.message(2, (r) =>
        r.message(1, (edit) => {
          edit.string(8, uri); // edit.absolute_uri
          if (!p.create && p.original !== undefined) edit.string(10, p.original);
          if (p.create) edit.uint(11, 1); // created
        }),
      );
    }
    w.uint(4, 1);
  });
}

export function mcpPayload(result: string): Uint8Array {
  return encode((w) => w.string(3, result)); // result string
}

export function checkpointPayload(p: { title?: string; intent?: string }): Uint8Array {
  return encode((w) => {
    if (p.intent !== undefined) w.string(4, p.intent); // user intent
    w.uint(9, 1);
    if (p.title !== undefined) w.string(10, p.title); // title / summary
  });
}

/** SYSTEM_MESSAGE / EPHEMERAL_MESSAGE / CONVERSATION_HISTORY `{1: text}`. */
export function textPayload(text: string): Uint8Array {
  return encode((w) => w.string(1, text));
}

export function errorDetails(p: {
  user?: string;
  short?: string;
  full?: string;
  model?: string;
}): Uint8Array {
  return encode((w) => {
    if (p.user !== undefined) w.string(1, p.user); // user-facing message
    if (p.short !== undefined) w.string(2, p.short); // short error
    if (p.full !== undefined) w.string(3, p.full); // full error
    if (p.model !== undefined) w.string(9, p.model); // model-facing message
  });
}

export function errorMessagePayload(details: Uint8Array): Uint8Array {
  return encode((w) => w.bytes(3, details)); // ERROR_MESSAGE {3: CortexErrorDetails}
}

export function agencyToolCallPayload(fn: string, responses: { tool: string; json: string }[]) {
  return encode((w) => {
    w.string(2, fn); // function name
    for (const r of responses) {
      w.message(4, (any) => {
        any.string(1, "type.googleapis.com/antigravity.localharness.ToolResponse"); // type_url
        any.bytes(
          2,
          encode((v) => {
            v.string(1, r.tool); // ToolResponse.tool name
            v.string(2, r.json); // ToolResponse.result JSON
          }),
        ); // value
      });
    }
  });
}

// ---------------------------------------------------------------------------
// Other tables

export function mainBlobData(p: {
  cwd?: string;
  branch?: string;
  createdAt?: string;
  conversationId?: string;
  parentConversationId?: string;
  project?: string;
}): Uint8Array {
  return encode((w) => {
    if (p.cwd !== undefined) {
      const uri = `file://${p.cwd}`;
      w.message(1, (ws) => {
        ws.string(1, uri); // workspace uri
        ws.string(2, uri);
        if (p.branch !== undefined) ws.string(4, p.branch); // git branch
      });
    }
    if (p.createdAt !== undefined) timestampField(w, 2, p.createdAt); // created_at
    if (p.parentConversationId !== undefined) w.string(5, p.parentConversationId); // parent
    if (p.conversationId !== undefined) w.string(6, p.conversationId); // conversation id
    if (p.cwd !== undefined) w.string(7, `file://${p.cwd}`); // workspace uri
    w.string(18, p.project ?? "default-cli-project"); // project
  });
}

export function genMetadataRow(
  idx: number,
  p: { name?: string; display?: string; model?: number },
): GenMetadataRow {
  const data = encode((w) =>
    w.message(1, (chat) => {
      if (p.model !== undefined) chat.message(4, (u) => u.uint(1, p.model!)); // usage.model
      if (p.name !== undefined) chat.string(19, p.name); // response model name
      if (p.display !== undefined) chat.string(21, p.display); // display name
    }),
  );
  return { idx, data, size: data.length };
}

export function parentReferenceRow(
  idx: number,
  p: { trajectoryId?: string; step?: number; type: number; conversationId: string },
): IdxBlobRow {
  return {
    idx,
    data: encode((w) => {
      if (p.trajectoryId !== undefined) w.string(1, p.trajectoryId);
      if (p.step !== undefined) w.uint(2, p.step);
      w.uint(5, p.type); // 2 FORK, 6 SUBAGENT_FORK
      w.string(6, p.conversationId);
    }),
  };
}

function bodyShell(
  id: string,
  trajectoryId: string,
  main: Uint8Array | undefined,
  steps: StepRow[],
): AntigravityBody {
  return {
    id,
    trajectory_meta: [
      { trajectory_id: trajectoryId, cascade_id: id, trajectory_type: 4, source: 17 },
    ],
    steps,
    gen_metadata: [],
    executor_metadata: [],
    parent_references: [],
    battle_mode_infos: [],
    trajectory_metadata_blob: main === undefined ? [] : [{ id: "main", data: main }],
    extra_tables: [],
  };
}

// ---------------------------------------------------------------------------
// The seed's real step

/** The user step quoted in the seed document: `Fix the flaky test`, 2026-08-10T12:00:00Z-ish. */
export function seedUserStep(): StepRow {
  const hex = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
  return {
    idx: 0,
    step_type: 14,
    status: 3,
    has_subtrajectory: false,
    metadata: hex("0a0608a0dbe1c4061804"),
    error_details: null,
    permissions: null,
    task_details: null,
    render_info: null,
    step_payload: hex(
      "080e20032a0a0a0608a0dbe1c40618049a012a12124669782074686520666c616b7920746573741a140a124669782074686520666c616b792074657374",
    ),
    step_format: 0,
  };
}

// ---------------------------------------------------------------------------
// Replicas of the agy 1.2.0 samples

export const SAMPLE_CWD = "/tmp/agy-fixture/project";
export const TOOLS_SESSION_ID = "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15";
export const RESUMED_SESSION_ID = "5d458282-26eb-46a2-b098-bc7cc3987310";
/** The model enum these replicas carry, and the name gen_metadata gives it. */
export const SAMPLE_MODEL_ENUM = 1018;
export const SAMPLE_MODEL_NAME = "gemini-3.8-flash";

/** What each sample's user prompt was, exactly as typed (the mirror wraps it). */
export const TOOLS_PROMPT =
  "Do these in order, one tool call each: 1) run the shell command 'ls' in this directory, 2) view the file missing.txt (it does not exist; report the error), 3) run the shell command 'false', 4) view README.md. Then summarize in one line. Do not create any files.";

function sessionContext(id: string) {
  const trajectoryId = `${id.slice(0, 8)}-0000-4000-8000-${id.slice(-12)}`;
  return { trajectoryId, conversationId: id };
}

/**
 * agy 1.2.0, four tool calls, every tool step GENERIC: `ls`, a view of a
 * missing file (ERROR, absent from the mirror), `false` (exit 1 but DONE), a
 * README view; then a one-line summary.
 */
export function toolsSession120(): AntigravityBody {
  const id = TOOLS_SESSION_ID;
  const ctx = sessionContext(id);
  const exec = "6e0a3c1d-2b4f-4c8e-9d7a-1f5e3b2c4a60";
  const meta = (m: MetaSpec): MetaSpec => ({ ...ctx, executionId: exec, turn: 1, ...m });
  const usage = (input: number, output: number): UsageSpec =>
    input > 4000
      ? { model: SAMPLE_MODEL_ENUM, input, output, cacheRead: 3900 }
      : { model: SAMPLE_MODEL_ENUM, input, output };
  const call = (n: number, name: string, args: Record<string, unknown>): ToolCallSpec => ({
    id: `call_${n}`,
    name,
    args,
  });
  const ls = call(1, "run_command", {
    CommandLine: "ls",
    Cwd: SAMPLE_CWD,
    WaitMsBeforeAsync: 5000,
    toolAction: "Running ls",
    toolSummary: "List directory contents",
  });
  const missing = call(2, "view_file", {
    AbsolutePath: `${SAMPLE_CWD}/missing.txt`,
    toolAction: "Viewing missing.txt",
    toolSummary: "View missing.txt",
  });
  const falseCmd = call(3, "run_command", {
    CommandLine: "false",
    Cwd: SAMPLE_CWD,
    WaitMsBeforeAsync: 5000,
    toolAction: "Running false",
    toolSummary: "Run false command",
  });
  const readme = call(4, "view_file", {
    AbsolutePath: `${SAMPLE_CWD}/README.md`,
    toolAction: "Viewing README.md",
    toolSummary: "View README.md",
  });
  const planner = (idx: number, at: string, p: PlannerSpec, u: UsageSpec): StepRow =>
    stepRow({
      idx,
      type: T.PLANNER_RESPONSE,
      status: S.DONE,
      meta: meta({ at, source: SRC.MODEL, model: SAMPLE_MODEL_ENUM, usage: u }),
      payload: plannerPayload({ messageId: `bot-${idx}`, ...p }),
    });
  const generic = (
    idx: number,
    status: number,
    at: string,
    c: ToolCallSpec,
    result: string,
    details?: Uint8Array,
  ): StepRow =>
    stepRow({
      idx,
      type: T.GENERIC,
      status,
      meta: meta({ at, completedAt: at, source: SRC.MODEL, toolCall: c }),
      payload: genericPayload(result),
      ...(details ? { errorDetails: details } : {}),
    });

  const steps: StepRow[] = [
    stepRow({
      idx: 0,
      type: T.USER_INPUT,
      status: S.DONE,
      meta: meta({ at: "2026-09-10T15:14:15Z", source: SRC.USER_EXPLICIT }),
      payload: userInputPayload(TOOLS_PROMPT),
    }),
    planner(
      1,
      "2026-09-10T15:14:15Z",
      {
        thinking:
          "**Executing Ordered Commands Sequentially**\n\nInitiating the execution with the directory listing. Next, attempting to view a non-existent file, expecting an error report. Then, executing a command that intentionally fails, and finally, viewing the README file. The intention is to perform these steps in strict sequence as instructed.\n\n\n",
        calls: [ls],
        stop: 10,
      },
      usage(3810, 96),
    ),
    generic(
      2,
      S.DONE,
      "2026-09-10T15:14:17Z",
      ls,
      "\nThe command exited with code 0.\nOutput:\ncalc.py  README.md\r\n\n",
    ),
    planner(3, "2026-09-10T15:14:17Z", { calls: [missing], stop: 10 }, usage(4012, 41)),
    generic(
      4,
      S.ERROR,
      "2026-09-10T15:14:18Z",
      missing,
      "",
      errorDetails({
        user: "File not found",
        short: "no such file or directory",
        model: `open ${SAMPLE_CWD}/missing.txt: no such file or directory`,
      }),
    ),
    planner(5, "2026-09-10T15:14:19Z", { calls: [falseCmd], stop: 10 }, usage(4130, 44)),
    generic(
      6,
      S.DONE,
      "2026-09-10T15:14:20Z",
      falseCmd,
      "\nThe command exited with code 1.\nStdout:\n\nStderr:\n\n",
    ),
    planner(7, "2026-09-10T15:14:20Z", { calls: [readme], stop: 10 }, usage(4225, 40)),
    generic(
      8,
      S.DONE,
      "2026-09-10T15:14:21Z",
      readme,
      "File Path: `file:///tmp/agy-fixture/project/README.md`\nTotal Lines: 4\nTotal Bytes: 53\nShowing lines 1 to 4\nThe following code has been modified to include a line number before every line, in the format: <line_number>: <original_line>. Please note that any changes targeting the original code should remove the line number, colon, and leading space.\n1: # calc\n2: \n3: A tiny calculator used as a capture fixture.\n4: \nThe above content shows the entire, complete file contents of the requested file.\n",
    ),
    planner(
      9,
      "2026-09-10T15:14:21Z",
      {
        response:
          "Ran `ls` listing [calc.py](file:///tmp/agy-fixture/project/calc.py) and [README.md](file:///tmp/agy-fixture/project/README.md), attempted viewing [missing.txt](file:///tmp/agy-fixture/project/missing.txt) which returned `no such file or directory`, executed `false` which exited with status 1, and viewed [README.md](file:///tmp/agy-fixture/project/README.md).",
        thinking:
          "**Finalizing problem analysis**\n\nCompleted all the steps; the problem is now fully analyzed.\n\n\n",
        stop: 2,
      },
      usage(4530, 120),
    ),
  ];
  const body = bodyShell(
    id,
    ctx.trajectoryId,
    mainBlobData({ cwd: SAMPLE_CWD, createdAt: "2026-09-10T15:14:15Z", conversationId: id }),
    steps,
  );
  // One generation per planner step (steps 1, 3, 5, 7, 9).
  body.gen_metadata = [0, 1, 2, 3, 4].map((i) =>
    genMetadataRow(i, {
      name: SAMPLE_MODEL_NAME,
      display: "Gemini 3.8 Flash (High)",
      model: SAMPLE_MODEL_ENUM,
    }),
  );
  body.transcript = readSample("tools-1.2.0.transcript.jsonl");
  body.transcript_full = readSample("tools-1.2.0.transcript_full.jsonl");
  return body;
}

export const RESUMED_PROMPTS = [
  "Run the shell command 'sleep 45' and then tell me it finished. Do not create any files.",
  "Reply with exactly: resumed after the interrupt",
] as const;

/**
 * agy 1.2.0, an interrupted background command, resumed: the GENERIC step is
 * still RUNNING (no result), the resume appended a SYSTEM_MESSAGE notice.
 */
export function resumedSession120(): AntigravityBody {
  const id = RESUMED_SESSION_ID;
  const ctx = sessionContext(id);
  const meta = (turn: number, m: MetaSpec): MetaSpec => ({
    ...ctx,
    executionId: `exec-${turn}`,
    turn,
    ...m,
  });
  const sleep: ToolCallSpec = {
    id: "call_1",
    name: "run_command",
    args: {
      CommandLine: "sleep 45",
      Cwd: SAMPLE_CWD,
      WaitMsBeforeAsync: 1000,
      toolAction: "Running command",
      toolSummary: "Run sleep command",
    },
  };
  const planner = (idx: number, turn: number, at: string, p: PlannerSpec) =>
    stepRow({
      idx,
      type: T.PLANNER_RESPONSE,
      status: S.DONE,
      meta: meta(turn, {
        at,
        source: SRC.MODEL,
        model: SAMPLE_MODEL_ENUM,
        usage: { model: SAMPLE_MODEL_ENUM, input: 3650 + idx * 100, output: 60 },
      }),
      payload: plannerPayload({ messageId: `bot-${idx}`, ...p }),
    });
  const steps: StepRow[] = [
    stepRow({
      idx: 0,
      type: T.USER_INPUT,
      status: S.DONE,
      meta: meta(1, { at: "2026-09-10T15:14:55Z", source: SRC.USER_EXPLICIT }),
      payload: userInputPayload(RESUMED_PROMPTS[0]),
    }),
    planner(1, 1, "2026-09-10T15:14:55Z", {
      thinking:
        "**Executing the sleep command**\n\nThe task requires executing a command to pause for a duration. The appropriate function is identified to run a shell command. The command specified by the user will be executed. The current working directory will be the specified workspace directory to execute the command.\n\n\n**Determining execution method for sleep**\n\nConsidering the sleep duration of 45 seconds, which exceeds the threshold for synchronous execution, setting `WaitMsBeforeAsync` to a small value (e.g., 1000ms) will ensure the command runs in the background. The relevant instructions about never using background 'sleep' commands will be carefully considered before proceeding with background execution.\n\n\n",
      calls: [sleep],
      stop: 10,
    }),
    stepRow({
      idx: 2,
      type: T.GENERIC,
      status: S.RUNNING,
      meta: meta(1, { at: "2026-09-10T15:14:58Z", source: SRC.MODEL, toolCall: sleep }),
      payload: genericPayload(
        "Tool is running as a background task with task id: 5d458282-26eb-46a2-b098-bc7cc3987310/task-2\nTask Description: sleep 45\nTask logs are available at: file:///tmp/agy-fixture/home/.gemini/antigravity-cli/brain/5d458282-26eb-46a2-b098-bc7cc3987310/.system_generated/tasks/task-2.log\nYOU MUST TAKE ONE OF THE FOLLOWING TWO ACTIONS: A) either proceed to other relevant work (if any) or, B) simply update the user with a short message (that you have launched the command and will wait for it to finish) and end the turn.\n DO NOTHING ELSE.",
      ),
    }),
    planner(3, 1, "2026-09-10T15:14:59Z", {
      response:
        "I have started running `sleep 45` in the background and will notify you as soon as it finishes.",
      stop: 2,
    }),
    stepRow({
      idx: 4,
      type: T.USER_INPUT,
      status: S.DONE,
      meta: meta(2, { at: "2026-09-10T15:15:17Z", source: SRC.USER_EXPLICIT }),
      payload: userInputPayload(RESUMED_PROMPTS[1]),
    }),
    stepRow({
      idx: 5,
      type: T.SYSTEM_MESSAGE,
      status: S.DONE,
      meta: meta(2, { at: "2026-09-10T15:15:17Z", source: SRC.SYSTEM }),
      payload: textPayload(
        "The following is a <SYSTEM_MESSAGE> not actually sent by the user. It is provided by the system as important information to pay attention to.\n\n<SYSTEM_MESSAGE>\n[Message] timestamp=2026-09-10T15:15:17Z sender=system priority=MESSAGE_PRIORITY_LOW content=[Notice] All your subagents and background tasks have been stopped due to server restart. If you want a subagent to continue working, it needs to be revived by sending it a new message. If resuming work, please check on status and restart as needed.\n</SYSTEM_MESSAGE>",
      ),
    }),
    planner(6, 2, "2026-09-10T15:15:17Z", { response: "resumed after the interrupt", stop: 2 }),
  ];
  const body = bodyShell(
    id,
    ctx.trajectoryId,
    mainBlobData({ cwd: SAMPLE_CWD, createdAt: "2026-09-10T15:14:55Z", conversationId: id }),
    steps,
  );
  body.gen_metadata = [genMetadataRow(0, { name: SAMPLE_MODEL_NAME, model: SAMPLE_MODEL_ENUM })];
  body.transcript_full = readSample("resumed-1.2.0.transcript_full.jsonl");
  return body;
}

// ---------------------------------------------------------------------------
// agy 1.0.x typed layout

export const LEGACY_SESSION_ID = "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87";
export const LEGACY_CWD = "/home/dev/my app";
export const LEGACY_BRANCH = "fix/flaky-login";
export const LEGACY_TITLE = "Fix the flaky login test";
export const LEGACY_MODEL_ENUM = 1012;
/** A 1x1 PNG. */
export const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * agy 1.0.x: typed tool steps, call ids of eight lowercase characters, the
 * constant `WaitMsBeforeAsync: 2000`, a failed command (exit 1), an image in
 * the prompt, thinking with a signature, a checkpoint, a percent-encoded
 * workspace URI with a space.
 */
export function legacyLayoutSession(): AntigravityBody {
  const id = LEGACY_SESSION_ID;
  const ctx = sessionContext(id);
  const cwd = LEGACY_CWD;
  const at = (s: number) => `2026-08-10T12:00:${String(s).padStart(2, "0")}.250Z`;
  const meta = (turn: number, m: MetaSpec): MetaSpec => ({
    ...ctx,
    executionId: `exec-${turn}`,
    turn,
    ...m,
  });
  const calls = {
    run: {
      id: "igay6rl3",
      name: "run_command",
      args: {
        CommandLine: "npm test -- login",
        Cwd: cwd,
        WaitMsBeforeAsync: 2000,
        toolAction: "Running tests",
        toolSummary: "Run the login test",
      },
    },
    view: {
      id: "k2mfa9qz",
      name: "view_file",
      args: {
        AbsolutePath: `${cwd}/test/login.ts`,
        StartLine: 10,
        EndLine: 29,
        toolAction: "Viewing",
        toolSummary: "View login.ts",
      },
    },
    list: { id: "p0d8xw1c", name: "list_dir", args: { DirectoryPath: cwd } },
    grep: { id: "b7nq2lhe", name: "grep_search", args: { Query: "sleep(", SearchPath: cwd } },
    grepBad: { id: "u3vt6yro", name: "grep_search", args: { Query: "[", SearchPath: cwd } },
    write: {
      id: "w9c4ej2s",
      name: "write_to_file",
      args: {
        TargetFile: `${cwd}/notes.md`,
        CodeContent: "# notes\n",
        Overwrite: true,
        Description: "notes",
      },
    },
    edit: {
      id: "e5r1ty7u",
      name: "replace_file_content",
      args: {
        TargetFile: `${cwd}/test/login.ts`,
        TargetContent: "sleep(10)",
        ReplacementContent: "await ready()",
        AllowMultiple: true,
        StartLine: 12,
        EndLine: 12,
        Instruction: "wait for readiness",
      },
    },
    mcp: { id: "m1c2p3t4", name: "mcp_github_search_issues", args: { q: "flaky login" } },
    rerun: {
      id: "r8s7d6f5",
      name: "run_command",
      args: { CommandLine: "npm test", Cwd: cwd, WaitMsBeforeAsync: 2000 },
    },
  } satisfies Record<string, ToolCallSpec>;
  const tool = (
    idx: number,
    type: number,
    status: number,
    call: ToolCallSpec,
    payload: Uint8Array,
    extra: Partial<RowSpec> = {},
  ) =>
    stepRow({
      idx,
      type,
      status,
      meta: meta(1, { at: at(idx), source: SRC.MODEL, toolCall: call }),
      payload,
      ...extra,
    });

  const steps: StepRow[] = [
    stepRow({
      idx: 0,
      type: T.USER_INPUT,
      status: S.DONE,
      meta: meta(1, { at: at(0), source: SRC.USER_EXPLICIT }),
      payload: userInputPayload("The login test is flaky", {
        images: [{ data: PNG_1X1, mime: "image/png" }],
      }),
    }),
    stepRow({
      idx: 1,
      type: T.PLANNER_RESPONSE,
      status: S.DONE,
      meta: meta(1, {
        at: at(1),
        source: SRC.MODEL,
        model: LEGACY_MODEL_ENUM,
        usage: {
          model: LEGACY_MODEL_ENUM,
          input: 1200,
          output: 80,
          cacheWrite: 10,
          cacheRead: 900,
        },
      }),
      payload: plannerPayload({
        thinking: "Check the test first.",
        signature: "EqQBCkYIBxgCKkB",
        response: "Looking.",
        messageId: "bot-1",
        calls: [
          calls.run,
          calls.view,
          calls.list,
          calls.grep,
          calls.grepBad,
          calls.write,
          calls.edit,
          calls.mcp,
        ],
        stop: 10,
      }),
    }),
    tool(
      2,
      T.RUN_COMMAND,
      S.DONE,
      calls.run,
      runCommandPayload({ cwd, command: "npm test -- login", output: "1 failing\n", exitCode: 1 }),
    ),
    tool(
      3,
      T.VIEW_FILE,
      S.DONE,
      calls.view,
      viewFilePayload({
        path: `${cwd}/test/login.ts`,
        start: 10,
        end: 29,
        content: "test('login', async () => {\n  sleep(10);\n});\n",
      }),
    ),
    tool(
      4,
      T.LIST_DIRECTORY,
      S.DONE,
      calls.list,
      listDirectoryPayload(cwd, [
        { name: "src", dir: true },
        { name: "package.json", size: 612 },
      ]),
    ),
    tool(
      5,
      T.GREP_SEARCH,
      S.DONE,
      calls.grep,
      grepPayload({ output: "test/login.ts:12:  sleep(10);\n" }),
    ),
    tool(
      6,
      T.GREP_SEARCH,
      S.DONE,
      calls.grepBad,
      grepPayload({ error: "regex parse error: unclosed character class" }),
    ),
    tool(
      7,
      T.CODE_ACTION,
      S.DONE,
      calls.write,
      codeActionPayload({
        create: true,
        path: `${cwd}/notes.md`,
        content: "# notes\n",
        done: true,
      }),
    ),
    tool(
      8,
      T.CODE_ACTION,
      S.DONE,
      calls.edit,
      codeActionPayload({
        create: false,
        path: `${cwd}/test/login.ts`,
        old: "sleep(10)",
        new: "await ready()",
        all: true,
        done: true,
        original: "test('login', async () => {\n  sleep(10);\n});\n",
      }),
    ),
    tool(9, T.MCP_TOOL, S.DONE, calls.mcp, mcpPayload("3 issues")),
    stepRow({
      idx: 10,
      type: T.PLANNER_RESPONSE,
      status: S.DONE,
      meta: meta(1, {
        at: at(10),
        source: SRC.MODEL,
        model: LEGACY_MODEL_ENUM,
        usage: { input: 2400, output: 30 },
      }),
      payload: plannerPayload({
        response: "Re-running the suite.",
        messageId: "bot-10",
        calls: [calls.rerun],
        stop: 10,
      }),
    }),
    tool(
      11,
      T.RUN_COMMAND,
      S.DONE,
      calls.rerun,
      runCommandPayload({ cwd, command: "npm test", output: "12 passing\n", exitCode: 0 }),
    ),
    stepRow({
      idx: 12,
      type: T.CHECKPOINT,
      status: S.DONE,
      meta: meta(1, { at: at(12), source: SRC.SYSTEM }),
      payload: checkpointPayload({
        title: LEGACY_TITLE,
        intent: "The user wants the login test fixed",
      }),
    }),
    stepRow({
      idx: 13,
      type: T.PLANNER_RESPONSE,
      status: S.DONE,
      meta: meta(1, {
        at: at(13),
        source: SRC.MODEL,
        model: LEGACY_MODEL_ENUM,
        usage: { input: 2600, output: 25 },
      }),
      payload: plannerPayload({
        response: "Fixed: the test now waits for readiness.",
        messageId: "bot-13",
        stop: 2,
      }),
    }),
  ];
  return bodyShell(
    id,
    ctx.trajectoryId,
    mainBlobData({
      cwd: cwd.replace(/ /g, "%20"),
      branch: LEGACY_BRANCH,
      createdAt: at(0),
      conversationId: id,
    }),
    steps,
  );
}

// ---------------------------------------------------------------------------
// Generated conversations

export interface ConversationSpec {
  /** Conversation id (default: derived from the seed). */
  id?: string;
  /** `generic`: agy 1.2.0 (every tool step GENERIC); `typed`: agy 1.0.x typed steps. */
  layout?: "generic" | "typed";
  /** Approximate number of steps (default 40); the builder stops at the first turn boundary past it. */
  steps?: number;
  /** Tool calls per model turn (default 3). */
  toolsPerTurn?: number;
  /** Typical tool output size in bytes (default 2,000; file views are about twice that). */
  payloadBytes?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  cwd?: string;
  branch?: string;
  /** Model enum (default 1018). */
  model?: number;
  /** When set, gen_metadata rows carry this readable model name. */
  modelName?: string;
  /** Start time (default 2026-09-10T09:00:00Z); steps advance a few seconds each. */
  start?: string;
  /** Add a checkpoint step with this title at the end. */
  checkpointTitle?: string;
  /** A word added to the second turn's prompt, nowhere else (a benchmark's rare word). */
  plantWord?: string;
}

/** A small deterministic PRNG (mulberry32): fixtures must not change between runs. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "the a test file function return const value error build module import export async await string number config request response server client handler cache index query result update delete create";

function text(rand: () => number, bytes: number, lineWidth = 72): string {
  const words = WORDS.split(" ");
  let out = "";
  let line = 0;
  while (out.length < bytes) {
    const w = words[Math.floor(rand() * words.length)]!;
    if (line + w.length > lineWidth) {
      out += "\n";
      line = 0;
    } else if (line > 0) {
      out += " ";
      line++;
    }
    out += w;
    line += w.length;
  }
  return out;
}

/** A conversation of about `spec.steps` steps in the chosen layout. */
export function buildConversation(spec: ConversationSpec = {}): AntigravityBody {
  const seed = spec.seed ?? 1;
  const rand = prng(seed);
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join("");
  const id = spec.id ?? `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  const ctx = sessionContext(id);
  const layout = spec.layout ?? "generic";
  const target = spec.steps ?? 40;
  const perTurn = spec.toolsPerTurn ?? 3;
  const size = spec.payloadBytes ?? 2000;
  const model = spec.model ?? 1018;
  const cwd = spec.cwd ?? "/home/dev/project";
  const start = epoch(spec.start ?? "2026-09-10T09:00:00Z").seconds;
  let clock = start;
  const tick = () => {
    clock += 1 + Math.floor(rand() * 4);
    return new Date(clock * 1000).toISOString().replace(".000Z", "Z");
  };

  const steps: StepRow[] = [];
  let turn = 0;
  let callNo = 0;
  while (steps.length < target) {
    turn++;
    const meta = (m: MetaSpec): MetaSpec => ({ ...ctx, executionId: `exec-${turn}`, turn, ...m });
    steps.push(
      stepRow({
        idx: steps.length,
        type: T.USER_INPUT,
        status: S.DONE,
        meta: meta({ at: tick(), source: SRC.USER_EXPLICIT }),
        payload: userInputPayload(
          `${text(rand, 80 + Math.floor(rand() * 300))}${turn === 2 && spec.plantWord ? ` ${spec.plantWord}` : ""}`,
        ),
      }),
    );
    for (let round = 0; round < 2 && steps.length < target; round++) {
      const calls: { call: ToolCallSpec; kind: number }[] = [];
      for (let k = 0; k < perTurn; k++) {
        callNo++;
        const callId = layout === "generic" ? `call_${callNo}` : hex(8);
        const kind = callNo % 3;
        const file = `${cwd}/src/${WORDS.split(" ")[callNo % 20]}.ts`;
        const call: ToolCallSpec =
          kind === 0
            ? {
                id: callId,
                name: "run_command",
                args: {
                  CommandLine: `npm test -- ${callNo}`,
                  Cwd: cwd,
                  WaitMsBeforeAsync: 2000,
                  toolAction: "Running tests",
                  toolSummary: "Run tests",
                },
              }
            : kind === 1
              ? {
                  id: callId,
                  name: "view_file",
                  args: {
                    AbsolutePath: file,
                    StartLine: 1,
                    EndLine: 120,
                    toolAction: "Viewing",
                    toolSummary: "View file",
                  },
                }
              : {
                  id: callId,
                  name: "replace_file_content",
                  args: {
                    TargetFile: file,
                    TargetContent: text(rand, 120),
                    ReplacementContent: text(rand, 140),
                    AllowMultiple: false,
                  },
                };
        calls.push({ call, kind });
      }
      steps.push(
        stepRow({
          idx: steps.length,
          type: T.PLANNER_RESPONSE,
          status: S.DONE,
          meta: meta({
            at: tick(),
            source: SRC.MODEL,
            model,
            usage: {
              model,
              input: 2000 + steps.length * 150,
              output: 50 + Math.floor(rand() * 400),
              cacheRead: 1500 + steps.length * 120,
            },
          }),
          payload: plannerPayload({
            thinking: text(rand, 300 + Math.floor(rand() * 600)),
            signature: hex(64),
            response: text(rand, 40 + Math.floor(rand() * 200)),
            messageId: `bot-${hex(8)}`,
            calls: calls.map((c) => c.call),
            stop: 10,
          }),
        }),
      );
      for (const { call, kind } of calls) {
        const at = tick();
        const args = call.args as Record<string, unknown>;
        const output = text(rand, Math.floor(size * (0.5 + rand())));
        const failed = kind === 0 && rand() < 0.2;
        if (layout === "generic") {
          const result =
            kind === 0
              ? `\nThe command exited with code ${failed ? 1 : 0}.\nOutput:\n${output}\n`
              : kind === 1
                ? `File Path: \`file://${String(args.AbsolutePath)}\`\n${text(rand, size * 2)}`
                : `The following changes were made to ${String(args.TargetFile)}:\n${output}`;
          steps.push(
            stepRow({
              idx: steps.length,
              type: T.GENERIC,
              status: S.DONE,
              meta: meta({ at, completedAt: at, source: SRC.MODEL, toolCall: call }),
              payload: genericPayload(result),
            }),
          );
        } else {
          const payload =
            kind === 0
              ? runCommandPayload({
                  cwd,
                  command: String(args.CommandLine),
                  output,
                  exitCode: failed ? 1 : 0,
                })
              : kind === 1
                ? viewFilePayload({
                    path: String(args.AbsolutePath),
                    start: 1,
                    end: 120,
                    content: text(rand, size * 2),
                  })
                : codeActionPayload({
                    create: false,
                    path: String(args.TargetFile),
                    old: String(args.TargetContent),
                    new: String(args.ReplacementContent),
                    done: true,
                    original: output,
                  });
          steps.push(
            stepRow({
              idx: steps.length,
              type: kind === 0 ? T.RUN_COMMAND : kind === 1 ? T.VIEW_FILE : T.CODE_ACTION,
              status: S.DONE,
              meta: meta({ at, source: SRC.MODEL, toolCall: call }),
              payload,
            }),
          );
        }
      }
    }
    if (steps.length < target) {
      steps.push(
        stepRow({
          idx: steps.length,
          type: T.PLANNER_RESPONSE,
          status: S.DONE,
          meta: meta({
            at: tick(),
            source: SRC.MODEL,
            model,
            usage: { model, input: 3000 + steps.length * 150, output: 200 },
          }),
          payload: plannerPayload({
            response: text(rand, 200 + Math.floor(rand() * 800)),
            messageId: `bot-${hex(8)}`,
            stop: 2,
          }),
        }),
      );
    }
  }
  if (spec.checkpointTitle !== undefined) {
    steps.push(
      stepRow({
        idx: steps.length,
        type: T.CHECKPOINT,
        status: S.DONE,
        meta: { ...ctx, at: tick(), source: SRC.SYSTEM },
        payload: checkpointPayload({ title: spec.checkpointTitle }),
      }),
    );
  }
  const body = bodyShell(
    id,
    ctx.trajectoryId,
    mainBlobData({
      cwd,
      ...(spec.branch !== undefined ? { branch: spec.branch } : {}),
      createdAt: new Date(start * 1000).toISOString().replace(".000Z", "Z"),
      conversationId: id,
    }),
    steps,
  );
  if (spec.modelName !== undefined) {
    body.gen_metadata = [genMetadataRow(0, { name: spec.modelName, model })];
  }
  return body;
}
