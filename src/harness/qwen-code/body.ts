/**
 * Qwen Code's native Body: the chat recording `<session id>.jsonl`, its
 * lines kept verbatim (load -> save is byte-exact, unknown record kinds and
 * invalid lines included) and parsed each time they are walked, never all
 * held at once; and the CLI's own replay of it (`prepareTranscriptRecords`
 * in its transcript-records.ts): the active chain of records from the last
 * conversation record back through `parentUuid`, with records repeated
 * under one uuid merged. Pure.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { assignDefined, parseBounded } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { obj, str } from "../shared/fields.js";

export { joinLines, Lines } from "../../lines.js";

/** The recording's lines, held as its bytes (or text) and where each line starts. */
export interface QwenBody {
  lines: Lines;
}

/** A line's parse when it is a JSON object; undefined for blank or invalid lines. */
function parseRecord(text: string): JsonObject | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return undefined;
  const value = parseBounded(body)?.value;
  return value !== undefined && isJsonObject(value) ? value : undefined;
}

export function splitLines(text: string): Lines {
  return Lines.split(text);
}

/**
 * Every line's parse, in order (undefined for a line that is not a JSON
 * object): parsed as they are walked and never kept.
 */
export function* parsedLines(lines: Iterable<VerbatimLine>): Generator<JsonObject | undefined> {
  for (const line of lines) yield parseRecord(line.text);
}

export function recordLine(record: JsonObject): VerbatimLine {
  return { text: JSON.stringify(record), eol: "\n" };
}

/** The record kinds the CLI reads; any other `type` is skipped, as the CLI skips it. */
const RECORD_TYPES = ["user", "assistant", "tool_result", "system"] as const;
type RecordType = (typeof RECORD_TYPES)[number];

/** A record the CLI accepts: its identity fields and one of the four types. */
export interface QwenRecord {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  type: RecordType;
  raw: JsonObject;
}

function recordType(v: Json | undefined): RecordType | undefined {
  return RECORD_TYPES.find((t) => t === v);
}

/** The CLI's `validateTranscriptRecord`: identity fields, then a known type. */
export function asRecord(raw: JsonObject | undefined): QwenRecord | undefined {
  if (raw === undefined) return undefined;
  const uuid = str(raw, "uuid");
  const parent = raw.parentUuid;
  const sessionId = str(raw, "sessionId");
  const type = recordType(raw.type);
  if (uuid === undefined || uuid === "" || sessionId === undefined || sessionId === "") return;
  if (typeof parent !== "string" && parent !== null) return undefined;
  if (type === undefined) return undefined;
  return { uuid, parentUuid: parent, sessionId, type, raw };
}

/** System records that are not conversation (artifacts, sources, managed-session bookkeeping). */
const NON_CONVERSATION = new Set([
  "session_artifact_event",
  "session_artifact_snapshot",
  "session_sources_snapshot",
  "managed_session_header_v1",
  "managed_session_event_v1",
  "managed_session_commit_v1",
]);

function isConversation(r: QwenRecord): boolean {
  const subtype = str(r.raw, "subtype");
  return !(r.type === "system" && subtype !== undefined && NON_CONVERSATION.has(subtype));
}

function partsList(record: JsonObject): Json[] {
  const parts = obj(record, "message")?.parts;
  return Array.isArray(parts) ? parts : [];
}

/** The CLI's `aggregateTranscriptRecordFragments`: parts appended, the rest first-or-latest. */
function merge(fragments: readonly QwenRecord[]): QwenRecord | undefined {
  const [first, ...rest] = fragments;
  if (first === undefined || rest.length === 0) return first;
  const base: JsonObject = { ...first.raw };
  const parts = [...partsList(first.raw)];
  for (const { raw } of rest) {
    parts.push(...partsList(raw));
    assignDefined(base, "usageMetadata", raw.usageMetadata);
    if (raw.toolCallResult !== undefined && base.toolCallResult === undefined)
      base.toolCallResult = raw.toolCallResult;
    if (raw.model !== undefined && base.model === undefined) base.model = raw.model;
    const ts = str(raw, "timestamp");
    const at = str(base, "timestamp");
    if (ts !== undefined && (at === undefined || ts > at)) base.timestamp = ts;
  }
  const role = str(obj(first.raw, "message"), "role");
  base.message = role === undefined ? { parts } : { role, parts };
  return { ...first, raw: base };
}

/**
 * The records the CLI resumes from, oldest first: the chain ending at the
 * last conversation record. A first walk keeps only each record's line,
 * uuid and parent (so a huge recording's records are never all parsed at
 * once); the chain's records are parsed again, and merged, as they are
 * read.
 */
export function activeChain(lines: Lines): Iterable<QwenRecord> {
  /** Record number by uuid (its first line), and each record's line and parent. */
  const first = new Map<string, number>();
  const lineOf: number[] = [];
  const parentOf: (string | null)[] = [];
  /** The later lines of a uuid recorded more than once, by record number. */
  const repeats = new Map<number, number[]>();
  let leaf: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const r = asRecord(parseRecord(lines.text(i)));
    if (r === undefined || !isConversation(r)) continue;
    leaf = r.uuid;
    const k = first.get(r.uuid);
    if (k === undefined) {
      first.set(r.uuid, lineOf.length);
      lineOf.push(i);
      parentOf.push(r.parentUuid);
    } else {
      const more = repeats.get(k);
      if (more) more.push(i);
      else repeats.set(k, [i]);
    }
  }
  const chain: number[] = [];
  const seen = new Uint8Array(lineOf.length);
  let at: string | null = leaf ?? null;
  while (at !== null) {
    const k = first.get(at);
    // A gap (an unknown parent) starts the chain here; a loop stops it.
    if (k === undefined || seen[k] === 1) break;
    seen[k] = 1;
    chain.push(k);
    at = parentOf[k] ?? null;
  }
  chain.reverse();
  return {
    *[Symbol.iterator]() {
      for (const k of chain) {
        const fragments: QwenRecord[] = [];
        for (const i of [lineOf[k] ?? 0, ...(repeats.get(k) ?? [])]) {
          const r = asRecord(parseRecord(lines.text(i)));
          if (r !== undefined) fragments.push(r);
        }
        const merged = merge(fragments);
        if (merged !== undefined) yield merged;
      }
    },
  };
}

/**
 * The messages `view` shows for a chain, counted without converting (for
 * listings): a user record with a part, an assistant record with a part,
 * and each run of tool_result records once. A user record holding only
 * hook context or answered responses counts too: an estimate, documented.
 */
export function countMessages(chain: Iterable<QwenRecord>): number {
  let n = 0;
  let inResults = false;
  for (const r of chain) {
    if (r.type === "system") continue;
    const hasParts = partsList(r.raw).length > 0;
    if (r.type === "tool_result") {
      if (hasParts && !inResults) n++;
      inResults ||= hasParts;
      continue;
    }
    inResults = false;
    if (hasParts) n++;
  }
  return n;
}
