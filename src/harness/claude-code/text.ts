/**
 * Claude Code's text form is the session JSONL itself. `parse` keeps every
 * line verbatim (see body.ts) and reads the session metadata; `render`
 * writes the lines back exactly as they were.
 */

import { isJsonObject, type JsonObject, type Meta } from "../../common.js";
import { ParseError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine, isJsonLines } from "../../sniff.js";
import { nonEmpty, oneLineTitle, PROMPT_TITLE_MAX } from "../../strings.js";
import { compareTimestamps, EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import {
  type ClaudeCodeBody,
  joinLines,
  Lines,
  lineType,
  parseRecord,
  records,
  splitLines,
} from "./body.js";

/** The model Claude Code records on assistant lines it made up itself (API errors, interrupts). */
export const SYNTHETIC_MODEL = "<synthetic>";

/** Titles made from a prompt longer than this are cut with an ellipsis. */
const TITLE_MAX = PROMPT_TITLE_MAX;

/**
 * A user line's prompt as a title: its text on one line, trimmed, cut at
 * {@link TITLE_MAX}. None for what Claude Code writes as a user line but the
 * person did not type: meta lines (caveats), sidechains, tool results, and
 * markup such as `<command-name>` or `<local-command-stdout>`. `claude -p`
 * writes no title line, so this is how such a session is named.
 */
export function promptTitle(record: JsonObject | undefined): string | undefined {
  if (record === undefined || lineType(record) !== "user") return undefined;
  if (record.isMeta === true || record.isSidechain === true) return undefined;
  const message = obj(record, "message");
  const content = message?.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((c) =>
              isJsonObject(c) && c.type === "text" && typeof c.text === "string" ? c.text : "",
            )
            .join(" ")
        : "";
  const line = oneLineTitle(text, TITLE_MAX);
  return line?.startsWith("<") ? undefined : line;
}

/**
 * Session metadata from the lines. The first line carrying each field wins,
 * the start is the earliest timestamp, and the title is the last
 * `custom-title` (a /rename), else the last `ai-title`, else the last
 * `summary`, else the first prompt (see {@link promptTitle}).
 * `fallbackId` names a session whose lines carry no sessionId.
 */
export function readMeta(
  lineRecords: Iterable<JsonObject | undefined>,
  fallbackId: () => string,
): Meta {
  return scanMeta(lineRecords, fallbackId).meta;
}

/** `readMeta`, and whether any line is a Claude Code record (a JSON object with a string `type`). */
function scanMeta(
  lineRecords: Iterable<JsonObject | undefined>,
  fallbackId: () => string,
): { meta: Meta; typed: boolean } {
  let typed = false;
  let id: string | undefined;
  let cwd: string | undefined;
  let gitBranch: string | undefined;
  let version: string | undefined;
  let model: string | undefined;
  let start: Timestamp | undefined;
  let custom: string | undefined;
  let ai: string | undefined;
  let summary: string | undefined;
  let prompt: string | undefined;
  for (const record of lineRecords) {
    if (record === undefined) continue;
    const type = lineType(record);
    if (type !== undefined) typed = true;
    prompt ??= promptTitle(record);
    id ??= nonEmpty(str(record, "sessionId"));
    cwd ??= nonEmpty(str(record, "cwd"));
    gitBranch ??= nonEmpty(str(record, "gitBranch"));
    version ??= nonEmpty(str(record, "version"));
    const raw = str(record, "timestamp");
    const ts = raw === undefined ? undefined : normalizeTimestamp(raw);
    if (ts !== undefined && (start === undefined || compareTimestamps(ts, start) < 0)) start = ts;
    switch (type) {
      case "assistant": {
        const m = str(obj(record, "message"), "model");
        if (model === undefined && m !== undefined && m !== "" && m !== SYNTHETIC_MODEL) model = m;
        break;
      }
      case "custom-title":
        custom = nonEmpty(str(record, "customTitle")) ?? custom;
        break;
      case "ai-title":
        ai = nonEmpty(str(record, "aiTitle")) ?? ai;
        break;
      case "summary":
        summary = nonEmpty(str(record, "summary")) ?? summary;
        break;
      default:
        break;
    }
  }
  const meta: Meta = { id: id ?? fallbackId(), timestamp: start ?? EPOCH };
  assignDefined(meta, "cwd", cwd);
  assignDefined(meta, "git_branch", gitBranch);
  const title = custom ?? ai ?? summary ?? prompt;
  assignDefined(meta, "title", title);
  assignDefined(meta, "cli_version", version);
  assignDefined(meta, "model", model);
  return { meta, typed };
}

/**
 * Parse a session file. Tolerant by design (the format is internal and
 * drifts): invalid lines are kept verbatim and skipped by the codec. Only a
 * text with no Claude Code record at all (a JSON object with a string
 * `type`) is refused.
 */
function parseClaudeCode(text: string, origin?: string): Transcript<ClaudeCodeBody> {
  checkLineCount(text, "claude_code", origin);
  return fromLines(splitLines(text), () => text, origin);
}

/** `parseClaudeCode` of a file's UTF-8 bytes, never decoded whole (what the store loads). */
export function parseClaudeCodeBytes(
  bytes: Uint8Array,
  origin?: string,
): Transcript<ClaudeCodeBody> {
  checkLineCount(bytes, "claude_code", origin);
  return fromLines(
    Lines.fromBytes(bytes),
    () => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
    origin,
  );
}

/** `parseClaudeCode` of lines already split (`TextCodec.parseLines`). */
function parseClaudeCodeLines(lines: Lines, origin?: string): Transcript<ClaudeCodeBody> {
  return fromLines(lines, () => joinLines(lines), origin);
}

function fromLines(
  lines: Lines,
  text: () => string,
  origin: string | undefined,
): Transcript<ClaudeCodeBody> {
  const { meta, typed } = scanMeta(records(lines), () => stableUuid("claude_code", text()));
  if (!typed) {
    if (text().trim() === "") {
      throw new ParseError("claude_code", "no Claude Code records: the input is empty", {
        file: origin,
      });
    }
    const all = [...lines];
    const bad = all.findIndex((l) => l.text.trim() !== "");
    const first = all[bad];
    const why =
      first === undefined || parseRecord(first.text) === undefined
        ? "is not a JSON object"
        : 'is a JSON object without a string "type"';
    throw new ParseError(
      "claude_code",
      `not a Claude Code session: no line is a record (line ${bad + 1} ${why})`,
      { file: origin },
    );
  }
  return { meta, body: { lines } };
}

function renderClaudeCode(transcript: Transcript<ClaudeCodeBody>): string {
  return joinLines(transcript.body.lines);
}

/** Fields only Claude Code's session lines carry (the envelope of every line kind it writes). */
const CLAUDE_LINE = /"(?:sessionId|parentUuid|leafUuid|isSidechain|messageId)"\s*:/;

/** JSON Lines whose first record has Claude Code's envelope. */
function detectClaudeCode(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  // Gemini CLI's metadata line has a sessionId too, beside its projectHash.
  // Qwen Code's records share the envelope but carry Gemini `parts` or a `systemPayload`.
  const qwen =
    /"(?:parts|systemPayload)"\s*:/.test(line) &&
    !/"(?:isSidechain|userType|leafUuid)"\s*:/.test(line);
  // Copilot CLI's events put a sessionId inside the `data` of a dotted event type.
  const copilot = /^\{\s*"type"\s*:\s*"[a-z_]+\.[a-z_.]+"\s*,\s*"data"\s*:/.test(line);
  return isJsonLines(sample) &&
    CLAUDE_LINE.test(line) &&
    !/"projectHash"\s*:/.test(line) &&
    !qwen &&
    !copilot
    ? "text"
    : undefined;
}

export const claudeCodeText: TextCodec<ClaudeCodeBody> = {
  parse: parseClaudeCode,
  parseLines: parseClaudeCodeLines,
  render: renderClaudeCode,
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectClaudeCode,
};
