/**
 * agy's conversation database, row by row: the schema agy creates, typed
 * reading of every table (whole, or streamed for one showing), and writing
 * a Body back as a new database with its brain mirror files beside it. The
 * store (store.ts) decides where and when; this module reads and writes.
 */

import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import { describeCause, InvalidRequestError, ParseError, UnsupportedError } from "../../errors.js";
import { type AtomicFile, openAtomic, writeFileAtomic } from "../../fsx.js";
import { createDatabase, type Db, quoteIdentifier, sqliteCode } from "../../sqlite.js";

import type {
  AntigravityBody,
  ExtraTable,
  GenMetadataRow,
  IdxBlobRow,
  MadeStep,
  MetadataBlobRow,
  SqlValue,
  StepRow,
  TrajectoryMetaRow,
} from "./body.js";
import { BOOKKEEPING_STEP_TYPES, IN_FLIGHT_STATUSES, StepType } from "./schema.js";
import { BlobSlab } from "./slab.js";
import { RECENT_GEN_METADATA } from "./summary.js";

export const HARNESS = "antigravity";

/** The `PRAGMA user_version` agy 1.0.7 through at least 1.2.11 writes. */
const AGY_USER_VERSION = 1;

/**
 * The schema exactly as agy creates it (docs/formats/antigravity.md): the
 * seven tables with their column types, defaults and primary keys, and the
 * two indexes on `steps`.
 */
const AGY_SCHEMA: readonly string[] = [
  "CREATE TABLE trajectory_meta(trajectory_id text PRIMARY KEY, cascade_id text, trajectory_type integer, source integer)",
  "CREATE TABLE steps(idx integer PRIMARY KEY, step_type integer NOT NULL DEFAULT 0, status integer NOT NULL DEFAULT 0, has_subtrajectory numeric NOT NULL DEFAULT false, metadata blob, error_details blob, permissions blob, task_details blob, render_info blob, step_payload blob, step_format integer NOT NULL DEFAULT 0)",
  "CREATE INDEX idx_steps_status ON steps(status)",
  "CREATE INDEX idx_steps_step_type ON steps(step_type)",
  "CREATE TABLE gen_metadata(idx integer PRIMARY KEY, data blob, size integer NOT NULL DEFAULT 0)",
  "CREATE TABLE executor_metadata(idx integer PRIMARY KEY, data blob)",
  "CREATE TABLE parent_references(idx integer PRIMARY KEY, data blob)",
  'CREATE TABLE trajectory_metadata_blob(id text DEFAULT "main" PRIMARY KEY, data blob)',
  "CREATE TABLE battle_mode_infos(idx integer PRIMARY KEY, data blob)",
];

export const { USER_INPUT, PLANNER_RESPONSE, CHECKPOINT } = StepType;
const { TASK_BOUNDARY } = StepType;
/** Steps that never become a message nor part of one (TASK_BOUNDARY carries no tool call). */
export const SILENT: ReadonlySet<number> = new Set([...BOOKKEEPING_STEP_TYPES, TASK_BOUNDARY]);
export const IN_FLIGHT = [...IN_FLIGHT_STATUSES];

// ---------------------------------------------------------------------------
// Rows: typed reading of what SQLite returns, tolerant of missing columns

type Kind = "integer" | "integer?" | "text" | "text?" | "blob?" | "boolean";

interface Column {
  name: string;
  kind: Kind;
}

const col = <const N extends string, const K extends Kind>(name: N, kind: K) => ({ name, kind });

/** What a reader makes of a column of each kind (nullable kinds keep NULL). */
type ValueOf<K extends Kind> = K extends "integer"
  ? number
  : K extends "integer?"
    ? number | null
    : K extends "boolean"
      ? boolean
      : K extends "text"
        ? string
        : K extends "text?"
          ? string | null
          : Uint8Array | null;

const KNOWN = {
  trajectory_meta: [
    col("trajectory_id", "text"),
    col("cascade_id", "text?"),
    col("trajectory_type", "integer?"),
    col("source", "integer?"),
  ],
  steps: [
    col("idx", "integer"),
    col("step_type", "integer"),
    col("status", "integer"),
    col("has_subtrajectory", "boolean"),
    col("metadata", "blob?"),
    col("error_details", "blob?"),
    col("permissions", "blob?"),
    col("task_details", "blob?"),
    col("render_info", "blob?"),
    col("step_payload", "blob?"),
    col("step_format", "integer"),
  ],
  gen_metadata: [col("idx", "integer"), col("data", "blob?"), col("size", "integer")],
  executor_metadata: [col("idx", "integer"), col("data", "blob?")],
  parent_references: [col("idx", "integer"), col("data", "blob?")],
  trajectory_metadata_blob: [col("id", "text"), col("data", "blob?")],
  battle_mode_infos: [col("idx", "integer"), col("data", "blob?")],
} as const satisfies Record<string, readonly Column[]>;

export type KnownTable = keyof typeof KNOWN;

/** A known table's row as `rowReader` returns it, derived from the table's columns. */
export type RowOf<T extends KnownTable> = {
  -readonly [C in (typeof KNOWN)[T][number] as C["name"]]: ValueOf<C["kind"]>;
};

// The Body's row interfaces are these rows exactly: a column added to one
// and not the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const ROWS_MATCH: [
  Same<RowOf<"trajectory_meta">, TrajectoryMetaRow>,
  Same<RowOf<"steps">, StepRow>,
  Same<RowOf<"gen_metadata">, GenMetadataRow>,
  Same<RowOf<"executor_metadata">, IdxBlobRow>,
  Same<RowOf<"parent_references">, IdxBlobRow>,
  Same<RowOf<"battle_mode_infos">, IdxBlobRow>,
  Same<RowOf<"trajectory_metadata_blob">, MetadataBlobRow>,
] = [true, true, true, true, true, true, true];
void ROWS_MATCH;
const isKnownTable = (name: string): name is KnownTable => Object.hasOwn(KNOWN, name);
export const KNOWN_TABLES: readonly KnownTable[] = Object.keys(KNOWN).filter(isKnownTable);

/** Rows are read in primary-key order; text keys in insertion (rowid) order. */
const ORDER: Record<KnownTable, string> = {
  trajectory_meta: "rowid",
  steps: "idx",
  gen_metadata: "idx",
  executor_metadata: "idx",
  parent_references: "idx",
  trajectory_metadata_blob: "rowid",
  battle_mode_infos: "idx",
};

function storageClass(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return "a number";
  if (typeof value === "string") return "text";
  return "a blob";
}

/**
 * A function turning one raw row (as ordered by `columns`) into a typed row
 * object. Missing columns read as their schema default (0, false or NULL);
 * a value of the wrong storage class is a `ParseError` naming table, row and
 * column; columns this version does not know are not carried.
 */
export function rowReader<K extends KnownTable>(
  table: K,
  columns: readonly string[],
  file: string,
  offset = 0,
  slab?: BlobSlab,
): (raw: unknown[], n: number) => RowOf<K> {
  const specs: readonly Column[] = KNOWN[table];
  const positions = specs.map((s) => columns.indexOf(s.name));
  return (raw, n) => {
    const row: Record<string, unknown> = {};
    for (const [i, spec] of specs.entries()) {
      const p = positions[i] ?? -1;
      const value = p === -1 ? null : raw[p + offset];
      const bad = (expected: string): never => {
        throw new ParseError(
          HARNESS,
          `${table} row ${n + 1}: ${spec.name} holds ${storageClass(value)}, expected ${expected}`,
          { file },
        );
      };
      switch (spec.kind) {
        case "integer":
          row[spec.name] = value === null ? 0 : typeof value === "number" ? value : bad("a number");
          break;
        case "integer?":
          row[spec.name] = value === null || typeof value === "number" ? value : bad("a number");
          break;
        case "boolean":
          row[spec.name] =
            value === null ? false : typeof value === "number" ? value !== 0 : bad("a number");
          break;
        case "text":
          row[spec.name] = typeof value === "string" ? value : bad("text");
          break;
        case "text?":
          row[spec.name] = value === null || typeof value === "string" ? value : bad("text");
          break;
        case "blob?":
          row[spec.name] =
            value === null
              ? null
              : value instanceof Uint8Array
                ? (slab?.keep(value) ?? value)
                : bad("a blob");
          break;
        default:
          spec.kind satisfies never;
      }
    }
    // cast: every column of the table's spec was checked against its kind
    // above, and RowOf<K> is derived from that spec (the one cast of an agy row).
    return row as RowOf<K>;
  };
}

/**
 * Typed rows of a `SELECT *`-style statement, whatever columns the table
 * has, a row at a time (never SQLite's whole result and the typed rows at
 * once); blobs into `slab` when one is given.
 */
export function typedRows<K extends KnownTable>(
  db: Db,
  table: K,
  sql: string,
  file: string,
  slab?: BlobSlab,
): RowOf<K>[] {
  const stmt = db.prepare<[], unknown[]>(sql).raw();
  const read = rowReader(
    table,
    stmt.columns().map((c) => c.name),
    file,
    0,
    slab,
  );
  const rows: RowOf<K>[] = [];
  for (const raw of stmt.iterate()) rows.push(read(raw, rows.length));
  return rows;
}

/** Each known table's column names, in its spec's order. */
const COLUMN_NAMES = Object.fromEntries(
  KNOWN_TABLES.map((t) => [t, KNOWN[t].map((c: Column) => c.name)]),
);

/** A known table's columns as agy creates them, in order: a select list that needs no `columns()`. */
export function knownColumns(table: KnownTable): readonly string[] {
  return COLUMN_NAMES[table] ?? [];
}

/**
 * Typed rows of a statement selecting `knownColumns(table)` in that order
 * (a missing column fails it with SQLITE_ERROR). Unlike `typedRows`, SQLite
 * is not asked for the column names: better-sqlite3's `columns()` makes an
 * object of five strings per column, and a listing asked it six times per
 * conversation (6% of a cold list's instructions, bench/list). For the few
 * rows a listing reads: all at once.
 */
export function knownRows<K extends KnownTable>(
  db: Db,
  table: K,
  sql: string,
  file: string,
): RowOf<K>[] {
  const read = rowReader(table, knownColumns(table), file);
  return db.prepare<[], unknown[]>(sql).raw().all().map(read);
}

const bufferOf = (size: number) => Buffer.alloc(size);

/** Every row of a known table, typed, in primary-key order. */
function readTable<K extends KnownTable>(
  db: Db,
  table: K,
  file: string,
  slab: BlobSlab,
): RowOf<K>[] {
  return typedRows(db, table, `SELECT * FROM ${table} ORDER BY ${ORDER[table]}`, file, slab);
}

/** Tables in sqlite_schema order, without SQLite's own (`sqlite_*`). */
function tablesOf(db: Db): { name: string; sql: string | null }[] {
  return db
    .prepare<[], { name: string; sql: string | null }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .all();
}

function newerVersion(version: number, file: string): UnsupportedError {
  return new UnsupportedError(
    HARNESS,
    `user_version ${version} is a newer agy format than this txcript reads (${AGY_USER_VERSION}); upgrade txcript`,
    { file },
  );
}

export function checkVersion(db: Db, file: string): void {
  const version: unknown = db.pragma("user_version", { simple: true });
  if (typeof version === "number" && version > AGY_USER_VERSION) throw newerVersion(version, file);
}

export function requireSteps(tables: ReadonlySet<string>, file: string): void {
  if (!tables.has("steps"))
    throw new ParseError(HARNESS, "not an agy conversation database (no steps table)", { file });
}

/** Read SQL statements that fail on a missing column mean a foreign layout. */
export function foreignLayout(error: unknown, file: string): unknown {
  if (sqliteCode(error) === "SQLITE_ERROR") {
    const message = error instanceof Error ? error.message : String(error);
    return new ParseError(HARNESS, `not an agy conversation database (${message})`, {
      file,
      cause: error,
    });
  }
  return error;
}

/** Every row of every table: the Body's database part. */
export function readDatabase(db: Db, file: string, id: string): AntigravityBody {
  checkVersion(db, file);
  const tables = tablesOf(db);
  const names = new Set(tables.map((t) => t.name));
  requireSteps(names, file);
  const slab = new BlobSlab(bufferOf);
  const known = <K extends KnownTable>(table: K): RowOf<K>[] =>
    names.has(table) ? readTable(db, table, file, slab) : [];
  try {
    return {
      id,
      trajectory_meta: known("trajectory_meta"),
      steps: known("steps"),
      gen_metadata: known("gen_metadata"),
      executor_metadata: known("executor_metadata"),
      parent_references: known("parent_references"),
      battle_mode_infos: known("battle_mode_infos"),
      trajectory_metadata_blob: known("trajectory_metadata_blob"),
      extra_tables: tables.flatMap((t) =>
        !isKnownTable(t.name) && t.sql !== null && isPlainCreateTable(t.sql)
          ? [readExtraTable(db, t.name, t.sql)]
          : [],
      ),
    };
  } catch (error) {
    throw foreignLayout(error, file);
  }
}

/**
 * The Body's database part for one showing (body.ts, `streams`): the small
 * tables whole, the rows a listing reads, and the steps and `gen_metadata`
 * as rows read while they are iterated. Valid only inside the read
 * transaction that made it, and each stream once: the caller converts it
 * there (`AntigravityStore.loadFor`).
 */
export function readShownDatabase(db: Db, file: string, id: string): AntigravityBody {
  checkVersion(db, file);
  const names = new Set(tablesOf(db).map((t) => t.name));
  requireSteps(names, file);
  const has = (table: KnownTable) => names.has(table);
  const known = <K extends KnownTable>(table: K): RowOf<K>[] =>
    has(table) ? readTable(db, table, file, new BlobSlab(bufferOf)) : [];
  try {
    return {
      id,
      trajectory_meta: known("trajectory_meta"),
      steps: typedRows(db, "steps", LISTED_STEPS_SQL, file),
      gen_metadata: has("gen_metadata")
        ? typedRows(
            db,
            "gen_metadata",
            `SELECT * FROM gen_metadata ORDER BY idx DESC LIMIT ${RECENT_GEN_METADATA}`,
            file,
          )
        : [],
      executor_metadata: [],
      parent_references: known("parent_references"),
      battle_mode_infos: [],
      trajectory_metadata_blob: known("trajectory_metadata_blob"),
      extra_tables: [],
      streams: {
        gen_metadata: has("gen_metadata") ? streamTable(db, "gen_metadata", file) : [],
        steps: streamTable(db, "steps", file),
      },
    };
  } catch (error) {
    throw foreignLayout(error, file);
  }
}

/** The steps `listingRows` picks from a whole Body, and no other. */
const LISTED_STEPS_SQL = `SELECT * FROM steps WHERE idx IN (
  (SELECT min(idx) FROM steps),
  (SELECT max(idx) FROM steps),
  (SELECT min(idx) FROM steps WHERE step_type = ${StepType.USER_INPUT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${StepType.CHECKPOINT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${StepType.PLANNER_RESPONSE})) ORDER BY idx`;

/** A known table's rows in primary-key order, read as they are iterated. */
function streamTable<K extends KnownTable>(db: Db, table: K, file: string): Iterable<RowOf<K>> {
  return {
    *[Symbol.iterator]() {
      try {
        const stmt = db
          .prepare<[], unknown[]>(`SELECT * FROM ${table} ORDER BY ${ORDER[table]}`)
          .raw();
        const read = rowReader(
          table,
          stmt.columns().map((c) => c.name),
          file,
        );
        let n = 0;
        for (const raw of stmt.iterate()) yield read(raw, n++);
      } catch (error) {
        throw foreignLayout(error, file);
      }
    },
  };
}

/** Virtual tables (and their shadow tables' owner) cannot be recreated from rows. */
function isPlainCreateTable(sql: string | null): boolean {
  return sql !== null && /^\s*CREATE\s+TABLE\s/i.test(sql);
}

function readExtraTable(db: Db, name: string, sql: string): ExtraTable {
  // Exact integers: an unknown table's values must survive beyond 2^53.
  const stmt = db
    .prepare<[], SqlValue[]>(`SELECT * FROM ${quoteIdentifier(name)}`)
    .raw()
    .safeIntegers(true);
  return {
    name,
    sql,
    columns: stmt.columns().map((c) => c.name),
    rows: stmt.all(),
  };
}

/**
 * Write `body` as a new database at `path`, every row in one transaction.
 * A Body made to be saved (body.ts, `made`) has its steps made as they
 * are inserted, and each handed to `made` once inserted.
 */
function writeDatabase(path: string, body: AntigravityBody, made?: (step: MadeStep) => void): void {
  const db = createDatabase(path);
  try {
    // A temporary file: the rename is the commit, and we fsync before it.
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.transaction(() => {
      for (const sql of AGY_SCHEMA) db.exec(sql);
      insertRows(db, "trajectory_meta", body.trajectory_meta);
      insertRows(db, "steps", body.made ? madeRows(body.made, made) : body.steps);
      insertRows(db, "gen_metadata", body.gen_metadata);
      insertRows(db, "executor_metadata", body.executor_metadata);
      insertRows(db, "parent_references", body.parent_references);
      insertRows(db, "trajectory_metadata_blob", body.trajectory_metadata_blob);
      insertRows(db, "battle_mode_infos", body.battle_mode_infos);
      for (const table of body.extra_tables) createExtraTable(db, table);
      db.pragma(`user_version = ${AGY_USER_VERSION}`);
    })();
    // agy's databases are WAL databases; closing leaves no -wal behind.
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
}

/**
 * Write `body`'s database at `tmp` and its brain mirror files into `logs`,
 * each atomically: those of `logFiles` it has, and any other removed (a
 * stale mirror of a replaced conversation). A Body made to be saved
 * (body.ts, `made`) has each step made once, its row inserted, its mirror
 * lines written and the row shown to `seen`, so that the steps are never
 * held all at once. Returns the mirror files written (their final paths).
 */
export function writeConversation(
  tmp: string,
  body: AntigravityBody,
  logs: string,
  logFiles: readonly (readonly [MirrorKey, string])[],
  seen: { add(row: StepRow): void } | undefined,
): string[] {
  if (body.made === undefined) {
    writeDatabase(tmp, body);
    const written: string[] = [];
    for (const [key, file] of logFiles) {
      const text = body[key] ?? body.mirror?.[key];
      if (text !== undefined) {
        writeFileAtomic(join(logs, basename(file)), text);
        written.push(file);
      } else rmSync(file, { force: true });
    }
    return written;
  }
  const open: { key: MirrorKey; file: AtomicFile }[] = [];
  try {
    for (const [key, file] of logFiles)
      open.push({ key, file: openAtomic(join(logs, basename(file))) });
    writeDatabase(tmp, body, (step) => {
      seen?.add(step.row);
      if (step.mirror === undefined) return;
      for (const { key, file } of open) file.write(step.mirror[key]);
    });
    for (const { file } of open) file.commit();
  } catch (error) {
    for (const { file } of open) file.abort();
    throw error;
  }
  return logFiles.map(([, file]) => file);
}

type MirrorKey = "transcript" | "transcript_full";

function* madeRows(
  steps: Iterable<MadeStep>,
  made: ((step: MadeStep) => void) | undefined,
): Generator<StepRow> {
  for (const step of steps) {
    yield step.row;
    made?.(step);
  }
}

function insertRows(db: Db, table: KnownTable, rows: Iterable<object>): void {
  const columns = KNOWN[table].map((c: Column) => c.name);
  let insert: { run(values: unknown[]): unknown } | undefined;
  for (const row of rows) {
    insert ??= db.prepare(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
    // cast: rows are this table's row objects, read by its column names.
    const record = row as Readonly<Record<string, unknown>>;
    insert.run(
      columns.map((c) => {
        const value = record[c];
        return typeof value === "boolean" ? Number(value) : value;
      }),
    );
  }
}

/**
 * Recreate a table a later agy added, from its own `CREATE TABLE`. The SQL
 * may come from a hand-edited document, so it must be exactly one CREATE
 * TABLE statement creating that name (no ATTACH, no second statement).
 */
function createExtraTable(db: Db, table: ExtraTable): void {
  const refuse = (why: string): never => {
    throw new InvalidRequestError(HARNESS, `extra table ${JSON.stringify(table.name)}: ${why}`);
  };
  if (isKnownTable(table.name) || /^sqlite_/i.test(table.name))
    refuse("the name belongs to agy's schema or to SQLite");
  if (!isPlainCreateTable(table.sql)) refuse("its SQL is not a CREATE TABLE statement");
  let create: { run(): unknown };
  try {
    create = db.prepare(table.sql); // one statement only: prepare refuses more
  } catch (error) {
    refuse(`its SQL does not prepare (${describeCause(error)})`);
    return;
  }
  create.run();
  const created = tablesOf(db).some((t) => t.name === table.name);
  if (!created) refuse("its SQL creates a table of another name");
  if (table.rows.length === 0) return;
  const names = table.columns.map(quoteIdentifier);
  const insert = db.prepare(
    `INSERT INTO ${quoteIdentifier(table.name)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
  );
  table.rows.forEach((row, n) => {
    if (row.length !== table.columns.length)
      refuse(`row ${n + 1} has ${row.length} values for ${table.columns.length} columns`);
    insert.run(row);
  });
}
