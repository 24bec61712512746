/**
 * Writing one session into a Crush project's `crush.db`: where it goes
 * (the data directory `projects.json` lists for the session's project,
 * else one txcript makes for it under the global folder), a first
 * database made as Crush's migrations leave it, and one transaction that
 * adds the session's rows and touches no other row. Registering the
 * project in `projects.json`, as Crush does on every start, follows.
 */

import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import {
  ConflictError,
  errnoCode,
  InvalidRequestError,
  StoreError,
  UnsupportedError,
} from "../../errors.js";
import { mkdirInside, writeFileAtomic } from "../../fsx.js";
import { parseBounded } from "../../json.js";
import { type Db, quoteIdentifier, type SqlValue } from "../../sqlite.js";
import { createPublished, type DatabaseOwner } from "../shared/store-sqlite.js";
import type { CrushBody } from "./body.js";
import { PROJECTS, projectDatabases } from "./probe.js";
import { CRUSH_MIGRATIONS, CRUSH_SCHEMA, CRUSH_SCHEMA_VERSION } from "./schema.js";

export const CRUSH: DatabaseOwner = { harness: "crush", name: "Crush" };
const DATABASE = "crush.db";
/** Where txcript keeps the data directories of projects Crush has not run in. */
const OWN_PROJECTS = "txcript";

/** The database a session of project `cwd` goes into, and whether `projects.json` must learn of it. */
export function targetDatabase(
  root: string,
  cwd: string | undefined,
): { database: string; register: boolean; inside?: string } {
  if (cwd === undefined)
    return { database: join(root, ".crush", DATABASE), register: false, inside: root };
  const list = projectDatabases(root);
  if (list.problem !== undefined)
    throw new StoreError("crush", `${list.problem}; txcript will not rewrite it`, {
      file: join(root, PROJECTS),
    });
  // An entry whose data directory an earlier project shares still names this project's database.
  const listed = list.entries.find((d) => d.cwd === cwd);
  if (listed !== undefined) return { database: listed.path, register: false };
  const tag = createHash("sha256").update(cwd).digest("hex").slice(0, 8);
  const name = `${basename(cwd).replace(/[^A-Za-z0-9._-]/g, "_") || "project"}-${tag}`;
  return { database: join(root, OWN_PROJECTS, name, DATABASE), register: true, inside: root };
}

/** A `crush.db` that is a link (or not a file) is not written through. */
export function checkTargetFile(database: string): void {
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(database);
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT") return;
    throw new StoreError("crush", `cannot read ${DATABASE} (${errnoCode(cause) ?? "error"})`, {
      file: database,
    });
  }
  if (st.isSymbolicLink())
    throw new UnsupportedError(
      "crush",
      `${DATABASE} is a symbolic link; txcript writes only into a database file itself`,
      { file: database },
    );
  if (!st.isFile())
    throw new UnsupportedError("crush", `${DATABASE} is not a file`, { file: database });
}

/**
 * Make `database` as Crush's migrations leave it, its migrations recorded
 * as goose records them, in WAL mode; built under a temporary name and
 * published with a hard link, so a database Crush makes meanwhile stands.
 */
export function createCrushDatabase(database: string, inside?: string): void {
  try {
    lstatSync(database);
    return;
  } catch {
    // Absent: made below.
  }
  // A folder txcript makes under Crush's global folder is made there, never through a link out of it.
  if (inside !== undefined) mkdirInside(inside, dirname(database), "crush");
  try {
    mkdirSync(dirname(database), { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new StoreError("crush", "cannot create Crush's data folder", {
      file: dirname(database),
      cause,
    });
  }
  createPublished(CRUSH, database, "Crush's database", (fresh) => {
    for (const statement of CRUSH_SCHEMA) fresh.exec(statement);
    const applied = fresh.prepare(
      "INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)",
    );
    for (const version of CRUSH_MIGRATIONS) applied.run(version);
  });
}

/**
 * Refuse a database whose migrations are not exactly the ones this
 * version writes: a newer Crush's (txcript does not know its columns'
 * meaning) or an older one's (Crush migrates it on its next start).
 */
function checkMigrations(db: Db, file: string): void {
  let rows: { version_id: SqlValue; is_applied: SqlValue }[];
  try {
    rows = db
      .prepare<[], { version_id: SqlValue; is_applied: SqlValue }>(
        "SELECT version_id, is_applied FROM goose_db_version ORDER BY id",
      )
      .all();
  } catch {
    throw new UnsupportedError("crush", "not a Crush database (no goose_db_version table)", {
      file,
    });
  }
  // goose's latest row for a version says whether it stands applied.
  const applied = new Map<number, boolean>();
  for (const r of rows) applied.set(Number(r.version_id), Number(r.is_applied) !== 0);
  const have = [...applied].filter(([, on]) => on).map(([v]) => v);
  const newer = have.filter((v) => !CRUSH_MIGRATIONS.includes(v)).sort((a, b) => b - a)[0];
  if (newer !== undefined)
    throw new UnsupportedError(
      "crush",
      `Crush schema ${newer} is not one this version writes (it knows migrations up to ${CRUSH_SCHEMA_VERSION}); nothing was written`,
      { file },
    );
  const missing = CRUSH_MIGRATIONS.find((v) => v !== 0 && !have.includes(v));
  if (missing !== undefined)
    throw new UnsupportedError(
      "crush",
      `Crush schema lacks migration ${missing}: open the project in Crush once so it migrates, then continue again`,
      { file },
    );
}

/** A Body value as a column value (Crush's columns hold text, numbers and nulls). */
function sqlValue(v: Json | undefined, what: string): SqlValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string" || typeof v === "number") return v;
  throw new InvalidRequestError("crush", `${what} is not a column value`);
}

/**
 * An inserter of rows into `table` for one transaction: each row names only
 * the columns it fills; a value for a column the table lacks is refused.
 * The table's columns and the statements are looked up once.
 */
function rowInserter(db: Db, table: string, file: string) {
  const known = new Set(
    db
      .prepare<[], { name: string }>(`PRAGMA table_info(${quoteIdentifier(table)})`)
      .all()
      .map((c) => c.name),
  );
  const statements = new Map<string, ReturnType<Db["prepare"]>>();
  return (row: JsonObject, what: string): void => {
    const names: string[] = [];
    const values: SqlValue[] = [];
    for (const [k, v] of Object.entries(row)) {
      if (!known.has(k)) {
        if (v === null || v === undefined) continue;
        throw new UnsupportedError(
          "crush",
          `the ${table} table has no column ${k} (a database of another Crush version?)`,
          { file },
        );
      }
      names.push(quoteIdentifier(k));
      values.push(sqlValue(v, `${what}'s ${k}`));
    }
    const sql = `INSERT INTO ${quoteIdentifier(table)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    statement.run(values);
  };
}

/** Remove session `id`'s rows (for an overwrite): its read files, file history, messages, then the session. */
function deleteSessionRows(db: Db, id: string): void {
  for (const table of ["read_files", "files", "messages"])
    db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
  db.prepare("DELETE FROM sessions WHERE id = ?").run(id);
}

/**
 * Add session `id`'s rows inside the caller's write transaction. The
 * messages go in first and the session last, its `message_count` set to
 * theirs: Crush's triggers would otherwise stamp the session's
 * `updated_at` with the time of writing (foreign keys are checked at commit).
 */
export function insertCrushSession(
  db: Db,
  file: string,
  id: string,
  body: CrushBody,
  overwrite: boolean,
): void {
  checkMigrations(db, file);
  if (db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id) !== undefined) {
    if (!overwrite) throw new ConflictError("crush", `session ${id} already exists`, { file });
    deleteSessionRows(db, id);
  }
  const taken = db.prepare("SELECT session_id FROM messages WHERE id = ?").pluck();
  body.messages.forEach((m, i) => {
    if (m.session_id !== id)
      throw new InvalidRequestError("crush", `message ${i} is not session ${id}'s`);
    const owner = typeof m.id === "string" ? taken.get(m.id) : undefined;
    if (owner !== undefined)
      throw new ConflictError(
        "crush",
        `message ${String(m.id)} already exists in session ${String(owner)}; refusing to touch it`,
        { file },
      );
  });
  db.pragma("defer_foreign_keys = ON");
  const message = rowInserter(db, "messages", file);
  body.messages.forEach((m, i) => {
    message(m, `message ${i}`);
  });
  const sessionRow = rowInserter(db, "sessions", file);
  sessionRow({ ...body.session, message_count: body.messages.length }, "the session");
}

/**
 * Add project `cwd` with data directory `dataDir` to `projects.json` as
 * Crush's own start does (most recently used first, two-space JSON),
 * keeping every other entry as it is.
 */
export function registerProject(root: string, cwd: string, dataDir: string): string {
  const file = join(root, PROJECTS);
  let list: JsonObject = { projects: [] };
  try {
    const parsed = parseBounded(readFileSync(file, "utf8"));
    if (!isJsonObject(parsed?.value) || !Array.isArray(parsed.value.projects))
      throw new StoreError("crush", `${PROJECTS} is not Crush's project list; not rewritten`, {
        file,
      });
    list = parsed.value;
  } catch (cause) {
    if (cause instanceof StoreError) throw cause;
    if (errnoCode(cause) !== "ENOENT")
      throw new StoreError("crush", `${PROJECTS} cannot be read`, { file, cause });
  }
  const projects = Array.isArray(list.projects) ? list.projects : [];
  const entry: JsonObject = {
    path: cwd,
    data_dir: dataDir,
    last_accessed: new Date().toISOString(),
  };
  const doc: JsonObject = { ...list, projects: [entry, ...projects] };
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    writeFileAtomic(file, JSON.stringify(doc, null, 2), { mode: 0o600 });
  } catch (cause) {
    throw new StoreError(
      "crush",
      `the session was written but ${PROJECTS} could not be updated, so Crush's project list does not name it`,
      { file, cause },
    );
  }
  return file;
}
