/**
 * Claude Code's native Body: the session file's lines, each kept verbatim
 * (its exact text and its exact terminator) next to its JSON parse, so that
 * load -> save reproduces the file byte for byte, unknown line types,
 * invalid lines, CRLF and a missing final newline included.
 */

import type { JsonObject } from "../../common.js";
import { isJsonObject } from "../../common.js";

/** One line of a session file. */
export interface ClaudeLine {
  /** The exact text of the line, without its terminator. Authoritative for rendering. */
  text: string;
  /** The terminator that followed it: "" only on a last line with no final newline. */
  eol: "" | "\n" | "\r\n";
  /** The parse of `text` when it is a JSON object; undefined for blank or invalid lines. */
  record: JsonObject | undefined;
}

export interface ClaudeCodeBody {
  lines: ClaudeLine[];
}

/** JSON.parse of one line; undefined unless it is a JSON object. Never throws. */
export function parseRecord(text: string): JsonObject | undefined {
  // A byte-order mark may start the first line; JSON.parse refuses it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Split text into lines, keeping each terminator so that `joinLines` restores it exactly. */
export function splitLines(text: string): ClaudeLine[] {
  const lines: ClaudeLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) {
      const rest = text.slice(start);
      lines.push({ text: rest, eol: "", record: parseRecord(rest) });
      break;
    }
    const crlf = nl > start && text.charCodeAt(nl - 1) === 13;
    const line = text.slice(start, crlf ? nl - 1 : nl);
    lines.push({ text: line, eol: crlf ? "\r\n" : "\n", record: parseRecord(line) });
    start = nl + 1;
  }
  return lines;
}

export function joinLines(lines: readonly ClaudeLine[]): string {
  let out = "";
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/** A line for a record our writer made: compact JSON, "\n"-terminated. */
export function recordLine(record: JsonObject): ClaudeLine {
  return { text: JSON.stringify(record), eol: "\n", record };
}

/** The string at `record[key]`, or undefined. */
export function str(record: JsonObject | undefined, key: string): string | undefined {
  const v = record?.[key];
  return typeof v === "string" ? v : undefined;
}

/** The object at `record[key]`, or undefined. */
export function obj(record: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = record?.[key];
  return v !== undefined && isJsonObject(v) ? v : undefined;
}

/** The record's top-level `type` tag. */
export function lineType(record: JsonObject | undefined): string | undefined {
  return str(record, "type");
}
