import type { z } from "zod";
import { InvalidRequestError } from "../errors.js";
import { simplePieces } from "../harness/simple.js";
import { assignDefined } from "../json.js";
import type { Located } from "../local.js";
import {
  type MessageRange,
  parseSessionRef,
  type SessionRef,
  selectMessages,
  sliceTranscript,
} from "../range.js";
import { commonJsonParts, textParts, type ViewInput, type ViewParts } from "../render/text.js";
import type { LoadedAt } from "../sessions/sessions.js";
import type { HarnessId } from "../transcript.js";
import {
  cursorRange,
  decodeCursor,
  encodeCursor,
  markdownPage,
  PagedDocument,
  type Position,
  pageOf,
  type ReadFormat,
} from "./pages.js";
import {
  type exportInput,
  type exportOutput,
  LIMITS,
  type readInput,
  type readOutput,
} from "./schemas.js";
import { Budget } from "./tokens.js";
import { type Result, redacting, shownSession, type ToolContext } from "./tool-context.js";

interface Target {
  located: Located;
  range: MessageRange | undefined;
}

function parseRef(text: string): SessionRef {
  return parseSessionRef(text);
}

export async function target(
  ctx: ToolContext,
  session: string | undefined,
  harness?: HarnessId,
): Promise<Target> {
  if (session === undefined) {
    throw new InvalidRequestError(undefined, "give a session (an id or prefix) or a cursor");
  }
  const ref = parseRef(session);
  return { located: await ctx.sessions.resolve(ref.ref, harness), range: ref.range };
}

/** What a paged call's cursor carries, whatever else its kind adds. */
interface PageCursor {
  harness: HarnessId;
  id: string;
  version: string;
  range?: Parameters<typeof cursorRange>[0];
  redact?: boolean | undefined;
}

/**
 * Where a cursor's page picks up: its session and range, the version it was
 * issued against, and whether it reads redacted (a redacted read stays
 * redacted page after page; `redact` may turn redaction on, never off).
 */
function resumed(
  ctx: ToolContext,
  c: PageCursor,
  redact: boolean | undefined,
): { t: Target; version: string; redacted: boolean } {
  return {
    t: { located: { harness: c.harness, id: c.id }, range: cursorRange(c.range) },
    version: c.version,
    redacted: redacting(ctx, c.redact === true || redact === true),
  };
}

export function selection(loaded: LoadedAt, range: MessageRange | undefined) {
  return selectMessages(loaded.transcript.body, range, `session ${loaded.located.id}`);
}

type ReadArgs = z.infer<z.ZodObject<typeof readInput>>;

/** A call's page budget: max_chars (default when neither is given) and max_tokens. */
function budgetOf(args: { max_chars?: number | undefined; max_tokens?: number | undefined }) {
  const chars =
    args.max_chars ?? (args.max_tokens !== undefined ? LIMITS.charsMax : LIMITS.charsDefault);
  return new Budget(chars, args.max_tokens);
}

export async function readSession(
  ctx: ToolContext,
  args: ReadArgs,
): Promise<Result<typeof readOutput>> {
  let t: Target;
  let format: ReadFormat;
  let at: Position = { piece: -1, offset: 0 };
  let version: string | undefined;
  // A redacted read stays redacted page after page: its cursor says so.
  let redacted: boolean;
  if (args.cursor !== undefined) {
    const c = decodeCursor(args.cursor, "read");
    ({ t, version, redacted } = resumed(ctx, c, args.redact));
    format = c.format;
    at = c.at;
  } else {
    t = await target(ctx, args.session, args.harness);
    format = args.format ?? "text";
    redacted = redacting(ctx, args.redact);
  }
  const loaded = await ctx.sessions.load(t.located);
  const shown = await shownSession(ctx, loaded, redacted);
  const changed = version !== undefined && version !== loaded.version;
  // A changed session is read on by message number; a piece cut midway starts over.
  if (changed) at = { piece: at.piece, offset: 0 };
  const { start, end } = selection(loaded, t.range);
  if (at.piece >= 0 && at.piece >= end) {
    throw new InvalidRequestError(
      undefined,
      `session ${loaded.located.id} changed since this cursor was issued and no longer has message #${at.piece + 1}; read it again`,
    );
  }
  const input: ViewInput = {
    meta: shown.transcript.meta,
    messages: shown.transcript.body,
    start,
    end,
    harness: loaded.located.harness,
  };
  assignDefined(input, "path", shown.path);
  const key = `${loaded.located.harness}/${loaded.located.id}/${loaded.version}/${format}/${start}-${end}${redacted ? "/redacted" : ""}`;
  let raw: ViewParts;
  if (format === "markdown") {
    // The Markdown page is rendered whole (turns span messages): once per session version and range.
    if (ctx.memo.markdown?.key === key) raw = ctx.memo.markdown.parts;
    else {
      raw = markdownPage(input, ctx.env.HOME);
      ctx.memo.markdown = { key, parts: raw };
    }
  } else raw = format === "json" ? commonJsonParts(input) : textParts(input);
  const parts = {
    ...raw,
    message(i: number) {
      const memo = ctx.memo.piece;
      if (memo?.key === `${key}/${i}`) return memo.text;
      const text = raw.message(i);
      ctx.memo.piece = { key: `${key}/${i}`, text };
      return text;
    },
  };
  const page = pageOf(parts, start, end, at, budgetOf(args));
  const next = page.next
    ? encodeCursor({
        kind: "read",
        harness: loaded.located.harness,
        id: loaded.located.id,
        version: loaded.version,
        format,
        ...(t.range ? { range: cursorRange(t.range) } : {}),
        ...(redacted ? { redact: true } : {}),
        at: page.next,
      })
    : null;
  // Markers for a reader of the text: in the text rendering only, so the pages' `text` add up to the rendering.
  const pieceName = (p: number) =>
    p === -1 ? "the header" : p === -2 ? "the end" : `message #${p + 1}`;
  const lead = page.resumed
    ? `[…continuing ${pieceName(at.piece)}, cut on the previous page]\n`
    : "";
  const trailer =
    next && page.cutInside !== undefined
      ? `\n[${pieceName(page.cutInside)} alone exceeds the budget and is cut here: call read_session with cursor "${next}" for the rest of it]\n`
      : next
        ? `\n[continued: call read_session with cursor "${next}" for the rest]\n`
        : "";
  const cutMessage =
    page.cutInside !== undefined && page.cutInside >= 0 ? page.cutInside + 1 : null;
  const resumedMessage = page.resumed && at.piece >= 0 ? at.piece + 1 : null;
  return {
    structured: {
      harness: loaded.located.harness,
      id: loaded.located.id,
      title: shown.transcript.meta.title ?? null,
      format,
      total_messages: loaded.transcript.body.length,
      selection: { from: start + 1, to: end },
      first_message: page.firstMessage === undefined ? null : page.firstMessage + 1,
      last_message: page.lastMessage === undefined ? null : page.lastMessage + 1,
      text: page.text,
      chars: page.chars,
      estimated_tokens: page.tokens,
      cut_message: cutMessage,
      continued_message: resumedMessage,
      next_cursor: next,
      changed,
      redacted: shown.count,
    },
    text: `${lead}${page.text}${trailer}`,
  };
}

// ---------------------------------------------------------------------------

type ExportArgs = z.infer<z.ZodObject<typeof exportInput>>;

export async function exportSession(
  ctx: ToolContext,
  args: ExportArgs,
): Promise<Result<typeof exportOutput>> {
  let t: Target;
  let offset = 0;
  let version: string | undefined;
  let redacted: boolean;
  if (args.cursor !== undefined) {
    const c = decodeCursor(args.cursor, "export");
    ({ t, version, redacted } = resumed(ctx, c, args.redact));
    offset = c.offset;
  } else {
    t = await target(ctx, args.session, args.harness);
    redacted = redacting(ctx, args.redact);
  }
  const loaded = await ctx.sessions.load(t.located);
  if (version !== undefined && version !== loaded.version) {
    throw new InvalidRequestError(
      undefined,
      `session ${loaded.located.id} changed since this cursor was issued; export it again from the start`,
    );
  }
  const { start, end } = selection(loaded, t.range);
  const key = `${loaded.located.harness}/${loaded.located.id}/${loaded.version}/${start}-${end}${redacted ? "/redacted" : ""}`;
  const shown = await shownSession(ctx, loaded, redacted);
  // Measured a message at a time and sliced by piece: never the whole document as one string.
  let doc: PagedDocument;
  if (ctx.memo.export?.key === key) doc = ctx.memo.export.doc;
  else {
    doc = new PagedDocument(simplePieces(sliceTranscript(shown.transcript, { start, end })));
    ctx.memo.export = { key, doc };
  }
  const budget = budgetOf(args);
  const from = Math.min(offset, doc.total);
  // One character past the most a page may hold, so a cut is never between a surrogate pair's halves.
  const window = doc.slice(from, Math.min(doc.total, from + budget.maxChars + 1));
  const cut = from + budget.furthest(window, 0);
  const slice = window.slice(0, cut - from);
  budget.take(slice);
  const next =
    cut < doc.total
      ? encodeCursor({
          kind: "export",
          harness: loaded.located.harness,
          id: loaded.located.id,
          version: loaded.version,
          ...(t.range ? { range: cursorRange(t.range) } : {}),
          ...(redacted ? { redact: true } : {}),
          offset: cut,
        })
      : null;
  return {
    structured: {
      harness: loaded.located.harness,
      id: loaded.located.id,
      format: "simple",
      offset,
      total_chars: doc.total,
      estimated_tokens: budget.usedTokens,
      text: slice,
      next_cursor: next,
      redacted: shown.count,
    },
    text: next ? `${slice}\n[continued: call export_session with cursor "${next}"]\n` : slice,
  };
}
