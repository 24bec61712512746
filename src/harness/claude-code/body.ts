/**
 * Claude Code's native Body: the session file's lines, each kept verbatim
 * (its exact text and its exact terminator), so that load -> save
 * reproduces the file byte for byte, unknown line types, invalid lines,
 * CRLF and a missing final newline included. A line's JSON parse is made
 * when it is read (`recordAt`) and not kept: a session's Body costs about
 * its file's size (docs/architecture.md, "Large sessions").
 */

import type { JsonObject } from "../../common.js";
import { isJsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { str } from "../shared/fields.js";

export { joinLines, Lines } from "../../lines.js";

/** One line of a session file, verbatim. */
export type ClaudeLine = VerbatimLine;

export interface ClaudeCodeBody {
  lines: Lines;
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

/** Line `i`'s record: its parse, made afresh (undefined for blank or invalid lines). */
export function recordAt(lines: Lines, i: number): JsonObject | undefined {
  return parseRecord(lines.text(i));
}

/** Every line's record, in order, each parsed as it is reached. */
export function* records(lines: Lines): Generator<JsonObject | undefined> {
  for (const line of lines) yield parseRecord(line.text);
}

/** Split text into verbatim lines. */
export function splitLines(text: string): Lines {
  return Lines.split(text);
}

export function recordLine(record: JsonObject): ClaudeLine {
  return { text: JSON.stringify(record), eol: "\n" };
}

/** The record's top-level `type` tag. */
export function lineType(record: JsonObject | undefined): string | undefined {
  return str(record, "type");
}
