/**
 * The MCP tools: list_sessions, search_sessions, read_session,
 * export_session, and continue_session (only when the server was started
 * with --allow-write). Each returns structured content checked against its
 * output schema plus a text rendering; every failure comes back as a tool
 * error carrying the CLI's one-line message, never as a crash. A call may
 * ask for redaction (`redact: true`); a server started with --redact
 * redacts every answer whatever the call says: session content, snippets,
 * titles, directories and paths all go through the CLI's redactor
 * (src/render/redact.ts).
 */

import { createHash } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Env } from "../env.js";
import { errorLine, InvalidRequestError } from "../errors.js";
import { harness as harnessOf } from "../harness/index.js";
import { parseSimple, renderSimple } from "../harness/simple.js";
import type { Hit, Kind } from "../index/index.js";
import { parseTerms, type Term } from "../index/terms.js";
import { type Chunk, chunksOf } from "../index/text.js";
import type { Located } from "../local.js";
import {
  type MessageRange,
  parseSessionRef,
  RangeSyntaxError,
  resolveRange,
  type SessionRef,
} from "../range.js";
import { type RedactOptions, redact, redactTexts } from "../render/index.js";
import { commonJsonParts, textParts, type ViewInput, type ViewParts } from "../render/text.js";
import { sessionRecord as sessionJson } from "../sessionRecord.js";
import { type SessionFilter, sessionFilter } from "../sessions/filter.js";
import { resumeLine } from "../sessions/resume.js";
import type { LoadedAt, Sessions } from "../sessions/sessions.js";
import { compareTimestamps } from "../time.js";
import type { Common, Discovered, HarnessId, Transcript } from "../transcript.js";
import {
  cursorRange,
  decodeCursor,
  encodeCursor,
  markdownPage,
  type Position,
  pageOf,
  type ReadFormat,
} from "./pages.js";
import {
  continueInput,
  continueOutput,
  exportInput,
  exportOutput,
  LIMITS,
  listInput,
  listOutput,
  readInput,
  readOutput,
  searchInput,
  searchOutput,
  type sessionRecord,
} from "./schemas.js";
import { Budget } from "./tokens.js";

export interface ToolContext {
  /** The sessions service: every tool and resource goes through it, as every CLI command does. */
  sessions: Sessions;
  env: Env;
  /** Relative cwd filters resolve against it; continued sessions with no cwd get it. */
  cwd: string;
  allowWrite: boolean;
  /** Diagnostics (stderr in the CLI); never the protocol stream. */
  log: (line: string) => void;
  /**
   * The last message piece and the last export rendered, so paging through
   * one huge message or document renders it once (per server, not global).
   */
  memo: {
    piece?: { key: string; text: string };
    export?: { key: string; text: string };
    markdown?: { key: string; parts: ViewParts };
    redacted?: {
      key: string;
      shown: { transcript: Transcript<Common>; path: string | undefined; count: number | null };
    };
  };
  /** Calls in flight, so the server can answer them all before it closes. */
  pending: Set<Promise<unknown>>;
  redaction: McpRedaction;
}

export interface McpRedaction {
  /** Every answer is redacted, whatever a call asks (`txcript mcp --redact`). */
  force: boolean;
  /** What the redactor is given: the home path, the user name, the user's own patterns. */
  options: RedactOptions;
}

/** Whether this call's answer is redacted: the server's --redact, else the call's own `redact`. */
export function redacting(ctx: ToolContext, asked: boolean | undefined): boolean {
  return ctx.redaction.force || asked === true;
}

/** `path` with the home directory as `~`, as the CLI shows a redacted session's file. */
function tildePath(ctx: ToolContext, path: string): string {
  const home = ctx.redaction.options.home?.replace(/\/+$/, "");
  return home && (path === home || path.startsWith(`${home}/`))
    ? `~${path.slice(home.length)}`
    : path;
}

/**
 * A loaded session as an answer shows it: redacted (kept for the session's
 * version, so paging a redacted read scans it once) or as it is.
 */
export async function shownSession(
  ctx: ToolContext,
  loaded: LoadedAt,
  redacted: boolean,
): Promise<{ transcript: Transcript<Common>; path: string | undefined; count: number | null }> {
  if (!redacted) return { transcript: loaded.transcript, path: loaded.path, count: null };
  const key = `${loaded.located.harness}/${loaded.located.id}/${loaded.version}`;
  const memo = ctx.memo.redacted;
  if (memo?.key === key) return memo.shown;
  const r = await redact(loaded.transcript, ctx.redaction.options);
  const shown = {
    transcript: r.transcript,
    path: loaded.path === undefined ? undefined : tildePath(ctx, loaded.path),
    count: r.count,
  };
  ctx.memo.redacted = { key, shown };
  return shown;
}

/** Listed sessions with what a listing shows of them (title, directory, branch, file) redacted. */
export async function redactListed(
  ctx: ToolContext,
  list: readonly Discovered[],
): Promise<Discovered[]> {
  const texts = list.flatMap((s) => [
    s.meta.title ?? "",
    s.meta.cwd ?? "",
    s.meta.git_branch ?? "",
    s.path,
  ]);
  const out = await redactTexts(texts, ctx.redaction.options);
  return list.map((s, i) => {
    const [title = "", cwd = "", branch = "", path = ""] = out.slice(i * 4, i * 4 + 4);
    const meta = { ...s.meta };
    if (meta.title !== undefined) meta.title = title;
    if (meta.cwd !== undefined) meta.cwd = cwd;
    if (meta.git_branch !== undefined) meta.git_branch = branch;
    return { ...s, meta, path: tildePath(ctx, path) };
  });
}

/** Run `work`, counted in `ctx.pending` until it settles. */
export function tracked<T>(ctx: ToolContext, work: () => Promise<T>): Promise<T> {
  const p = work();
  ctx.pending.add(p);
  const done = () => ctx.pending.delete(p);
  p.then(done, done);
  return p;
}

export function sessionUri(harness: HarnessId, id: string): string {
  return `txcript://${harness}/${encodeURIComponent(id)}`;
}

type Result<S extends z.ZodType<Record<string, unknown>>> = {
  structured: z.infer<S>;
  text: string;
};

/** Run a tool body; any throw becomes a tool error with the one-line message. */
function answer<S extends z.ZodType<Record<string, unknown>>>(
  ctx: ToolContext,
  tool: string,
  body: () => Result<S> | Promise<Result<S>>,
): Promise<CallToolResult> {
  return tracked(ctx, () => answerNow(ctx, tool, body));
}

async function answerNow<S extends z.ZodType<Record<string, unknown>>>(
  ctx: ToolContext,
  tool: string,
  body: () => Result<S> | Promise<Result<S>>,
): Promise<CallToolResult> {
  try {
    const { structured, text } = await body();
    return {
      structuredContent: structured,
      content: [{ type: "text", text }],
    };
  } catch (error) {
    const line =
      error instanceof RangeSyntaxError
        ? `txcript: ${error.message}`
        : errorLine(error, { narrow: (h) => `harness "${h}"` });
    if (ctx.env.TXCRIPT_DEBUG === "1" && error instanceof Error && error.stack) {
      ctx.log(`${tool}: ${error.stack}`);
    }
    return { isError: true, content: [{ type: "text", text: line }] };
  }
}

function record(s: Discovered): z.infer<typeof sessionRecord> {
  // The CLI's record, with the session's resource address after its harness.
  const { id, harness, ...rest } = sessionJson(s);
  return { id, harness, uri: sessionUri(harness, id), ...rest };
}

function filterFrom(
  ctx: ToolContext,
  args: {
    harness?: HarnessId | undefined;
    cwd?: string | undefined;
    since?: string | undefined;
    until?: string | undefined;
  },
): SessionFilter {
  // The CLI's filter and time parser: a date is local midnight, `until` includes that whole day.
  return sessionFilter({ ...args, from: args.harness }, ctx.cwd, Date.now());
}

/** The speaker a kind of hit implies; tool output and session fields have none of their own. */
function roleOf(kind: Kind): "user" | "assistant" | undefined {
  switch (kind) {
    case "user":
      return "user";
    case "assistant":
    case "thinking":
    case "tool_call":
      return "assistant";
    case "tool_output":
    case "title":
    case "meta":
      return undefined;
    default:
      return kind satisfies never;
  }
}

function oneLineTitle(title: string | undefined | null): string {
  return (title ?? "(untitled)").replace(/\s+/g, " ");
}

// ---------------------------------------------------------------------------

type ListArgs = z.infer<z.ZodObject<typeof listInput>>;

async function listSessions(ctx: ToolContext, args: ListArgs): Promise<Result<typeof listOutput>> {
  const filter = filterFrom(ctx, args);
  const found = await ctx.sessions.list(filter);
  const listing = { sessions: found.sessions, skipped: [...found.unreadable, ...found.skipped] };
  let sessions = listing.sessions;
  if (args.cursor !== undefined) {
    const c = decodeCursor(args.cursor, "list");
    // Past the last session shown, in the listing's order (newest first, then id, then harness).
    sessions = sessions.filter((s) => {
      const t = compareTimestamps(s.updated, c.updated);
      return (
        t < 0 || (t === 0 && (s.id.localeCompare(c.id) || s.harness.localeCompare(c.harness)) > 0)
      );
    });
  }
  const limit = args.limit ?? LIMITS.listDefault;
  const cut = sessions.slice(0, limit);
  const page = redacting(ctx, args.redact) ? await redactListed(ctx, cut) : cut;
  const last = page[page.length - 1];
  const next =
    sessions.length > limit && last
      ? encodeCursor({ kind: "list", updated: last.updated, harness: last.harness, id: last.id })
      : null;
  const lines = page.map(
    (s) =>
      `${s.id}  ${s.harness}  ${s.updated}  ${s.message_count} msg${s.message_count === 1 ? "" : "s"}  ${s.meta.cwd ?? "-"}  ${oneLineTitle(s.meta.title)}`,
  );
  if (page.length === 0) lines.push("no sessions found");
  if (next) lines.push(`(more: call list_sessions again with cursor "${next}")`);
  if (listing.skipped.length > 0)
    lines.push(`(${listing.skipped.length} unreadable file(s) skipped)`);
  return {
    structured: {
      sessions: page.map(record),
      next_cursor: next,
      skipped: listing.skipped.slice(0, 50).map((s) => ({
        harness: s.harness,
        path: redacting(ctx, args.redact) ? tildePath(ctx, s.path) : s.path,
        reason: s.reason,
      })),
      skipped_count: listing.skipped.length,
    },
    text: `${lines.join("\n")}\n`,
  };
}

// ---------------------------------------------------------------------------

type SearchArgs = z.infer<z.ZodObject<typeof searchInput>>;

/** `role` as `query --role` takes it: one place or several; `tool` is both tool kinds. */
function kindsOf(role: SearchArgs["role"]): Kind[] | undefined {
  if (role === undefined) return undefined;
  const out = new Set<Kind>();
  for (const r of Array.isArray(role) ? role : [role]) {
    if (r === "tool") {
      out.add("tool_call");
      out.add("tool_output");
    } else out.add(r);
  }
  return [...out];
}

async function searchSessions(
  ctx: ToolContext,
  args: SearchArgs,
): Promise<Result<typeof searchOutput>> {
  const filter = filterFrom(ctx, args);
  const { cursor, limit: _limit, ...asked } = args;
  const fingerprint = createHash("sha256").update(JSON.stringify(asked)).digest("hex").slice(0, 16);
  let offset = 0;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor, "search");
    if (c.query !== fingerprint) {
      throw new InvalidRequestError(undefined, "this cursor belongs to a different search");
    }
    offset = c.offset;
  }
  const limit = args.limit ?? LIMITS.searchDefault;
  const kinds = kindsOf(args.role);
  const found = await ctx.sessions.query(args.query, {
    ...filter,
    ...(kinds && kinds.length > 0 ? { kinds } : {}),
    limit,
    offset,
  });
  const end = offset + found.hits.length;
  const shownHits = redacting(ctx, args.redact)
    ? await redactHits(ctx, found.hits, parseTerms(args.query))
    : found.hits;
  const next =
    end < found.total ? encodeCursor({ kind: "search", query: fingerprint, offset: end }) : null;
  const hits = shownHits.map((h: Hit) => {
    const s = h.session;
    return {
      harness: s.harness,
      id: s.id,
      uri: sessionUri(s.harness, s.id),
      ref: h.ordinal > 0 ? `${s.id}#${h.ordinal}` : s.id,
      title: s.meta.title ?? null,
      cwd: s.meta.cwd ?? null,
      updated: s.updated,
      message: h.ordinal > 0 ? h.ordinal : null,
      role: roleOf(h.kind) ?? null,
      where: h.kind,
      snippet: h.snippet,
      highlights: h.highlights,
      // bm25 is lower-is-better; the tool's score is higher-is-better.
      score: h.score === 0 ? 0 : -h.score,
    };
  });
  const lines = hits.map(
    (h) =>
      `${h.ref}  ${h.harness}  ${h.where}  ${oneLineTitle(h.title)}\n    ${h.snippet.replace(/\s+/g, " ")}`,
  );
  lines.unshift(
    `${found.total} hit${found.total === 1 ? "" : "s"}${found.total > 0 ? `, ${offset + 1}-${end} shown` : ""}`,
  );
  if (next)
    lines.push(`(more: call search_sessions again with the same arguments and cursor "${next}")`);
  if (found.unreadable > 0) lines.push(`(${found.unreadable} session(s) could not be read)`);
  return {
    structured: {
      hits,
      total: found.total,
      unreadable: found.unreadable,
      next_cursor: next,
      engine: "index" as const,
    },
    text: `${lines.join("\n")}\n`,
  };
}

/**
 * Hits as a redacted answer shows them. A snippet cut from the stored text
 * could start or end inside a secret, where no pattern recognizes what is
 * left of it; so each hit's snippet is cut afresh from its session's
 * redacted text (the same piece the index searched), around the first
 * search term still there. A session that cannot be read gives no snippet.
 */
async function redactHits(ctx: ToolContext, hits: readonly Hit[], terms: Term[]): Promise<Hit[]> {
  const sessions = await redactListed(
    ctx,
    hits.map((h) => h.session),
  );
  // Each session's searchable pieces, redacted once however many hits it has.
  const pieces = new Map<string, Promise<Chunk[]>>();
  const piecesOf = (h: Hit) => {
    const key = `${h.session.harness}/${h.session.id}`;
    let p = pieces.get(key);
    if (p === undefined) {
      p = ctx.sessions
        .load({ harness: h.session.harness, id: h.session.id })
        .then((loaded) => redact(loaded.transcript, ctx.redaction.options))
        .then((r) => chunksOf(r.transcript, 0));
      pieces.set(key, p);
    }
    return p;
  };
  const out: Hit[] = [];
  for (const [i, h] of hits.entries()) {
    let body = "";
    try {
      body = (await piecesOf(h))
        .filter((c) => c.ordinal === h.ordinal && c.kind === h.kind)
        .map((c) => c.body)
        .join(" ");
    } catch {
      body = "";
    }
    const { snippet, highlights } = snippetOf(body, terms);
    out.push({ ...h, session: sessions[i] ?? h.session, snippet, highlights });
  }
  return out;
}

/** Up to about 200 characters of `body` (on one line) around the first of `terms` in it, with every term marked. */
export function snippetOf(
  body: string,
  terms: readonly Term[],
): { snippet: string; highlights: [number, number][] } {
  const text = body.replace(/\s+/g, " ").trim();
  const lower = text.toLowerCase();
  const words = terms
    .filter((t) => !t.exclude)
    .map((t) => t.text.toLowerCase())
    .filter((w) => w !== "");
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const center = Math.max(at, 0);
  let from = Math.max(0, center - 60);
  if (from > 0) {
    const space = text.indexOf(" ", from);
    if (space >= 0 && space < center) from = space + 1;
  }
  let to = Math.min(text.length, center + 140);
  if (to < text.length) {
    const space = text.lastIndexOf(" ", to);
    if (space > center) to = space;
  }
  const lead = from > 0 ? "…" : "";
  const snippet = `${lead}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
  const highlights: [number, number][] = [];
  // Case folding that changes lengths would misplace the marks: none then.
  if (lower.length === text.length) {
    const window = lower.slice(from, to);
    for (const w of words)
      for (let i = window.indexOf(w); i >= 0; i = window.indexOf(w, i + w.length))
        highlights.push([lead.length + i, lead.length + i + w.length]);
    highlights.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  }
  // Overlapping marks (one term inside another) are one mark.
  const merged: [number, number][] = [];
  for (const [a, b] of highlights) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return { snippet, highlights: merged };
}

// ---------------------------------------------------------------------------

interface Target {
  located: Located;
  range: MessageRange | undefined;
}

function parseRef(text: string): SessionRef {
  return parseSessionRef(text);
}

async function target(
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

function selection(loaded: LoadedAt, range: MessageRange | undefined) {
  const body = loaded.transcript.body;
  return range
    ? resolveRange(body, range, `session ${loaded.located.id}`)
    : { start: 0, end: body.length };
}

type ReadArgs = z.infer<z.ZodObject<typeof readInput>>;

/** A call's page budget: max_chars (default when neither is given) and max_tokens. */
function budgetOf(args: { max_chars?: number | undefined; max_tokens?: number | undefined }) {
  const chars =
    args.max_chars ?? (args.max_tokens !== undefined ? LIMITS.charsMax : LIMITS.charsDefault);
  return new Budget(chars, args.max_tokens);
}

async function readSession(ctx: ToolContext, args: ReadArgs): Promise<Result<typeof readOutput>> {
  let t: Target;
  let format: ReadFormat;
  let at: Position = { piece: -1, offset: 0 };
  let version: string | undefined;
  // A redacted read stays redacted page after page: its cursor says so.
  let redacted: boolean;
  if (args.cursor !== undefined) {
    const c = decodeCursor(args.cursor, "read");
    t = { located: { harness: c.harness, id: c.id }, range: cursorRange(c.range) };
    format = c.format;
    at = c.at;
    version = c.version;
    redacted = redacting(ctx, c.redact === true || args.redact === true);
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
  if (shown.path !== undefined) input.path = shown.path;
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

async function exportSession(
  ctx: ToolContext,
  args: ExportArgs,
): Promise<Result<typeof exportOutput>> {
  let t: Target;
  let offset = 0;
  let version: string | undefined;
  let redacted: boolean;
  if (args.cursor !== undefined) {
    const c = decodeCursor(args.cursor, "export");
    t = { located: { harness: c.harness, id: c.id }, range: cursorRange(c.range) };
    offset = c.offset;
    version = c.version;
    redacted = redacting(ctx, c.redact === true || args.redact === true);
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
  let text: string;
  if (ctx.memo.export?.key === key) text = ctx.memo.export.text;
  else {
    const tr = shown.transcript;
    text = renderSimple({ meta: tr.meta, body: tr.body.slice(start, end) });
    ctx.memo.export = { key, text };
  }
  const budget = budgetOf(args);
  const from = Math.min(offset, text.length);
  const cut = budget.furthest(text, from);
  const slice = text.slice(from, cut);
  budget.take(text, from, cut);
  const next =
    cut < text.length
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
      total_chars: text.length,
      estimated_tokens: budget.usedTokens,
      text: slice,
      next_cursor: next,
      redacted: shown.count,
    },
    text: next ? `${slice}\n[continued: call export_session with cursor "${next}"]\n` : slice,
  };
}

// ---------------------------------------------------------------------------

type ContinueArgs = z.infer<z.ZodObject<typeof continueInput>>;

async function continueSession(
  ctx: ToolContext,
  args: ContinueArgs,
): Promise<Result<typeof continueOutput>> {
  if ((args.session === undefined) === (args.document === undefined)) {
    throw new InvalidRequestError(undefined, "give either a session or a document, not both");
  }
  let transcript: Transcript<Common>;
  let source: Located | undefined;
  if (args.document !== undefined) {
    transcript = parseSimple(args.document, "<document>");
  } else {
    const t = await target(ctx, args.session, args.harness);
    const loaded = await ctx.sessions.load(t.located);
    const { start, end } = selection(loaded, t.range);
    const tr = loaded.transcript;
    transcript = { meta: tr.meta, body: tr.body.slice(start, end) };
    source = t.located;
  }
  const into = args.with ?? source?.harness;
  if (into === undefined) {
    throw new InvalidRequestError(undefined, "continuing a document needs with: <harness>");
  }
  if (args.surface !== undefined && into !== "antigravity") {
    throw new InvalidRequestError(undefined, `surface applies to antigravity only, not ${into}`);
  }
  // The source named as the CLI names it: the same copy id and lineage from either door.
  const origin = source
    ? { harness: source.harness, id: source.id }
    : { harness: "simple" as const, id: transcript.meta.id };
  const result = await ctx.sessions.continue({
    transcript,
    source: origin,
    target: into,
    defaultCwd: ctx.cwd,
    surface: args.surface,
  });
  const { saved, resume } = result;
  const command = resume ? resumeLine(resume) : undefined;
  const label = harnessOf(into).label;
  const lines = [`wrote ${label} session ${saved.id}`, `  ${saved.path}`, ...(saved.notes ?? [])];
  lines.push(
    command
      ? `resume: ${command}`
      : saved.lane === "desktop"
        ? "open it in the Antigravity app"
        : `${label} has no resume command`,
  );
  return {
    structured: {
      harness: saved.harness,
      id: saved.id,
      path: saved.path,
      files: saved.files,
      source: source ? { harness: source.harness, id: source.id } : null,
      resume: resume && command ? { argv: resume.argv, cwd: resume.cwd ?? null, command } : null,
    },
    text: `${lines.join("\n")}\n`,
  };
}

// ---------------------------------------------------------------------------

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "list_sessions",
    {
      title: "List sessions",
      description:
        "Coding-agent sessions on this machine (Antigravity/agy, Claude Code, Codex, …), newest activity first, with filters and cursor pagination.",
      inputSchema: listInput,
      outputSchema: listOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "list_sessions", () => listSessions(ctx, args)),
  );
  server.registerTool(
    "search_sessions",
    {
      title: "Search sessions",
      description:
        "Full-text search over every session's messages, thinking, tool calls and tool output. Each hit names a ref (<id>#<message>) to pass to read_session.",
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "search_sessions", () => searchSessions(ctx, args)),
  );
  server.registerTool(
    "read_session",
    {
      title: "Read a session",
      description:
        "A session (or a #range of its messages) as text, Markdown or Common JSON, at most max_chars characters and max_tokens estimated tokens per call, cut between messages; follow next_cursor for the rest.",
      inputSchema: readInput,
      outputSchema: readOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "read_session", () => readSession(ctx, args)),
  );
  server.registerTool(
    "export_session",
    {
      title: "Export a session",
      description:
        "A session (or a #range) as a Simple document (the interchange JSON txcript continues from), at most max_chars characters and max_tokens estimated tokens per call; follow next_cursor for the rest.",
      inputSchema: exportInput,
      outputSchema: exportOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "export_session", () => exportSession(ctx, args)),
  );
  if (ctx.allowWrite) {
    server.registerTool(
      "continue_session",
      {
        title: "Continue a session in a harness",
        description:
          "Write a copy of a session (or a #range, or a Simple document) into a harness's store so that harness can resume it; returns the new id and the resume command. Never changes the source, never overwrites.",
        inputSchema: continueInput,
        outputSchema: continueOutput,
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      (args) => answer(ctx, "continue_session", () => continueSession(ctx, args)),
    );
  }
}
