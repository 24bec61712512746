/**
 * Goose's text form: the legacy session file `<id>.jsonl` Goose wrote before
 * its SQLite store (and still imports): a first line holding the session's
 * metadata, then one `Message` JSON per line. Pure. A line that is not a
 * JSON object is an error naming its line; unknown fields and content
 * kinds are kept.
 */

import { basename } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { jsonFromText } from "../../json.js";
import { checkLineCount } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import type { GooseBody } from "./body.js";
import { gooseMeta } from "./meta.js";

function lineObject(line: string, n: number, origin?: string): JsonObject {
  let value: unknown;
  try {
    value = jsonFromText(line);
  } catch {
    throw new ParseError("goose", "not a JSON line", { file: origin, at: `line ${n}` });
  }
  if (!isJsonObject(value))
    throw new ParseError("goose", "expected a JSON object", { file: origin, at: `line ${n}` });
  return value;
}

export function parseGoose(text: string, origin?: string): Transcript<GooseBody> {
  checkLineCount(text, "goose", origin);
  const lines = text.split(/\r?\n/);
  const numbered = lines.map((line, i) => ({ line, n: i + 1 })).filter((l) => l.line.trim() !== "");
  const head = numbered[0];
  if (head === undefined) throw new ParseError("goose", "empty session file", { file: origin });
  const session = lineObject(head.line, head.n, origin);
  if (typeof session.working_dir !== "string")
    throw new ParseError("goose", 'the first line needs the session\'s "working_dir"', {
      file: origin,
      at: "line 1",
    });
  const messages = numbered.slice(1).map((l) => lineObject(l.line, l.n, origin));
  // Goose names a legacy session by its file; without a name, the text gives a stable id.
  const named = origin?.endsWith(".jsonl") ? basename(origin, ".jsonl") : undefined;
  const id = named || stableUuid("goose", text);
  return { meta: gooseMeta(session, id, messages), body: { session, messages } };
}

function renderGoose(t: Transcript<GooseBody>): string {
  return [t.body.session, ...t.body.messages].map((o) => `${JSON.stringify(o)}\n`).join("");
}

/** A first line that is an object naming a `working_dir`, not another harness's record. */
function detectGoose(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  if (!line.startsWith("{") || /^\{\s*"(meta|type|sessionId)"/.test(line)) return undefined;
  return /"working_dir"\s*:\s*"/.test(line) ? "text" : undefined;
}

export const gooseText: TextCodec<GooseBody> = {
  parse: parseGoose,
  render: renderGoose,
  detect: detectGoose,
};
