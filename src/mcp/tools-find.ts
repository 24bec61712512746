/**
 * The MCP tools that find sessions: list_sessions (the CLI's list filter,
 * cursor paging in the listing's order) and search_sessions (the index's
 * query, redacted snippets cut afresh from the redacted text).
 */

import { createHash } from "node:crypto";
import type { z } from "zod";
import { InvalidRequestError } from "../errors.js";
import type { Hit, Kind } from "../index/index.js";
import { parseTerms, type Term } from "../index/terms.js";
import { type Chunk, chunksOf } from "../index/text.js";
import { redact } from "../render/index.js";
import { sessionRecord as sessionJson } from "../session-record.js";
import { type SessionFilter, sessionFilter } from "../sessions/filter.js";
import { compareTimestamps } from "../time.js";
import type { Discovered, HarnessId } from "../transcript.js";
import { decodeCursor, encodeCursor } from "./pages.js";
import {
  LIMITS,
  type listInput,
  type listOutput,
  type searchInput,
  type searchOutput,
  type sessionRecord,
} from "./schemas.js";
import {
  type Result,
  redacting,
  redactListed,
  sessionUri,
  type ToolContext,
  tildePath,
} from "./tool-context.js";

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

export async function listSessions(
  ctx: ToolContext,
  args: ListArgs,
): Promise<Result<typeof listOutput>> {
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

export async function searchSessions(
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
function snippetOf(
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
