/**
 * Kiro CLI's text form: a session's log `<id>.jsonl`, one `LogEntry` per
 * line (`{"version":"v1","kind":...,"data":...}`), optionally headed by its
 * `<id>.json` metadata (SessionData) on one line. Kiro keeps those two in
 * two files; the text form joins them so a converted session keeps its id,
 * folder, title and model, and Kiro's own `.jsonl` still reads as it is.
 * Pure. A line that is not a JSON object is an error naming its line;
 * unknown versions, kinds and fields are kept. A log written only in a
 * newer entry version is refused by name.
 */

import { basename } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { ParseError, UnsupportedError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { checkLineCount } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import { EPOCH } from "../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { isAgentLine, parseAgent, renderAgent } from "./agent-text.js";
import type { KiroBody, KiroConversationBody, KiroSessionBody } from "./body.js";
import { conversationMeta } from "./conversation-meta.js";
import { kiroMeta, kiroTime } from "./meta.js";

/** The newest `LogEntry` version this reader was checked against. */
const KNOWN_LOG_VERSION = "v1";

function lineObject(line: string, n: number, origin?: string): JsonObject {
  let value: unknown;
  try {
    value = jsonFromText(line);
  } catch {
    throw new ParseError("kiro", "not a JSON line", { file: origin, at: `line ${n}` });
  }
  if (!isJsonObject(value))
    throw new ParseError("kiro", "expected a JSON object", { file: origin, at: `line ${n}` });
  return value;
}

/** A log whose every entry has a newer `version` than v1: named, not guessed at. */
function checkVersion(entries: readonly JsonObject[], origin?: string): void {
  const versions = entries.map((e) => e.version);
  if (versions.length === 0 || versions.includes(KNOWN_LOG_VERSION)) return;
  const newer = versions.find((v): v is string => typeof v === "string" && /^v\d+$/.test(v));
  if (newer !== undefined)
    throw new UnsupportedError(
      "kiro",
      `Kiro CLI log entries ${newer} are newer than the ${KNOWN_LOG_VERSION} this version reads`,
      { file: origin },
    );
}

/** The first prompt's time: the log's own start when no metadata file is beside it. */
export function firstPromptTime(entries: readonly JsonObject[]) {
  for (const e of entries) {
    const data = isJsonObject(e.data) ? e.data : undefined;
    const meta = data !== undefined && isJsonObject(data.meta) ? data.meta : undefined;
    const t = kiroTime(meta?.timestamp);
    if (t !== undefined) return t;
  }
  return undefined;
}

const CONVERSATION_HEADER = "kiro_conversation";

/** The older engine's conversation as text: one `{"kiro_conversation": {...}}` line. */
function conversationOf(
  line: JsonObject,
  id: string,
): Transcript<KiroConversationBody> | undefined {
  const c = line[CONVERSATION_HEADER];
  if (!isJsonObject(c)) return undefined;
  const body: KiroConversationBody = {
    layout: "conversation",
    key: typeof c.key === "string" ? c.key : "",
    conversation: isJsonObject(c.conversation) ? c.conversation : {},
  };
  if (typeof c.created_at === "number") body.created_at = c.created_at;
  if (typeof c.updated_at === "number") body.updated_at = c.updated_at;
  return { meta: conversationMeta(body, id), body };
}

function jsonLines(text: string, origin?: string): JsonObject[] {
  checkLineCount(text, "kiro", origin);
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ line, n: i + 1 }))
    .filter((l) => l.line.trim() !== "")
    .map((l) => lineObject(l.line, l.n, origin));
}

function parseKiro(text: string, origin?: string): Transcript<KiroBody> {
  const nl = text.indexOf("\n");
  if (isAgentLine((nl === -1 ? text : text.slice(0, nl)).trimStart()))
    return parseAgent(text, origin);
  const lines = jsonLines(text, origin);
  const head = lines[0];
  const conversation =
    head === undefined ? undefined : conversationOf(head, stableUuid("kiro", text));
  if (conversation !== undefined) return conversation;
  return parseSession(lines, text, origin);
}

/** A v3 session's `<id>.jsonl`, as its store reads it. */
export function parseKiroSession(text: string, origin?: string): Transcript<KiroSessionBody> {
  return parseSession(jsonLines(text, origin), text, origin);
}

/** A v3 session's text: its SessionData line (when present), then its log entries. */
function parseSession(
  lines: JsonObject[],
  text: string,
  origin?: string,
): Transcript<KiroSessionBody> {
  const head = lines[0];
  const session = head !== undefined && isSessionData(head) ? head : {};
  const entries = head !== undefined && session === head ? lines.slice(1) : lines;
  checkVersion(entries, origin);
  // Kiro names a session by its files; without a name, the text gives a stable id.
  const named = origin?.endsWith(".jsonl") ? basename(origin, ".jsonl") : undefined;
  const meta = kiroMeta(session, named || stableUuid("kiro", text));
  if (meta.timestamp === EPOCH) meta.timestamp = firstPromptTime(entries) ?? EPOCH;
  return { meta, body: { session, entries } };
}

/** SessionData: a `session_id` beside a `session_state`, never a `LogEntry`'s `kind`. */
function isSessionData(line: JsonObject): boolean {
  return typeof line.session_id === "string" && "session_state" in line && !("kind" in line);
}

function renderKiro(t: Transcript<KiroBody>): string {
  const b = t.body;
  if (b.layout === "agent") return renderAgent(b);
  if (b.layout === "conversation") {
    const c: JsonObject = { key: b.key };
    assignDefined(c, "created_at", b.created_at);
    assignDefined(c, "updated_at", b.updated_at);
    c.conversation = b.conversation;
    return `${JSON.stringify({ [CONVERSATION_HEADER]: c })}\n`;
  }
  const lines = Object.keys(b.session).length > 0 ? [b.session] : [];
  return [...lines, ...b.entries].map((o) => `${JSON.stringify(o)}\n`).join("");
}

/** A first line that is a versioned `LogEntry` or Kiro's SessionData. */
function detectKiro(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  if (/^\{\s*"version"\s*:\s*"v\d+"\s*,\s*"kind"\s*:\s*"[A-Za-z]+"/.test(line)) return "text";
  if (/^\{\s*"kiro_conversation"\s*:\s*\{/.test(line) || isAgentLine(line)) return "text";
  return /^\{\s*"session_id"\s*:\s*"/.test(line) && line.includes('"session_state"')
    ? "text"
    : undefined;
}

export const kiroText: TextCodec<KiroBody> = {
  parse: parseKiro,
  render: renderKiro,
  detect: detectKiro,
};
