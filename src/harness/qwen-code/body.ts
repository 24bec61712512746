/**
 * Qwen Code's native Body: the chat recording `<session id>.jsonl`, each
 * line kept verbatim next to its JSON parse (load -> save is byte-exact,
 * unknown record kinds and invalid lines included), and the CLI's own
 * replay of it (`prepareTranscriptRecords` in its transcript-records.ts):
 * the active chain of records from the last conversation record back
 * through `parentUuid`, with records repeated under one uuid merged. Pure.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { assignDefined, parseBounded } from "../../json.js";
import { splitLines as splitVerbatim, type VerbatimLine } from "../../lines.js";
import { obj, str } from "../shared/fields.js";

export { joinLines } from "../../lines.js";

export interface QwenLine extends VerbatimLine {
  /** The parse of `text` when it is a JSON object; undefined for blank or invalid lines. */
  record: JsonObject | undefined;
}

export interface QwenBody {
  lines: QwenLine[];
}

function parseRecord(text: string): JsonObject | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return undefined;
  const value = parseBounded(body)?.value;
  return value !== undefined && isJsonObject(value) ? value : undefined;
}

export function splitLines(text: string): QwenLine[] {
  return splitVerbatim(text).map((line) => ({ ...line, record: parseRecord(line.text) }));
}

export function recordLine(record: JsonObject): QwenLine {
  return { text: JSON.stringify(record), eol: "\n", record };
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

/** The records the CLI resumes from, oldest first: the chain ending at the last conversation record. */
export function activeChain(lines: readonly QwenLine[]): QwenRecord[] {
  const records = lines.flatMap((l) => asRecord(l.record) ?? []).filter(isConversation);
  const leaf = records.at(-1);
  if (leaf === undefined) return [];
  const byUuid = new Map<string, QwenRecord[]>();
  for (const r of records) {
    const list = byUuid.get(r.uuid);
    if (list) list.push(r);
    else byUuid.set(r.uuid, [r]);
  }
  const chain: QwenRecord[] = [];
  const seen = new Set<string>();
  let at: string | null = leaf.uuid;
  while (at !== null && !seen.has(at)) {
    seen.add(at);
    const fragments = byUuid.get(at);
    const merged = fragments && merge(fragments);
    if (fragments === undefined || merged === undefined) break; // a gap: the chain starts here
    chain.push(merged);
    at = fragments[0]?.parentUuid ?? null;
  }
  return chain.reverse();
}

/**
 * The messages `view` shows for a chain, counted without converting (for
 * listings): a user record with a part, an assistant record with a part,
 * and each run of tool_result records once. A user record holding only
 * hook context or answered responses counts too: an estimate, documented.
 */
export function countMessages(chain: readonly QwenRecord[]): number {
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
