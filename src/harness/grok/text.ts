/**
 * Grok's text form: JSON lines. A session folder has three files, so its
 * text is a header line `{"grok_session":{"summary":…,"chat_history":[…]}}`
 * followed by the lines of `updates.jsonl` as Grok wrote them; a bare
 * `updates.jsonl` (no header) reads too. Pure. A line that is not a JSON
 * object is an error naming its line, except a last line with no newline
 * after it (a write still under way) after good ones, which is left out; unknown lines and
 * fields are kept.
 */

import { basename, dirname } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { stableUuid } from "../../ids.js";
import { firstLine } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { obj } from "../shared/fields.js";
import { jsonObjectLines } from "../shared/json-lines.js";
import type { GrokBody } from "./body.js";
import { grokMeta } from "./meta.js";

const HEADER = "grok_session";

/** The JSON object on every line of `text`; a last line cut short is dropped after good ones. */
export function jsonLines(text: string, origin?: string): JsonObject[] {
  return jsonObjectLines(text, "grok", origin, "after-rows");
}

/** A session's id when nothing inside names it: its folder's name for `updates.jsonl`, the file's name otherwise. */
function idFromOrigin(origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (basename(origin) === "updates.jsonl") return basename(dirname(origin)) || undefined;
  return origin.endsWith(".jsonl") ? basename(origin, ".jsonl") || undefined : undefined;
}

function parseGrok(text: string, origin?: string): Transcript<GrokBody> {
  const lines = jsonLines(text, origin);
  const header = lines[0] === undefined ? undefined : obj(lines[0], HEADER);
  const history = header?.chat_history;
  const body: GrokBody = {
    summary: obj(header, "summary") ?? {},
    updates: header === undefined ? lines : lines.slice(1),
    history: Array.isArray(history) ? history.filter(isJsonObject) : [],
  };
  const id = idFromOrigin(origin) ?? stableUuid("grok", text);
  return { meta: grokMeta(body.summary, id), body };
}

function renderGrok(t: Transcript<GrokBody>): string {
  const header = { [HEADER]: { summary: t.body.summary, chat_history: t.body.history } };
  return [header, ...t.body.updates].map((o) => `${JSON.stringify(o)}\n`).join("");
}

/** The header line, or an ACP `session/update` notification as Grok writes it first. */
function detectGrok(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  if (/^\{\s*"grok_session"\s*:\s*\{/.test(line)) return "text";
  return /^\{\s*"timestamp"\s*:\s*[0-9.eE+-]+\s*,\s*"method"\s*:\s*"(_x\.ai\/)?session\/update"/.test(
    line,
  )
    ? "text"
    : undefined;
}

export const grokText: TextCodec<GrokBody> = {
  parse: parseGrok,
  render: renderGrok,
  detect: detectGrok,
};
