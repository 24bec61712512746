/**
 * Common -> agy: fromCommon writes what agy itself writes for a CLI
 * conversation (USER_INPUT and PLANNER_RESPONSE steps with full envelopes,
 * typed steps for Bash/Read/Write/Edit, GENERIC for the rest),
 * deterministically, and regenerates the brain mirror. For a save
 * (`forSave`) the steps and their mirror lines are made as the store
 * writes them, never held all at once. No I/O.
 */

import { isDeepStrictEqual } from "node:util";
import {
  type Block,
  type ImageBlock,
  type Message,
  type Meta,
  type ToolResultBlock,
  type ToolUseBlock,
  toolToCanonical,
  type Usage,
} from "../../common.js";
import { renderCommon } from "../../common-json.js";
import { InvalidRequestError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import { decode, encode, type ProtoWriter } from "../../protobuf.js";
import { type EpochTime, type Timestamp, timestampToEpoch } from "../../time.js";
import type { Common, FromCommonOptions, Transcript } from "../../transcript.js";
import { renderAnnotation } from "./annotation.js";
import type { AntigravityBody, StepRow } from "./body.js";
import { isBlank, pathToUri } from "./decode.js";
import { mirrorFile, mirrorLines } from "./mirror.js";
import { stopToNative, toolResult } from "./read.js";
import {
  CortexStepMetadata,
  CortexStepPlannerResponse,
  CortexStepUserInput,
  CortexTrajectoryMetadata,
  DEFAULT_PROJECT,
  DESKTOP_PROJECT,
  ImageData,
  MAIN_BLOB_ID,
  Media,
  MODEL_PREFIX,
  ModelUsageStats,
  payloadField,
  Step,
  StepInfo,
  StepSource,
  StepStatus,
  StepType,
  TextItem,
  TRAJECTORY_SOURCE_CLI,
  TRAJECTORY_SOURCE_DESKTOP,
  TRAJECTORY_TYPE_CLI,
  Workspace,
} from "./schema.js";
import { BlobSlab } from "./slab.js";
import { type NativeCall, nativeCall } from "./tools.js";
import { genericStep, resultText, typedStep } from "./write-steps.js";

// ---------------------------------------------------------------------------
// fromCommon

interface Context {
  id: string;
  trajectoryId: string;
  /** The steps of the message being written. */
  steps: StepRow[];
  /** The next step's idx. */
  next: number;
  /** 1-based user turn; 0 before the first user input. */
  turn: number;
  /** The execution id of `executionTurn` (one per turn; minted once). */
  execution: string;
  executionTurn: number;
  /** The last timestamp parsed, and its time (a message's steps share it). */
  epoch: { at: Timestamp; time: EpochTime } | undefined;
  /** Where the steps' bytes are kept, when they are kept (not for a save). */
  slab: BlobSlab | undefined;
}

function executionId(ctx: Context): string {
  if (ctx.executionTurn !== ctx.turn) {
    ctx.execution = stableUuid("antigravity", ctx.id, ctx.turn, "execution");
    ctx.executionTurn = ctx.turn;
  }
  return ctx.execution;
}

function epochOf(ctx: Context, ts: Timestamp): EpochTime {
  if (ctx.epoch?.at !== ts) ctx.epoch = { at: ts, time: timestampToEpoch(ts) };
  return ctx.epoch.time;
}

interface PendingResult {
  block: ToolResultBlock;
  timestamp: Timestamp;
}

/**
 * The surface a Body is written for: the CLI's (the default) or the desktop
 * app's, which differ in `trajectory_meta.source` and the main blob's
 * project id (docs/formats/antigravity.md, "Surfaces").
 */
function surfaceOf(options: FromCommonOptions): "cli" | "desktop" {
  const surface = options.surface ?? "cli";
  if (surface === "cli" || surface === "desktop") return surface;
  throw new InvalidRequestError(
    "antigravity",
    `unknown surface ${JSON.stringify(surface)} (expected "cli" or "desktop")`,
  );
}

export function fromCommon(
  transcript: Transcript<Common>,
  options: FromCommonOptions = {},
): Transcript<AntigravityBody> {
  const surface = surfaceOf(options);
  const desktop = surface === "desktop";
  const { meta: given, body: messages } = transcript;
  // A session without an id gets one derived from its content, never a random one.
  const id = given.id !== "" ? given.id : stableUuid("antigravity", renderCommon(transcript));
  const trajectoryId = stableUuid("antigravity", id, "trajectory");

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

  /** The steps, made anew on each call; their bytes kept in `slab` when given. */
  function* stepRows(slab: BlobSlab | undefined): Generator<StepRow> {
    const ctx: Context = {
      id,
      trajectoryId,
      steps: [],
      next: 0,
      turn: 0,
      execution: "",
      executionTurn: -1,
      epoch: undefined,
      slab,
    };
    for (const m of messages) {
      if (m.role === "user") writeUser(ctx, m, carried);
      else writeAssistant(ctx, m, carried, results);
      yield* ctx.steps;
      ctx.steps = [];
    }
  }

  const body: AntigravityBody = {
    id,
    trajectory_meta: [
      {
        trajectory_id: trajectoryId,
        cascade_id: id,
        trajectory_type: TRAJECTORY_TYPE_CLI,
        source: desktop ? TRAJECTORY_SOURCE_DESKTOP : TRAJECTORY_SOURCE_CLI,
      },
    ],
    steps: [],
    gen_metadata: [],
    executor_metadata: [],
    parent_references: [],
    battle_mode_infos: [],
    trajectory_metadata_blob: [
      {
        id: MAIN_BLOB_ID,
        data: mainBlobFor(given, id, desktop ? DESKTOP_PROJECT : DEFAULT_PROJECT),
      },
    ],
    extra_tables: [],
  };
  if (desktop) body.lane = "desktop";
  // The title goes where agy's picker reads it, not into a step the model would see.
  if (given.title?.trim()) body.annotation = renderAnnotation(given.title);
  if (options.forSave) {
    // Made as the store writes them: never all at once (body.ts, `made`).
    body.made = {
      *[Symbol.iterator]() {
        for (const row of stepRows(undefined)) yield { row, mirror: mirrorLines(row) };
      },
    };
  } else {
    body.steps = [...stepRows(new BlobSlab((size) => new Uint8Array(size)))];
    body.mirror = {
      transcript: mirrorFile(body.steps, "compact"),
      transcript_full: mirrorFile(body.steps, "full"),
    };
  }
  return { meta: { ...given, id }, body };
}

/** `CortexTrajectoryMetadata` for the `main` row. */
function mainBlobFor(meta: Meta, id: string, project: string): Uint8Array {
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
    w.string(CortexTrajectoryMetadata.project, project);
  });
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
  const idx = ctx.next;
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
  assignDefined(envelope, "model", model);
  assignDefined(envelope, "usage", m.usage);
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
  const envelopeBytes = writeEnvelope(ctx, idx, envelope);
  const field = payloadField(type);
  // One copy of the step's bytes (in a slab when the rows are kept); the
  // metadata column is a view of the envelope inside it (the same bytes).
  const encoded = encode((w) => {
    w.uint(Step.step_type, type);
    w.uint(Step.status, status);
    w.bytes(Step.metadata, envelopeBytes);
    w.bytes(field, payload);
  });
  const stepPayloadBytes = ctx.slab ? ctx.slab.keep(encoded) : encoded;
  const metadata = decode(stepPayloadBytes).bytesOf(Step.metadata) ?? envelopeBytes;
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
  ctx.steps.push(stepRowFor(ctx, type, status, payload, envelope, ctx.next++));
}
