/**
 * Text as the local index's tokenizer (FTS5 unicode61, remove_diacritics 2)
 * cuts it: runs of letters and digits, diacritics removed, everything else
 * a separator. The archive builds its tsvectors and tsqueries from these
 * words, so a search finds the same passages in the archive as locally;
 * and its snippets mark the same words. Pure.
 */

/** Letters and digits with diacritics removed, lowercased: one token. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The words of `text`, space-separated. */
export function words(text: string): string {
  return (fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
}

/** The words of `text`, as a list. */
export function wordList(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** How many words a snippet shows (FTS5's snippet in the local index shows 24 tokens). */
const SNIPPET_WORDS = 24;

/**
 * A passage of `body` around its first word that matches (`prefix`: starts
 * with) one of `wanted`, whitespace collapsed, with the [start, end) of
 * every matching word in it: what `query` shows as a hit's snippet.
 */
export function snippet(
  body: string,
  wanted: readonly { word: string; prefix: boolean }[],
): { text: string; highlights: [number, number][] } {
  const flat = body.replace(/\s+/g, " ").trim();
  const spans = [...flat.matchAll(/[\p{L}\p{N}\p{M}]+/gu)].map((m) => ({
    from: m.index,
    to: m.index + m[0].length,
    hit: wanted.some((w) => {
      const f = fold(m[0]);
      return w.prefix ? f.startsWith(w.word) : f === w.word;
    }),
  }));
  const first = Math.max(
    0,
    spans.findIndex((s) => s.hit),
  );
  const start = Math.max(0, first - Math.floor(SNIPPET_WORDS / 3));
  const shown = spans.slice(start, start + SNIPPET_WORDS);
  const head = shown[0];
  const tail = shown[shown.length - 1];
  if (head === undefined || tail === undefined) return { text: flat.slice(0, 200), highlights: [] };
  const from = start === 0 ? 0 : head.from;
  const to = start + SNIPPET_WORDS >= spans.length ? flat.length : tail.to;
  const lead = from > 0 ? "…" : "";
  const text = `${lead}${flat.slice(from, to)}${to < flat.length ? "…" : ""}`;
  const shift = lead.length - from;
  const highlights: [number, number][] = shown
    .filter((s) => s.hit)
    .map((s) => [s.from + shift, s.to + shift]);
  return { text, highlights };
}
