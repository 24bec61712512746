/**
 * Where the index lives and how it is opened: the cache directory
 * (`--cache`, TXCRIPT_CACHE, XDG_CACHE_HOME, the platform's cache folder),
 * a WAL database with a busy timeout so several txcript processes can share
 * it, and what happens when it cannot be used. A corrupt or outdated index
 * is rebuilt; a foreign, newer, locked or unwritable one is bypassed with
 * an in-memory index. Either way the caller gets an index and one warning
 * line; never a failure. Also the text-refresh lock.
 */

import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { cacheDir } from "../env.js";
import { describeCause, errnoCode } from "../errors.js";
import { tryLock as tryFileLock } from "../fsx.js";
import type { Db } from "../sqlite.js";
import { hasSqliteMagic, openInMemory, openOrCreate, sleepSync, sqliteCode } from "../sqlite.js";
import {
  APPLICATION_ID,
  addTextFunction,
  SCHEMA,
  SCHEMA_OBJECTS,
  SCHEMA_VERSION,
} from "./schema.js";

export { cacheDir };

export const INDEX_FILE = "index.db";

export interface Opened {
  db: Db;
  /** The file, or undefined for an in-memory index. */
  path: string | undefined;
}

const BUSY_TIMEOUT_MS = 5000;
/**
 * How long opening keeps retrying a busy index before reading the stores
 * directly: past SQLite's own busy timeout, since a loaded machine can keep
 * another process's first build going longer than that.
 */
const BUSY_RETRY_MS = 20_000;

function configure(db: Db): void {
  addTextFunction(db);
  db.pragma("foreign_keys = ON");
  db.pragma("synchronous = NORMAL");
}

function create(db: Db): void {
  db.exec(SCHEMA);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

export function openMemory(): Opened {
  const db = openInMemory();
  configure(db);
  create(db);
  return { db, path: undefined };
}

/** Whose file is at `path`, judged from its header alone. */
type Owner = "none" | "txcript" | "sqlite" | "foreign";

/**
 * "none" when absent or empty, "txcript" when its header carries the
 * index's application id, "sqlite" for another SQLite database (or one
 * whose header is cut short), "foreign" for a file that is no SQLite
 * database at all: another program's, never txcript's, so never removed.
 */
function ownerOf(path: string): Owner {
  let fd: number | undefined;
  try {
    if (statSync(path).size === 0) return "none";
    fd = openSync(path, "r");
    const header = Buffer.alloc(100);
    const read = readSync(fd, header, 0, 100, 0);
    if (!hasSqliteMagic(header.subarray(0, read))) return "foreign";
    if (read < 72) return "sqlite";
    return header.readUInt32BE(68) === APPLICATION_ID ? "txcript" : "sqlite";
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return "none";
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function removeIndex(path: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
}

class Bypass extends Error {}

/** An integer pragma (`user_version`, `application_id`); 0 if SQLite answers otherwise. */
function pragmaNumber(db: Db, name: string): number {
  const value: unknown = db.pragma(name, { simple: true });
  return typeof value === "number" ? value : 0;
}

/** The schema's tables, indexes and triggers that `db` lacks. */
function missingObjects(db: Db): string[] {
  const present = new Set(
    db
      .prepare<[], string>("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
      .pluck()
      .all(),
  );
  return SCHEMA_OBJECTS.filter((name) => !present.has(name));
}

function openFile(path: string, warn: (line: string) => void): Db {
  const db = openOrCreate(path, BUSY_TIMEOUT_MS);
  try {
    configure(db);
    const appId = pragmaNumber(db, "application_id");
    const version = pragmaNumber(db, "user_version");
    const tables = db.prepare<[], number>("SELECT count(*) FROM sqlite_schema").pluck().get() ?? 0;
    if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0))
      throw new Bypass(`${path} is not a txcript index (another program's database)`);
    if (version > SCHEMA_VERSION)
      throw new Bypass(
        `${path} was made by a newer txcript (index schema ${version}, this one reads ${SCHEMA_VERSION})`,
      );
    if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
    // A current stamp over a schema with tables missing (a crash mid-build
    // by an older txcript, a hand edit) is damage: rebuilt like any other.
    const current = version === SCHEMA_VERSION && appId === APPLICATION_ID;
    const missing = current ? missingObjects(db) : [];
    if (missing.length > 0)
      warn(`the index ${path} was damaged (no ${missing.join(", ")}); rebuilding it`);
    if (!current || missing.length > 0) {
      // Created, damaged, or made by an older txcript: one process builds it, the others wait.
      db.transaction(() => {
        const again = pragmaNumber(db, "user_version");
        if (again === SCHEMA_VERSION && missingObjects(db).length === 0) return;
        const old = db
          .prepare<[], { type: string; name: string }>(
            "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view', 'trigger')",
          )
          .all();
        db.pragma("foreign_keys = OFF");
        for (const { type, name } of old) {
          if (type === "table" && name.startsWith("text_")) continue; // FTS5 shadow tables go with theirs
          db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${name.replaceAll('"', '""')}"`);
        }
        db.pragma("foreign_keys = ON");
        create(db);
      }).immediate();
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Open the index in `dir` (or in memory when `dir` is null). Never
 * throws: whatever goes wrong is one line passed to `warn`, and the
 * index comes back in memory.
 */
export function openIndexDb(dir: string | null, warn: (line: string) => void): Opened {
  if (dir === null) return openMemory();
  const path = join(dir, INDEX_FILE);
  const bypass = (why: string): Opened => {
    warn(`${why}; reading the stores directly this time`);
    return openMemory();
  };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return bypass(`cannot create the index folder ${dir}: ${describeCause(error)}`);
  }
  const busyUntil = Date.now() + BUSY_RETRY_MS;
  let rebuilt = false;
  for (;;) {
    try {
      const owner = ownerOf(path);
      if (owner === "foreign")
        return bypass(`${path} is not a txcript index (another program's file, left alone)`);
      const db = openFile(path, warn);
      return { db, path };
    } catch (error) {
      if (error instanceof Bypass) return bypass(error.message);
      const code = sqliteCode(error) ?? "";
      if ((code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") && !rebuilt) {
        // Only txcript's own file is removed: a damaged database that is not is left alone.
        if (ownerOf(path) !== "txcript")
          return bypass(`${path} is not a readable txcript index (left alone)`);
        rebuilt = true;
        warn(`the index ${path} was damaged (${describeCause(error)}); rebuilding it`);
        try {
          removeIndex(path);
        } catch (cause) {
          return bypass(`cannot remove the damaged index ${path}: ${describeCause(cause)}`);
        }
        continue;
      }
      if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
        // Another process is creating or migrating the index; some of those
        // steps answer BUSY without SQLite's busy handler. Wait for it.
        if (Date.now() < busyUntil) {
          sleepSync(50 + Math.floor(Math.random() * 50));
          continue;
        }
        return bypass(`the index ${path} is locked by another process`);
      }
      return bypass(`cannot open the index ${path}: ${describeCause(error)}`);
    }
  }
}

/** Is `error` SQLite saying the database file is damaged? */
export function isCorrupt(error: unknown): boolean {
  const code = sqliteCode(error) ?? "";
  return code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB";
}

/**
 * Is `error` SQLite failing to write the index file: the disk full, an I/O
 * error (a file-size limit, a failing device), the file or folder made
 * read-only?
 */
function isWriteFailure(error: unknown): boolean {
  const code = sqliteCode(error) ?? "";
  return (
    code === "SQLITE_FULL" ||
    code === "SQLITE_PERM" ||
    code.startsWith("SQLITE_IOERR") ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_CANTOPEN")
  );
}

export { removeIndex };

/**
 * The index file could not be written (a full disk, an I/O error, a file
 * made read-only): thrown by the index's own writes only, so a refresh can
 * tell it from a store that cannot be read, and answer from the stores.
 */
export class IndexWriteFailed extends Error {
  constructor(readonly failure: unknown) {
    super(describeCause(failure));
  }
}

/** Run one of the index's own writes; a write failure becomes `IndexWriteFailed`. */
export function indexWrite<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isWriteFailure(error)) throw new IndexWriteFailed(error);
    throw error;
  }
}

// ---------------------------------------------------------------------------
// The text-refresh lock: one process reads sessions' text at a time, so two
// `query`s (or a `query` and the MCP server) do not both read every session.

/**
 * Take the lock beside `dbPath` (fsx's `.index.db.lock`); the release
 * function, or undefined when another live process holds it. Where no lock
 * can be made (a read-only folder), the refresh goes ahead unlocked.
 */
export function tryLock(dbPath: string): (() => void) | undefined {
  try {
    const lock = tryFileLock(dirname(dbPath), basename(dbPath));
    return "release" in lock ? lock.release : undefined;
  } catch {
    return () => {};
  }
}
