/**
 * The first bytes of a file, and the small pure readings of them the
 * harnesses' format detectors share (`TextCodec.detect`). No I/O: the
 * caller reads the sample.
 */

import type { Sample } from "./transcript.js";

/** How much of a file detection looks at. */
const SAMPLE_BYTES = 64 * 1024;

/** A sample of a file's (or stdin's) leading bytes; the text is lenient UTF-8 without a BOM. */
export function sampleOf(bytes: Uint8Array): Sample {
  const head = bytes.subarray(0, SAMPLE_BYTES);
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(head);
  return { bytes: head, text };
}

/** Does the sample begin with these bytes? */
export function startsWithBytes(sample: Sample, magic: readonly number[]): boolean {
  return magic.length <= sample.bytes.length && magic.every((b, i) => sample.bytes[i] === b);
}

/** The first non-blank line (at most the sample's length), trimmed. */
export function firstLine(sample: Sample): string {
  for (const line of sample.text.split("\n")) {
    const t = line.trim();
    if (t !== "") return t;
  }
  return "";
}

/** The first key of a JSON object document (`{"meta": …` gives `meta`), if it starts as one. */
export function firstKey(sample: Sample): string | undefined {
  const m = /^\s*\{\s*"((?:[^"\\]|\\.)*)"\s*:/.exec(sample.text);
  return m?.[1];
}

/** Does the document look like JSON Lines: a first line that opens an object with a string key? */
export function isJsonLines(sample: Sample): boolean {
  return /^\{\s*"/.test(firstLine(sample));
}

/** Two or more lines that each open an object: JSON Lines, not one (minified) JSON document. */
export function hasManyRecords(sample: Sample): boolean {
  let n = 0;
  for (const line of sample.text.split("\n")) if (/^\{\s*"/.test(line) && ++n > 1) return true;
  return false;
}

/** The 16-byte header of every SQLite database file. */
export const SQLITE_MAGIC: readonly number[] = [...new TextEncoder().encode("SQLite format 3"), 0];
/** The zstd frame magic number, little-endian. */
export const ZSTD_MAGIC: readonly number[] = [0x28, 0xb5, 0x2f, 0xfd];
