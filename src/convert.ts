/**
 * convert(): from one text form to another through the canonical model,
 * with no store involved.
 */

import { readCommon, renderCommon, renderCommonChunks } from "./common-json.js";
import {
  commonToText,
  commonToTextPieces,
  harness,
  linesToCommon,
  textToCommon,
} from "./harness/index.js";
import { parseSimple, renderSimpleChunks } from "./harness/simple.js";
import { Checker, parseJson } from "./json.js";
import { checkLineCount, Lines } from "./lines.js";
import type { Timestamp } from "./time.js";
import type { Common, TextForm, Transcript } from "./transcript.js";

export interface ParseOptions {
  /** The session time of a Simple document that gives none (see parseSimple). */
  undated?: Timestamp;
}

/** Parse any text form into the canonical model. */
export function parseToCommon(
  text: string,
  from: TextForm,
  origin?: string,
  options: ParseOptions = {},
): Transcript<Common> {
  if (from === "simple") return parseSimple(text, origin, options.undated);
  if (from === "common")
    return readCommon(new Checker("common", origin), parseJson(text, "common", origin));
  return textToCommon(harness(from), text, origin);
}

/** The UTF-8 byte-order mark, which a document's decoding drops. */
const BOM = [0xef, 0xbb, 0xbf];

/**
 * `parseToCommon` of a document's UTF-8 bytes, decoded as a file given on
 * the command line always was (bad bytes as U+FFFD, a leading byte-order
 * mark dropped). A line-based form is parsed from lines over the bytes,
 * each decoded when it is read: never one string of the whole document
 * (1-2 bytes a character beside the bytes).
 */
export function parseBytesToCommon(
  bytes: Uint8Array,
  from: TextForm,
  origin?: string,
  options: ParseOptions = {},
): Transcript<Common> {
  const body = BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(BOM.length) : bytes;
  if (from !== "common") {
    const lines = () => {
      checkLineCount(body, from, origin);
      return Lines.fromBytes(body);
    };
    const parsed = linesToCommon(harness(from), lines, origin);
    if (parsed !== undefined) return parsed;
  }
  return parseToCommon(new TextDecoder("utf-8").decode(bytes), from, origin, options);
}

/** Render the canonical model in any text form. */
export function renderFromCommon(transcript: Transcript<Common>, to: TextForm): string {
  if (to === "common") return renderCommon(transcript);
  return commonToText(harness(to), transcript);
}

/**
 * `renderFromCommon` in pieces for output that is a stream: Common JSON and
 * Simple documents a message at a time, JSONL forms a line at a time
 * (never one string); other forms are one piece.
 */
export function renderFromCommonChunks(
  transcript: Transcript<Common>,
  to: TextForm,
): Iterable<string> {
  if (to === "common") return renderCommonChunks(transcript);
  if (to === "simple") return renderSimpleChunks(transcript);
  return commonToTextPieces(harness(to), transcript);
}

/** Convert a document between text forms. `origin` names the input in errors. */
export function convert(
  text: string,
  from: TextForm,
  to: TextForm,
  origin?: string,
  options: ParseOptions = {},
): string {
  return renderFromCommon(parseToCommon(text, from, origin, options), to);
}
