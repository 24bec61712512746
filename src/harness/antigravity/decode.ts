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
/**
 * The start of the user's text, for a title: what `userInputText` picks,
 * but decoding at most a few kilobytes of it, so that listing costs the
 * same whatever one prompt holds.
 */
export function userInputHead(input: ProtoMessage): string | undefined {
  const head = (m: ProtoMessage, no: number) => {
    const h = m.stringHead(no, TITLE_HEAD_BYTES);
    // A head that is blank but has more after it is not blank: read on.
    return h === undefined ? undefined : !isBlank(h.text) || !h.more ? h.text : m.string(no);
  };
  const response = head(input, CortexStepUserInput.user_response);
  if (!isBlank(response)) return response;
  for (const item of input.messages(CortexStepUserInput.items)) {
    const text = head(item, TextItem.text);
    if (!isBlank(text)) return text;
  }
  const query = head(input, CortexStepUserInput.query);
  return isBlank(query) ? undefined : query;
}

/** Enough bytes for an 80-character title after any run of inner whitespace short of pathological. */
const TITLE_HEAD_BYTES = 16 * 1024;

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

/**
 * Whitespace runs collapsed, cut to 80 code points (79 and an ellipsis).
 * Reads only as far as the title needs: a 200 MiB prompt costs what an
 * 80-character one does.
 */
export function titleFromPrompt(text: string): string | undefined {
  const points: string[] = [];
  let space = false;
  let more = false;
  for (const ch of text) {
    if (WHITESPACE.test(ch)) {
      space = points.length > 0;
      continue;
    }
    if (points.length + (space ? 1 : 0) >= TITLE_MAX) {
      more = true;
      break;
    }
    if (space) points.push(" ");
    space = false;
    points.push(ch);
  }
  if (points.length === 0) return undefined;
  return more ? `${points.slice(0, TITLE_MAX - 1).join("")}…` : points.join("");
}

const WHITESPACE = /^\s$/u;

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
