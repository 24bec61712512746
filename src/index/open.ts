/**
 * Where the index lives and how it is opened: the cache directory
 * (`--cache`, TXCRIPT_CACHE, XDG_CACHE_HOME, the platform's cache folder),
 * a WAL database with a busy timeout so several txcript processes can share
 * it, and what happens when it cannot be used. A corrupt or outdated index
 * is rebuilt; a foreign, newer, locked or unwritable one is bypassed with
 * an in-memory index. Either way the caller gets an index and one warning
 * line; never a failure. Also the text-refresh lock.
 */

import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describeCause, errnoCode } from "../errors.js";
import type { Db } from "../sqlite.js";
import { sleepSync, sqliteCode } from "../sqlite.js";
import { APPLICATION_ID, SCHEMA, SCHEMA_VERSION } from "./schema.js";

export type Env = Readonly<Record<string, string | undefined>>;

export const INDEX_FILE = "index.db";

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v : undefined;
}

/** The directory index.db lives in: TXCRIPT_CACHE, else $XDG_CACHE_HOME/txcript, else the platform's cache folder. */
export function cacheDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const explicit = nonEmpty(env.TXCRIPT_CACHE);
  if (explicit) return explicit;
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, "txcript");
  const home = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? homedir();
  if (platform === "darwin") return join(home, "Library", "Caches", "txcript");
  if (platform === "win32") {
    const local = nonEmpty(env.LOCALAPPDATA) ?? join(home, "AppData", "Local");
    return join(local, "txcript", "Cache");
  }
  return join(home, ".cache", "txcript");
}

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
  db.pragma("foreign_keys = ON");
  db.pragma("synchronous = NORMAL");
}

function create(db: Db): void {
  db.exec(SCHEMA);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

export function openMemory(): Opened {
  const db = new Database(":memory:");
  configure(db);
  create(db);
  return { db, path: undefined };
}

const SQLITE_HEADER = "SQLite format 3\u0000";

/** Does the file start as a SQLite database does (or is it empty / absent)? */
function looksLikeSqlite(path: string): boolean {
  let fd: number | undefined;
  try {
    if (statSync(path).size === 0) return true;
    fd = openSync(path, "r");
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    return buf.toString("latin1") === SQLITE_HEADER;
  } catch (error) {
    return errnoCode(error) === "ENOENT";
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

function openFile(path: string): Db {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
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
    if (version !== SCHEMA_VERSION || appId !== APPLICATION_ID) {
      // Created, or made by an older txcript: one process builds it, the others wait.
      db.transaction(() => {
        const again = pragmaNumber(db, "user_version");
        if (again === SCHEMA_VERSION) return;
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
      if (!looksLikeSqlite(path))
        throw Object.assign(new Error("not a database"), { code: "SQLITE_NOTADB" });
      const db = openFile(path);
      return { db, path };
    } catch (error) {
      if (error instanceof Bypass) return bypass(error.message);
      const code = sqliteCode(error) ?? "";
      if ((code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") && !rebuilt) {
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

export { removeIndex };

// ---------------------------------------------------------------------------
// The text-refresh lock: one process reads sessions' text at a time, so two
// `query`s (or a `query` and the MCP server) do not both read every session.

/** A lock older than this is taken over whatever its holder. */
const STALE_LOCK_MS = 10 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** Take the lock beside `dbPath`; the release function, or undefined when another live process holds it. */
export function tryLock(dbPath: string): (() => void) | undefined {
  const path = `${dbPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") return () => {};
      let holder = Number.NaN;
      let age = 0;
      try {
        holder = Number(readFileSync(path, "utf8"));
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (Number.isSafeInteger(holder) && holder > 0 && alive(holder) && age < STALE_LOCK_MS)
        return undefined;
      rmSync(path, { force: true });
    }
  }
  return undefined;
}
