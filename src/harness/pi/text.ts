/**
 * pi's text form: the session file itself, JSONL, kept line for line (the
 * Body is the verbatim lines, so a pi -> pi round trip is byte-exact).
 * Pure. The first line that parses must be pi's `session` header with a
 * string id (pi itself treats a file without one as empty); other lines
 * that do not parse are kept and skipped, as pi skips them.
 */

import { basename } from "node:path";
import { ParseError } from "../../errors.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import {
  entriesOf,
  headerOf,
  idFromFileName,
  joinLines,
  type Lines,
  type PiBody,
  splitLines,
} from "./body.js";
import { piMeta } from "./meta.js";

function parsePi(text: string, origin?: string): Transcript<PiBody> {
  checkLineCount(text, "pi", origin);
  return piFromLines(splitLines(text), origin);
}

/** A session from its lines (a store's, over the file's bytes): checked as `parsePi` checks text. */
export function piFromLines(lines: Lines, origin?: string): Transcript<PiBody> {
  const entries = entriesOf(lines);
  const header = headerOf(entries);
  if (header === undefined && firstEntry(entries) === undefined)
    throw new ParseError("pi", "no JSON line in the file", { file: origin });
  if (header === undefined)
    throw new ParseError(
      "pi",
      'the first record is not pi\'s session header ({"type":"session","id":…})',
      {
        file: origin,
      },
    );
  const named = origin !== undefined ? idFromFileName(basename(origin)) : undefined;
  return { meta: piMeta(lines, named), body: { lines } };
}

function renderPi(t: Transcript<PiBody>): string {
  return joinLines(t.body.lines);
}

function firstEntry<T>(entries: Iterable<T>): T | undefined {
  for (const e of entries) return e;
  return undefined;
}

/** A first line that is pi's session header: `{"type":"session",…}` with a version. */
function detectPi(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  return /^\{"type":"session","version":\d+,"id":"/.test(line) ? "text" : undefined;
}

export const piText: TextCodec<PiBody> = {
  parse: parsePi,
  parseLines: piFromLines,
  render: renderPi,
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectPi,
};
