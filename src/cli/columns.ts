/**
 * Terminal columns: widths as a terminal draws them (CJK and emoji take two
 * cells, combining marks none; string-width knows), padding and fitting
 * text to a width without splitting a character.
 */

import stringWidth from "string-width";

// Printable ASCII is one cell a character: most of a table, and far cheaper
// to measure than string-width's grapheme segmentation.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function width(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

export function padEnd(text: string, cells: number): string {
  return text + " ".repeat(Math.max(0, cells - width(text)));
}

export function padStart(text: string, cells: number): string {
  return " ".repeat(Math.max(0, cells - width(text))) + text;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** `text` cut to at most `cells` cells, ending in "…" when cut. */
export function fitWidth(text: string, cells: number): string {
  if (cells <= 0) return "";
  if (width(text) <= cells) return text;
  let out = "";
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > cells - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** `YYYY-MM-DD HH:MM` in local time. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
