/**
 * list_sessions and search_sessions served from the persistent index
 * (src/index/), as `txcript list` and `txcript query` are: before each
 * answer the index is brought up to date by fingerprint (with the text for
 * a search), then asked. The server keeps one index open for its life.
 * Refreshes run one at a time; calls that arrive during one share the next.
 * Whatever goes wrong with the index itself (it cannot be opened, a refresh
 * or query fails for a reason other than the request) is one warning line
 * through `log` and the call is answered by the scan (catalog.ts,
 * search.ts) instead: slower, never wrong, never silent.
 */

import type { Env } from "../env.js";
import { InvalidRequestError } from "../errors.js";
import {
  type Filter,
  ftsExpression,
  type Hit,
  type Refreshed,
  SessionIndex,
} from "../index/index.js";
import type { SkippedIn } from "../local.js";
import { compareTimestamps, timestampMillis } from "../time.js";
import type { Discovered, HarnessId } from "../transcript.js";
import type { Catalog } from "./catalog.js";
import { matches, type SessionFilter } from "./filters.js";
import {
  type HitKind,
  ScanSearch,
  type SearchHit,
  type SearchQuery,
  type SearchResults,
  type SessionSearch,
} from "./search.js";

export type Engine = "index" | "scan";

export interface SessionsListing {
  /** Newest activity first, then id, then harness. */
  sessions: Discovered[];
  /** Stores that could not be read at all (by root), then files discovery passed over. */
  skipped: SkippedIn[];
  engine: Engine;
}

/** Where list_sessions and search_sessions get their answers. */
export interface SessionSource extends SessionSearch {
  list(filter: SessionFilter): Promise<SessionsListing>;
  close(): void;
}

export interface IndexedOptions {
  env: Env;
  roots?: Partial<Record<HarnessId, string>> | undefined;
  /** As the CLI's --cache/--no-cache: a directory, null for in memory, undefined for the default. */
  cache?: string | null | undefined;
  log: (line: string) => void;
}

/** Newest first, then id, then harness: the order list cursors assume. */
export function byRecency(a: Discovered, b: Discovered): number {
  return (
    compareTimestamps(b.updated, a.updated) ||
    a.id.localeCompare(b.id) ||
    a.harness.localeCompare(b.harness)
  );
}

function indexFilter(filter: SessionFilter): Filter {
  const out: Filter = {};
  if (filter.harness !== undefined) out.from = filter.harness;
  if (filter.cwd !== undefined) out.cwd = filter.cwd;
  if (filter.since !== undefined) out.since = timestampMillis(filter.since);
  // The index's bound is inclusive; the tools' `until` is "before".
  if (filter.until !== undefined) out.until = timestampMillis(filter.until) - 1;
  return out;
}

/** The speaker a kind of hit implies; tool output and session fields have none of their own. */
function roleOf(kind: HitKind): SearchHit["role"] {
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

function hitOf(h: Hit): SearchHit {
  return {
    harness: h.session.harness,
    id: h.session.id,
    title: h.session.meta.title,
    cwd: h.session.meta.cwd,
    updated: h.session.updated,
    message: h.ordinal > 0 ? h.ordinal : undefined,
    role: roleOf(h.kind),
    where: h.kind,
    snippet: h.snippet,
    highlights: h.highlights,
    // bm25 is lower-is-better; the tool's score is higher-is-better.
    score: h.score === 0 ? 0 : -h.score,
  };
}

/** Is this the request's own fault (said as is), rather than the index's? */
function requestError(error: unknown): boolean {
  return error instanceof InvalidRequestError;
}

/** The scan alone: list and search read the stores, never the index. */
export class ScanSessions implements SessionSource {
  private readonly scan: ScanSearch;

  constructor(private readonly catalog: Catalog) {
    this.scan = new ScanSearch(catalog);
  }

  async list(filter: SessionFilter): Promise<SessionsListing> {
    const listing = await this.catalog.list(filter.harness);
    return {
      sessions: listing.sessions.filter((s) => matches(s, filter)).sort(byRecency),
      skipped: listing.skipped,
      engine: "scan",
    };
  }

  search(query: SearchQuery): Promise<SearchResults> {
    return this.scan.search(query);
  }

  close(): void {}
}

export class IndexedSessions implements SessionSource {
  private index: SessionIndex | undefined;
  private broken: string | undefined;
  private readonly scan: ScanSessions;
  /** The refresh running now, and the one that will run after it for calls that came meanwhile. */
  private running: Promise<Refreshed> | undefined;
  private queued: { text: boolean; promise: Promise<Refreshed> } | undefined;

  constructor(
    private readonly options: IndexedOptions,
    catalog: Catalog,
  ) {
    this.scan = new ScanSessions(catalog);
  }

  private warn(line: string): void {
    this.options.log(`warning: ${line}`);
  }

  /** The index, opened on first use (again after a failure); undefined when it cannot be. */
  private open(): SessionIndex | undefined {
    if (this.index) return this.index;
    try {
      this.index = SessionIndex.open({
        env: this.options.env,
        ...(this.options.roots ? { roots: this.options.roots } : {}),
        ...(this.options.cache !== undefined ? { cache: this.options.cache } : {}),
        warn: (line) => this.warn(line),
      });
    } catch (error) {
      this.fail(error);
    }
    return this.index;
  }

  /** Drop the index after a failure (the next call opens it again), saying so once per reason. */
  private fail(error: unknown): void {
    const why = error instanceof Error ? error.message : String(error);
    if (this.broken !== why)
      this.warn(`the session index failed (${why}); scanning the stores instead`);
    this.broken = why;
    try {
      this.index?.close();
    } catch {
      // already unusable
    }
    this.index = undefined;
  }

  /** A refresh that starts after this call: the running one may have missed a change. */
  private refresh(index: SessionIndex, text: boolean): Promise<Refreshed> {
    const run = () => index.refresh({ text });
    if (this.running === undefined) {
      const p = run();
      this.running = p;
      const done = () => {
        if (this.running === p) this.running = undefined;
      };
      p.then(done, done);
      return p;
    }
    // One refresh waits behind the running one; with text if any waiting caller needs text.
    if (this.queued && (this.queued.text || !text)) return this.queued.promise;
    const after = this.running;
    const settle = () => undefined;
    const p = after.then(settle, settle).then(() => {
      if (this.queued?.promise === p) this.queued = undefined;
      return this.refresh(index, text);
    });
    this.queued = { text, promise: p };
    return p;
  }

  async list(filter: SessionFilter): Promise<SessionsListing> {
    const index = this.open();
    if (index) {
      try {
        const refreshed = await this.refresh(index, false);
        const sessions = index.list(indexFilter(filter)).sessions.sort(byRecency);
        return {
          sessions,
          skipped: [...refreshed.unreadable, ...refreshed.skipped],
          engine: "index",
        };
      } catch (error) {
        if (requestError(error)) throw error;
        this.fail(error);
      }
    }
    return this.scan.list(filter);
  }

  async search(query: SearchQuery): Promise<SearchResults> {
    const index = this.open();
    if (index) {
      try {
        // The query's own errors (nothing to search, too many terms) before any work.
        ftsExpression(query.terms);
        await this.refresh(index, true);
        const filter = indexFilter(query);
        const request = {
          ...filter,
          ...(query.kinds && query.kinds.length > 0 ? { kinds: query.kinds } : {}),
        };
        const total = index.count(query.terms, request);
        const hits =
          query.offset < total
            ? index.query(query.terms, { ...request, limit: query.limit, offset: query.offset })
            : [];
        return {
          hits: hits.map(hitOf),
          total,
          unreadable: index.unreadableText(filter),
          engine: "index",
        };
      } catch (error) {
        if (requestError(error)) throw error;
        this.fail(error);
      }
    }
    return this.scan.search(query);
  }

  close(): void {
    try {
      this.index?.close();
    } catch {
      // closing is best effort
    }
  }
}
