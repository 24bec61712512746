/**
 * Text as verbatim lines: each line's exact text and exact terminator, so
 * that `joinLines(splitLines(t)) === t` for every string (CRLF, a missing
 * final newline and blank lines included). The JSONL harnesses build their
 * byte-exact Bodies on it.
 */

import { UnsupportedError } from "./errors.js";
import type { TextForm } from "./transcript.js";

type LineEnding = "" | "\n" | "\r\n";

/**
 * The most lines a session may have. Each line is held with its parse and
 * then converted; well before a V8 heap runs out (a 510 MiB rollout of
 * short lines took 4.9 GB), a bigger session is refused in one line naming
 * the file and this limit. Real sessions stay far below it.
 */
export const MAX_LINES = 2_000_000;

/** Refuse `text` when it holds more than MAX_LINES lines (counted without splitting). */
export function checkLineCount(text: string, form: TextForm, origin?: string): void {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (++n > MAX_LINES) {
      throw new UnsupportedError(
        form,
        `more than ${MAX_LINES.toLocaleString("en-US")} lines: too large a session to hold`,
        { file: origin },
      );
    }
  }
}

export interface VerbatimLine {
  /** The line without its terminator. */
  text: string;
  /** The terminator that followed it; "" only on a last line without one. */
  eol: LineEnding;
}

export function splitLines(text: string): VerbatimLine[] {
  const lines: VerbatimLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) {
      lines.push({ text: text.slice(start), eol: "" });
      break;
    }
    const crlf = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push({ text: text.slice(start, crlf ? nl - 1 : nl), eol: crlf ? "\r\n" : "\n" });
    start = nl + 1;
  }
  return lines;
}

export function joinLines(lines: readonly VerbatimLine[]): string {
  let out = "";
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/**
 * The same text as `joinLines`, a line at a time: what a store writes, so
 * that a huge session's file is never one string in memory (nor a string
 * longer than V8 can hold).
 */
export function* linePieces(lines: Iterable<VerbatimLine>): Generator<string> {
  for (const line of lines) yield line.text + line.eol;
}
