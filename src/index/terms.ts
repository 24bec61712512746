/**
 * A user's search terms to an FTS5 expression. Users type words, "quoted
 * phrases", prefixes (`auth*`) and exclusions (`-flaky`); everything they
 * type is quoted before it reaches FTS5, so its own syntax (`:`, `(`, `^`,
 * `NEAR`, column filters) never applies and never raises an FTS5 error.
 * Pure.
 */

import { InvalidRequestError } from "../errors.js";

export interface Term {
  text: string;
  phrase: boolean;
  prefix: boolean;
  exclude: boolean;
}

/** More terms than this is not a search anyone types; refused rather than slow. */
const MAX_TERMS = 64;

// A term must hold a letter or digit, or the tokenizer leaves nothing of it.
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Split what the user typed into terms. Unbalanced quotes run to the end. */
export function parseTerms(input: string): Term[] {
  const terms: Term[] = [];
  const re = /(-?)"([^"]*)"?(\*?)|(-?)([^\s"]+)/g;
  for (let m = re.exec(input); m !== null; m = re.exec(input)) {
    if (m[2] !== undefined) {
      const text = m[2].trim();
      if (WORDLIKE.test(text))
        terms.push({ text, phrase: true, prefix: m[3] === "*", exclude: m[1] === "-" });
      continue;
    }
    let word = m[5] ?? "";
    const exclude = m[4] === "-";
    const prefix = word.endsWith("*");
    word = word.replace(/\*+$/, "");
    if (WORDLIKE.test(word)) terms.push({ text: word, phrase: false, prefix, exclude });
  }
  return terms;
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 MATCH expression for `input`: every included term must match
 * (AND), no excluded one may. Throws InvalidRequestError (one line) when
 * nothing searchable is left.
 */
export function ftsExpression(input: string): string {
  const terms = parseTerms(input);
  if (terms.length > MAX_TERMS)
    throw new InvalidRequestError(
      undefined,
      `too many search terms (${terms.length}; at most ${MAX_TERMS})`,
    );
  const include = terms.filter((t) => !t.exclude);
  const exclude = terms.filter((t) => t.exclude);
  if (include.length === 0) {
    throw new InvalidRequestError(
      undefined,
      exclude.length > 0
        ? "a search needs at least one term that is not excluded with -"
        : 'nothing to search for: give a word, a "phrase" or a prefix*',
    );
  }
  const q = (t: Term) => `${quote(t.text)}${t.prefix ? "*" : ""}`;
  const positive = include.map(q).join(" AND ");
  const negative = exclude.map((t) => ` NOT ${q(t)}`).join("");
  return include.length > 1 && exclude.length > 0
    ? `(${positive})${negative}`
    : `${positive}${negative}`;
}
