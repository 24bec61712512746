/**
 * The sessions service: the one road every door (the CLI's commands, the
 * MCP tools and resources, and the doors to come: `txcript serve`, a
 * remote archive) takes to the machine's sessions. It resolves ids and
 * prefixes, lists with one filter (filter.ts), searches with one query
 * parser and one searchable-text projection (the index's), loads, continues
 * (the source always named, so a copy's id and lineage are the same from
 * any door), deletes and totals usage. The persistent index is its memory
 * (in memory when the cache cannot open); the stores (`Local`) are read
 * for what the index does not hold: a session's full transcript. Given a
 * `backend` (backend.ts: a shared archive), it answers list, search,
 * usage, resolve and load from that memory instead, with the same types.
 * Importing this module opens nothing.
 */

import type { Origin } from "../copies.js";
import type { Env } from "../env.js";
import { UnsupportedError } from "../errors.js";
import {
  type Hit,
  type IndexedId,
  type IndexOptions,
  type QueryRequest,
  type Refreshed,
  type RefreshOptions,
  SessionIndex,
  type SessionUsage,
  type UsageBucket,
} from "../index/session-index.js";
import { ftsExpression } from "../index/terms.js";
import { assignDefined, defined } from "../json.js";
import type { Continued, Listing, Loaded, Local, Located } from "../local.js";
import type { Common, Fingerprint, HarnessId, Transcript } from "../transcript.js";
import type { SessionsBackend } from "./backend.js";
import type { SessionFilter } from "./filter.js";

export interface SessionsOptions {
  env: Env;
  /** Store root overrides per harness (the `--<harness>-root` flags). */
  roots?: Partial<Record<HarnessId, string>> | undefined;
  /** The index's folder: a directory, `null` for in memory, undefined for the default. */
  cache?: string | null | undefined;
  /** One-line warnings (a damaged index rebuilt, a locked one bypassed). */
  warn?: ((line: string) => void) | undefined;
  /** See `IndexOptions.note`: what a long index build is doing, in one line. */
  note?: ((line: string) => void) | undefined;
  /** See `IndexOptions.textWorker`. */
  textWorker?: boolean | undefined;
  /** How many loaded transcripts to keep between calls (a long-lived door; default 0). */
  keepLoaded?: number | undefined;
  /**
   * Answer from this memory instead of the machine's index and stores: a
   * shared archive (`--archive`, src/archive/). Listing, search, usage,
   * resolving and loading then read it; continue writes locally as ever;
   * delete refuses.
   */
  backend?: SessionsBackend | undefined;
  /**
   * A long-lived door under many requests (`txcript serve`): reuse a
   * refresh that ended less than this many ms ago (or four times as long
   * as it took, if longer) instead of probing the stores again (default 0:
   * every call refreshes).
   */
  reuseRefreshMs?: number | undefined;
  /**
   * With `reuseRefreshMs`: past the window, answer from the last refresh
   * and run the next one behind the answer, so no request waits on a
   * refresh of a large machine (the next request sees its result). Only
   * the first refresh (and the first with text) is waited for.
   */
  refreshBehind?: boolean | undefined;
}

/** A list request: the filter, and at most `limit` sessions. */
export interface ListRequest extends SessionFilter {
  limit?: number | undefined;
}

/** What a door asks of a refresh besides the harness: progress for a terminal. */
export interface Progressed {
  onProgress?: RefreshOptions["onProgress"];
}

export interface Found {
  /** Best first, after `offset`, at most `limit`. */
  hits: Hit[];
  /** All hits, before offset and limit. */
  total: number;
  /** Sessions the filter selects whose text could not be read. */
  unreadable: number;
  refreshed: Refreshed;
}

export interface Usage {
  buckets: UsageBucket[];
  /** Sessions the filter selects whose text (and so usage) could not be read. */
  unread: number;
  refreshed: Refreshed;
}

/** A loaded session and the fingerprint it was read at (equal versions, unchanged files). */
export interface LoadedAt extends Loaded {
  version: string;
}

/** What a continue is given: the transcript (a selection of it), and where it came from. */
export interface ContinueRequest {
  transcript: Transcript<Common>;
  /** The source: a stored session, or a document (its form and id). Always given. */
  source: Origin;
  target: HarnessId;
  /** The working directory for a session that names none. */
  defaultCwd?: string | undefined;
  /** Write under this directory instead of the harness's real store. */
  root?: string | undefined;
  /** The target's surface, when it has several (agy: `cli`, the default, or `desktop`). */
  surface?: string | undefined;
}

/** What a backend's answers report as refreshed: it has no local stores to skip. */
const NOTHING_REFRESHED: Refreshed = { skipped: [], unreadable: [] };

function versionOf(fp: Fingerprint | undefined): string {
  return fp === undefined
    ? "-"
    : fp.files.map((f) => `${f.path}\u0000${f.mtime_ms}\u0000${f.size}`).join("\u0001");
}

export class Sessions {
  private opened: SessionIndex | undefined;
  private readonly locals = new Map<HarnessId | "*", Local>();
  private readonly loaded = new Map<string, LoadedAt>();
  /** The refresh running now, and the one queued behind it for calls that came meanwhile. */
  private running: Promise<Refreshed> | undefined;
  private queued:
    | { text: boolean; from: HarnessId | undefined; promise: Promise<Refreshed> }
    | undefined;
  /** The last refresh that ended, and the last with text, for `reuseRefreshMs`. */
  private last: { at: number; from: HarnessId | undefined; result: Refreshed } | undefined;
  private lastText: { at: number; from: HarnessId | undefined; result: Refreshed } | undefined;
  /** How long the last refresh took (ms). */
  private lastTook = 0;
  /** Bumped by a write: a refresh that began before it is not kept for reuse. */
  private writes = 0;

  constructor(readonly options: SessionsOptions) {}

  /** The index, opened on first use. */
  private index(): SessionIndex {
    if (!this.opened) {
      const o = this.options;
      const options: IndexOptions = { env: o.env };
      if (o.roots) options.roots = o.roots;
      assignDefined(options, "cache", o.cache);
      if (o.warn) options.warn = o.warn;
      if (o.note) options.note = o.note;
      assignDefined(options, "textWorker", o.textWorker);
      this.opened = SessionIndex.open(options);
    }
    return this.opened;
  }

  /** The stores (every one, or `from`'s), for what needs a session's files. */
  async stores(from?: HarnessId): Promise<Local> {
    const { Local } = await import("../local.js");
    return this.localNow(Local, from);
  }

  private localNow(make: typeof Local, from?: HarnessId): Local {
    const key = from ?? "*";
    let local = this.locals.get(key);
    if (!local) {
      local = new make({
        env: this.options.env,
        ...defined({ roots: this.options.roots }),
        ...defined({ from }),
      });
      this.locals.set(key, local);
    }
    return local;
  }

  /**
   * Bring the index up to date. Refreshes run one at a time; calls that
   * arrive during one share the next (with text if any of them needs it).
   */
  refresh(
    options: { from?: HarnessId | undefined; text?: boolean } & Progressed = {},
  ): Promise<Refreshed> {
    const text = options.text === true;
    const reuse = this.options.reuseRefreshMs ?? 0;
    const last = text ? this.lastText : this.last;
    const covers =
      reuse > 0 && last !== undefined && (last.from === undefined || last.from === options.from);
    // A refresh that took long (a large machine) is reused for longer: at most a fifth of the time refreshing.
    const window = Math.max(reuse, 4 * this.lastTook);
    if (covers && Date.now() - last.at < window) return Promise.resolve(last.result);
    if (covers && this.options.refreshBehind) {
      // Started now, answered from before; a failure shows on a later call that waits.
      if (this.running === undefined) this.startRefresh(text, options).catch(() => undefined);
      return Promise.resolve(last.result);
    }
    return this.startRefresh(text, options);
  }

  private startRefresh(
    text: boolean,
    options: { from?: HarnessId | undefined } & Progressed,
  ): Promise<Refreshed> {
    const reuse = this.options.reuseRefreshMs ?? 0;
    const run = () => {
      const started = Date.now();
      const writes = this.writes;
      return this.index()
        .refresh({
          text,
          ...defined({ from: options.from }),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        })
        .then((result) => {
          // A refresh that a write overtook may have missed it: answer with it, keep it not.
          if (reuse > 0 && writes === this.writes) {
            this.last = { at: Date.now(), from: options.from, result };
            if (text) this.lastText = this.last;
            this.lastTook = Date.now() - started;
          }
          return result;
        });
    };
    if (this.running === undefined) {
      const p = run();
      this.running = p;
      const done = () => {
        if (this.running === p) this.running = undefined;
      };
      p.then(done, done);
      return p;
    }
    const q = this.queued;
    if (q && (q.text || !text) && (q.from === undefined || q.from === options.from))
      return q.promise;
    const settle = () => undefined;
    const p = this.running.then(settle, settle).then(() => {
      if (this.queued?.promise === p) this.queued = undefined;
      return this.refresh({ ...options, text });
    });
    this.queued = { text, from: options.from, promise: p };
    return p;
  }

  /** The backend answering instead of the index and stores, if any. */
  get backend(): SessionsBackend | undefined {
    return this.options.backend;
  }

  /** Sessions, newest activity first (then id, then harness), after a refresh. */
  async list(request: ListRequest = {}, progress: Progressed = {}): Promise<Listing> {
    const backend = this.options.backend;
    if (backend) return { sessions: await backend.list(request), skipped: [], unreadable: [] };
    const refreshed = await this.refresh({ from: request.from, ...progress });
    const sessions = this.index().sessions(request);
    return { sessions, skipped: refreshed.skipped, unreadable: refreshed.unreadable };
  }

  /**
   * Full-text search with the index's query parser (terms.ts) over its one
   * searchable-text projection (text.ts), best hits first. A query with
   * nothing to search fails (InvalidRequestError) before any work.
   */
  async query(
    terms: string,
    request: QueryRequest = {},
    progress: Progressed = {},
  ): Promise<Found> {
    ftsExpression(terms);
    const backend = this.options.backend;
    if (backend) {
      const { hits, total } = await backend.query(terms, request);
      return { hits, total, unreadable: 0, refreshed: NOTHING_REFRESHED };
    }
    const refreshed = await this.refresh({ from: request.from, text: true, ...progress });
    const index = this.index();
    const total = index.count(terms, request);
    const offset = request.offset ?? 0;
    const hits = offset < total ? index.query(terms, request) : [];
    const filter: SessionFilter = { ...request };
    return { hits, total, unreadable: index.unreadableText(filter), refreshed };
  }

  /** Tokens per session, model and 15-minute span of the messages the filter selects. */
  async usage(filter: SessionFilter = {}, progress: Progressed = {}): Promise<Usage> {
    const backend = this.options.backend;
    if (backend)
      return {
        buckets: await backend.usageBuckets(filter),
        unread: 0,
        refreshed: NOTHING_REFRESHED,
      };
    const refreshed = await this.refresh({ from: filter.from, text: true, ...progress });
    const index = this.index();
    return { buckets: index.usageBuckets(filter), unread: index.unreadCount(filter), refreshed };
  }

  /**
   * Session ids with their titles, newest first, as of the last refresh:
   * no store is read (shell completion answers from this).
   */
  ids(from?: HarnessId): IndexedId[] {
    return this.index().ids(from);
  }

  /**
   * Is `id` (exactly) a session of `harness` as of the last refresh, in the
   * backend when there is one? A door that takes ids from URLs asks this
   * before it loads anything.
   */
  async has(harness: HarnessId, id: string): Promise<boolean> {
    const ids = this.options.backend
      ? await this.options.backend.ids(harness)
      : this.index().ids(harness);
    return ids.some((e) => e.id === id);
  }

  /** Each session's usage totals (sessions by last activity). */
  async sessionUsage(filter: SessionFilter = {}): Promise<SessionUsage[]> {
    await this.refresh({ from: filter.from, text: true });
    return this.index().usage(filter);
  }

  /** An exact id, else a unique prefix of one, across the stores or in `from`'s. */
  async resolve(ref: string, from?: HarnessId): Promise<Located> {
    if (this.options.backend) return this.options.backend.resolve(ref, from);
    return (await this.stores(from)).resolve(ref);
  }

  /** The session a copy was made from, when `continue` wrote it. */
  async lineage(located: Located): Promise<Origin | undefined> {
    if (this.options.backend) return undefined;
    return (await this.stores()).lineage(located);
  }

  /** The current fingerprint of one session as a string; `-` when it is gone. */
  async version(located: Located): Promise<string> {
    if (this.options.backend) return "-";
    const local = await this.stores();
    try {
      return versionOf(local.store(located.harness).fingerprint(located.id));
    } catch {
      return "-";
    }
  }

  /** Load as Common; a long-lived door reuses its last loads while the files are unchanged. */
  async load(located: Located): Promise<LoadedAt> {
    if (this.options.backend)
      return { ...(await this.options.backend.load(located)), version: "-" };
    const local = await this.stores();
    const key = `${located.harness}/${located.id}`;
    const version = await this.version(located);
    const hit = this.loaded.get(key);
    if (hit && hit.version === version && version !== "-") {
      this.loaded.delete(key); // most recently used last
      this.loaded.set(key, hit);
      return hit;
    }
    const loaded: LoadedAt = { ...local.load(located), version };
    const keep = this.options.keepLoaded ?? 0;
    this.loaded.delete(key);
    if (keep > 0) this.loaded.set(key, loaded);
    while (this.loaded.size > keep) {
      const oldest = this.loaded.keys().next().value;
      if (oldest === undefined) break;
      this.loaded.delete(oldest);
    }
    return loaded;
  }

  /**
   * Write a copy into `target`'s store (see `continueInto`). The source is
   * required: the copy's id and its lineage derive from it, so the same
   * session continued from any door gets the same copy.
   */
  async continue(request: ContinueRequest): Promise<Continued> {
    this.forgetRefresh();
    const { continueInto } = await import("../local.js");
    return continueInto(request.transcript, request.target, {
      env: this.options.env,
      source: request.source,
      ...defined({ defaultCwd: request.defaultCwd }),
      ...defined({ root: request.root }),
      ...defined({ surface: request.surface }),
    });
  }

  /** Delete a session's files from its store; returns the paths removed. */
  async remove(located: Located): Promise<string[]> {
    if (this.options.backend)
      throw new UnsupportedError(undefined, "sessions in the archive are not deleted from here");
    this.forgetRefresh();
    return (await this.stores()).remove(located);
  }

  /** After a write through this service, the next call waits for a refresh that sees it. */
  private forgetRefresh(): void {
    this.writes++;
    this.last = undefined;
    this.lastText = undefined;
  }

  close(): void {
    try {
      this.opened?.close();
    } catch {
      // closing is best effort
    }
    this.opened = undefined;
    this.options.backend?.close();
  }
}
