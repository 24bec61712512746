/**
 * The few better-sqlite3 calls the stores need: reading a database that
 * another program may be writing, without creating or changing a single file
 * beside it; writing a fresh database file; and turning SQLite's error codes
 * into txcript's errors. Harness-agnostic: stores pass their harness id for
 * the errors and decide what the rows mean.
 *
 * Reading, in order of preference (see docs/formats/antigravity.md, "Store"):
 * 1. `file:…?mode=ro&readonly_shm=1`: sees rows still in an uncheckpointed
 *    `-wal`, takes only shared locks, and opens the `-shm` read-only, so
 *    nothing beside the database is created or written. (A plain read-only
 *    open creates `-wal`/`-shm` for a WAL database and writes read marks
 *    into the `-shm`.)
 * 2. Where that cannot open (no `-shm` and none can be used, a read-only
 *    directory), and for a WAL database without a `-wal` (which that open
 *    would create): an `immutable=1` open when no `-wal` holds frames, or
 *    else a private copy of the database and its `-wal` (or hot `-journal`)
 *    in the system temporary directory, so that the frames an immutable
 *    open would ignore are still read.
 */

import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { describeCause, ParseError, StoreError, TxcriptError } from "./errors.js";
import { SQLITE_MAGIC } from "./sniff.js";
import type { TextForm } from "./transcript.js";

export type Db = Database.Database;
/** A prepared statement of `Db` (its parameters and row). */
export type Statement<P extends unknown[] = unknown[], R = unknown> = Database.Statement<P, R>;

/** A value SQLite hands back for a column. */
export type SqlValue = string | number | bigint | Buffer | null;

/** The names of a database's tables: the one query the stores that check a schema share. */
export function tableNames(db: Db): Set<string> {
  return new Set(
    db
      .prepare<[], SqlValue>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .filter((n): n is string => typeof n === "string"),
  );
}

/** A text column's value (a BLOB read as UTF-8), else undefined. */
export function sqlText(value: SqlValue | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  return undefined;
}

/**
 * `new Database`, with URI filenames on. better-sqlite3 compiles SQLite with
 * them off and turns them on when `SQLITE_USE_URI` is "1" as its native
 * addon loads, which happens at the first open in the process. Read-only
 * opens that create nothing need URI parameters, so the variable is set for
 * the duration of the open and put back at once: importing or using txcript
 * leaves the environment as it found it. Every better-sqlite3 call in txcript
 * goes through here (a lint rule forbids importing it elsewhere), so the
 * addon always loads with URIs on; were it loaded first by someone else's
 * code (URIs off), URI opens would fail cleanly (no file named "file:…" can
 * exist) and reads would take the private-copy path (`openFallback`).
 */
function construct(path: string, options: Database.Options): Db {
  const before = process.env.SQLITE_USE_URI;
  if (before === undefined) process.env.SQLITE_USE_URI = "1";
  try {
    return new Database(path, options);
  } finally {
    if (before === undefined) delete process.env.SQLITE_USE_URI;
  }
}

/** How a database was opened for reading. */
export type ReadMode = "shared" | "immutable" | "private-copy";

export interface ReadOptions {
  /** The harness named in errors. */
  harness: TextForm;
  /** How long to keep retrying a busy (locked) database, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /** The file's header says WAL (`inspectDatabaseFile`); read from the file when not given. */
  wal?: boolean;
}

/** The extended result code of a SQLite error (`SQLITE_BUSY_RECOVERY`), if it is one. */
export function sqliteCode(error: unknown): string | undefined {
  const code =
    typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** Locks held by another connection: worth retrying. */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error) ?? "";
  return (
    code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED") || code === "SQLITE_PROTOCOL"
  );
}

/** Opens that failed for want of a writable `-shm` or directory: worth a fallback. */
function needsFallback(error: unknown): boolean {
  const code = sqliteCode(error) ?? "";
  return (
    code.startsWith("SQLITE_CANTOPEN") ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_IOERR_SHM") ||
    code === "SQLITE_IOERR_LOCK"
  );
}

/**
 * A SQLite error as one of txcript's: a file that is not a database or is
 * corrupt is a `ParseError`; anything else (busy, I/O, permissions) a
 * `StoreError`. txcript's own errors pass through unchanged.
 */
export function sqliteError(harness: TextForm, file: string, error: unknown): TxcriptError {
  if (error instanceof TxcriptError) return error;
  const code = sqliteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === "SQLITE_NOTADB")
    return new ParseError(harness, "not a SQLite database", { file, cause: error });
  if (code?.startsWith("SQLITE_CORRUPT"))
    return new ParseError(harness, `malformed database (${message})`, { file, cause: error });
  if (code?.startsWith("SQLITE_CANTOPEN"))
    return new StoreError(
      harness,
      "cannot open the database file (missing, or its folder cannot be read)",
      { file, cause: error },
    );
  if (code?.startsWith("SQLITE_READONLY"))
    return new StoreError(harness, "the database cannot be written (read-only)", {
      file,
      cause: error,
    });
  if (code?.startsWith("SQLITE_FULL"))
    return new StoreError(harness, "the disk is full", { file, cause: error });
  if (code?.startsWith("SQLITE_IOERR"))
    return new StoreError(harness, "the disk could not be read or written", { file, cause: error });
  if (code !== undefined && isBusy(error))
    return new StoreError(harness, "the database is locked by another process", {
      file,
      cause: error,
    });
  if (code === undefined)
    return new StoreError(harness, describeCause(error), { file, cause: error });
  return new StoreError(harness, `${message} (${code})`, { file, cause: error });
}

/** Block the thread for `ms` (the stores are synchronous, like better-sqlite3). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * `path` as a `file:` URI with `query`. On POSIX an absolute path's
 * components percent-encoded are the URI (SQLite decodes every `%HH`):
 * building a URL object per database cost more than reading its header on
 * a large store (bench/list). Elsewhere, pathToFileURL (drive letters,
 * backslashes), which percent-encodes `%`, `?`, `#` and spaces.
 */
export function uri(path: string, query: string): string {
  if (sep === "/" && isAbsolute(path)) {
    try {
      return `file://${path.split("/").map(encodeURIComponent).join("/")}?${query}`;
    } catch {
      // a lone surrogate (URIError): pathToFileURL replaces it
    }
  }
  return `${pathToFileURL(path).href}?${query}`;
}

/** The file's size, or -1 when there is none (or it cannot be read). */
function sizeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? -1;
  } catch {
    return -1;
  }
}

/** Called with each database `readSnapshot` opened and how: see `observeReads`. */
export type ReadObserver = (path: string, mode: ReadMode) => void;

const observers = new Set<ReadObserver>();

/**
 * Watch how this thread's reads open their databases (tests count private
 * copies through this; nothing in txcript watches). Changes no read. The
 * returned function stops watching.
 */
export function observeReads(observer: ReadObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

interface Opened {
  db: Db;
  mode: ReadMode;
  /** Removes the private copy, if any. */
  cleanup?: () => void;
}

function openShared(path: string, timeout: number): Opened {
  const db = construct(uri(path, "mode=ro&readonly_shm=1"), {
    readonly: true,
    fileMustExist: true,
    timeout,
  });
  return { db, mode: "shared" };
}

function openImmutable(path: string, timeout: number): Opened {
  const db = construct(uri(path, "immutable=1"), {
    readonly: true,
    fileMustExist: true,
    timeout,
  });
  return { db, mode: "immutable" };
}

function openFallback(path: string, timeout: number): Opened {
  const journal = sizeOf(`${path}-journal`) > 0;
  if (sizeOf(`${path}-wal`) <= 0 && !journal) {
    try {
      return openImmutable(path, timeout);
    } catch (error) {
      // URI filenames are off in this process (another module opened a
      // database before txcript did): read a private copy instead. No file,
      // no copy: a missing database (agy's optional summaries cache) fails
      // here without a temporary folder made and removed.
      if (!sqliteCode(error)?.startsWith("SQLITE_CANTOPEN") || sizeOf(path) < 0) throw error;
    }
  }
  // Frames wait in the -wal (or a hot -journal awaits rollback) and no -shm
  // can be used: SQLite recovers the set where it may write its own files.
  const dir = mkdtempSync(join(tmpdir(), "txcript-read-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, "snapshot.db");
    copyFileSync(path, copy);
    for (const suffix of ["-wal", "-journal"]) {
      if (sizeOf(path + suffix) > 0) copyFileSync(path + suffix, copy + suffix);
    }
    const db = construct(copy, { fileMustExist: true, timeout });
    return { db, mode: "private-copy", cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/**
 * Run `read` inside one read transaction on `path`, so that a writer
 * appending meanwhile cannot tear what it sees. Creates and modifies nothing
 * beside the database. Busy databases are retried until `busyTimeoutMs`,
 * then reported as a `StoreError`; SQLite errors become txcript errors
 * naming the file (`sqliteError`).
 */
export function readSnapshot<T>(
  path: string,
  read: (db: Db, mode: ReadMode) => T,
  options: ReadOptions,
): T {
  const timeout = options.busyTimeoutMs ?? 5000;
  const deadline = Date.now() + timeout;
  // A WAL database with no -wal has nothing beyond the main file, and a
  // read-only open of it would create an empty -wal: read it immutable.
  let wal = options.wal;
  if (wal === undefined) {
    const size = sizeOf(path);
    const file = size > 0 ? inspectDatabaseFile(path, size) : undefined;
    wal = file?.ok === true && file.wal;
  }
  let fallback = wal && sizeOf(`${path}-wal`) < 0;
  for (let attempt = 0; ; attempt++) {
    let opened: Opened | undefined;
    try {
      const remaining = Math.max(0, deadline - Date.now());
      opened = fallback ? openFallback(path, remaining) : openShared(path, remaining);
      const { db, mode } = opened;
      for (const observer of observers) observer(path, mode);
      // BEGIN/COMMIT by hand: db.transaction() prepares four statements per connection.
      db.exec("BEGIN");
      const result = read(db, mode);
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (!fallback && needsFallback(error)) {
        fallback = true;
        continue;
      }
      if (isBusy(error) && Date.now() < deadline) {
        sleepSync(Math.min(10 * 2 ** Math.min(attempt, 5), 200));
        continue;
      }
      throw sqliteError(options.harness, path, error);
    } finally {
      opened?.db.close();
      opened?.cleanup?.();
    }
  }
}

/** Create a new database file at `path` (which must not exist yet) for writing. */
export function createDatabase(path: string): Db {
  return construct(path, { timeout: 0 });
}

/** Open an existing database for writing, waiting up to `timeout` ms for locks. */
export function openForWriting(path: string, timeout: number): Db {
  return construct(path, { fileMustExist: true, timeout });
}

/** Open (or create) a database for reading and writing, waiting up to `timeout` ms for locks. */
export function openOrCreate(path: string, timeout: number): Db {
  return construct(path, { timeout });
}

/** A private database in memory. */
export function openInMemory(): Db {
  return construct(":memory:", {});
}

const MAGIC = Buffer.from(SQLITE_MAGIC);

/** The first bytes of `header` are SQLite's magic string. */
export function hasSqliteMagic(header: Uint8Array): boolean {
  return header.length >= MAGIC.length && MAGIC.equals(header.subarray(0, MAGIC.length));
}

/** What the 100-byte header says about a database file. */
export type DatabaseFile =
  | { ok: true /** Write-ahead logging (file format versions 2). */; wal: boolean }
  | { ok: false /** Why it cannot be a whole SQLite database. */; problem: string };

/**
 * Judge the file at `path` (of `size` bytes) from its header alone: empty,
 * foreign and truncated files are caught before SQLite half-reads them (a
 * truncated file opens, and its missing pages read as corruption later, or
 * never). See https://www.sqlite.org/fileformat.html#the_database_header.
 */
export function inspectDatabaseFile(path: string, size: number): DatabaseFile {
  const fail = (problem: string): DatabaseFile => ({ ok: false, problem });
  if (size === 0) return fail("empty file");
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (!hasSqliteMagic(header.subarray(0, read))) return fail("not a SQLite database");
  if (read < 100) return fail(`truncated: ${size} bytes, shorter than the 100-byte SQLite header`);
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0)
    return fail(`not a SQLite database (page size ${rawPageSize})`);
  // The in-header page count is valid only when the change counter (24)
  // equals the version-valid-for number (92). While a writer commits or
  // checkpoints (a -journal or -wal is present), page 1 may be written
  // before the pages it counts: no verdict then.
  const pages = header.readUInt32BE(28);
  if (
    pages > 0 &&
    header.readUInt32BE(24) === header.readUInt32BE(92) &&
    size < pages * pageSize &&
    sizeOf(`${path}-wal`) <= 0 &&
    sizeOf(`${path}-journal`) <= 0
  )
    return fail(`truncated: ${size} bytes of the ${pages * pageSize} its header declares`);
  if (size < pageSize) return fail(`truncated: ${size} bytes, less than one ${pageSize}-byte page`);
  return { ok: true, wal: header[18] === 2 && header[19] === 2 };
}

/** `name` as a quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
