/**
 * The persistent index over every store: one row per file discovery reads
 * (a session with its listing, a skipped file, or nothing to list), the
 * searchable text of each session's messages under FTS5, and each
 * session's usage totals. Refreshed by fingerprint: a store's `scan()`
 * stats its files without opening them, and only new or changed files are
 * discovered again (`discover({ paths })`); only sessions whose files
 * changed are loaded again for their text. The stores are only ever read.
 */

import { availableParallelism } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import type { Env } from "../env.js";
import { describeCause, TxcriptError } from "../errors.js";
import { probeStore } from "../harness/probes.js";
import { assignDefined, defined } from "../json.js";
import type { Listing, Local, SkippedIn } from "../local.js";
import type { Db, Statement } from "../sqlite.js";
import { timestampMillisOrZero } from "../time.js";
import {
  type Discovered,
  type Discovery,
  type HarnessId,
  type Skipped,
  STORED_HARNESS_IDS,
  type StoredHarnessId,
  type StoreOptions,
  type StoreProbe,
} from "../transcript.js";
import { readAhead, releasePools, workerModule } from "../workers.js";
import { buildNote } from "./build-note.js";
import {
  cacheDir,
  IndexWriteFailed,
  indexWrite,
  isCorrupt,
  type Opened,
  openIndexDb,
  openMemory,
  removeIndex,
  tryLock,
} from "./open.js";
import type {
  Filter,
  Hit,
  IndexedId,
  ListRequest,
  QueryRequest,
  Reader,
  SessionUsage,
  UsageBucket,
  UsageFilter,
} from "./read.js";
import * as read from "./read.js";
import { isTextReads, readText, type TextRead, type TextTodo } from "./read-text.js";
import {
  batchesByBytes,
  oversized,
  TEXT_SHARE_RSS,
  TEXT_WORKER_FROM,
  TEXT_WORKER_HEAP,
  TEXT_WORKER_RSS,
} from "./text-batches.js";
import type { TextJob } from "./text-worker.js";
import { readInGroups, textWriter } from "./write-text.js";

export {
  type Filter,
  type Hit,
  type IndexedId,
  type ListRequest,
  type QueryRequest,
  type SessionUsage,
  USAGE_BUCKET_MS,
  type UsageBucket,
  type UsageFilter,
} from "./read.js";

export interface IndexOptions {
  env: Env;
  /** Store root overrides per harness (the `--<harness>-root` flags). */
  roots?: Partial<Record<HarnessId, string>>;
  /** The cache directory; `null` keeps the index in memory (`--no-cache`); default: `cacheDir(env)`. */
  cache?: string | null;
  /** Where one-line warnings go (a damaged index rebuilt, a locked one bypassed). Default: dropped. */
  warn?: (line: string) => void;
  /** One line before a long text build (build-note.ts) says what it does. Default: dropped. */
  note?: (line: string) => void;
  /**
   * Read sessions' text on a worker thread while the index writes: `true`
   * always, `false` never; default, from `TEXT_WORKER_FROM` batches up on a
   * machine with more than one core.
   */
  textWorker?: boolean;
}

export interface RefreshOptions {
  from?: HarnessId;
  /** Also read the text (and usage) of sessions not indexed yet: what `query` and `usage` need. */
  text?: boolean;
  onProgress?: (what: string, done: number, total: number) => void;
}

export interface Refreshed {
  /** Files discovery passed over, and why. */
  skipped: SkippedIn[];
  /** Stores that failed as a whole, by root. */
  unreadable: SkippedIn[];
}

/** A batch for the calling thread: its sessions are read one by one as they are written. */
const READ_WHILE_WRITING = "read while writing";
/** A text worker silent this long on one batch is given up (the calling thread does the rest). */
const TEXT_STALL_MS = 120_000;
/** The text worker module, beside this one (`.ts` when run from source). */
const TEXT_WORKER = workerModule("text-worker", import.meta.url);
/** How long a text refresh waits for another process's before going on without it. */
const LOCK_WAIT_MS = 60_000;

/** An entries row (the tables are txcript's own, checked by schema version at open). */
interface EntryRow {
  rowid: number;
  path: string;
  fingerprint: string;
}

/** The index. Open with `SessionIndex.open`; close when done. */
export class SessionIndex {
  private opened: Opened;
  /** The full stores, loaded only when a session must be read (see `stores()`). */
  private local: Local | undefined;
  private readonly probes = new Map<HarnessId, StoreProbe>();
  private readonly warn: (line: string) => void;
  private readonly dir: string | null;
  private storeIdCache = new Map<HarnessId, number>();
  /** The stores rows by harness and roots, read once (undefined: not yet, or the database changed). */
  private storeRows: Map<string, number> | undefined;

  private constructor(
    private readonly options: IndexOptions,
    dir: string | null,
  ) {
    this.warn = options.warn ?? (() => {});
    this.dir = dir;
    this.opened = openIndexDb(dir, this.warn);
  }

  static open(options: IndexOptions): SessionIndex {
    const dir = options.cache === undefined ? cacheDir(options.env) : options.cache;
    return new SessionIndex(options, dir);
  }

  /** The index file, or undefined when the index is in memory. */
  get path(): string | undefined {
    return this.opened.path;
  }

  private get db(): Db {
    return this.opened.db;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** After a damaged database was found: remove it and reopen; false when there is nothing to recover. */
  private recover(error: unknown): boolean {
    const path = this.opened.path;
    if (!isCorrupt(error) || path === undefined) return false;
    this.warn(`the index ${path} was damaged (${describeCause(error)}); rebuilding it`);
    this.close();
    try {
      removeIndex(path);
    } catch {
      // openIndexDb says what is wrong
    }
    this.storeIdCache.clear();
    this.storeRows = undefined;
    this.opened = openIndexDb(this.dir, this.warn);
    return true;
  }

  /**
   * After the index file could not be written: go on in memory (one
   * warning), so this refresh answers from the stores in full rather than
   * from whatever the file held when the disk filled. False when already in
   * memory.
   */
  private toMemory(error: IndexWriteFailed): boolean {
    const path = this.opened.path;
    if (path === undefined) return false;
    this.warn(
      `cannot write the index ${path} (${describeCause(error.failure)}); reading the stores directly this time`,
    );
    try {
      this.close();
    } catch {
      // a failing disk may fail the close's checkpoint too; the file stays as it was
    }
    this.storeIdCache.clear();
    this.storeRows = undefined;
    this.opened = openMemory();
    return true;
  }

  /** Run `fn`; a database found damaged on the way is removed, rebuilt and `fn` run once more. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (!this.recover(error)) throw error;
      return fn();
    }
  }

  private harnessIds(from?: HarnessId): StoredHarnessId[] {
    return STORED_HARNESS_IDS.filter((id) => from === undefined || id === from);
  }

  /** The store's probe: what a refresh checks before reading anything. */
  private probe(harness: StoredHarnessId): StoreProbe {
    let probe = this.probes.get(harness);
    if (!probe) {
      const options: StoreOptions = { env: this.options.env };
      const root = this.options.roots?.[harness];
      assignDefined(options, "root", root);
      probe = probeStore(harness, options);
      this.probes.set(harness, probe);
    }
    return probe;
  }

  /**
   * The full stores, to discover or load sessions. Imported on first use:
   * the harnesses' parsers and codecs are most of what txcript loads, and a
   * refresh that finds nothing changed needs none of them.
   */
  private async stores(): Promise<Local> {
    if (!this.local) {
      const { Local } = await import("../local.js");
      this.local = new Local({
        env: this.options.env,
        ...defined({ roots: this.options.roots }),
      });
    }
    return this.local;
  }

  /** The stores row of a harness as this index is configured (its roots), made on first use. */
  private storeId(harness: StoredHarnessId): number {
    const cached = this.storeIdCache.get(harness);
    if (cached !== undefined) return cached;
    const roots = JSON.stringify(this.probe(harness).roots);
    if (this.storeRows === undefined) {
      // Every stores row in one read: a refresh asks for each harness's in turn.
      this.storeRows = new Map(
        this.db
          .prepare<[], { id: number; harness: string; roots: string }>(
            "SELECT id, harness, roots FROM stores",
          )
          .all()
          .map((r) => [`${r.harness}\u0000${r.roots}`, r.id]),
      );
    }
    const known = this.storeRows.get(`${harness}\u0000${roots}`);
    if (known !== undefined) {
      this.storeIdCache.set(harness, known);
      return known;
    }
    const find = () =>
      this.db
        .prepare<[string, string], number>("SELECT id FROM stores WHERE harness = ? AND roots = ?")
        .pluck()
        .get(harness, roots);
    let id = find();
    if (id === undefined) {
      indexWrite(() =>
        this.db
          .prepare("INSERT OR IGNORE INTO stores (harness, roots) VALUES (?, ?)")
          .run(harness, roots),
      );
      id = find();
    }
    if (id === undefined) throw new TxcriptError(harness, "the index could not record this store");
    this.storeIdCache.set(harness, id);
    return id;
  }

  private storeIds(from?: HarnessId): string {
    return JSON.stringify(this.harnessIds(from).map((h) => this.storeId(h)));
  }

  // -- refresh ---------------------------------------------------------------

  /**
   * Bring the index up to date with the stores; returns what discovery
   * skipped, and the stores that could not be read at all (their sessions
   * stay as last indexed).
   */
  async refresh(options: RefreshOptions = {}): Promise<Refreshed> {
    const run = async (): Promise<Refreshed> => {
      const unreadable: SkippedIn[] = [];
      // Prepared once for every store (a warm refresh of 17 stores prepared it 17 times).
      const entriesOf = this.db.prepare<[number], EntryRow>(
        "SELECT rowid, path, fingerprint FROM entries WHERE store = ?",
      );
      for (const h of this.harnessIds(options.from)) {
        try {
          await this.refreshRows(h, options, entriesOf);
          // A store's discovery threads (agy's) let go, not left idling beside what follows.
          await releasePools();
        } catch (cause) {
          if (isCorrupt(cause) || cause instanceof IndexWriteFailed) throw cause;
          // One broken store (HOME a file, an unreadable root) costs only its own sessions.
          const reason = cause instanceof Error ? cause.message : String(cause);
          unreadable.push({ harness: h, path: this.probe(h).roots[0] ?? h, reason });
        }
      }
      if (options.text) await this.refreshText(options);
      return { skipped: this.skipped(options.from), unreadable };
    };
    try {
      return await run();
    } catch (error) {
      if (error instanceof IndexWriteFailed) {
        if (!this.toMemory(error)) throw error.failure;
      } else if (!this.recover(error)) throw error;
      return await run();
    }
  }

  private async refreshRows(
    harness: StoredHarnessId,
    options: RefreshOptions,
    entriesOf: Statement<[number], EntryRow>,
  ): Promise<void> {
    const probe = this.probe(harness);
    const store = async () => (await this.stores()).store(harness);
    const storeId = this.storeId(harness);
    const known = new Map(entriesOf.all(storeId).map((r) => [r.path, r]));
    const progress = options.onProgress
      ? {
          onProgress: (done: number, total: number) =>
            options.onProgress?.(`scanning ${harness}`, done, total),
        }
      : {};
    // path -> fingerprint key of every file that needs writing, and the files that are gone.
    const write = new Map<string, string>();
    let gone: EntryRow[];
    let discovery: Discovery | undefined;
    let stamp: string | undefined;
    if (probe.scan) {
      const scanned = new Map<string, string>();
      const previous = read.previousScan(known);
      for (const fp of probe.scan(previous)) {
        const main = fp.files[0];
        if (main) scanned.set(main.path, previous.keyOf(fp.files));
      }
      for (const [path, key] of scanned)
        if (known.get(path)?.fingerprint !== key) write.set(path, key);
      gone = [...known.values()].filter((r) => !scanned.has(r.path));
      if (write.size > 0)
        discovery = await (await store()).discover({ ...progress, paths: new Set(write.keys()) });
    } else {
      // No cheap scan: discovery is the scan, unless the store's stamp says nothing changed.
      // Taken before discovery, so that a change made while it runs shows at the next refresh.
      stamp = probe.stamp?.();
      if (stamp !== undefined) {
        const last = this.db.prepare("SELECT stamp FROM stores WHERE id = ?").pluck().get(storeId);
        if (last === stamp) return;
      }
      const found = await (await store()).discover(progress);
      discovery = found;
      const seen = new Set<string>();
      for (const d of found.sessions) {
        // Several sessions may share one file (OpenCode's database): keyed by file and id.
        const entry = sharedKey(d);
        seen.add(entry);
        const key = read.fingerprintKey(d.fingerprint.files);
        if (known.get(entry)?.fingerprint !== key) write.set(entry, key);
      }
      for (const s of found.skipped) {
        seen.add(s.path);
        write.set(s.path, "");
      }
      gone = [...known.values()].filter((r) => !seen.has(r.path));
    }
    if (write.size === 0 && gone.length === 0 && !discovery) return;
    const setStamp = this.db.prepare("UPDATE stores SET stamp = ? WHERE id = ?");
    const sessions = new Map(
      (discovery?.sessions ?? []).map((d) => [probe.scan ? d.path : sharedKey(d), d]),
    );
    const skipped = new Map((discovery?.skipped ?? []).map((s) => [s.path, s]));
    const outside: Skipped[] = (discovery?.skipped ?? []).filter((s) => !write.has(s.path));
    const db = this.db;
    const dropChunks = db.prepare("DELETE FROM chunks WHERE entry = ?");
    const dropUsage = db.prepare("DELETE FROM usage WHERE entry = ?");
    const dropEntry = db.prepare("DELETE FROM entries WHERE rowid = ? AND fingerprint = ?");
    const existing = db
      .prepare<[number, string], number>("SELECT rowid FROM entries WHERE store = ? AND path = ?")
      .pluck();
    const insert = db.prepare(
      `INSERT INTO entries (store, path, fingerprint, state, reason, harness, id, created_ms, updated_ms, cwd, discovered)
       VALUES (@store, @path, @fingerprint, @state, @reason, @harness, @id, @created_ms, @updated_ms, @cwd, @discovered)`,
    );
    const update = db.prepare(
      `UPDATE entries SET fingerprint = @fingerprint, state = @state, reason = @reason, harness = @harness,
         id = @id, created_ms = @created_ms, updated_ms = @updated_ms, cwd = @cwd, discovered = @discovered,
         text_fp = NULL, text_error = NULL, input_tokens = NULL, output_tokens = NULL,
         cache_read_input_tokens = NULL, cache_creation_input_tokens = NULL, model = NULL, models = NULL
       WHERE rowid = @rowid`,
    );
    const writeRows = db.transaction(() => {
      for (const r of gone) {
        dropChunks.run(r.rowid);
        dropUsage.run(r.rowid);
        dropEntry.run(r.rowid, r.fingerprint);
      }
      for (const [path, fingerprint] of write) {
        const d = sessions.get(path);
        const s = skipped.get(path);
        const row = {
          store: storeId,
          path,
          fingerprint,
          state: d ? "session" : s ? "skipped" : "none",
          reason: s?.reason ?? null,
          harness: d ? harness : null,
          id: d?.id ?? null,
          created_ms: d ? timestampMillisOrZero(d.meta.timestamp) : null,
          updated_ms: d ? timestampMillisOrZero(d.updated) : null,
          cwd: d?.meta.cwd ?? null,
          discovered: d ? JSON.stringify(d) : null,
        };
        const rowid = existing.get(storeId, path);
        if (rowid === undefined) insert.run(row);
        else {
          dropChunks.run(rowid);
          dropUsage.run(rowid);
          update.run({ ...row, rowid });
        }
      }
      if (discovery)
        db.prepare("UPDATE stores SET skipped = ? WHERE id = ?").run(
          JSON.stringify(outside),
          storeId,
        );
      setStamp.run(stamp ?? null, storeId);
    });
    indexWrite(() => writeRows.immediate());
  }

  /** Whether a text refresh of `batches` batches reads them on a worker thread. */
  private textOnWorker(batches: number): boolean {
    const asked = this.options.textWorker;
    if (asked !== undefined) return asked;
    return batches >= TEXT_WORKER_FROM && availableParallelism() > 1;
  }

  private async refreshText(options: RefreshOptions): Promise<void> {
    const ids = this.storeIds(options.from);
    const pendingSql = `SELECT rowid, harness, id, fingerprint, updated_ms,
        (SELECT coalesce(sum(value ->> 'size'), 0) FROM json_each(fingerprint)) AS bytes FROM entries
      WHERE state = 'session' AND store IN (SELECT value FROM json_each(?))
        AND (text_fp IS NULL OR text_fp <> fingerprint)`;
    const pending = () => this.db.prepare<[string], TextTodo>(pendingSql).all(ids);
    let todo = pending();
    if (todo.length === 0) return;
    let release: (() => void) | undefined = () => {};
    if (this.opened.path !== undefined) {
      const waitUntil = Date.now() + LOCK_WAIT_MS;
      release = tryLock(this.opened.path);
      while (release === undefined && Date.now() < waitUntil) {
        // Waiting yields: an MCP server stays responsive while another process indexes.
        await delay(200);
        release = tryLock(this.opened.path);
      }
      if (release === undefined) {
        this.warn(
          "another txcript process is indexing the sessions' text; results may miss sessions it has not reached yet",
        );
        return;
      }
      todo = pending(); // the other process may have done them
    }
    const note = buildNote(todo.length, this.opened.path);
    if (note !== undefined) this.options.note?.(note);
    try {
      const local = await this.stores();
      const db = this.db;
      const writeText = textWriter(db);
      const batches = batchesByBytes(todo);
      const reading = readAhead<TextTodo[], TextRead[] | typeof READ_WHILE_WRITING>({
        batches,
        // Read as it is written, a few sessions at a time (write-text.ts):
        // the calling thread's heap then holds their transcripts and chunks,
        // which die young, rather than a batch's, which outlive a scavenge
        // and pile up in the old generation until a full collection.
        here: () => READ_WHILE_WRITING,
        module: TEXT_WORKER,
        job: (rows): TextJob => ({
          env: this.options.env,
          ...defined({ roots: this.options.roots }),
          todo: rows,
        }),
        accept: (value, rows): value is TextRead[] => isTextReads(value, rows.length),
        worker: this.textOnWorker(batches.length),
        stallMs: TEXT_STALL_MS,
        onFailure: (why) =>
          this.warn(`the text worker thread failed (${why}); indexing on the main thread`),
        // Peak RSS stays near the budget whatever the store's size.
        keep: () => process.memoryUsage.rss() < TEXT_WORKER_RSS,
        onWorker: (rows) => !oversized(rows),
        resourceLimits: TEXT_WORKER_HEAP,
        share: process.memoryUsage.rss() < TEXT_SHARE_RSS, // the calling thread reads too
      });
      let indexed = 0;
      for await (const { batch: rows, result: reads } of reading) {
        options.onProgress?.("indexing text", indexed, todo.length);
        indexed += rows.length;
        const readOf =
          reads === READ_WHILE_WRITING
            ? readInGroups(rows, (row) => readText(local, row))
            : (_: TextTodo, i: number): TextRead => reads[i] ?? { error: "not read" };
        const writeBatch = db.transaction(() => writeText(rows, readOf));
        indexWrite(() => writeBatch.immediate());
      }
      options.onProgress?.("indexing text", todo.length, todo.length);
    } finally {
      release();
    }
  }

  // -- reading (read.ts) -------------------------------------------------------

  private reader(): Reader {
    return {
      db: () => this.db,
      env: this.options.env,
      storeIds: (from) => this.storeIds(from),
      guard: (fn) => this.guard(fn),
    };
  }

  /** What discovery skipped, as of the last refresh. */
  skipped(from?: HarnessId): SkippedIn[] {
    return read.skipped(this.reader(), from);
  }

  /** Sessions, newest activity first (then id, then harness), as of the last refresh. */
  list(request: ListRequest = {}): Listing {
    return read.list(this.reader(), request);
  }

  /** The sessions of `list` without its skipped files (which a refresh has just given). */
  sessions(request: ListRequest = {}): Discovered[] {
    return read.sessions(this.reader(), request);
  }

  /** Session ids (newest first) for completion and the picker. */
  ids(from?: HarnessId): IndexedId[] {
    return read.ids(this.reader(), from);
  }

  /** How many hits `query` has in all, before limit and offset. */
  count(terms: string, request: QueryRequest = {}): number {
    return read.count(this.reader(), terms, request);
  }

  /** Sessions matching `filter` whose text could not be read at the last text refresh. */
  unreadableText(filter: Filter = {}): number {
    return read.unreadableText(this.reader(), filter);
  }

  /** Full-text search, best hits first. Throws InvalidRequestError (one line) for a query with nothing to search. */
  query(terms: string, request: QueryRequest = {}): Hit[] {
    return read.query(this.reader(), terms, request);
  }

  /** Each session's usage totals (refresh with `text: true` first). */
  usage(filter: Filter = {}): SessionUsage[] {
    return read.usage(this.reader(), filter);
  }

  /** Tokens per session, model and 15-minute span of the messages the filter selects. */
  usageBuckets(filter: UsageFilter = {}): UsageBucket[] {
    return read.usageBuckets(this.reader(), filter);
  }

  /** How many of the sessions the filter selects could not be read for their text (and usage). */
  unreadCount(filter: UsageFilter = {}): number {
    return read.unreadCount(this.reader(), filter);
  }
}

/** The entry key of a session from a store without `scan()`: its file and id. */
const sharedKey = (d: Discovered): string => `${d.path}\u0000${d.id}`;

export type { Listing };
