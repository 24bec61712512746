/**
 * Cline's text form: the messages file (`<id>.messages.json`, an object
 * with a `messages` array, written by Cline as two-space JSON and a final
 * newline), or the legacy `api_conversation_history.json` (a bare array).
 * When the Body has a manifest, txcript's rendering carries it under a
 * `manifest` key of its own (Cline's files have none), so a text round trip
 * keeps the cwd, start and title; a store save writes it to `<id>.json`
 * and the messages file without it. Pure.
 */

import { basename, dirname } from "node:path";
import { isJsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { parseJson } from "../../json.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { type ClineBody, isMessagesDoc } from "./body.js";
import { clineMeta } from "./meta.js";

/** The id a file's place names: `<id>.messages.json`, or `tasks/<id>/api_conversation_history.json`. */
function idFromPath(path: string): string | undefined {
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
  if (!Array.isArray(value) && isJsonObject(value.manifest)) {
    const { manifest, ...doc } = value;
    body.doc = doc;
    body.manifest = manifest;
  }
  const named = origin !== undefined ? idFromPath(origin) : undefined;
  return { meta: clineMeta(body, named), body };
}

function renderCline(t: Transcript<ClineBody>): string {
  const { doc, manifest } = t.body;
  const out = Array.isArray(doc) || manifest === undefined ? doc : { ...doc, manifest };
  return `${JSON.stringify(out, null, 2)}\n`;
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
