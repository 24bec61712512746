/**
 * Amp's text form: the thread document, one JSON object (Amp pretty-prints
 * it; txcript renders it with two-space indentation). Pure. Text that is
 * not a JSON object, or an object with no `messages` list, is an error
 * naming the file; unknown keys, roles and blocks are kept.
 */

import { basename } from "node:path";
import { isJsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { jsonFromText } from "../../json.js";
import { firstKey } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import type { AmpBody } from "./body.js";
import { ampMeta } from "./meta.js";

export function parseAmp(text: string, origin?: string): Transcript<AmpBody> {
  let value: unknown;
  try {
    value = jsonFromText(text);
  } catch {
    throw new ParseError("amp", "not a JSON document", { file: origin });
  }
  if (!isJsonObject(value))
    throw new ParseError("amp", "an Amp thread is a JSON object", { file: origin });
  if (!Array.isArray(value.messages))
    throw new ParseError("amp", "not an Amp thread (no messages list)", { file: origin });
  const named = origin?.endsWith(".json") ? basename(origin, ".json") : undefined;
  return { meta: ampMeta(value, named || stableUuid("amp", text)), body: { thread: value } };
}

function renderAmp(t: Transcript<AmpBody>): string {
  return `${JSON.stringify(t.body.thread, null, 2)}\n`;
}

/** A document whose first key is Amp's revision counter `v`, with a `T-` thread id near it. */
function detectAmp(sample: Sample): Recognized | undefined {
  if (firstKey(sample) !== "v") return undefined;
  return /"id"\s*:\s*"T-[0-9a-fA-F-]{36}"/.test(sample.text) ? "text" : undefined;
}

export const ampText: TextCodec<AmpBody> = {
  parse: parseAmp,
  render: renderAmp,
  detect: detectAmp,
};
