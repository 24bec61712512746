/**
 * What `search_sessions` needs from a search engine, and the engine it
 * falls back on when the persistent index (src/index/, indexed.ts) cannot
 * be used: a scan over the loaded sessions, their searchable text kept
 * between calls per fingerprint. Query syntax is the one `txcript query`
 * takes: words (matched as whole words, any case), `"a phrase"`,
 * `prefix*`, `-excluded`. The scan does not search the session fields
 * (`meta`: cwd, branch, model) and ranks by term counts, not bm25.
 */

import type { Block, Message, Role } from "../common.js";
import { InvalidRequestError } from "../errors.js";
import { KINDS, type Kind } from "../index/index.js";
import type { Timestamp } from "../time.js";
import type { Discovered, HarnessId } from "../transcript.js";
import { describeTool, jsonText } from "../view.js";
import { type Catalog, fingerprintKey } from "./catalog.js";
import { matches, type SessionFilter } from "./filters.js";

/** Where in a session a hit matched: the index's kinds (`query --role`). */
export const HIT_KINDS = KINDS;
export type HitKind = Kind;

export interface SearchQuery extends SessionFilter {
  terms: string;
  /** Only hits in these places (all when undefined or empty). */
  kinds?: readonly HitKind[] | undefined;
  limit: number;
  /** Hits to pass over (pagination). */
  offset: number;
}

export interface SearchHit {
  harness: HarnessId;
  id: string;
  title: string | undefined;
  cwd: string | undefined;
  updated: Timestamp;
  /** The 1-based ordinal `view` prints; undefined for a title hit. */
  message: number | undefined;
  role: Role | undefined;
  where: HitKind;
  /** The matching line, clipped around the first match. */
  snippet: string;
  /** [start, end) of each match inside the snippet. */
  highlights: [number, number][];
  /** Higher is better. */
  score: number;
}

export interface SearchResults {
  hits: SearchHit[];
  /** All hits, before offset and limit. */
  total: number;
  /** Sessions that matched the filters but could not be read. */
  unreadable: number;
  /** Which engine answered. */
  engine: "index" | "scan";
}

/** The contract the scan and the persistent index both meet. */
export interface SessionSearch {
  search(query: SearchQuery): Promise<SearchResults>;
}

// ---------------------------------------------------------------------------
// Query parsing

interface Term {
  text: string;
  regex: RegExp;
  negated: boolean;
  /** The term's words, lowercased: a message without them all cannot match (a cheap first test). */
  needles: string[];
  prefix: boolean;
}

const WORD = "[\\p{L}\\p{N}_]";
const MAX_WORD = 256;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Split a query into terms; throws a one-line error for one with nothing to find. */
export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  const tokens = query.match(/-?"[^"]*"?|\S+/g) ?? [];
  for (const raw of tokens) {
    const negated = raw.startsWith("-") && raw.length > 1;
    let body = negated ? raw.slice(1) : raw;
    const phrase = body.startsWith('"');
    if (phrase) body = body.replace(/^"|"$/g, "");
    const prefix = !phrase && body.endsWith("*");
    if (prefix) body = body.replace(/\*+$/, "");
    const words = body.match(new RegExp(`${WORD}+`, "gu")) ?? [];
    if (words.length === 0) continue;
    // No word is this long; refusing it also keeps the pattern small.
    const long = words.find((w) => w.length > MAX_WORD);
    if (long !== undefined) {
      throw new InvalidRequestError(
        undefined,
        `query word "${long.slice(0, 20)}…" is ${long.length} characters long; words are at most ${MAX_WORD}`,
      );
    }
    const inner = words.map(escapeRegex).join(`[^\\p{L}\\p{N}_]+`);
    const regex = new RegExp(`(?<!${WORD})${inner}${prefix ? "" : `(?!${WORD})`}`, "giu");
    terms.push({
      text: words.join(" "),
      regex,
      negated,
      needles: words.map((w) => w.toLowerCase()),
      prefix,
    });
  }
  if (!terms.some((t) => !t.negated)) {
    throw new InvalidRequestError(
      undefined,
      `query ${JSON.stringify(query.slice(0, 80))} has no word to search for`,
    );
  }
  return terms;
}

// ---------------------------------------------------------------------------
// The scan

interface Field {
  kind: HitKind;
  text: string;
}

interface SearchDoc {
  version: string;
  title: Field | undefined;
  /** Per message: its role and searchable fields. */
  messages: { role: Role; fields: Field[]; lower: string }[];
}

function blockFields(role: Role, block: Block): Field[] {
  switch (block.type) {
    case "text":
      return [{ kind: role, text: block.text }];
    case "thinking":
      return block.text === "" ? [] : [{ kind: "thinking", text: block.text }];
    case "tool_use": {
      const { head, body } = describeTool(block.tool);
      return [{ kind: "tool_call", text: [head, ...body].join("\n") }];
    }
    case "tool_result":
      return [{ kind: "tool_output", text: jsonText(block.content) }];
    case "image":
      return [];
    case "artifact": {
      const src = block.artifact.source;
      const text =
        src.type === "text" ? `\n${src.text}` : src.type === "path" ? ` ${src.path}` : "";
      return [{ kind: role, text: `${block.artifact.name}${text}` }];
    }
    default:
      return block satisfies never;
  }
}

function docOf(messages: readonly Message[], title: string | undefined, version: string) {
  return {
    version,
    title: title ? { kind: "title" as const, text: title } : undefined,
    messages: messages.map((m) => {
      const fields = m.content.flatMap((b) => blockFields(m.role, b));
      return { role: m.role, fields, lower: fields.map((f) => f.text.toLowerCase()).join("\n") };
    }),
  } satisfies SearchDoc;
}

/**
 * Could `lower` hold the term? A plain substring test on lowercased text,
 * which passes over most messages before any regular expression runs.
 * (Case folding that toLowerCase does not do, such as ſ for s, is not
 * matched.)
 */
function mayHold(lower: string, term: Term): boolean {
  return term.needles.every((n) => lower.includes(n));
}

const SNIPPET_CHARS = 200;

function snippetOf(
  text: string,
  positives: readonly Term[],
): Pick<SearchHit, "snippet" | "highlights"> {
  const first = positives[0]?.regex;
  if (first) first.lastIndex = 0;
  const at = first?.exec(text)?.index ?? 0;
  const lineStart = text.lastIndexOf("\n", at) + 1;
  const nl = text.indexOf("\n", at);
  const lineEnd = nl === -1 ? text.length : nl;
  let from = lineStart;
  let to = lineEnd;
  if (to - from > SNIPPET_CHARS) {
    from = Math.max(lineStart, at - SNIPPET_CHARS / 4);
    to = Math.min(lineEnd, from + SNIPPET_CHARS);
  }
  const lead = from > lineStart ? "…" : "";
  const trail = to < lineEnd ? "…" : "";
  const body = text.slice(from, to);
  const highlights: [number, number][] = [];
  for (const t of positives) {
    t.regex.lastIndex = 0;
    for (const hit of body.matchAll(t.regex)) {
      const s = lead.length + (hit.index ?? 0);
      highlights.push([s, s + hit[0].length]);
    }
  }
  highlights.sort((a, b) => a[0] - b[0]);
  return { snippet: `${lead}${body}${trail}`, highlights };
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const code = text.charCodeAt(i);
  // ASCII first: most text is, and a regular expression per character is not free.
  if (code < 128)
    return (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95
    );
  const cp = text.codePointAt(i >= 1 && code >= 0xdc00 && code <= 0xdfff ? i - 1 : i) ?? code;
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/**
 * How often `term` occurs: in the lowercased text with word boundaries
 * checked by hand for a single word (the common case, several times faster
 * than the regular expression), else by the regular expression.
 */
function count(term: Term, text: string, lower: string): number {
  const needle = term.needles.length === 1 ? term.needles[0] : undefined;
  if (needle !== undefined) {
    let n = 0;
    for (
      let at = lower.indexOf(needle);
      at !== -1;
      at = lower.indexOf(needle, at + needle.length)
    ) {
      if (isWordAt(lower, at - 1)) continue;
      if (!term.prefix && isWordAt(lower, at + needle.length)) continue;
      n++;
    }
    return n;
  }
  term.regex.lastIndex = 0;
  let n = 0;
  while (term.regex.exec(text) !== null) n++;
  return n;
}

/** Most searchable text to keep between calls (UTF-16 units); beyond it, least recent go. */
const CACHE_CHARS = 256 * 1024 * 1024;

export class ScanSearch implements SessionSearch {
  private readonly docs = new Map<string, SearchDoc & { chars: number }>();
  private chars = 0;

  constructor(private readonly catalog: Catalog) {}

  private doc(s: Discovered): SearchDoc | undefined {
    const key = `${s.harness}/${s.id}`;
    // The listing's own fingerprint: unchanged files, the same listing entry, no stat.
    const version = fingerprintKey(s.fingerprint);
    const hit = this.docs.get(key);
    if (hit && hit.version === version) {
      this.docs.delete(key);
      this.docs.set(key, hit);
      return hit;
    }
    let loaded: ReturnType<Catalog["load"]>;
    try {
      loaded = this.catalog.load(s);
    } catch {
      return undefined;
    }
    const doc = docOf(loaded.transcript.body, loaded.transcript.meta.title, version);
    const chars = doc.messages.reduce((n, m) => n + 2 * m.lower.length, 0);
    if (hit) this.chars -= hit.chars;
    this.docs.delete(key);
    this.docs.set(key, { ...doc, chars });
    this.chars += chars;
    for (const [k, d] of this.docs) {
      if (this.chars <= CACHE_CHARS || k === key) break;
      this.docs.delete(k);
      this.chars -= d.chars;
    }
    return doc;
  }

  async search(query: SearchQuery): Promise<SearchResults> {
    const terms = parseQuery(query.terms);
    const positives = terms.filter((t) => !t.negated);
    const negatives = terms.filter((t) => t.negated);
    // Snippets are cut only for the page returned: a common word can hit every message.
    interface Candidate {
      base: Pick<SearchHit, "harness" | "id" | "title" | "cwd" | "updated">;
      order: number;
      message: number | undefined;
      role: Role | undefined;
      fields: Field[];
      score: number;
    }
    const found: Candidate[] = [];
    let unreadable = 0;
    const listing = await this.catalog.list(query.harness);
    listing.sessions.forEach((s, order) => {
      if (!matches(s, query)) return;
      const doc = this.doc(s);
      if (!doc) {
        unreadable++;
        return;
      }
      const base = {
        harness: s.harness,
        id: s.id,
        title: s.meta.title,
        cwd: s.meta.cwd,
        updated: s.updated,
      };
      const consider = (
        fields: Field[],
        lower: string,
        message: number | undefined,
        role: Role | undefined,
      ) => {
        if (!positives.every((t) => mayHold(lower, t))) return;
        const all = fields.map((f) => f.text).join("\n");
        if (negatives.some((t) => mayHold(lower, t) && count(t, all, lower) > 0)) return;
        let score = 0;
        for (const t of positives) {
          const n = count(t, all, lower);
          if (n === 0) return;
          score += n;
        }
        found.push({ base, order, message, role, fields, score });
      };
      const kinds = query.kinds && query.kinds.length > 0 ? new Set(query.kinds) : undefined;
      if (doc.title && (kinds === undefined || kinds.has("title")))
        consider([doc.title], doc.title.text.toLowerCase(), undefined, undefined);
      doc.messages.forEach((m, i) => {
        if (kinds === undefined) {
          if (m.fields.length > 0) consider(m.fields, m.lower, i + 1, m.role);
          return;
        }
        const fields = m.fields.filter((f) => kinds.has(f.kind));
        if (fields.length > 0)
          consider(fields, fields.map((f) => f.text.toLowerCase()).join("\n"), i + 1, m.role);
      });
    });
    // Best first; then newest session; then in session order.
    found.sort(
      (a, b) => b.score - a.score || a.order - b.order || (a.message ?? 0) - (b.message ?? 0),
    );
    const first = positives[0]?.regex ?? /$^/;
    const hits = found.slice(query.offset, query.offset + query.limit).map((c): SearchHit => {
      const field = c.fields.find((f) => {
        first.lastIndex = 0;
        return first.test(f.text);
      }) ??
        c.fields[0] ?? { kind: "title" as const, text: "" };
      return {
        ...c.base,
        message: c.message,
        role: c.role,
        where: field.kind,
        ...snippetOf(field.text, positives),
        score: c.score,
      };
    });
    return {
      hits,
      total: found.length,
      unreadable,
      engine: "scan",
    };
  }
}
