/**
 * Reading the persistent index: list, search, count and usage, as of the
 * last refresh (session-index.ts writes it). Each function is given the
 * index's database and its damaged-database guard (`Reader`), so a query
 * that finds the file damaged is run once more on the rebuilt one.
 */

import { CopyLedger } from "../copies.js";
import type { Env } from "../env.js";
import { describeCause, TxcriptError } from "../errors.js";
import { assignDefined } from "../json.js";
import type { Listing, SkippedIn } from "../local.js";
import type { Db } from "../sqlite.js";
import { timestampFromMillis } from "../time.js";
import type { Discovered, FileStamp, HarnessId, PreviousScan, Skipped } from "../transcript.js";
import { isCorrupt } from "./open.js";
import { ftsExpression } from "./terms.js";
import type { Kind, UsageCounts, UsageTotals } from "./text.js";

/**
 * The one filter: what `list`, `query` and `usage` (from every door) narrow
 * to. Times are ms since the epoch, both bounds inclusive: a session's last
 * activity for `list` and `query`, each message's own time for `usage`.
 */
export interface Filter {
  from?: HarnessId | undefined;
  /** This directory or below it. */
  cwd?: string | undefined;
  /** At or after. */
  since?: number | undefined;
  /** At or before. */
  until?: number | undefined;
}

export interface ListRequest extends Filter {
  limit?: number | undefined;
}

export interface QueryRequest extends Filter {
  /** Only hits in these places. */
  kinds?: readonly Kind[] | undefined;
  /** At most this many hits (default 20). */
  limit?: number | undefined;
  /** Hits to pass over first, for pagination (default 0). */
  offset?: number | undefined;
}

export interface Hit {
  session: Discovered;
  /** The message, numbered as `view` numbers it; 0 for the session's title or fields. */
  ordinal: number;
  kind: Kind;
  /** When the message was written. */
  timestamp: string;
  /** bm25: lower is better. */
  score: number;
  /** The matching passage, whitespace collapsed. */
  snippet: string;
  /** [start, end) of each matched term in `snippet`, in UTF-16 code units. */
  highlights: [number, number][];
}

export interface SessionUsage {
  session: Discovered;
  /** Undefined when the session's text could not be read. */
  usage: UsageTotals | undefined;
}

/** Tokens of one session, one model, one 15-minute span: what `usage` groups. */
export interface UsageBucket extends UsageCounts {
  harness: HarnessId;
  id: string;
  cwd: string | undefined;
  title: string | undefined;
  model: string | undefined;
  /**
   * Start of the 15-minute span (ms since the epoch) the messages fall in.
   * Every time zone's offset is a whole number of quarter hours, so a span
   * never straddles a local day.
   */
  at: number;
}

/** Where a usage bucket's messages were: the session's identity and its labels. */
type BucketSession = Pick<UsageBucket, "harness" | "id" | "cwd" | "title">;

/** A bucket from a query row's summed counts and its session; the index and the archive build theirs alike. */
export function usageBucket(
  session: BucketSession,
  r: UsageCounts & { model: string | null; at: number },
): UsageBucket {
  return {
    harness: session.harness,
    id: session.id,
    cwd: session.cwd,
    title: session.title,
    model: r.model ?? undefined,
    at: r.at,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cache_read_input_tokens: r.cache_read_input_tokens,
    cache_creation_input_tokens: r.cache_creation_input_tokens,
    messages: r.messages,
  };
}

/** What `usage` narrows to: the one filter, its times applied to each message's own time. */
export type UsageFilter = Filter;

/** The span `UsageBucket.at` rounds down to. */
export const USAGE_BUCKET_MS = 15 * 60 * 1000;

export interface IndexedId {
  harness: HarnessId;
  id: string;
  title: string | undefined;
}

const MARK_START = "\u0002";
const MARK_END = "\u0003";

/** What reading needs of the index: its database now, its store rows, and its guard. */
export interface Reader {
  db(): Db;
  env: Env;
  /** The stores rows (JSON array of ids) of every harness, or `from`'s. */
  storeIds(from?: HarnessId): string;
  guard<T>(fn: () => T): T;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface HitRow {
  discovered: string;
  ordinal: number;
  kind: Kind;
  at: number;
  score: number;
  snip: string;
}

interface UsageEntryRow {
  discovered: string;
  text_fp: string | null;
  text_error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_input_tokens: number | null;
  cache_creation_input_tokens: number | null;
  model: string | null;
  models: string | null;
}

/**
 * JSON this index wrote itself (`JSON.stringify` of the type named). The one
 * cast of stored JSON: re-validating it on every `list` would cost the time
 * the index exists to save, and a damaged file fails SQLite's checks first.
 */
function ownJson<T>(text: string): T {
  return JSON.parse(text) as T; // cast: see above
}

/** The files of a fingerprint key the index stored from a scan; undefined for none (""). */
function fingerprintFiles(key: string | undefined): FileStamp[] | undefined {
  return key ? ownJson<FileStamp[]>(key) : undefined;
}

/** The key the index stores and compares a fingerprint by: its files as JSON. */
export function fingerprintKey(files: readonly FileStamp[]): string {
  return JSON.stringify(files);
}

/**
 * What a store's scan is told of the last one (`known`: the stored key by
 * main file), asked of the stored keys as they are: parsing each back cost
 * a warm refresh of 1,000 agy conversations 4 ms. The keys `same` makes
 * are kept for `keyOf`, so the refresh does not make them again.
 */
export function previousScan(
  known: ReadonlyMap<string, { fingerprint: string }>,
): PreviousScan & { keyOf(files: readonly FileStamp[]): string } {
  const keys = new WeakMap<readonly FileStamp[], string>();
  const keyOf = (files: readonly FileStamp[]): string => {
    let key = keys.get(files);
    if (key === undefined) {
      key = fingerprintKey(files);
      keys.set(files, key);
    }
    return key;
  };
  return {
    files: (main) => fingerprintFiles(known.get(main)?.fingerprint),
    // A stamp's JSON is its path, then its mtime (`fileStamp`). A path that
    // JSON escapes is not found as it is: the scan then goes the long way.
    holds(main, path) {
      const key = known.get(main)?.fingerprint;
      const at = key?.indexOf(`"path":"${path}"`) ?? -1;
      return at >= 0 && key?.startsWith(',"mtime_ms":', at + path.length + 9) === true;
    },
    same: (main, files) => keyOf(files) === known.get(main)?.fingerprint,
    keyOf,
  };
}

function discovered(text: string): Discovered {
  return ownJson<Discovered>(text);
}

/** Strip FTS5's snippet markers, collapse whitespace, and keep where the marked terms are. */
function unmark(snip: string): { text: string; highlights: [number, number][] } {
  const flat = snip.replace(/\s+/g, " ").trim();
  let text = "";
  const highlights: [number, number][] = [];
  let open = -1;
  for (const ch of flat) {
    if (ch === MARK_START) open = text.length;
    else if (ch === MARK_END) {
      if (open >= 0) highlights.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, highlights };
}

/** What discovery skipped, as of the last refresh. */
export function skipped(ix: Reader, from?: HarnessId): SkippedIn[] {
  return ix.guard(() => {
    const ids = ix.storeIds(from);
    const files = ix
      .db()
      .prepare<[string], { path: string; reason: string; harness: HarnessId }>(
        // Only sessions have an id: \`id IS NULL\` finds the rest through entries_id
        // instead of reading every entry's row (80 ms at 20,000 sessions, bench/scale).
        `SELECT e.path, e.reason, s.harness FROM entries e JOIN stores s ON s.id = e.store
         WHERE e.id IS NULL AND e.state = 'skipped' AND e.store IN (SELECT value FROM json_each(?))
         ORDER BY s.harness, e.path`,
      )
      .all(ids);
    const out: SkippedIn[] = files.map((f) => ({
      harness: f.harness,
      path: f.path,
      reason: f.reason,
    }));
    const stores = ix
      .db()
      .prepare<[string], { harness: HarnessId; skipped: string }>(
        "SELECT harness, skipped FROM stores WHERE id IN (SELECT value FROM json_each(?))",
      )
      .all(ids);
    for (const s of stores) {
      for (const k of ownJson<Skipped[]>(s.skipped)) out.push({ ...k, harness: s.harness });
    }
    return out;
  });
}

function where(
  ix: Reader,
  filter: Filter,
  alias = "e",
  /** Newest first through entries_updated: see `list`. */
  ordered = false,
): { sql: string; params: unknown[] } {
  const parts = [
    `${alias}.state = 'session'`,
    `${ordered ? "+" : ""}${alias}.store IN (SELECT value FROM json_each(?))`,
  ];
  const params: unknown[] = [ix.storeIds(filter.from)];
  if (filter.since !== undefined) {
    parts.push(`${alias}.updated_ms >= ?`);
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    parts.push(`${alias}.updated_ms <= ?`);
    params.push(filter.until);
  }
  if (filter.cwd !== undefined) {
    const dir = filter.cwd.replace(/\\/g, "/").replace(/\/+$/, "") || "/";
    parts.push(`(${alias}.cwd = ? OR ${alias}.cwd LIKE ? ESCAPE '\\')`);
    params.push(dir, `${escapeLike(dir === "/" ? "" : dir)}/%`);
  }
  return { sql: parts.join(" AND "), params };
}

/** Sessions, newest activity first, as of the last refresh. */
export function list(ix: Reader, request: ListRequest = {}): Listing {
  return ix.guard(() => ({
    sessions: sessions(ix, request),
    skipped: skipped(ix, request.from),
    unreadable: [],
  }));
}

/** The sessions of `list` alone, for a caller that has the skipped files from its refresh. */
export function sessions(ix: Reader, request: ListRequest = {}): Discovered[] {
  return ix.guard(() => {
    // Every harness: nearly every entry is listed, so walk entries_updated in
    // order (a --limit stops early) rather than find them by store and sort
    // them all (the unary + keeps the planner off the store index): --limit
    // 20 of 20,000 sessions read 20 rows instead of all (bench/scale).
    // One harness: its entries by store, then sorted.
    const { sql, params } = where(ix, request, "e", request.from === undefined);
    const limit =
      request.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(request.limit))}` : "";
    const rows = ix
      .db()
      .prepare<unknown[], string>(
        `SELECT e.discovered FROM entries e WHERE ${sql} ORDER BY e.updated_ms DESC, e.id, e.harness${limit}`,
      )
      .pluck()
      .all(...params);
    const found = rows.map(discovered);
    // Lineage lives in txcript's ledger, not in the harness's files the index fingerprints.
    new CopyLedger(ix.env).annotate(found);
    return found;
  });
}

/** Session ids (newest first) for completion and the picker. */
export function ids(ix: Reader, from?: HarnessId): IndexedId[] {
  return sessions(ix, from ? { from } : {}).map((s) => ({
    harness: s.harness,
    id: s.id,
    title: s.meta.title,
  }));
}

/** The WHERE clause of a search: the session filter and the kinds. */
function hitWhere(ix: Reader, request: QueryRequest): { sql: string; params: unknown[] } {
  const { sql, params } = where(ix, request);
  if (request.kinds && request.kinds.length > 0) {
    params.push(JSON.stringify(request.kinds));
    return { sql: `${sql} AND c.kind IN (SELECT value FROM json_each(?))`, params };
  }
  return { sql, params };
}

/** How many hits `query` has in all, before limit and offset. */
export function count(ix: Reader, terms: string, request: QueryRequest = {}): number {
  const expr = ftsExpression(terms);
  return ix.guard(() => {
    const { sql, params } = hitWhere(ix, request);
    try {
      return (
        ix
          .db()
          .prepare<unknown[], number>(
            `SELECT count(*) FROM text JOIN chunks c ON c.rowid = text.rowid JOIN entries e ON e.rowid = c.entry
           WHERE text MATCH ? AND ${sql}`,
          )
          .pluck()
          .get(expr, ...params) ?? 0
      );
    } catch (error) {
      if (isCorrupt(error)) throw error;
      throw new TxcriptError(
        undefined,
        `the search could not run: ${describeCause(error).split("\n")[0]}`,
      );
    }
  });
}

/** Sessions matching `filter` whose text could not be read at the last text refresh. */
export function unreadableText(ix: Reader, filter: Filter = {}): number {
  return ix.guard(() => {
    const { sql, params } = where(ix, filter);
    return (
      ix
        .db()
        .prepare<unknown[], number>(
          `SELECT count(*) FROM entries e WHERE ${sql} AND e.text_error IS NOT NULL`,
        )
        .pluck()
        .get(...params) ?? 0
    );
  });
}

/**
 * Full-text search, best hits first; equal scores by session and place, not
 * by row number, which a refresh between two pages or two doors renumbers.
 * Throws InvalidRequestError (one line) for a query with nothing to search.
 */
export function query(ix: Reader, terms: string, request: QueryRequest = {}): Hit[] {
  const expr = ftsExpression(terms);
  return ix.guard(() => {
    const { sql, params } = hitWhere(ix, request);
    const limit = Math.max(1, Math.floor(request.limit ?? 20));
    const offset = Math.max(0, Math.floor(request.offset ?? 0));
    let rows: HitRow[];
    try {
      rows = ix
        .db()
        .prepare<unknown[], HitRow>(
          `SELECT e.discovered, c.ordinal, c.kind, c.at, bm25(text) AS score,
             snippet(text, 0, '${MARK_START}', '${MARK_END}', '…', 24) AS snip
           FROM text JOIN chunks c ON c.rowid = text.rowid JOIN entries e ON e.rowid = c.entry
           WHERE text MATCH ? AND ${sql}
           ORDER BY score, e.harness, e.id, c.ordinal, c.rowid LIMIT ? OFFSET ?`,
        )
        .all(expr, ...params, limit, offset);
    } catch (error) {
      if (isCorrupt(error)) throw error;
      // The expression is built from quoted terms only; say so rather than leak FTS5's text.
      throw new TxcriptError(
        undefined,
        `the search could not run: ${describeCause(error).split("\n")[0]}`,
      );
    }
    return rows.map((r) => {
      const { text, highlights } = unmark(r.snip);
      return {
        session: discovered(r.discovered),
        ordinal: r.ordinal,
        kind: r.kind,
        timestamp: timestampFromMillis(r.at),
        score: r.score,
        snippet: text,
        highlights,
      };
    });
  });
}

/** Each session's usage totals (refresh with `text: true` first). */
export function usage(ix: Reader, filter: Filter = {}): SessionUsage[] {
  return ix.guard(() => {
    const { sql, params } = where(ix, filter);
    const rows = ix
      .db()
      .prepare<unknown[], UsageEntryRow>(
        `SELECT e.discovered, e.text_fp, e.text_error, e.input_tokens, e.output_tokens,
           e.cache_read_input_tokens, e.cache_creation_input_tokens, e.model, e.models
         FROM entries e WHERE ${sql} ORDER BY e.updated_ms DESC, e.id`,
      )
      .all(...params);
    return rows.map((r) => ({
      session: discovered(r.discovered),
      usage:
        r.text_fp === null || r.text_error !== null || r.input_tokens === null
          ? undefined
          : {
              input_tokens: r.input_tokens,
              output_tokens: r.output_tokens ?? 0,
              cache_read_input_tokens: r.cache_read_input_tokens ?? 0,
              cache_creation_input_tokens: r.cache_creation_input_tokens ?? 0,
              model: r.model ?? undefined,
              models: r.models ? ownJson<Record<string, number>>(r.models) : {},
            },
    }));
  });
}

/**
 * Tokens per session, model and 15-minute span, of the messages the
 * filter selects (refresh with `text: true` first). Sessions whose text
 * could not be read have no rows.
 */
export function usageBuckets(ix: Reader, filter: UsageFilter = {}): UsageBucket[] {
  return ix.guard(() => {
    const sessions: Filter = {};
    assignDefined(sessions, "from", filter.from);
    assignDefined(sessions, "cwd", filter.cwd);
    const { sql, params } = where(ix, sessions);
    // The sessions once each (their title sits in the listing's JSON), then their buckets.
    const meta = new Map(
      ix
        .db()
        .prepare<
          unknown[],
          { rowid: number; harness: HarnessId; id: string; cwd: string | null; title: unknown }
        >(
          `SELECT e.rowid, e.harness, e.id, e.cwd, json_extract(e.discovered, '$.meta.title') AS title
             FROM entries e WHERE ${sql}`,
        )
        .all(...params)
        .map((r) => [r.rowid, r]),
    );
    let when = "";
    if (filter.since !== undefined) {
      when += " AND u.at >= ?";
      params.push(filter.since);
    }
    if (filter.until !== undefined) {
      when += " AND u.at <= ?";
      params.push(filter.until);
    }
    // A copy `continue` wrote repeats its source's messages: only what was
    // added after it was written (the resumed harness's own turns) counts.
    const copies = new CopyLedger(ix.env).writtenCopies();
    when += ` AND NOT EXISTS (SELECT 1 FROM json_each(?) c WHERE json_extract(c.value, '$[0]') = e.harness
       AND json_extract(c.value, '$[1]') = e.id AND u.at <= json_extract(c.value, '$[2]'))`;
    params.push(JSON.stringify(copies));
    // total(), not sum(): hostile counts would overflow sum()'s 64-bit integers and fail the query.
    const rows = ix
      .db()
      // The columns are named as the counts are: the row is a bucket's counts per entry.
      .prepare<unknown[], UsageCounts & { entry: number; model: string | null; at: number }>(
        `SELECT u.entry, u.model, (u.at / ${USAGE_BUCKET_MS}) * ${USAGE_BUCKET_MS} AS at,
           total(u.input) AS input_tokens, total(u.output) AS output_tokens,
           total(u.cache_read) AS cache_read_input_tokens,
           total(u.cache_write) AS cache_creation_input_tokens, total(u.messages) AS messages
         FROM usage u JOIN entries e ON e.rowid = u.entry
         WHERE ${sql}${when}
         GROUP BY u.entry, u.model, u.at / ${USAGE_BUCKET_MS}`,
      )
      .all(...params);
    const out: UsageBucket[] = [];
    for (const r of rows) {
      const m = meta.get(r.entry);
      if (m === undefined) continue;
      const title = typeof m.title === "string" ? m.title : undefined;
      out.push(usageBucket({ harness: m.harness, id: m.id, cwd: m.cwd ?? undefined, title }, r));
    }
    return out;
  });
}

/** How many of the sessions the filter selects could not be read for their text (and usage). */
export function unreadCount(ix: Reader, filter: UsageFilter = {}): number {
  return ix.guard(() => {
    const sessions: Filter = {};
    assignDefined(sessions, "from", filter.from);
    assignDefined(sessions, "cwd", filter.cwd);
    return unreadableText(ix, sessions);
  });
}
