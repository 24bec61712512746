/**
 * Claude Code's native Body: the session file's lines, each kept verbatim
 * (its exact text and its exact terminator) next to its JSON parse, so that
 * load -> save reproduces the file byte for byte, unknown line types,
 * invalid lines, CRLF and a missing final newline included.
 */

import type { JsonObject } from "../../common.js";
import { isJsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";
import { splitLines as splitVerbatim, type VerbatimLine } from "../../lines.js";
import { str } from "../shared/fields.js";

export { joinLines } from "../../lines.js";

/** One line of a session file: verbatim (`text` is authoritative for rendering), plus its parse. */
export interface ClaudeLine extends VerbatimLine {
  /** The parse of `text` when it is a JSON object; undefined for blank or invalid lines. */
  record: JsonObject | undefined;
}

export interface ClaudeCodeBody {
  lines: ClaudeLine[];
}

/**
 * JSON.parse of one line; undefined unless it is a JSON object nested no
 * deeper than MAX_JSON_DEPTH (a deeper line is kept verbatim and read as
 * an unreadable line, as Codex's reader does: documented tolerant reading).
 * Never throws.
 */
export function parseRecord(text: string): JsonObject | undefined {
  // A byte-order mark may start the first line; JSON.parse refuses it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return undefined;
  const value = parseBounded(body)?.value;
  return value !== undefined && isJsonObject(value) ? value : undefined;
}

/** Split text into verbatim lines, each with its JSON parse. */
export function splitLines(text: string): ClaudeLine[] {
  return splitVerbatim(text).map((line) => ({ ...line, record: parseRecord(line.text) }));
}

export function recordLine(record: JsonObject): ClaudeLine {
  return { text: JSON.stringify(record), eol: "\n", record };
}

/** The record's top-level `type` tag. */
export function lineType(record: JsonObject | undefined): string | undefined {
  return str(record, "type");
}
