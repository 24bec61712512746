/**
 * The Antigravity codec: agy's protobuf trajectory steps to and from the
 * canonical model, with no I/O.
 *
 * toCommon reads both layouts agy has written: typed top-level tool steps
 * (up to 1.1.x) and GENERIC-wrapped tool steps (1.2.0 on), plus agency tool
 * calls, error messages and unknown kinds. fromCommon writes what agy itself
 * writes for a CLI conversation (USER_INPUT and PLANNER_RESPONSE steps with
 * full envelopes, typed steps for Bash/Read/Write/Edit, GENERIC for the
 * rest), deterministically, and regenerates the brain mirror. The decisions
 * and their provenance are in docs/formats/antigravity.md.
 */

import { isDeepStrictEqual } from "node:util";
import {
  type Block,
  type ImageBlock,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type StopReason,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
  toolToCanonical,
  type Usage,
} from "../../common.js";
import { renderCommon } from "../../commonJson.js";
import { stableUuid } from "../../ids.js";
import { decode, encode, type ProtoMessage, type ProtoWriter } from "../../protobuf.js";
import { nonEmpty } from "../../strings.js";
import { EPOCH, type EpochTime, type Timestamp, timestampToEpoch } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import type { AntigravityBody, StepRow } from "./body.js";
import {
  type DecodedStep,
  decodeStep,
  genMetadataEnum,
  genMetadataModel,
  isBlank,
  modelName,
  parseBounded,
  pathToUri,
  stepCreatedAt,
  stepModelEnum,
  stepPayload,
  uriToPath,
  userInputText,
} from "./decode.js";
import { renderMirror } from "./mirror.js";
import {
  ActionResult,
  ActionResultEdit,
  ActionSpec,
  ActionSpecCommand,
  ActionSpecCreateFile,
  Any,
  BOOKKEEPING_STEP_TYPES,
  ChatToolCall,
  CLI_WAIT_MS_BEFORE_ASYNC,
  CommandOutput,
  CortexErrorDetails,
  CortexStepAgencyToolCall,
  CortexStepCodeAction,
  CortexStepErrorMessage,
  CortexStepFind,
  CortexStepGeneric,
  CortexStepGrepSearch,
  CortexStepListDirectory,
  CortexStepMcpTool,
  CortexStepMetadata,
  CortexStepPlannerResponse,
  CortexStepRunCommand,
  CortexStepUserInput,
  CortexStepViewFile,
  CortexTrajectoryMetadata,
  CortexTrajectoryReference,
  DEFAULT_PROJECT,
  GenericResult,
  ImageData,
  IN_FLIGHT_STATUSES,
  ListDirectoryResult,
  MAIN_BLOB_ID,
  Media,
  MODEL_PREFIX,
  ModelUsageStats,
  StopReason as NativeStop,
  PathScope,
  payloadField,
  ReplacementChunk,
  STOP_PREFIX,
  Step,
  StepInfo,
  StepSource,
  StepStatus,
  StepType,
  TextItem,
  TOOL_RESPONSE_TYPE,
  ToolResponse,
  TRAJECTORY_SOURCE_CLI,
  TRAJECTORY_TYPE_CLI,
  Workspace,
} from "./schema.js";
import { listingRows, summarize } from "./summary.js";
import { type NativeCall, nativeCall, nativeTool } from "./tools.js";

export { nativeTool } from "./tools.js";

// ---------------------------------------------------------------------------
// Meta and lineage

/** Session metadata derived from the Body alone (what a listing shows). */
export function antigravityMeta(body: AntigravityBody): Meta {
  return summarize(listingRows(body)).meta;
}

export interface TrajectoryReference {
  trajectory_id?: string;
  step_index?: number;
  /** 2 FORK, 6 SUBAGENT_FORK, or another value agy adds. */
  type?: number;
  conversation_id?: string;
}

export interface Lineage {
  /** The conversation that spawned this one (a subagent). */
  parent_id?: string;
  /** The conversation this one was forked from. */
  forked_from?: string;
  /** Every `parent_references` row, decoded. */
  references: TrajectoryReference[];
}

/** Where a conversation comes from: its parent (subagents) and fork references. */
export function antigravityLineage(body: AntigravityBody): Lineage {
  const listing = summarize(listingRows(body));
  const lineage: Lineage = {
    references: body.parent_references.map((row) => {
      const m = decode(row.data);
      const ref: TrajectoryReference = {};
      const trajectory = m.string(CortexTrajectoryReference.trajectory_id);
      if (trajectory !== undefined) ref.trajectory_id = trajectory;
      const step = m.uint(CortexTrajectoryReference.step_index);
      if (step !== undefined) ref.step_index = step;
      const type = m.uint(CortexTrajectoryReference.type);
      if (type !== undefined) ref.type = type;
      const conversation = m.string(CortexTrajectoryReference.conversation_id);
      if (conversation !== undefined) ref.conversation_id = conversation;
      return ref;
    }),
  };
  if (listing.parent_id !== undefined) lineage.parent_id = listing.parent_id;
  if (listing.forked_from !== undefined) lineage.forked_from = listing.forked_from;
  return lineage;
}

/** Body-derived meta, with the transcript's own values where the Body says nothing. */
function mergedMeta(body: AntigravityBody, given: Meta | undefined): Meta {
  const meta = antigravityMeta(body);
  if (given === undefined) return meta;
  if (meta.timestamp === EPOCH && given.timestamp !== undefined) meta.timestamp = given.timestamp;
  for (const key of ["cwd", "git_branch", "title", "cli_version", "model"] as const) {
    const value = given[key];
    if (meta[key] === undefined && value !== undefined) meta[key] = value;
  }
  return meta;
}

// ---------------------------------------------------------------------------
// toCommon

export function toCommon(transcript: Transcript<AntigravityBody>): Transcript<Common> {
  const body = transcript.body;
  const meta = mergedMeta(body, transcript.meta);
  const models = new Map<number, string>();
  for (const row of [...body.gen_metadata].sort((a, b) => a.idx - b.idx)) {
    const n = genMetadataEnum(row);
    const name = genMetadataModel(row);
    if (n !== undefined && name !== undefined) models.set(n, name);
  }
  const steps = [...body.steps].sort((a, b) => a.idx - b.idx);
  const messages: Message[] = [];
  const answered = new Set<string>();
  // The open user message collecting consecutive tool results.
  let results: Message | undefined;
  const emit = (message: Message | undefined) => {
    if (message === undefined) return;
    messages.push(message);
    results = undefined;
  };
  for (const row of steps) {
    const d = decodeStep(row);
    switch (row.step_type) {
      case StepType.USER_INPUT:
        emit(userMessage(d, meta.timestamp));
        continue;
      case StepType.PLANNER_RESPONSE:
        emit(plannerMessage(d, meta.timestamp, models));
        continue;
    }
    if (BOOKKEEPING_STEP_TYPES.has(row.step_type)) continue;
    const result = toolResult(d);
    if (result === undefined) {
      if (row.step_type === StepType.ERROR_MESSAGE) emit(errorMessage(d, meta.timestamp));
      continue;
    }
    // A call answered twice (a replayed step) keeps its first result.
    if (answered.has(result.tool_use_id)) continue;
    answered.add(result.tool_use_id);
    if (results === undefined) {
      results = { role: "user", content: [result], timestamp: createdAt(d, meta.timestamp) };
      messages.push(results);
    } else {
      results.content.push(result);
    }
  }
  return { meta, body: messages };
}

/** A step's created-at, else the session's. Formatted only for steps that start a message. */
function createdAt(d: DecodedStep, fallback: Timestamp): Timestamp {
  return stepCreatedAt(d.meta) ?? fallback;
}

function userMessage(d: DecodedStep, fallback: Timestamp): Message | undefined {
  const input = stepPayload(d);
  const content: Block[] = [];
  const text = userInputText(input);
  if (text !== undefined) content.push({ type: "text", text });
  let n = 0;
  for (const image of input.messages(CortexStepUserInput.images)) {
    n++;
    const data = image.string(ImageData.base64_data);
    const mime = nonEmpty(image.string(ImageData.mime_type)) ?? "image/png";
    if (data !== undefined && data !== "") {
      content.push({ type: "image", source: { type: "base64", media_type: mime, data } });
      continue;
    }
    const uri = nonEmpty(image.string(ImageData.uri));
    if (uri !== undefined) content.push(pathArtifact(d, n, uri, mime));
  }
  for (const media of input.messages(CortexStepUserInput.media)) {
    n++;
    const mime = nonEmpty(media.string(Media.mime_type)) ?? "application/octet-stream";
    const bytes = media.bytesOf(Media.payload);
    const uri = nonEmpty(media.string(Media.uri));
    if (bytes !== undefined && bytes.length > 0) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
      if (mime.startsWith("image/")) {
        content.push({ type: "image", source: { type: "base64", media_type: mime, data } });
      } else {
        content.push({
          type: "artifact",
          artifact: {
            id: `media-${d.row.idx}-${n}`,
            name: uri === undefined ? `media-${n}` : basename(uriToPath(uri)),
            source: { type: "base64", data, media_type: mime },
          },
        });
      }
    } else if (uri !== undefined) {
      content.push(pathArtifact(d, n, uri, mime));
    }
  }
  if (content.length === 0) return undefined;
  return { role: "user", content, timestamp: createdAt(d, fallback) };
}

function pathArtifact(d: DecodedStep, n: number, uri: string, mime: string): Block {
  const path = uriToPath(uri);
  return {
    type: "artifact",
    artifact: {
      id: `media-${d.row.idx}-${n}`,
      name: basename(path),
      source: { type: "path", path, media_type: mime },
    },
  };
}

function basename(path: string): string {
  const parts = path.split(/[/\\]/);
  return parts[parts.length - 1] || path;
}

function plannerMessage(
  d: DecodedStep,
  fallback: Timestamp,
  models: ReadonlyMap<number, string>,
): Message | undefined {
  const planner = stepPayload(d);
  const content: Block[] = [];
  const thinking =
    nonBlank(planner.string(CortexStepPlannerResponse.thinking)) ??
    nonBlank(planner.string(CortexStepPlannerResponse.raw_thinking));
  if (thinking !== undefined) {
    const block: Block = { type: "thinking", text: thinking };
    const signature = nonEmpty(planner.string(CortexStepPlannerResponse.thinking_signature));
    if (signature !== undefined) block.signature = signature;
    content.push(block);
  }
  const text =
    nonBlank(planner.string(CortexStepPlannerResponse.response)) ??
    nonBlank(planner.string(CortexStepPlannerResponse.modified_response));
  if (text !== undefined) content.push({ type: "text", text });
  let n = 0;
  for (const call of planner.messages(CortexStepPlannerResponse.tool_calls)) {
    content.push(toolUse(call, d.row.idx, n++));
  }
  if (content.length === 0) return undefined;

  const message: Message = { role: "assistant", content, timestamp: createdAt(d, fallback) };
  const model = stepModelEnum(d.meta);
  if (model !== undefined) message.model = models.get(model) ?? modelName(model);
  const stop = planner.uint(CortexStepPlannerResponse.stop_reason);
  if (stop !== undefined) message.stop_reason = stopFromNative(stop);
  const usage = readUsage(d.meta.message(CortexStepMetadata.model_usage));
  if (usage !== undefined) message.usage = usage;
  return message;
}

function readUsage(stats: ProtoMessage | undefined): Usage | undefined {
  if (stats === undefined) return undefined;
  const input = stats.uint(ModelUsageStats.input_tokens) ?? 0;
  const output = stats.uint(ModelUsageStats.output_tokens) ?? 0;
  if (input === 0 && output === 0) return undefined;
  const usage: Usage = { input_tokens: input, output_tokens: output };
  const read = stats.uint(ModelUsageStats.cache_read_tokens) ?? 0;
  if (read > 0) usage.cache_read_input_tokens = read;
  const write = stats.uint(ModelUsageStats.cache_write_tokens) ?? 0;
  if (write > 0) usage.cache_creation_input_tokens = write;
  return usage;
}

const STOP_FROM_NATIVE = new Map<number, StopReason>([
  [NativeStop.END_TURN, "end_turn"],
  [NativeStop.MAX_TOKENS, "max_tokens"],
  [NativeStop.TOOL_USE, "tool_use"],
  [NativeStop.ERROR, "error"],
  [NativeStop.ABORTED, "aborted"],
]);

function stopFromNative(n: number): StopReason {
  return STOP_FROM_NATIVE.get(n) ?? { other: `${STOP_PREFIX}${n}` };
}

function stopToNative(reason: StopReason): number | undefined {
  if (typeof reason !== "string") {
    const m = new RegExp(`^${STOP_PREFIX}(\\d{1,15})$`).exec(reason.other);
    return m ? Number(m[1]) : undefined;
  }
  switch (reason) {
    case "end_turn":
    case "stop_sequence": // agy has no separate value: it ends the turn
      return NativeStop.END_TURN;
    case "max_tokens":
      return NativeStop.MAX_TOKENS;
    case "tool_use":
      return NativeStop.TOOL_USE;
    case "error":
      return NativeStop.ERROR;
    case "aborted":
      return NativeStop.ABORTED;
    default:
      return reason satisfies never;
  }
}

/** A `ChatToolCall` as a tool_use block. */
function toolUse(call: ProtoMessage, idx: number, n: number): ToolUseBlock {
  const id = nonEmpty(call.string(ChatToolCall.id)) ?? `call-${idx}-${n}`;
  const name =
    nonEmpty(call.string(ChatToolCall.name)) ??
    nonEmpty(call.string(ChatToolCall.original_name)) ??
    "unknown";
  return { type: "tool_use", id, tool: nativeTool(name, readArguments(call)) };
}

/** `arguments_json`: parsed when it is JSON, else kept as the original string. */
function readArguments(call: ProtoMessage): Json {
  const text = call.string(ChatToolCall.arguments_json);
  if (text === undefined) return {};
  const parsed = parseBounded(text);
  return parsed === undefined ? text : parsed.value;
}

/** The tool call a step executes, with its settled result; undefined while in flight. */
function toolResult(d: DecodedStep): ToolResultBlock | undefined {
  const call = d.meta.message(CortexStepMetadata.tool_call);
  if (call === undefined) return undefined;
  const id = nonEmpty(call.string(ChatToolCall.id));
  if (id === undefined) return undefined;
  const status = d.row.status;
  if (IN_FLIGHT_STATUSES.has(status)) return undefined;
  const out = resultContent(d, nonEmpty(call.string(ChatToolCall.name)));
  const errorText = errorDetailsText(d);
  const block: ToolResultBlock = {
    type: "tool_result",
    tool_use_id: id,
    content: errorText ?? out.content,
  };
  if (
    out.error ||
    errorText !== undefined ||
    status === StepStatus.ERROR ||
    status === StepStatus.CANCELED ||
    status === StepStatus.INTERRUPTED
  ) {
    block.is_error = true;
  }
  return block;
}

/** An ERROR_MESSAGE step that answers no call: the turn that failed, as an assistant message. */
function errorMessage(d: DecodedStep, fallback: Timestamp): Message | undefined {
  const text = detailsText(stepPayload(d).message(CortexStepErrorMessage.error));
  if (text === undefined) return undefined;
  const timestamp = createdAt(d, fallback);
  return { role: "assistant", content: [{ type: "text", text }], timestamp, stop_reason: "error" };
}

/** `CortexErrorDetails` text: the model-facing message, then full, short, user-facing. */
function detailsText(details: ProtoMessage | undefined): string | undefined {
  if (details === undefined) return undefined;
  for (const no of [
    CortexErrorDetails.model_error_message,
    CortexErrorDetails.full_error,
    CortexErrorDetails.short_error,
    CortexErrorDetails.user_error_message,
  ]) {
    const text = nonBlank(details.string(no));
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The step's error details: the `error_details` column, else Step field 31. */
function errorDetailsText(d: DecodedStep): string | undefined {
  const column = d.row.error_details;
  const bytes = column !== null && column.length > 0 ? column : d.step.bytesOf(Step.error);
  return bytes === undefined ? undefined : detailsText(decode(bytes));
}

interface Output {
  content: Json;
  error: boolean;
}

/** 1.2.0 puts a command's exit status in the GENERIC result text (sample: tools session). */
const EXIT_LINE = /^\s*The command exited with code (-?\d+)\./;

/** The result a tool step carries, by step kind. */
function resultContent(d: DecodedStep, callName: string | undefined): Output {
  const p = stepPayload(d);
  switch (d.row.step_type) {
    case StepType.VIEW_FILE:
      return ok(
        firstNonEmpty(
          p.string(CortexStepViewFile.content),
          p.string(CortexStepViewFile.raw_content),
        ),
      );
    case StepType.RUN_COMMAND: {
      const combined = p.message(CortexStepRunCommand.combined_output);
      const text = firstNonEmpty(
        combined?.string(CommandOutput.full),
        combined?.string(CommandOutput.truncated),
        p.message(CortexStepRunCommand.stdout)?.string(CommandOutput.full),
        p.string(CortexStepRunCommand.output),
      );
      return { content: text, error: (p.int32(CortexStepRunCommand.exit_code) ?? 0) !== 0 };
    }
    case StepType.LIST_DIRECTORY: {
      const entries: Json[] = p.messages(CortexStepListDirectory.results).map((e) => {
        const entry: JsonObject = { name: e.string(ListDirectoryResult.name) ?? "" };
        if (e.uint(ListDirectoryResult.is_dir) === 1) entry.is_dir = true;
        const size = e.uint(ListDirectoryResult.size_bytes);
        if (size !== undefined) entry.size_bytes = size;
        return entry;
      });
      const dir = p.string(CortexStepListDirectory.directory_uri);
      return ok({ path: dir === undefined ? "" : uriToPath(dir), entries });
    }
    case StepType.GREP_SEARCH: {
      const error = nonBlank(p.string(CortexStepGrepSearch.grep_error));
      if (error !== undefined) return { content: error, error: true };
      return ok(p.string(CortexStepGrepSearch.raw_output) ?? "");
    }
    case StepType.FIND: {
      const error = nonBlank(p.string(CortexStepFind.error));
      if (error !== undefined) return { content: error, error: true };
      return ok(p.string(CortexStepFind.raw_output) ?? "");
    }
    case StepType.CODE_ACTION: {
      const spec = p.message(CortexStepCodeAction.action_spec);
      const create = spec?.message(ActionSpec.create_file);
      const edited = p
        .message(CortexStepCodeAction.action_result)
        ?.message(ActionResult.edit)
        ?.string(ActionResultEdit.absolute_uri);
      const specUri =
        create?.message(ActionSpecCreateFile.path)?.string(PathScope.absolute_uri) ??
        spec
          ?.message(ActionSpec.command)
          ?.message(ActionSpecCommand.file)
          ?.string(PathScope.absolute_uri);
      const file = uriToPath(nonEmpty(edited) ?? specUri ?? "");
      return ok(create !== undefined ? { file, created: true } : { file, edited: true });
    }
    case StepType.MCP_TOOL:
      return ok(p.string(CortexStepMcpTool.result_string) ?? "");
    case StepType.GENERIC: {
      const text = p.message(CortexStepGeneric.result)?.string(GenericResult.result) ?? "";
      const exit = callName === "run_command" ? EXIT_LINE.exec(text) : null;
      return { content: jsonOrText(text), error: exit !== null && Number(exit[1]) !== 0 };
    }
    case StepType.AGENCY_TOOL_CALL: {
      const texts: string[] = [];
      for (const any of p.messages(CortexStepAgencyToolCall.responses)) {
        if (!(any.string(Any.type_url) ?? "").endsWith(TOOL_RESPONSE_TYPE)) continue;
        texts.push(decode(any.bytesOf(Any.value)).string(ToolResponse.result_json) ?? "");
      }
      const [only] = texts;
      if (texts.length === 1 && only !== undefined) return ok(jsonOrText(only));
      return ok(texts.length === 0 ? "" : texts.map(jsonOrText));
    }
    case StepType.ERROR_MESSAGE:
      return {
        content: detailsText(p.message(CortexStepErrorMessage.error)) ?? "",
        error: true,
      };
    default:
      // A kind this version does not model: the call keeps an (empty) result.
      return ok("");
  }
}

const ok = (content: Json): Output => ({ content, error: false });

/** Result text that is a JSON object or array comes back as JSON; anything else is text. */
function jsonOrText(text: string): Json {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  const value = parseBounded(text)?.value;
  return typeof value === "object" && value !== null ? value : text;
}

function firstNonEmpty(...texts: (string | undefined)[]): string {
  for (const t of texts) if (t !== undefined && t !== "") return t;
  return "";
}

function nonBlank(text: string | undefined): string | undefined {
  return isBlank(text) ? undefined : text;
}

// ---------------------------------------------------------------------------
// fromCommon

interface Context {
  id: string;
  trajectoryId: string;
  steps: StepRow[];
  /** 1-based user turn; 0 before the first user input. */
  turn: number;
  /** The execution id of `executionTurn` (one per turn; minted once). */
  execution: string;
  executionTurn: number;
  /** Parsed message timestamps (a turn's steps share them). */
  epochs: Map<Timestamp, EpochTime>;
}

function executionId(ctx: Context): string {
  if (ctx.executionTurn !== ctx.turn) {
    ctx.execution = stableUuid("antigravity", ctx.id, ctx.turn, "execution");
    ctx.executionTurn = ctx.turn;
  }
  return ctx.execution;
}

function epochOf(ctx: Context, ts: Timestamp): EpochTime {
  let t = ctx.epochs.get(ts);
  if (t === undefined) {
    t = timestampToEpoch(ts);
    ctx.epochs.set(ts, t);
  }
  return t;
}

interface PendingResult {
  block: ToolResultBlock;
  timestamp: Timestamp;
}

export function fromCommon(transcript: Transcript<Common>): Transcript<AntigravityBody> {
  const { meta: given, body: messages } = transcript;
  // A session without an id gets one derived from its content, never a random one.
  const id = given.id !== "" ? given.id : stableUuid("antigravity", renderCommon(transcript));
  const ctx: Context = {
    id,
    trajectoryId: stableUuid("antigravity", id, "trajectory"),
    steps: [],
    turn: 0,
    execution: "",
    executionTurn: -1,
    epochs: new Map(),
  };

  // Results pair with calls the assistant made; each call takes its first result.
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const b of m.content) if (b.type === "tool_use") calls.add(b.id);
  }
  const results = new Map<string, PendingResult>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "tool_result" && calls.has(b.tool_use_id) && !results.has(b.tool_use_id)) {
        results.set(b.tool_use_id, { block: b, timestamp: m.timestamp });
      }
    }
  }
  const carried = (b: ToolResultBlock) => results.get(b.tool_use_id)?.block === b;

  for (const m of messages) {
    if (m.role === "user") writeUser(ctx, m, carried);
    else writeAssistant(ctx, m, carried, results);
  }

  const body: AntigravityBody = {
    id,
    trajectory_meta: [
      {
        trajectory_id: ctx.trajectoryId,
        cascade_id: id,
        trajectory_type: TRAJECTORY_TYPE_CLI,
        source: TRAJECTORY_SOURCE_CLI,
      },
    ],
    steps: ctx.steps,
    gen_metadata: [],
    executor_metadata: [],
    parent_references: [],
    battle_mode_infos: [],
    trajectory_metadata_blob: [{ id: MAIN_BLOB_ID, data: mainBlobFor(given, id) }],
    extra_tables: [],
  };
  const mirror = renderMirror(body.steps);
  body.transcript = mirror.compact;
  body.transcript_full = mirror.full;
  return { meta: { ...given, id }, body };
}

/** `CortexTrajectoryMetadata` for the `main` row. */
function mainBlobFor(meta: Meta, id: string): Uint8Array {
  return encode((w) => {
    const uri = meta.cwd === undefined ? undefined : pathToUri(meta.cwd);
    if (uri !== undefined || meta.git_branch !== undefined) {
      w.message(CortexTrajectoryMetadata.workspace, (ws) => {
        if (uri !== undefined) ws.string(Workspace.uri, uri).string(Workspace.uri_2, uri);
        if (meta.git_branch !== undefined) ws.string(Workspace.git_branch, meta.git_branch);
      });
    }
    w.timestamp(CortexTrajectoryMetadata.created_at, timestampToEpoch(meta.timestamp));
    w.string(CortexTrajectoryMetadata.conversation_id, id);
    if (uri !== undefined) w.string(CortexTrajectoryMetadata.workspace_uri, uri);
    w.string(CortexTrajectoryMetadata.project, DEFAULT_PROJECT);
  });
}

function resultText(content: Json): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** A result whose call is not in the transcript, as user-visible text. */
function orphanText(b: ToolResultBlock): string {
  return `Tool ${b.is_error ? "error" : "result"} for ${b.tool_use_id}:\n${resultText(b.content)}`;
}

/** A call made on the user's side (a slash command), as text: agy has no user tool calls. */
function userCallText(b: ToolUseBlock): string {
  if (b.tool.name === "Command") {
    return b.tool.args === undefined ? b.tool.command : `${b.tool.command} ${b.tool.args}`;
  }
  const { name, input } = toolToCanonical(b.tool);
  return `Tool call ${name} (${b.id}): ${JSON.stringify(input)}`;
}

function writeUser(ctx: Context, m: Message, carried: (b: ToolResultBlock) => boolean): void {
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  const media: Block[] = [];
  for (const b of m.content) {
    switch (b.type) {
      case "text":
        texts.push(b.text);
        break;
      case "thinking":
        if (!isBlank(b.text)) texts.push(b.text);
        break;
      case "tool_result":
        if (!carried(b)) texts.push(orphanText(b));
        break;
      case "tool_use":
        texts.push(userCallText(b));
        break;
      case "image":
        images.push(b);
        break;
      case "artifact":
        media.push(b);
        break;
      default:
        b satisfies never;
    }
  }
  const text = texts.join("\n\n");
  if (isBlank(text) && images.length === 0 && media.length === 0) return;
  ctx.turn++;
  const payload = encode((w) => {
    if (text !== "") {
      w.string(CortexStepUserInput.user_response, text);
      w.message(CortexStepUserInput.items, (item) => item.string(TextItem.text, text));
    }
    for (const { source } of images) {
      w.message(CortexStepUserInput.images, (img) => {
        img.string(ImageData.base64_data, source.data);
        img.string(ImageData.mime_type, source.media_type);
      });
    }
    for (const b of media) {
      if (b.type !== "artifact") continue;
      const { source } = b.artifact;
      w.message(CortexStepUserInput.media, (md) => {
        md.string(Media.mime_type, source.media_type ?? "application/octet-stream");
        if (source.type === "base64") md.bytes(Media.payload, Buffer.from(source.data, "base64"));
        else if (source.type === "text") md.bytes(Media.payload, Buffer.from(source.text, "utf8"));
        else md.string(Media.uri, pathToUri(source.path));
      });
    }
  });
  pushStep(ctx, StepType.USER_INPUT, StepStatus.DONE, payload, {
    at: m.timestamp,
    source: StepSource.USER_EXPLICIT,
  });
}

function writeAssistant(
  ctx: Context,
  m: Message,
  carried: (b: ToolResultBlock) => boolean,
  results: ReadonlyMap<string, PendingResult>,
): void {
  const thinking: string[] = [];
  let signature: string | undefined;
  const texts: string[] = [];
  const calls: ToolUseBlock[] = [];
  for (const b of m.content) {
    switch (b.type) {
      case "thinking":
        if (!isBlank(b.text)) {
          thinking.push(b.text);
          if (signature === undefined && b.signature) signature = b.signature;
        }
        break;
      case "text":
        texts.push(b.text);
        break;
      case "tool_use":
        calls.push(b);
        break;
      case "image":
        // No assistant-side image slot in agy: a placeholder keeps its place.
        texts.push(`[image: ${b.source.media_type}]`);
        break;
      case "artifact":
        texts.push(`[artifact: ${b.artifact.name}]`);
        break;
      case "tool_result":
        if (!carried(b)) texts.push(orphanText(b));
        break;
      default:
        b satisfies never;
    }
  }
  const text = texts.join("\n\n");
  if (thinking.length === 0 && isBlank(text) && calls.length === 0) return;

  const model = numericModel(m.model);
  const stop = m.stop_reason === undefined ? undefined : stopToNative(m.stop_reason);
  const idx = ctx.steps.length;
  const native = calls.map((c) => nativeCall(c));
  const payload = encode((w) => {
    if (text !== "") w.string(CortexStepPlannerResponse.response, text);
    if (thinking.length > 0) {
      w.string(CortexStepPlannerResponse.thinking, thinking.join("\n\n"));
      // A signature signs its own block's text: over joined blocks it would be
      // invalid wherever it is replayed (Claude rejects it), so it is kept only alone.
      if (signature !== undefined && thinking.length === 1)
        w.string(CortexStepPlannerResponse.thinking_signature, signature);
    }
    w.string(
      CortexStepPlannerResponse.message_id,
      `bot-${stableUuid("antigravity", ctx.id, idx, "message")}`,
    );
    for (const call of native) w.bytes(CortexStepPlannerResponse.tool_calls, call.bytes);
    if (text !== "") w.string(CortexStepPlannerResponse.modified_response, text);
    if (stop !== undefined) w.uint(CortexStepPlannerResponse.stop_reason, stop);
  });
  const envelope: Envelope = { at: m.timestamp, source: StepSource.MODEL };
  if (model !== undefined) envelope.model = model;
  if (m.usage !== undefined) envelope.usage = m.usage;
  pushStep(ctx, StepType.PLANNER_RESPONSE, StepStatus.DONE, payload, envelope);

  calls.forEach((call, i) => {
    const plan = native[i];
    if (plan) writeToolStep(ctx, call, plan, results.get(call.id), m.timestamp);
  });
}

/** `model-<n>` back to its enum; a readable name has no number and is omitted. */
function numericModel(model: string | undefined): number | undefined {
  if (model === undefined || !model.startsWith(MODEL_PREFIX)) return undefined;
  const digits = model.slice(MODEL_PREFIX.length);
  return /^(0|[1-9]\d{0,14})$/.test(digits) ? Number(digits) : undefined;
}

interface StepPlan {
  type: number;
  status: number;
  payload: Uint8Array;
}

/** The step executing one call: the typed kind agy writes when it carries the result exactly, else GENERIC. */
function writeToolStep(
  ctx: Context,
  call: ToolUseBlock,
  native: NativeCall,
  result: PendingResult | undefined,
  callTimestamp: Timestamp,
): void {
  const envelope: Envelope = {
    at: result?.timestamp ?? callTimestamp,
    source: StepSource.MODEL,
    toolCall: native.bytes,
  };
  if (result !== undefined) envelope.completedAt = result.timestamp;
  const typed = native.native ? typedStep(call.tool, result?.block) : undefined;
  let plan = typed;
  if (plan !== undefined && result !== undefined) {
    // Keep the typed step only when reading it back gives this very result
    // (read through toCommon's own path, with just the parts it looks at).
    const field = payloadField(plan.type);
    const { payload } = plan;
    const back = toolResult({
      row: { ...PROBE_ROW, step_type: plan.type, status: plan.status },
      step: decode(encode((w) => w.bytes(field, payload))),
      meta: decode(encode((w) => w.bytes(CortexStepMetadata.tool_call, native.bytes))),
    });
    if (!sameResult(back, result.block)) plan = undefined;
  }
  plan ??= genericStep(result?.block);
  pushStep(ctx, plan.type, plan.status, plan.payload, envelope);
}

const PROBE_ROW: StepRow = {
  idx: 0,
  step_type: 0,
  status: 0,
  has_subtrajectory: false,
  metadata: null,
  error_details: null,
  permissions: null,
  task_details: null,
  render_info: null,
  step_payload: null,
  step_format: 0,
};

function sameResult(a: ToolResultBlock | undefined, b: ToolResultBlock): boolean {
  return (
    a !== undefined &&
    a.is_error === b.is_error &&
    a.tool_use_id === b.tool_use_id &&
    isDeepStrictEqual(a.content, b.content)
  );
}

function genericStep(result: ToolResultBlock | undefined): StepPlan {
  const payload = encode((w) => {
    if (result !== undefined) {
      w.message(CortexStepGeneric.result, (r) =>
        r.string(GenericResult.result, resultText(result.content)),
      );
    }
  });
  const status =
    result === undefined
      ? StepStatus.PENDING
      : result.is_error
        ? StepStatus.ERROR
        : StepStatus.DONE;
  return { type: StepType.GENERIC, status, payload };
}

function typedStep(tool: Tool, result: ToolResultBlock | undefined): StepPlan | undefined {
  const status = result === undefined ? StepStatus.PENDING : StepStatus.DONE;
  switch (tool.name) {
    case "Bash": {
      if (result !== undefined && typeof result.content !== "string") return undefined;
      const payload = encode((w) => {
        if (tool.workdir !== undefined) w.string(CortexStepRunCommand.cwd, tool.workdir);
        if (result !== undefined) w.int(CortexStepRunCommand.exit_code, result.is_error ? 1 : 0);
        w.uint(CortexStepRunCommand.field_11, 1);
        w.uint(CortexStepRunCommand.wait_ms_before_async, CLI_WAIT_MS_BEFORE_ASYNC);
        if (result !== undefined) {
          w.message(CortexStepRunCommand.combined_output, (o) =>
            o.string(CommandOutput.full, result.content as string),
          );
        }
        w.string(CortexStepRunCommand.command_line, tool.command);
        w.string(CortexStepRunCommand.proposed_command_line, tool.command);
      });
      return { type: StepType.RUN_COMMAND, status, payload };
    }
    case "Read": {
      if (result !== undefined && (typeof result.content !== "string" || result.is_error)) {
        return undefined;
      }
      const payload = encode((w) => {
        w.string(CortexStepViewFile.absolute_uri, pathToUri(tool.file_path));
        if (tool.offset !== undefined) w.uint(CortexStepViewFile.start_line, tool.offset);
        if (tool.limit !== undefined) {
          const end = tool.offset === undefined ? tool.limit : tool.offset + tool.limit - 1;
          if (end >= 0) w.uint(CortexStepViewFile.end_line, end);
        }
        if (result !== undefined) {
          const text = result.content as string;
          w.string(CortexStepViewFile.content, text);
          w.uint(CortexStepViewFile.num_lines, text === "" ? 0 : text.split("\n").length);
          w.uint(CortexStepViewFile.num_bytes, Buffer.byteLength(text, "utf8"));
        }
      });
      return { type: StepType.VIEW_FILE, status, payload };
    }
    case "Write":
    case "Edit": {
      if (result?.is_error) return undefined;
      const uri = pathToUri(tool.file_path);
      const payload = encode((w) => {
        w.message(CortexStepCodeAction.action_spec, (spec) => {
          if (tool.name === "Write") {
            spec.message(ActionSpec.create_file, (c) => {
              c.string(ActionSpecCreateFile.content, tool.content);
              c.message(ActionSpecCreateFile.path, (p) => p.string(PathScope.absolute_uri, uri));
              c.uint(ActionSpecCreateFile.field_4, 1);
            });
          } else {
            spec.message(ActionSpec.command, (c) => {
              c.uint(ActionSpecCommand.field_2, 1);
              c.message(ActionSpecCommand.file, (p) => p.string(PathScope.absolute_uri, uri));
              c.uint(ActionSpecCommand.field_8, 1);
              c.message(ActionSpecCommand.replacement_chunk, (chunk) => {
                chunk.string(ReplacementChunk.target_content, tool.old_string);
                chunk.string(ReplacementChunk.replacement_content, tool.new_string);
                if (tool.replace_all) chunk.uint(ReplacementChunk.allow_multiple, 1);
              });
            });
          }
        });
        if (result !== undefined) {
          w.message(CortexStepCodeAction.action_result, (r) =>
            r.message(ActionResult.edit, (e) => {
              e.string(ActionResultEdit.absolute_uri, uri);
              if (tool.name === "Write") e.uint(ActionResultEdit.created, 1);
            }),
          );
        }
        w.uint(CortexStepCodeAction.field_4, 1);
      });
      return { type: StepType.CODE_ACTION, status, payload };
    }
    case "MultiEdit":
    case "Command":
    case "Raw":
      return undefined;
    default:
      return tool satisfies never;
  }
}

interface Envelope {
  at: Timestamp;
  source: number;
  toolCall?: Uint8Array;
  completedAt?: Timestamp;
  model?: number;
  usage?: Usage;
}

function writeEnvelope(ctx: Context, idx: number, e: Envelope): Uint8Array {
  return encode((w: ProtoWriter) => {
    w.timestamp(CortexStepMetadata.created_at, epochOf(ctx, e.at));
    w.uint(CortexStepMetadata.source, e.source);
    if (e.toolCall !== undefined) w.bytes(CortexStepMetadata.tool_call, e.toolCall);
    if (e.completedAt !== undefined) {
      w.timestamp(CortexStepMetadata.completed_at, epochOf(ctx, e.completedAt));
    }
    if (e.usage !== undefined) {
      const u = e.usage;
      w.message(CortexStepMetadata.model_usage, (s) => {
        if (e.model !== undefined) s.uint(ModelUsageStats.model, e.model);
        s.uint(ModelUsageStats.input_tokens, u.input_tokens);
        s.uint(ModelUsageStats.output_tokens, u.output_tokens);
        if (u.cache_creation_input_tokens !== undefined) {
          s.uint(ModelUsageStats.cache_write_tokens, u.cache_creation_input_tokens);
        }
        if (u.cache_read_input_tokens !== undefined) {
          s.uint(ModelUsageStats.cache_read_tokens, u.cache_read_input_tokens);
        }
      });
    }
    if (e.model !== undefined) w.uint(CortexStepMetadata.generator_model, e.model);
    w.string(CortexStepMetadata.execution_id, executionId(ctx));
    w.message(CortexStepMetadata.step_info, (info) => {
      info.string(StepInfo.trajectory_id, ctx.trajectoryId);
      if (idx > 0) info.uint(StepInfo.step_index, idx);
      if (ctx.turn > 1) info.uint(StepInfo.turn_index, ctx.turn - 1);
      info.string(StepInfo.conversation_id, ctx.id);
    });
    w.uint(CortexStepMetadata.field_21, 1);
  });
}

function stepRowFor(
  ctx: Context,
  type: number,
  status: number,
  payload: Uint8Array,
  envelope: Envelope,
  idx: number,
): StepRow {
  const metadata = writeEnvelope(ctx, idx, envelope);
  const field = payloadField(type);
  const stepPayloadBytes = encode((w) => {
    w.uint(Step.step_type, type);
    w.uint(Step.status, status);
    w.bytes(Step.metadata, metadata);
    w.bytes(field, payload);
  });
  return {
    idx,
    step_type: type,
    status,
    has_subtrajectory: false,
    metadata,
    error_details: null,
    permissions: null,
    task_details: null,
    render_info: null,
    step_payload: stepPayloadBytes,
    step_format: 0,
  };
}

function pushStep(
  ctx: Context,
  type: number,
  status: number,
  payload: Uint8Array,
  envelope: Envelope,
): void {
  ctx.steps.push(stepRowFor(ctx, type, status, payload, envelope, ctx.steps.length));
}

export const antigravityCodec: Codec<AntigravityBody> = { toCommon, fromCommon };
