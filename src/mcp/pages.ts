/**
 * Reading a session a page at a time. A rendering (text, Markdown or
 * Common JSON) is a head, one piece per message and a tail, and the pages
 * of a read concatenate to exactly that rendering; a page breaks between
 * messages where it can and inside a piece only when one message alone
 * exceeds what is left of the budget. Where the next page starts travels in
 * an opaque cursor, checked when it comes back.
 */

import { z } from "zod";
import { InvalidRequestError } from "../errors.js";
import type { MessageRange } from "../range.js";
import { type RenderInput, renderMarkdown } from "../render/index.js";
import { HARNESS_IDS } from "../transcript.js";
import type { ViewInput, ViewParts } from "../view.js";

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
  at: position,
});
export type ReadCursor = z.infer<typeof readCursor>;

const exportCursor = z.object({
  kind: z.literal("export"),
  harness: harnessId,
  id: z.string(),
  version: z.string(),
  range: range.optional(),
  offset: z.number().int().min(0),
});
export type ExportCursor = z.infer<typeof exportCursor>;

const listCursor = z.object({
  kind: z.literal("list"),
  /** The sort key of the last session shown: the next page starts after it. */
  updated: z.string(),
  harness: harnessId,
  id: z.string(),
});
export type ListCursor = z.infer<typeof listCursor>;

const searchCursor = z.object({
  kind: z.literal("search"),
  /** The query it continues, so a cursor cannot be replayed against another. */
  query: z.string(),
  offset: z.number().int().min(0),
});
export type SearchCursor = z.infer<typeof searchCursor>;

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
  if (!parsed.success || parsed.data.kind !== kind) {
    throw new InvalidRequestError(
      undefined,
      `cursor ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is not a ${kind} cursor this server issued`,
    );
  }
  return parsed.data as Extract<AnyCursor, { kind: K }>;
}

/** A range for a cursor, without undefined members. */
export function cursorRange(
  r: { from?: number | undefined; to?: number | undefined } | undefined,
): MessageRange | undefined {
  if (r === undefined) return undefined;
  const out: MessageRange = {};
  if (r.from !== undefined) out.from = r.from;
  if (r.to !== undefined) out.to = r.to;
  return out;
}

/** Never end a page between the two halves of a surrogate pair. */
function cutAt(text: string, n: number): number {
  if (n >= text.length || n <= 0) return Math.max(0, Math.min(n, text.length));
  const code = text.charCodeAt(n - 1);
  return code >= 0xd800 && code <= 0xdbff ? n - 1 : n;
}

export interface Page {
  text: string;
  /** 0-based indices of the messages this page holds all or part of. */
  firstMessage: number | undefined;
  lastMessage: number | undefined;
  /** Undefined when the page ends the rendering. */
  next: Position | undefined;
}

/**
 * At most `budget` characters of the rendering, from `at`. Pieces are
 * rendered only as they are reached, through `piece` (which may cache).
 */
export function pageOf(
  parts: ViewParts,
  start: number,
  end: number,
  at: Position,
  budget: number,
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
  const out: string[] = [];
  let used = 0;
  let first: number | undefined;
  let last: number | undefined;
  while (piece !== undefined) {
    const text = textOf(piece);
    const rest = text.length - Math.min(offset, text.length);
    const room = budget - used;
    if (rest > room) {
      // Keep whole messages together unless the page would stay under half full.
      if (used >= budget / 2 || room <= 0) break;
      const cut = cutAt(text, Math.min(offset, text.length) + room);
      if (cut <= offset) break;
      out.push(text.slice(offset, cut));
      used += cut - offset;
      if (piece >= 0) {
        first ??= piece;
        last = piece;
      }
      offset = cut;
      break;
    }
    out.push(offset === 0 ? text : text.slice(offset));
    used += rest;
    if (piece >= 0) {
      first ??= piece;
      last = piece;
    }
    piece = nextPiece(piece);
    offset = 0;
  }
  return {
    text: out.join(""),
    firstMessage: first,
    lastMessage: last,
    next: piece === undefined ? undefined : { piece, offset },
  };
}

/**
 * The Markdown page `view --format markdown` prints (src/render), as pieces
 * for paging. The page is rendered whole (turns, not messages, are its
 * units), so it is one piece that pages cut by characters.
 */
export function markdownPage(input: ViewInput, home: string | undefined): ViewParts {
  const page: RenderInput = {
    transcript: { meta: input.meta, body: [...input.messages] },
    start: input.start ?? 0,
    end: input.end ?? input.messages.length,
  };
  if (input.harness !== undefined) page.harness = input.harness;
  if (input.path !== undefined) page.path = input.path;
  if (home !== undefined && home !== "") page.home = home;
  return { head: renderMarkdown(page), message: () => "", tail: "" };
}
