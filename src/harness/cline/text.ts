/**
 * Cline's text form: the messages file (`<id>.messages.json`, an object
 * with a `messages` array, written by Cline as two-space JSON and a final
 * newline), or the legacy `api_conversation_history.json` (a bare array).
 * The manifest is not part of it: a text round trip keeps the messages and
 * the session id, and a store save writes a manifest anew. Pure.
 */

import { basename, dirname } from "node:path";
import { ParseError } from "../../errors.js";
import { parseJson } from "../../json.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { type ClineBody, isMessagesDoc } from "./body.js";
import { clineMeta } from "./meta.js";

/** The id a file's place names: `<id>.messages.json`, or `tasks/<id>/api_conversation_history.json`. */
export function idFromPath(path: string): string | undefined {
  const name = basename(path);
  if (name.endsWith(".messages.json")) return name.slice(0, -".messages.json".length);
  if (name === "api_conversation_history.json") return basename(dirname(path));
  return undefined;
}

export function parseCline(text: string, origin?: string): Transcript<ClineBody> {
  const value = parseJson(text, "cline", origin);
  if (!isMessagesDoc(value))
    throw new ParseError(
      "cline",
      "not a Cline messages file (an object with a messages array, or an array of messages)",
      { file: origin },
    );
  const body: ClineBody = { doc: value };
  const named = origin !== undefined ? idFromPath(origin) : undefined;
  return { meta: clineMeta(body, named), body };
}

function renderCline(t: Transcript<ClineBody>): string {
  return `${JSON.stringify(t.body.doc, null, 2)}\n`;
}

/** Cline 3's messages file opens `{"version": 1, "updated_at": …, "agent": …`. */
function detectCline(sample: Sample): Recognized | undefined {
  return /^\s*\{\s*"version":\s*\d+,\s*"updated_at":\s*"[^"]*",\s*"agent":\s*"/.test(sample.text)
    ? "text"
    : undefined;
}

export const clineText: TextCodec<ClineBody> = {
  parse: parseCline,
  render: renderCline,
  detect: detectCline,
};
