/**
 * Text as verbatim lines: each line's exact text and exact terminator, so
 * that `joinLines(splitLines(t)) === t` for every string (CRLF, a missing
 * final newline and blank lines included). The JSONL harnesses build their
 * byte-exact Bodies on it.
 */

export type LineEnding = "" | "\n" | "\r\n";

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
