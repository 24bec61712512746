/**
 * Droid's text form: the session file itself, JSONL, kept line for line (a
 * Droid -> Droid round trip is byte-exact). Pure. The first record that
 * parses must be Droid's `session_start` with a string id; other lines that
 * do not parse are kept and skipped. The settings file beside a session is
 * not part of the text form (the store reads it).
 */

import { basename } from "node:path";
import { ParseError } from "../../errors.js";
import { assignDefined } from "../../json.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import {
  type DroidBody,
  firstRecord,
  headerOf,
  joinLines,
  type Lines,
  recordsOf,
  splitLines,
} from "./body.js";
import { droidMeta } from "./meta.js";

const SESSION_SUFFIX = ".jsonl";

function parseDroid(text: string, origin?: string, settings?: string): Transcript<DroidBody> {
  checkLineCount(text, "droid", origin);
  return droidFromLines(splitLines(text), origin, settings);
}

/** A session from its lines (a store's, over the file's bytes): checked as `parseDroid` checks text. */
export function droidFromLines(
  lines: Lines,
  origin?: string,
  settings?: string,
): Transcript<DroidBody> {
  const records = recordsOf(lines);
  if (firstRecord(records) === undefined)
    throw new ParseError("droid", "no JSON line in the file", { file: origin });
  if (headerOf(records) === undefined)
    throw new ParseError(
      "droid",
      'the first record is not Droid\'s session start ({"type":"session_start","id":…})',
      { file: origin },
    );
  const name = origin === undefined ? undefined : basename(origin);
  const named = name?.endsWith(SESSION_SUFFIX) ? name.slice(0, -SESSION_SUFFIX.length) : undefined;
  const body: DroidBody = { lines };
  assignDefined(body, "settings", settings);
  return { meta: droidMeta(records, settings, named), body };
}

function renderDroid(t: Transcript<DroidBody>): string {
  return joinLines(t.body.lines);
}

/** A first line that is Droid's session start. */
function detectDroid(sample: Sample): Recognized | undefined {
  return /^\{"type":"session_start","id":"/.test(firstLine(sample)) ? "text" : undefined;
}

export const droidText: TextCodec<DroidBody> = {
  parse: (text, origin) => parseDroid(text, origin),
  parseLines: (lines, origin) => droidFromLines(lines, origin),
  render: renderDroid,
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectDroid,
};
