/**
 * Qwen Code's text form is the chat recording JSONL itself. `parse` keeps
 * every line verbatim (body.ts) and reads the session's metadata; `render`
 * writes the lines back exactly. Pure.
 */

import { isJsonObject, type JsonObject, type Meta } from "../../common.js";
import { ParseError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine, isJsonLines } from "../../sniff.js";
import { nonEmpty, oneLineTitle } from "../../strings.js";
import { compareTimestamps, EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { asRecord, joinLines, type Lines, parsedLines, type QwenBody, splitLines } from "./body.js";

/** The CLI cuts a derived title at this length (`TITLE_MAX_LENGTH`). */
const TITLE_MAX = 80;

/** Hook context the CLI appends to a prompt and never shows (`<qwen:user-prompt-submit-context>`). */
export function isHookContext(text: string): boolean {
  const t = text.trim();
  return (
    t.startsWith("<qwen:user-prompt-submit-context>\n") &&
    t.endsWith("\n</qwen:user-prompt-submit-context>")
  );
}

/** A user record's visible text, as the CLI derives a title from it. */
function promptText(record: JsonObject): string | undefined {
  const parts = obj(record, "message")?.parts;
  if (!Array.isArray(parts)) return undefined;
  const texts = parts.flatMap((p) =>
    isJsonObject(p) &&
    typeof p.text === "string" &&
    p.thought === undefined &&
    !isHookContext(p.text)
      ? [p.text]
      : [],
  );
  return nonEmpty(texts.join("").trim());
}

/**
 * Metadata from the lines: the first sessionId, cwd, version and assistant
 * model, the earliest timestamp, and the title the CLI shows (the last
 * `custom_title`, else the first line of the first prompt).
 */
function readMeta(lines: Lines, fallbackId: () => string): Meta {
  let id: string | undefined;
  let cwd: string | undefined;
  let version: string | undefined;
  let model: string | undefined;
  let start: Timestamp | undefined;
  let custom: string | undefined;
  let prompt: string | undefined;
  for (const record of parsedLines(lines)) {
    const r = asRecord(record);
    if (r === undefined) continue;
    id ??= r.sessionId;
    cwd ??= nonEmpty(str(r.raw, "cwd"));
    version ??= nonEmpty(str(r.raw, "version"));
    if (r.type === "assistant") model ??= nonEmpty(str(r.raw, "model"));
    if (r.type === "user") prompt ??= promptText(r.raw);
    if (r.type === "system" && str(r.raw, "subtype") === "custom_title")
      custom = nonEmpty(str(obj(r.raw, "systemPayload"), "customTitle")) ?? custom;
    const raw = str(r.raw, "timestamp");
    const ts = raw === undefined ? undefined : normalizeTimestamp(raw);
    if (ts !== undefined && (start === undefined || compareTimestamps(ts, start) < 0)) start = ts;
  }
  const meta: Meta = { id: id ?? fallbackId(), timestamp: start ?? EPOCH };
  assignDefined(meta, "cwd", cwd);
  const title =
    custom ??
    (prompt === undefined ? undefined : oneLineTitle(prompt.split("\n")[0] ?? "", TITLE_MAX));
  assignDefined(meta, "title", title);
  assignDefined(meta, "cli_version", version);
  assignDefined(meta, "model", model);
  return meta;
}

/**
 * Parse a chat recording. Tolerant, as the CLI is: lines that are not
 * records are kept verbatim and skipped. A text with no record at all is
 * refused in one line.
 */
function parseQwen(text: string, origin?: string): Transcript<QwenBody> {
  checkLineCount(text, "qwen_code", origin);
  return qwenFromLines(splitLines(text), origin);
}

/** A recording from its lines (a store's, over the file's bytes): checked as `parseQwen` checks text. */
export function qwenFromLines(lines: Lines, origin?: string): Transcript<QwenBody> {
  let recorded = false;
  for (const record of parsedLines(lines)) {
    if (asRecord(record) === undefined) continue;
    recorded = true;
    break;
  }
  if (!recorded) {
    let blank = true;
    for (const l of lines) blank &&= l.text.trim() === "";
    const why = blank
      ? "the input is empty"
      : "no line is a record with a uuid, parentUuid, sessionId and a known type";
    throw new ParseError("qwen_code", `not a Qwen Code session: ${why}`, { file: origin });
  }
  // Unreached while a record names its session (asRecord needs a sessionId); kept stable.
  const meta = readMeta(lines, () => stableUuid("qwen_code", joinLines(lines)));
  return { meta, body: { lines } };
}

/** A Qwen record: Claude Code's envelope with Gemini's `parts` or a `systemPayload`, and no Claude-only field. */
function detectQwen(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  if (!isJsonLines(sample) || !/"parentUuid"\s*:/.test(line) || !/"sessionId"\s*:/.test(line))
    return undefined;
  if (/"(?:isSidechain|userType|leafUuid)"\s*:/.test(line)) return undefined;
  return /"(?:parts|systemPayload)"\s*:/.test(line) ? "text" : undefined;
}

export const qwenText: TextCodec<QwenBody> = {
  parse: parseQwen,
  parseLines: qwenFromLines,
  render: (t) => joinLines(t.body.lines),
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectQwen,
};
