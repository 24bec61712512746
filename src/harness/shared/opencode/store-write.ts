/**
 * Writing one session into an OpenCode-family CLI's shared database: one `BEGIN
 * IMMEDIATE` transaction (busy retried), the schema checked to hold every
 * column txcript fills and no required one it does not, no other session's
 * rows touched; the project OpenCode would file a session under; removing
 * a session's rows and every row that references it.
 */

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { nonEmpty } from "../../../env.js";
import { ConflictError, InvalidRequestError, UnsupportedError } from "../../../errors.js";
import { type Db, quoteIdentifier } from "../../../sqlite.js";
import {
  GLOBAL_PROJECT,
  MESSAGE_TABLE,
  type OpenCodeBody,
  PART_TABLE,
  PROJECT_TABLE,
  type Row,
  SESSION_TABLE,
  type SqlValue,
  text,
} from "./body.js";
import type { OpenCodePlace } from "./flavor.js";
import { checkTables, REQUIRED_TABLES } from "./store-rows.js";

/** Insert session `id`'s rows (and its project's, when missing) in a write transaction. */
export function insertSession(
  place: OpenCodePlace,
  db: Db,
  database: string,
  id: string,
  body: OpenCodeBody,
  project: { id: string; row: Row } | undefined,
  overwrite: boolean,
): void {
  const { harness } = place;
  checkTables(place, db, database, [...REQUIRED_TABLES, PROJECT_TABLE]);
  const exists = db.prepare(`SELECT 1 FROM ${SESSION_TABLE} WHERE id = ?`).get(id);
  if (exists !== undefined) {
    if (!overwrite) {
      throw new ConflictError(harness, `session ${id} already exists`, {
        file: database,
      });
    }
    deleteRows(db, id);
  }
  const session = { ...body.session };
  let projectRow = body.project;
  if (project !== undefined) {
    session.project_id = project.id;
    projectRow = project.row;
  }
  const projectId = text(session, "project_id") ?? GLOBAL_PROJECT;
  session.project_id = projectId;
  const inserts: [string, Row[]][] = [
    [SESSION_TABLE, [session]],
    [MESSAGE_TABLE, body.messages.map((m) => m.row)],
    [PART_TABLE, body.messages.flatMap((m) => m.parts)],
  ];
  const needsProject =
    db.prepare(`SELECT 1 FROM ${PROJECT_TABLE} WHERE id = ?`).get(projectId) === undefined;
  if (needsProject) {
    inserts.unshift([PROJECT_TABLE, [projectRow ?? defaultProject(projectId, session)]]);
  }
  // Every row must fit today's schema before the first one goes in.
  const plans = inserts.map(([table, rows]) => ({
    table,
    rows,
    plan: planInsert(place, db, table, rows, database),
  }));
  for (const m of body.messages) {
    if (text(m.row, "session_id") !== id)
      throw new InvalidRequestError(harness, `message ${text(m.row, "id")} is not session ${id}'s`);
    for (const p of m.parts) {
      if (text(p, "session_id") !== id || text(p, "message_id") !== text(m.row, "id"))
        throw new InvalidRequestError(
          harness,
          `part ${text(p, "id")} is not message ${text(m.row, "id")}'s`,
        );
    }
  }
  for (const [table, rows] of [
    [MESSAGE_TABLE, body.messages.map((m) => m.row)],
    [PART_TABLE, body.messages.flatMap((m) => m.parts)],
  ] as const) {
    const taken = firstTaken(db, table, rows);
    if (taken !== undefined) {
      throw new ConflictError(
        harness,
        `${table} ${taken} already exists in another session; refusing to touch it`,
        { file: database },
      );
    }
  }
  for (const { rows, plan } of plans) {
    const stmt = db.prepare(plan.sql);
    for (const row of rows) stmt.run(plan.columns.map((c) => bind(row[c] ?? null)));
  }
}

/**
 * The project the CLI would file a session under, for a session written
 * from elsewhere (project "global" and no project row): OpenCode's id for
 * a git repository is its first root commit, cached in `.git/opencode`
 * (packages/opencode/src/project/project.ts; Kilo's in `.git/kilo`);
 * outside git, "global".
 */
export function gitProject(
  place: OpenCodePlace,
  session: Row,
): { id: string; row: Row } | undefined {
  if (text(session, "project_id") !== GLOBAL_PROJECT) return undefined;
  const dir = nonEmpty(text(session, "directory"));
  if (dir === undefined) return undefined;
  let worktree: string | undefined;
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) {
      worktree = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  if (worktree === undefined) return undefined;
  let id: string | undefined;
  try {
    id = nonEmpty(readFileSync(join(worktree, ".git", place.gitCache), "utf8").trim());
  } catch {
    // No cache: ask git.
  }
  if (id === undefined) {
    const git = spawnSync("git", ["rev-list", "--max-parents=0", "--all"], {
      cwd: worktree,
      encoding: "utf8",
      timeout: 5000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    if (git.status === 0) {
      id = git.stdout
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => /^[0-9a-f]{40}$/.test(l))
        .sort()[0];
    }
  }
  if (id === undefined) return undefined;
  const now = Date.now();
  return {
    id,
    row: {
      id,
      worktree,
      vcs: "git",
      time_created: now,
      time_updated: now,
      sandboxes: "[]",
    },
  };
}

/** A project row for an id txcript could not find in the database. */
function defaultProject(id: string, session: Row): Row {
  const now = typeof session.time_updated === "number" ? session.time_updated : 0;
  return {
    id,
    worktree: id === GLOBAL_PROJECT ? "/" : (text(session, "directory") ?? "/"),
    vcs: id === GLOBAL_PROJECT ? null : "git",
    time_created: now,
    time_updated: now,
    sandboxes: "[]",
  };
}

interface Column {
  name: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

/**
 * The INSERT for `rows` into `table`, or a refusal when the schema has
 * drifted: a column our rows fill that the table lacks, or a required
 * column (NOT NULL, no default) that our rows leave empty.
 */
function planInsert(
  place: OpenCodePlace,
  db: Db,
  table: string,
  rows: readonly Row[],
  file: string,
): { sql: string; columns: string[] } {
  const columns = db.prepare<[], Column>(`PRAGMA table_info(${quoteIdentifier(table)})`).all();
  if (columns.length === 0) {
    throw new UnsupportedError(place.harness, `the database has no ${table} table`, { file });
  }
  const known = new Set(columns.map((c) => c.name));
  const used = new Set<string>();
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      if (known.has(k)) used.add(k);
      else if (v !== null && v !== undefined) {
        throw new UnsupportedError(
          place.harness,
          `schema drift: the ${table} table has no column ${k} (written by another ${place.name} version?)`,
          { file },
        );
      }
    }
  }
  for (const c of columns) {
    if (c.notnull && c.dflt_value === null && c.pk === 0) {
      const missing = rows.some((r) => r[c.name] === null || r[c.name] === undefined);
      if (missing) {
        throw new UnsupportedError(
          place.harness,
          `schema drift: ${table}.${c.name} is required and txcript does not know what to put in it (a newer ${place.name}?)`,
          { file },
        );
      }
    }
  }
  const names = columns.map((c) => c.name).filter((n) => used.has(n));
  return {
    sql: `INSERT INTO ${quoteIdentifier(table)} (${names.map(quoteIdentifier).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    columns: names,
  };
}

function bind(v: SqlValue | undefined): SqlValue {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v);
  return v ?? null;
}

/** The first of `rows`' ids already in `table`, if any. */
function firstTaken(db: Db, table: string, rows: readonly Row[]): string | undefined {
  const stmt = db.prepare(`SELECT 1 FROM ${quoteIdentifier(table)} WHERE id = ?`);
  for (const r of rows) {
    const id = text(r, "id");
    if (id !== undefined && stmt.get(id) !== undefined) return id;
  }
  return undefined;
}

interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
}

/**
 * Remove session `id`'s rows: its parts, then every row of any table that
 * references the session (messages, todos, shares, OpenCode's newer
 * per-session tables, found from the schema's foreign keys), its events
 * (`event`/`event_sequence` keyed by the session as aggregate), then the
 * session row. Rows of other sessions are never touched.
 */
export function deleteRows(db: Db, id: string): void {
  const tables = db
    .prepare<[], string>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .pluck()
    .all();
  const q = quoteIdentifier;
  const columnsOf = (t: string) =>
    db
      .prepare<[], Column>(`PRAGMA table_info(${q(t)})`)
      .all()
      .map((c) => c.name);
  // Rows referencing the session's messages first (parts), then the session's own.
  for (const t of tables) {
    if (t === MESSAGE_TABLE || t === SESSION_TABLE) continue;
    const fks = db.prepare<[], ForeignKey>(`PRAGMA foreign_key_list(${q(t)})`).all();
    for (const fk of fks) {
      if (fk.table === MESSAGE_TABLE && (fk.to === null || fk.to === "id")) {
        db.prepare(
          `DELETE FROM ${q(t)} WHERE ${q(fk.from)} IN (SELECT id FROM ${MESSAGE_TABLE} WHERE session_id = ?)`,
        ).run(id);
      }
    }
  }
  if (columnsOf(PART_TABLE).includes("session_id"))
    db.prepare(`DELETE FROM ${PART_TABLE} WHERE session_id = ?`).run(id);
  for (const t of tables) {
    if (t === SESSION_TABLE) continue;
    const fks = db.prepare<[], ForeignKey>(`PRAGMA foreign_key_list(${q(t)})`).all();
    for (const fk of fks) {
      if (fk.table === SESSION_TABLE && (fk.to === null || fk.to === "id")) {
        db.prepare(`DELETE FROM ${q(t)} WHERE ${q(fk.from)} = ?`).run(id);
      }
    }
  }
  // The event log keys a session's events by the session id as aggregate.
  for (const t of ["event", "event_sequence"]) {
    if (tables.includes(t) && columnsOf(t).includes("aggregate_id"))
      db.prepare(`DELETE FROM ${q(t)} WHERE aggregate_id = ?`).run(id);
  }
  db.prepare(`DELETE FROM ${SESSION_TABLE} WHERE id = ?`).run(id);
}
