/**
 * Reading a session a page at a time. A rendering (text, Markdown or
 * Common JSON) is a head, one piece per message and a tail, and the pages
 * of a read concatenate to exactly that rendering; a page breaks between
 * messages, and inside one only when that message alone exceeds the
 * budget (characters, and estimated tokens when asked: tokens.ts). Where the next page starts travels in
 * an opaque cursor, checked when it comes back.
 */

import { z } from "zod";
import type { IndexedPieces } from "../common-json.js";
import { InvalidRequestError } from "../errors.js";
import { assignDefined } from "../json.js";
import type { MessageRange } from "../range.js";
import { markdownPieces, type RenderInput } from "../render/index.js";
import type { ViewInput, ViewParts } from "../render/text.js";
import { HARNESS_IDS } from "../transcript.js";
import type { Budget } from "./tokens.js";

export const READ_FORMATS = ["text", "markdown", "json"] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];

/** Where the next page starts: a piece and a character offset inside it. */
export interface Position {
  /** -1 the head, a 0-based message index, or -2 the tail. */
  piece: number;
  offset: number;
}

const HEAD = -1;
const TAIL = -2;

const position = z.object({ piece: z.number().int().min(-2), offset: z.number().int().min(0) });
const harnessId = z.enum(HARNESS_IDS);
const range = z.object({
  from: z.number().int().min(1).optional(),
  to: z.number().int().min(1).optional(),
});

const readCursor = z.object({
  kind: z.literal("read"),
  harness: harnessId,
  id: z.string(),
  version: z.string(),
  format: z.enum(READ_FORMATS),
  range: range.optional(),
  /** The read was redacted: its later pages are too. */
  redact: z.boolean().optional(),
  at: position,
});

const exportCursor = z.object({
  kind: z.literal("export"),
  harness: harnessId,
  id: z.string(),
  version: z.string(),
  range: range.optional(),
  redact: z.boolean().optional(),
  offset: z.number().int().min(0),
});

const listCursor = z.object({
  kind: z.literal("list"),
  /** The sort key of the last session shown: the next page starts after it. */
  updated: z.string(),
  harness: harnessId,
  id: z.string(),
});

const searchCursor = z.object({
  kind: z.literal("search"),
  /** The query it continues, so a cursor cannot be replayed against another. */
  query: z.string(),
  offset: z.number().int().min(0),
});

const anyCursor = z.discriminatedUnion("kind", [
  readCursor,
  exportCursor,
  listCursor,
  searchCursor,
]);
type AnyCursor = z.infer<typeof anyCursor>;

export function encodeCursor(cursor: AnyCursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

export function decodeCursor<K extends AnyCursor["kind"]>(
  text: string,
  kind: K,
): Extract<AnyCursor, { kind: K }> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  const parsed = anyCursor.safeParse(value);
  const ofKind = (c: AnyCursor): c is Extract<AnyCursor, { kind: K }> => c.kind === kind;
  if (!parsed.success || !ofKind(parsed.data)) {
    throw new InvalidRequestError(
      undefined,
      `cursor ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is not a ${kind} cursor this server issued`,
    );
  }
  return parsed.data;
}

/** A range for a cursor, without undefined members. */
export function cursorRange(
  r: { from?: number | undefined; to?: number | undefined } | undefined,
): MessageRange | undefined {
  if (r === undefined) return undefined;
  const out: MessageRange = {};
  assignDefined(out, "from", r.from);
  assignDefined(out, "to", r.to);
  return out;
}

export interface Page {
  text: string;
  /** 0-based indices of the messages this page holds all or part of. */
  firstMessage: number | undefined;
  lastMessage: number | undefined;
  /** Undefined when the page ends the rendering. */
  next: Position | undefined;
  /** The piece this page ends inside of (it alone exceeds the budget), else undefined. */
  cutInside: number | undefined;
  /** The page starts inside a piece a previous page cut. */
  resumed: boolean;
  /** Characters and estimated tokens of `text`. */
  chars: number;
  tokens: number;
}

/**
 * Where to cut a piece too big for any page: as far as the budget allows,
 * pulled back to the end of a line (else a space) when one is in the back
 * half of what fits, so a reader gets whole lines.
 */
function cutPoint(text: string, from: number, budget: Budget): number {
  const end = budget.furthest(text, from);
  if (end >= text.length || end <= from) return end;
  const half = from + Math.floor((end - from) / 2);
  const nl = text.lastIndexOf("\n", end - 1);
  if (nl >= half) return nl + 1;
  const sp = text.lastIndexOf(" ", end - 1);
  if (sp >= half) return sp + 1;
  return end;
}

/**
 * What fits `budget` of the rendering, from `at`: whole pieces (the head,
 * each message, the tail) while they fit; the page ends before the first
 * that does not, and the next starts at it. Only a piece that alone exceeds
 * the budget is cut inside (`cutInside`), and then the page holds nothing
 * else after it. Pieces are rendered only as they are reached, through
 * `parts.message` (which may cache).
 */
export function pageOf(
  parts: ViewParts,
  start: number,
  end: number,
  at: Position,
  budget: Budget,
): Page {
  const order = (p: number) => (p === HEAD ? start - 1 : p === TAIL ? end : p);
  const nextPiece = (p: number): number | undefined => {
    const o = order(p);
    if (o >= end) return undefined;
    return o + 1 >= end ? TAIL : o + 1;
  };
  const textOf = (p: number) =>
    p === HEAD ? parts.head : p === TAIL ? parts.tail : parts.message(p);
  let piece: number | undefined = order(at.piece) < start - 1 ? HEAD : at.piece;
  if (piece !== HEAD && piece !== TAIL && piece >= end) piece = TAIL;
  let offset = at.offset;
  const resumed = offset > 0;
  const out: string[] = [];
  let first: number | undefined;
  let last: number | undefined;
  let cutInside: number | undefined;
  const note = (p: number) => {
    if (p >= 0) {
      first ??= p;
      last = p;
    }
  };
  while (piece !== undefined) {
    const text = textOf(piece);
    const from = Math.min(offset, text.length);
    if (!budget.fits(text, from)) {
      if (!budget.empty) break;
      // Alone, this piece exceeds the budget: as much as fits, the rest on the next page.
      const cut = cutPoint(text, from, budget);
      if (cut <= from) break;
      out.push(text.slice(from, cut));
      budget.take(text, from, cut);
      note(piece);
      cutInside = piece;
      offset = cut;
      break;
    }
    out.push(from === 0 ? text : text.slice(from));
    budget.take(text, from);
    note(piece);
    piece = nextPiece(piece);
    offset = 0;
  }
  return {
    text: out.join(""),
    firstMessage: first,
    lastMessage: last,
    next: piece === undefined ? undefined : { piece, offset },
    cutInside,
    resumed,
    chars: budget.usedChars,
    tokens: budget.usedTokens,
  };
}

/**
 * The Markdown page `view --format markdown` prints (src/render), as pieces
 * for paging: its header, each message's part, its end (markdownPieces).
 */
export function markdownPage(input: ViewInput, home: string | undefined): ViewParts {
  const page: RenderInput = {
    transcript: { meta: input.meta, body: [...input.messages] },
    start: input.start ?? 0,
    end: input.end ?? input.messages.length,
  };
  assignDefined(page, "harness", input.harness);
  assignDefined(page, "path", input.path);
  if (home !== undefined && home !== "") page.home = home;
  const pieces = markdownPieces(page);
  return {
    head: pieces.head,
    message: (i) => pieces.messages.get(i) ?? "",
    tail: pieces.tail,
  };
}

/**
 * A document known by where each of its pieces ends, never held as one
 * string (a huge session's Simple document can be longer than the longest
 * string V8 holds): measured once, a piece at a time; a page renders only
 * the pieces it covers, and keeps the last one for the next page (paging
 * through one huge message renders it once a page, not once a character).
 */
export class PagedDocument {
  private readonly ends: number[] = [];
  readonly total: number;
  private last: { i: number; text: string } | undefined;

  constructor(private readonly pieces: IndexedPieces) {
    let at = 0;
    for (let i = 0; i < pieces.count; i++) {
      at += pieces.piece(i).length;
      this.ends.push(at);
    }
    this.total = at;
  }

  /** Characters [from, to) of the document. */
  slice(from: number, to: number): string {
    // The first piece that ends after `from`.
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.ends[mid] ?? 0) <= from) lo = mid + 1;
      else hi = mid;
    }
    let out = "";
    for (let i = lo; i < this.ends.length; i++) {
      const start = i === 0 ? 0 : (this.ends[i - 1] ?? 0);
      if (start >= to) break;
      const text = this.text(i);
      out += text.slice(Math.max(0, from - start), Math.min(text.length, to - start));
    }
    return out;
  }

  private text(i: number): string {
    if (this.last?.i === i) return this.last.text;
    const text = this.pieces.piece(i);
    this.last = { i, text };
    return text;
  }
}
