/**
 * Small readers over decoded agy records, shared by the codec (toCommon)
 * and the listing summary so that both compute the same values from the same
 * rows: step envelopes and timestamps, user text, model and stop-reason
 * names, file URIs, titles. No I/O.
 */

import type { Json, JsonObject } from "../../common.js";
import { MAX_JSON_DEPTH } from "../../json.js";
import { decode, type ProtoMessage } from "../../protobuf.js";
import { formatTimestamp, type Timestamp } from "../../time.js";
import type { GenMetadataRow, StepRow } from "./body.js";
import {
  ChatModelMetadata,
  CortexStepCheckpoint,
  CortexStepMetadata,
  CortexStepUserInput,
  GenMetadata,
  MODEL_PREFIX,
  ModelUsageStats,
  PAYLOAD_FIELD,
  Step,
  TextItem,
} from "./schema.js";

/** A step row with its payload decoded once. */
export interface DecodedStep {
  row: StepRow;
  /** `gemini_coder.Step`. */
  step: ProtoMessage;
  /** `CortexStepMetadata`: Step field 5, else the `metadata` column. */
  meta: ProtoMessage;
}

export function decodeStep(row: StepRow): DecodedStep {
  const step = decode(row.step_payload);
  const inner = step.bytesOf(Step.metadata);
  return { row, step, meta: decode(inner ?? row.metadata) };
}

/** The per-kind payload message of a step (empty when absent). */
export function stepPayload(d: DecodedStep): ProtoMessage {
  const field = PAYLOAD_FIELD.get(d.row.step_type);
  return decode(field === undefined ? undefined : d.step.bytesOf(field));
}

/** `CortexStepMetadata.created_at` as a normalized timestamp. */
export function stepCreatedAt(meta: ProtoMessage): Timestamp | undefined {
  const t = meta.timestamp(CortexStepMetadata.created_at);
  return t && formatTimestamp(t);
}

export function isBlank(text: string | undefined): text is undefined {
  return text === undefined || text.trim() === "";
}

/**
 * The user's text: `user_response` when non-blank, else the first non-blank
 * item text, else `query`; kept exactly as written.
 */
export function userInputText(input: ProtoMessage): string | undefined {
  const response = input.string(CortexStepUserInput.user_response);
  if (!isBlank(response)) return response;
  for (const item of input.messages(CortexStepUserInput.items)) {
    const text = item.string(TextItem.text);
    if (!isBlank(text)) return text;
  }
  const query = input.string(CortexStepUserInput.query);
  return isBlank(query) ? undefined : query;
}

/** `model-<n>` for a numeric model enum. */
export function modelName(n: number): string {
  return `${MODEL_PREFIX}${n}`;
}

/** The model enum of a step envelope: field 11, else the usage stats' model. */
export function stepModelEnum(meta: ProtoMessage): number | undefined {
  return (
    meta.uint(CortexStepMetadata.generator_model) ??
    meta.message(CortexStepMetadata.model_usage)?.uint(ModelUsageStats.model)
  );
}

/** The readable model name of a `gen_metadata` row (response model name, else display name). */
export function genMetadataModel(row: GenMetadataRow | undefined): string | undefined {
  if (row === undefined) return undefined;
  const chat = decode(row.data).message(GenMetadata.chat_model_metadata);
  if (chat === undefined) return undefined;
  const name = chat.string(ChatModelMetadata.response_model_name);
  if (!isBlank(name)) return name;
  const display = chat.string(ChatModelMetadata.display_name);
  return isBlank(display) ? undefined : display;
}

/** The model enum a `gen_metadata` row describes, if it says. */
export function genMetadataEnum(row: GenMetadataRow): number | undefined {
  const chat = decode(row.data).message(GenMetadata.chat_model_metadata);
  return chat?.message(ChatModelMetadata.usage)?.uint(ModelUsageStats.model);
}

/** A checkpoint's title: field 10, else the user intent (4). */
export function checkpointTitle(d: DecodedStep): string | undefined {
  const checkpoint = stepPayload(d);
  const title = checkpoint.string(CortexStepCheckpoint.title);
  if (!isBlank(title)) return title;
  const intent = checkpoint.string(CortexStepCheckpoint.user_intent);
  return isBlank(intent) ? undefined : intent;
}

const TITLE_MAX = 80;

/** Whitespace runs collapsed, cut to 80 code points (79 and an ellipsis). */
export function titleFromPrompt(text: string): string | undefined {
  const line = text.trim().split(/\s+/u).join(" ");
  if (line === "") return undefined;
  const points = Array.from(line);
  return points.length <= TITLE_MAX ? line : `${points.slice(0, TITLE_MAX - 1).join("")}…`;
}

/**
 * A workspace or file URI as a path: `file://` removed, percent-decoded,
 * and `file:///C:/x` read as `C:/x`. Text that is not a file URI is kept.
 */
export function uriToPath(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  let path = uri.slice("file://".length);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: keep the text as written.
  }
  return /^\/[A-Za-z]:[/\\]/.test(path) || /^\/[A-Za-z]:$/.test(path) ? path.slice(1) : path;
}

/**
 * The inverse of `uriToPath`: `file://` + the path with every byte that is
 * not unreserved or a path character percent-encoded; a Windows drive path
 * gets the extra slash (`C:/x` → `file:///C:/x`).
 */
export function pathToUri(path: string): string {
  const drive = /^[A-Za-z]:([/\\]|$)/.test(path);
  let encoded: string;
  try {
    encoded = encodeURI(path).replace(/[?#]/g, (c) => (c === "?" ? "%3F" : "%23"));
  } catch {
    // A lone surrogate cannot be percent-encoded (nor stored as UTF-8).
    encoded = path;
  }
  return `file://${drive ? "/" : ""}${encoded}`;
}

export { parseBounded } from "../../json.js";
