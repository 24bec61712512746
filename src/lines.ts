/**
 * Text as verbatim lines (src/verbatim.ts, re-exported here) and the most
 * lines a session may have. The JSONL harnesses build their byte-exact
 * Bodies on it.
 */

import { UnsupportedError } from "./errors.js";
import type { TextForm } from "./transcript.js";

export { joinLines, Lines, linePieces, type VerbatimLine } from "./verbatim.js";

/**
 * The most lines a session may have. Every line becomes part of the Common
 * transcript; well before a V8 heap runs out (a 510 MiB rollout of short
 * lines took 4.9 GB when each line was held with its parse), a bigger
 * session is refused in one line naming the file and this limit. Real
 * sessions stay far below it.
 */
export const MAX_LINES = 2_000_000;

/** Refuse `text` (or UTF-8 bytes) when it holds more than MAX_LINES lines (counted without splitting). */
export function checkLineCount(text: string | Uint8Array, form: TextForm, origin?: string): void {
  const next = (from: number) =>
    typeof text === "string" ? text.indexOf("\n", from) : text.indexOf(10, from);
  let n = 0;
  for (let i = next(0); i !== -1; i = next(i + 1)) {
    if (++n > MAX_LINES) {
      throw new UnsupportedError(
        form,
        `more than ${MAX_LINES.toLocaleString("en-US")} lines: too large a session to hold`,
        { file: origin },
      );
    }
  }
}
