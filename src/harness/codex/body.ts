/**
 * The native Body of a Codex session: the rollout file's lines, verbatim.
 *
 * A rollout (`rollout-<ts>-<uuid>.jsonl`) is JSONL whose every line is an
 * envelope `{timestamp, type, payload}`. The Body keeps each line's exact
 * text and its exact terminator ("\n", "\r\n" or none on a last line), so
 * rendering the Body reproduces the file byte for byte, unknown line types,
 * malformed lines and blank lines included. Interpreting lines is the
 * codec's job; this module only splits, joins and reads envelopes.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { parseJson } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";

export { joinLines, Lines } from "../../lines.js";

/** One rollout line, verbatim. */
export type CodexLine = VerbatimLine;

/** Held as the file's bytes or text and where each line starts: a line is decoded when read. */
export interface CodexBody {
  lines: Lines;
}

/** Split text into verbatim lines. */
export function splitLines(text: string): Lines {
  return Lines.split(text);
}

export interface Envelope {
  /** The line's own timestamp, as written (RFC 3339 in files Codex writes). */
  timestamp: Json | undefined;
  type: string;
  payload: JsonObject;
}

const BOM = "\uFEFF";

/**
 * Read one line's envelope, or undefined when the line is blank, not JSON,
 * nested absurdly deep, or not an object with a string `type` and an object
 * `payload`. Codex itself skips such lines when it replays a rollout, so the
 * reader does too (documented tolerant reading); the Body still keeps them.
 */
export function readEnvelope(text: string): Envelope | undefined {
  const trimmed = (text.startsWith(BOM) ? text.slice(1) : text).trim();
  if (trimmed === "" || trimmed[0] !== "{") return undefined;
  let obj: Json;
  try {
    obj = parseJson(trimmed, "codex");
  } catch {
    return undefined;
  }
  if (!isJsonObject(obj) || typeof obj.type !== "string" || !isJsonObject(obj.payload))
    return undefined;
  return { timestamp: obj.timestamp, type: obj.type, payload: obj.payload };
}

/** One line as our writer emits it: compact JSON, envelope keys in Codex's order. */
export function envelopeLine(timestamp: string, type: string, payload: object): CodexLine {
  return { text: JSON.stringify({ timestamp, type, payload }), eol: "\n" };
}

/** User-role messages Codex injects as context, not typed by the user. */
export const SCAFFOLDING_PREFIXES = [
  "<environment_context>",
  "<user_instructions>",
  "# AGENTS.md instructions",
  "<permissions instructions>",
] as const;
