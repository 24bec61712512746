/**
 * The Antigravity store: agy's conversation databases on disk. Finds the
 * roots (the CLI lane and the ACP lane), lists conversations (on worker
 * threads for large stores, discover-worker.ts) from the few
 * rows a listing needs, loads every row of every table into the Body, writes
 * a Body back as the database agy itself creates (atomically, with its brain
 * directory), deletes inside the root only, and fingerprints the files.
 * No conversion to Common here: `summarize()` interprets the listing rows.
 * See docs/formats/antigravity.md, section "Store".
 */

import {
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  type Stats,
  statSync,
  unlinkSync,
} from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import {
  ConflictError,
  describeCause,
  InvalidRequestError,
  NotFoundError,
  ParseError,
  StoreError,
  TxcriptError,
  UnsafePathError,
  UnsupportedError,
} from "../../errors.js";
import {
  checkInside,
  fsyncPath,
  mkdirInside,
  publish,
  sweepTemps,
  TargetExistsError,
  tempPath,
  tryLock,
  writeFileAtomic,
} from "../../fsx.js";
import { checkPathComponent, isInside, pathComponentProblem } from "../../paths.js";
import {
  createDatabase,
  type DatabaseFile,
  type Db,
  inspectDatabaseFile,
  isBusy,
  openForWriting,
  quoteIdentifier,
  readSnapshot,
  sqliteCode,
} from "../../sqlite.js";
import { timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  SaveOptions,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import { runShared } from "../../workers.js";
import type {
  AntigravityBody,
  AntigravityLane,
  ExtraTable,
  GenMetadataRow,
  IdxBlobRow,
  MetadataBlobRow,
  SqlValue,
  StepRow,
  TrajectoryMetaRow,
} from "./body.js";
import { BOOKKEEPING_STEP_TYPES, IN_FLIGHT_STATUSES, StepType } from "./schema.js";
import { type ListingRows, listingRows, summarize } from "./summary.js";

const HARNESS = "antigravity";

/** Our environment variable for the CLI lane's root (an explicit root). */
export const ROOT_ENV = "TXCRIPT_ANTIGRAVITY_ROOT";
/** Our environment variable for the ACP lane's root. */
export const ACP_ROOT_ENV = "TXCRIPT_ANTIGRAVITY_ACP_ROOT";

/** The `PRAGMA user_version` agy 1.0.7 through at least 1.2.11 writes. */
export const AGY_USER_VERSION = 1;

/**
 * The schema exactly as agy creates it (docs/formats/antigravity.md): the
 * seven tables with their column types, defaults and primary keys, and the
 * two indexes on `steps`.
 */
export const AGY_SCHEMA: readonly string[] = [
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

const { USER_INPUT, PLANNER_RESPONSE, CHECKPOINT, TASK_BOUNDARY } = StepType;
/** Steps that never become a message nor part of one (TASK_BOUNDARY carries no tool call). */
const SILENT: ReadonlySet<number> = new Set([...BOOKKEEPING_STEP_TYPES, TASK_BOUNDARY]);
const IN_FLIGHT = [...IN_FLIGHT_STATUSES];

// ---------------------------------------------------------------------------
// Roots

/** One place agy keeps conversations: `<root>/conversations`, `<root>/brain`. */
export interface LaneRoot {
  lane: AntigravityLane;
  root: string;
}

export interface AntigravityStoreOptions extends StoreOptions {
  /** How long a locked database is retried before it is reported, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Whose home variable applies: `USERPROFILE` on win32, `HOME` elsewhere (default: this platform). */
  platform?: NodeJS.Platform;
  /**
   * Worker threads discovery reads databases on, beside the calling thread
   * (0: the calling thread alone). Default: none below
   * `PARALLEL_DISCOVERY_FROM` conversations, else one fewer than the
   * available cores, at most `MAX_DISCOVERY_WORKERS`.
   */
  discoveryWorkers?: number;
}

/**
 * The lanes a store reads, the CLI lane first (where `save` writes):
 * - an explicit root (`root`, else `$TXCRIPT_ANTIGRAVITY_ROOT`) means that
 *   root alone as the CLI lane, plus `$TXCRIPT_ANTIGRAVITY_ACP_ROOT` when set;
 * - otherwise `<gemini>/antigravity-cli` and `<gemini>/antigravity-acp` (or
 *   `$TXCRIPT_ANTIGRAVITY_ACP_ROOT`), where `<gemini>` is `$GEMINI_HOME`, else
 *   `~/.gemini` (home from `HOME`, `USERPROFILE` on Windows).
 */
export function antigravityLanes(options: AntigravityStoreOptions = {}): LaneRoot[] {
  const env = options.env ?? process.env;
  const acp = nonEmpty(env[ACP_ROOT_ENV]);
  const explicit = nonEmpty(options.root) ?? nonEmpty(env[ROOT_ENV]);
  const lanes: LaneRoot[] = [];
  if (explicit !== undefined) {
    lanes.push({ lane: "cli", root: resolve(explicit) });
    if (acp !== undefined) lanes.push({ lane: "acp", root: resolve(acp) });
  } else {
    const home = homeDir(env, options.platform);
    const gemini = resolve(nonEmpty(env.GEMINI_HOME) ?? join(home, ".gemini"));
    lanes.push({ lane: "cli", root: join(gemini, "antigravity-cli") });
    lanes.push({ lane: "acp", root: resolve(acp ?? join(gemini, "antigravity-acp")) });
  }
  return lanes.filter((l, i) => lanes.findIndex((m) => m.root === l.root) === i);
}

// ---------------------------------------------------------------------------
// Rows: typed reading of what SQLite returns, tolerant of missing columns

type Kind = "integer" | "integer?" | "text" | "text?" | "blob?" | "boolean";

interface Column {
  name: string;
  kind: Kind;
}

const col = (name: string, kind: Kind): Column => ({ name, kind });

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

type KnownTable = keyof typeof KNOWN;
const KNOWN_TABLES = Object.keys(KNOWN) as KnownTable[];
const isKnownTable = (name: string): name is KnownTable => Object.hasOwn(KNOWN, name);

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
function rowReader<T>(
  table: KnownTable,
  columns: readonly string[],
  file: string,
  offset = 0,
): (raw: unknown[], n: number) => T {
  const specs = KNOWN[table] as readonly Column[];
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
          row[spec.name] = value === null || value instanceof Uint8Array ? value : bad("a blob");
          break;
        default:
          spec.kind satisfies never;
      }
    }
    return row as T;
  };
}

/** Typed rows of a `SELECT *`-style statement, whatever columns the table has. */
function typedRows<T>(db: Db, table: KnownTable, sql: string, file: string): T[] {
  const stmt = db.prepare(sql).raw();
  const read = rowReader<T>(
    table,
    stmt.columns().map((c) => c.name),
    file,
  );
  return (stmt.all() as unknown[][]).map(read);
}

/** Every row of a known table, typed, in primary-key order. */
function readTable<T>(db: Db, table: KnownTable, file: string): T[] {
  return typedRows<T>(db, table, `SELECT * FROM ${table} ORDER BY ${ORDER[table]}`, file);
}

/** Tables in sqlite_schema order, without SQLite's own (`sqlite_*`). */
function tablesOf(db: Db): { name: string; sql: string | null }[] {
  return db
    .prepare(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .all() as { name: string; sql: string | null }[];
}

function newerVersion(version: number, file: string): UnsupportedError {
  return new UnsupportedError(
    HARNESS,
    `user_version ${version} is a newer agy format than this txcript reads (${AGY_USER_VERSION}); upgrade txcript`,
    { file },
  );
}

function checkVersion(db: Db, file: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > AGY_USER_VERSION) throw newerVersion(version, file);
}

function requireSteps(tables: ReadonlySet<string>, file: string): void {
  if (!tables.has("steps"))
    throw new ParseError(HARNESS, "not an agy conversation database (no steps table)", { file });
}

/** Read SQL statements that fail on a missing column mean a foreign layout. */
function foreignLayout(error: unknown, file: string): unknown {
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
function readDatabase(db: Db, file: string, id: string): AntigravityBody {
  checkVersion(db, file);
  const tables = tablesOf(db);
  const names = new Set(tables.map((t) => t.name));
  requireSteps(names, file);
  const known = <T>(table: KnownTable): T[] =>
    names.has(table) ? readTable<T>(db, table, file) : [];
  try {
    return {
      id,
      trajectory_meta: known<TrajectoryMetaRow>("trajectory_meta"),
      steps: known<StepRow>("steps"),
      gen_metadata: known<GenMetadataRow>("gen_metadata"),
      executor_metadata: known<IdxBlobRow>("executor_metadata"),
      parent_references: known<IdxBlobRow>("parent_references"),
      battle_mode_infos: known<IdxBlobRow>("battle_mode_infos"),
      trajectory_metadata_blob: known<MetadataBlobRow>("trajectory_metadata_blob"),
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

/** Virtual tables (and their shadow tables' owner) cannot be recreated from rows. */
function isPlainCreateTable(sql: string | null): boolean {
  return sql !== null && /^\s*CREATE\s+TABLE\s/i.test(sql);
}

function readExtraTable(db: Db, name: string, sql: string): ExtraTable {
  // Exact integers: an unknown table's values must survive beyond 2^53.
  const stmt = db
    .prepare(`SELECT * FROM ${quoteIdentifier(name)}`)
    .raw()
    .safeIntegers(true);
  return {
    name,
    sql,
    columns: stmt.columns().map((c) => c.name),
    rows: stmt.all() as SqlValue[][],
  };
}

// ---------------------------------------------------------------------------
// Listing: the few rows discovery reads

interface ListingRead {
  rows: ListingRows;
  /** Messages as estimated from step types and statuses (see messageCount). */
  messageCount: number;
}

/** The tables and indexes a database has. */
interface Shape {
  tables: ReadonlySet<string>;
  indexes: ReadonlySet<string>;
}

function readShape(db: Db): Shape {
  const tables = new Set<string>();
  const indexes = new Set<string>();
  const rows = db
    .prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index')")
    .raw()
    .all() as [string, string][];
  for (const [type, name] of rows) (type === "table" ? tables : indexes).add(name);
  return { tables, indexes };
}

/**
 * The steps a listing needs, by primary key through the step_type index:
 * the first user input, the latest checkpoint and the latest planner step.
 */
const TYPED_PICKS_SQL = `SELECT * FROM steps WHERE idx IN (
  (SELECT min(idx) FROM steps WHERE step_type = ${USER_INPUT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${CHECKPOINT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${PLANNER_RESPONSE}))`;

/**
 * The first and last steps, wanted for their timestamps only: the payload
 * (large for a tool step) is read only when the metadata column that
 * mirrors its envelope is empty.
 */
function endsSql(columns: readonly string[]): string {
  const lean = columns.includes("metadata")
    ? columns.map((c) =>
        c === "step_payload"
          ? "CASE WHEN metadata IS NULL OR length(metadata) = 0 THEN step_payload END AS step_payload"
          : ["error_details", "permissions", "task_details", "render_info"].includes(c)
            ? `NULL AS ${c}`
            : quoteIdentifier(c),
      )
    : ["*"];
  return `SELECT ${lean.join(", ")} FROM steps WHERE idx IN ((SELECT min(idx) FROM steps), (SELECT max(idx) FROM steps))`;
}

/**
 * message_count as `view` numbers messages, from the two step indexes
 * alone (no row is read): one message per user input and per planner step,
 * plus one per run of consecutive tool results (toCommon gathers a run into
 * one user message). Bookkeeping steps (checkpoint, ephemeral, history,
 * system, task boundary) neither count nor break a run; tool steps still in
 * flight (status 1, 2, 8, 9, 11) are skipped. It overcounts only the rare
 * user input with no text or image, planner step with nothing to say, tool
 * step with no call to answer, or call answered twice.
 */
function messageCount(db: Db, shape: Shape): number {
  // Name agy's indexes, which cover (step_type, idx) and (status, idx), or
  // the planner may scan the table rows, blobs and all.
  const byType = shape.indexes.has("idx_steps_step_type") ? "INDEXED BY idx_steps_step_type" : "";
  const byStatus = shape.indexes.has("idx_steps_status") ? "INDEXED BY idx_steps_status" : "";
  const groups = db
    .prepare(
      // Silent kinds are skipped below: a NOT IN here costs more than their strings.
      `SELECT step_type, group_concat(idx) FROM steps ${byType} GROUP BY step_type
       UNION ALL SELECT NULL, group_concat(idx) FROM steps ${byStatus} WHERE status IN (${IN_FLIGHT})`,
    )
    .raw()
    .all() as [number | null, string | null][];
  const inFlight = new Set(groups.at(-1)?.[1]?.split(",").map(Number));
  // Each step as idx * 2 + (1 for user input and planner steps), sorted by idx.
  const keys: number[] = [];
  for (const [type, list] of groups) {
    if (type === null || list === null || SILENT.has(type)) continue;
    const talk = type === USER_INPUT || type === PLANNER_RESPONSE ? 1 : 0;
    for (const item of list.split(",")) {
      const idx = Number(item);
      if (talk || !inFlight.has(idx)) keys.push(idx * 2 + talk);
    }
  }
  let count = 0;
  let inRun = false;
  for (const key of Float64Array.from(keys).sort()) {
    const talk = key % 2 !== 0;
    if (talk || !inRun) count++;
    inRun = !talk;
  }
  return count;
}

/** agy's own layout: all seven tables and both indexes. */
const AGY_SHAPE: Shape = {
  tables: new Set(KNOWN_TABLES),
  indexes: new Set(["idx_steps_status", "idx_steps_step_type"]),
};

function readListing(db: Db, file: string, id: string): ListingRead {
  checkVersion(db, file);
  try {
    // Assume agy's layout and skip the schema query: the common case.
    return readListingAs(db, file, id, AGY_SHAPE);
  } catch (error) {
    if (sqliteCode(error) !== "SQLITE_ERROR") throw error;
  }
  // Another layout (a table, column or index missing): read what is there.
  const shape = readShape(db);
  requireSteps(shape.tables, file);
  try {
    return readListingAs(db, file, id, shape);
  } catch (error) {
    throw foreignLayout(error, file);
  }
}

function readListingAs(db: Db, file: string, id: string, shape: Shape): ListingRead {
  const table = <T>(name: KnownTable, sql: string): T[] =>
    shape.tables.has(name) ? typedRows<T>(db, name, sql, file) : [];
  const rows: ListingRows = {
    id,
    trajectory_meta: table("trajectory_meta", "SELECT * FROM trajectory_meta ORDER BY rowid"),
    trajectory_metadata_blob: table(
      "trajectory_metadata_blob",
      "SELECT * FROM trajectory_metadata_blob ORDER BY rowid",
    ),
    parent_references: table("parent_references", "SELECT * FROM parent_references ORDER BY idx"),
  };
  const [gen] = table<GenMetadataRow>(
    "gen_metadata",
    "SELECT * FROM gen_metadata ORDER BY idx DESC LIMIT 1",
  );
  if (gen) rows.latest_gen_metadata = gen;
  const typed = db.prepare(TYPED_PICKS_SQL).raw();
  const columns = typed.columns().map((c) => c.name);
  const read = rowReader<StepRow>("steps", columns, file);
  for (const step of (typed.all() as unknown[][]).map(read)) {
    if (step.step_type === USER_INPUT) rows.first_user_input = step;
    else if (step.step_type === CHECKPOINT) rows.latest_checkpoint = step;
    else rows.latest_planner = step;
  }
  const ends = typedRows<StepRow>(db, "steps", endsSql(columns), file);
  const [first] = ends;
  const last = ends.at(-1);
  if (first && last) {
    rows.first_step = first;
    rows.last_step = last;
  }
  return { rows, messageCount: messageCount(db, shape) };
}

/** `cwd` from the ACP lane's `<id>.meta` JSON sidecar, when it names one. */
function acpCwd(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const cwd = (JSON.parse(text) as { cwd?: unknown } | null)?.cwd;
    return typeof cwd === "string" && cwd !== "" ? cwd : undefined;
  } catch {
    return undefined; // a damaged sidecar only costs the listing its cwd
  }
}

// ---------------------------------------------------------------------------
// Files

/** Stats, or undefined when nothing is there (without the cost of a thrown ENOENT). */
function statOrUndefined(path: string, follow = true): Stats | undefined {
  try {
    return follow
      ? statSync(path, { throwIfNoEntry: false })
      : lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A path through a file (HOME a file, say) holds nothing.
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

function readTextIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new StoreError(HARNESS, describeCause(error), { file: path, cause: error });
  }
}

const LOG_FILES = [
  ["transcript", "transcript.jsonl"],
  ["transcript_full", "transcript_full.jsonl"],
] as const;

/**
 * Reasons a file cannot be read as a database, before SQLite opens it.
 * Returns whether its header says WAL.
 */
function checkFile(path: string): boolean {
  const unreadable = (error: unknown) =>
    new StoreError(HARNESS, `unreadable (${describeCause(error)})`, { file: path, cause: error });
  let st: Stats;
  try {
    st = statSync(path);
  } catch (error) {
    throw unreadable(error);
  }
  if (!st.isFile()) throw new ParseError(HARNESS, "not a regular file", { file: path });
  let file: DatabaseFile;
  try {
    file = inspectDatabaseFile(path, st.size);
  } catch (error) {
    throw unreadable(error);
  }
  if (!file.ok) throw new ParseError(HARNESS, file.problem, { file: path });
  return file.wal;
}

/** The database, its -wal, the brain logs and the ACP sidecar: whichever exist. */
function fingerprintOf(lane: LaneRoot, paths: Paths): Fingerprint {
  const candidates = [paths.db, paths.wal, ...paths.logFiles.map(([, f]) => f)];
  if (lane.lane === "acp") candidates.push(paths.meta);
  const files: Fingerprint["files"] = [];
  for (const path of candidates) {
    const st = statOrUndefined(path);
    if (st?.isFile()) files.push({ path, mtime_ms: st.mtimeMs, size: st.size });
  }
  return { files };
}

/** Candidate `i` of a batch (indexes come from the batch itself: an invariant). */
function candidateAt(candidates: readonly Candidate[], i: number): Candidate {
  const c = candidates[i];
  if (!c) throw new Error(`no discovery candidate ${i}`);
  return c;
}

/** A `.db` file discovery will read. */
export interface Candidate {
  lane: LaneRoot;
  name: string;
}

/** What reading one candidate gives: a listing, or the reason it is skipped. */
export type CandidateResult = { session: Discovered } | { skipped: Skipped };

/**
 * Read one candidate's listing. Never throws for a bad file: the calling
 * thread and the discovery workers (discover-worker.ts) both run this, so
 * either gives the same result.
 */
export function discoverCandidate(candidate: Candidate, busyTimeoutMs: number): CandidateResult {
  const { lane, name } = candidate;
  const path = join(lane.root, "conversations", name);
  try {
    return { session: discoverOne(lane, name.slice(0, -3), path, busyTimeoutMs) };
  } catch (error) {
    const reason = error instanceof TxcriptError ? error.detail : describeCause(error);
    return { skipped: { path, reason } };
  }
}

function discoverOne(lane: LaneRoot, id: string, path: string, busyTimeoutMs: number): Discovered {
  const problem = pathComponentProblem(id);
  if (problem) throw new UnsafePathError(HARNESS, `unusable conversation id: the name ${problem}`);
  const wal = checkFile(path);
  const { rows, messageCount } = readSnapshot(path, (db) => readListing(db, path, id), {
    harness: HARNESS,
    busyTimeoutMs,
    wal,
  });
  const listing = summarize(rows);
  const files = lanePaths(lane, id);
  const fingerprint = fingerprintOf(lane, files);
  const meta = { ...listing.meta };
  if (lane.lane === "acp" && meta.cwd === undefined) {
    const cwd = acpCwd(readTextIfPresent(files.meta));
    if (cwd !== undefined) meta.cwd = cwd;
  }
  const newest = Math.max(
    ...fingerprint.files
      .filter((f) => f.path === files.db || f.path === files.wal)
      .map((f) => f.mtime_ms),
  );
  const found: Discovered = {
    harness: HARNESS,
    id,
    path,
    meta,
    updated: listing.updated ?? timestampFromMillis(Math.floor(newest)),
    message_count: messageCount,
    fingerprint,
    lane: lane.lane,
  };
  if (listing.parent_id !== undefined) found.parent_id = listing.parent_id;
  if (listing.forked_from !== undefined) found.forked_from = listing.forked_from;
  return found;
}

/**
 * A conversation database named by path (a file given on the command
 * line). One in a store's `conversations/` folder loads through that
 * store, brain logs included; one anywhere else loads its rows alone.
 */
export function loadConversationFile(path: string): Transcript<AntigravityBody> {
  const id = basename(path).replace(/\.db$/i, "");
  const dir = dirname(resolve(path));
  if (basename(dir) === "conversations" && basename(path).endsWith(".db")) {
    return new AntigravityStore({ root: dirname(dir), env: {} }).load(id);
  }
  const wal = checkFile(path);
  const body = readSnapshot(path, (conn) => readDatabase(conn, path, id), {
    harness: HARNESS,
    wal,
  });
  return { meta: summarize(listingRows(body)).meta, body };
}

// ---------------------------------------------------------------------------
// The store

/** Where everything of conversation `id` lives in a lane. */
function lanePaths(lane: LaneRoot, id: string) {
  const conversations = join(lane.root, "conversations");
  const db = join(conversations, `${id}.db`);
  const brain = join(lane.root, "brain", id);
  const logs = join(brain, ".system_generated", "logs");
  return {
    conversations,
    db,
    wal: `${db}-wal`,
    shm: `${db}-shm`,
    pb: join(conversations, `${id}.pb`),
    meta: join(conversations, `${id}.meta`),
    brain,
    logs,
    logFiles: LOG_FILES.map(([key, name]) => [key, join(logs, name)] as const),
  };
}

type Paths = ReturnType<typeof lanePaths>;

interface Located {
  lane: LaneRoot;
  db: string;
}

/**
 * Discovery reads databases on worker threads from this many candidates
 * up: below it, starting a worker (tens of milliseconds) costs more than it
 * saves. See docs/formats/antigravity-store.md, "Discovery" (Threads).
 */
export const PARALLEL_DISCOVERY_FROM = 64;
/** Each worker loads its own copy of the store's modules and SQLite's caches. */
export const MAX_DISCOVERY_WORKERS = 3;
/** How long past the busy timeout a silent discovery worker is waited for. */
const WORKER_STALL_MS = 30_000;

/** The discovery worker module, beside this one (`.ts` when run from source). */
const DISCOVER_WORKER = new URL(
  `./discover-worker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`,
  import.meta.url,
);

/** What the discovery workers receive. */
export interface DiscoverJob {
  candidates: Candidate[];
  busyTimeoutMs: number;
}

export class AntigravityStore implements Store<AntigravityBody> {
  readonly harness = HARNESS;
  readonly roots: readonly string[];
  readonly lanes: readonly LaneRoot[];
  private readonly busyTimeoutMs: number;
  private readonly workers: number | undefined;

  constructor(options: AntigravityStoreOptions = {}) {
    this.lanes = antigravityLanes(options);
    this.roots = this.lanes.map((l) => l.root);
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.workers = options.discoveryWorkers;
  }

  /** Worker threads for a discovery of `count` candidates. */
  private discoveryWorkers(count: number): number {
    if (this.workers !== undefined) return Math.max(0, Math.floor(this.workers));
    if (count < PARALLEL_DISCOVERY_FROM) return 0;
    return Math.max(0, Math.min(MAX_DISCOVERY_WORKERS, availableParallelism() - 1));
  }

  /** The first lane holding `<id>.db` (anything by that name, even a dangling link). */
  private locate(id: string): Located | undefined {
    checkPathComponent(id, HARNESS);
    for (const lane of this.lanes) {
      const db = lanePaths(lane, id).db;
      if (statOrUndefined(db, false)) return { lane, db };
    }
    return undefined;
  }

  private notFound(id: string): NotFoundError {
    return new NotFoundError(
      HARNESS,
      `no conversation ${JSON.stringify(id)} in ${this.roots.map((r) => join(r, "conversations")).join(" or ")}`,
    );
  }

  // -- discover ------------------------------------------------------------

  ids(): string[] {
    const ids = new Set<string>();
    for (const lane of this.lanes) {
      let names: string[];
      try {
        names = readdirSync(join(lane.root, "conversations"));
      } catch {
        continue; // discover() reports unreadable directories
      }
      for (const name of names) {
        if (!name.endsWith(".db")) continue;
        const id = name.slice(0, -3);
        if (pathComponentProblem(id) === undefined) ids.add(id);
      }
    }
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const candidates: Candidate[] = [];
    const skipped: Skipped[] = [];
    for (const lane of this.lanes) {
      const dir = join(lane.root, "conversations");
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR")
          skipped.push({ path: dir, reason: `unreadable (${describeCause(error)})` });
        continue;
      }
      const dbs = new Set(names.filter((n) => n.endsWith(".db")));
      const only = options.paths;
      for (const name of names.sort()) {
        if (name.endsWith(".db")) {
          if (!only || only.has(join(dir, name))) candidates.push({ lane, name });
        } else if (name.endsWith(".pb") && !dbs.has(`${name.slice(0, -3)}.db`)) {
          // A .pb beside its .db is the opaque copy /fork writes: nothing to list.
          skipped.push({
            path: join(dir, name),
            reason:
              "a lone .pb file: an encrypted conversation from agy before 1.0.4, which txcript cannot read",
          });
        }
      }
    }
    const { onProgress } = options;
    const results = await runShared<DiscoverJob, CandidateResult>({
      count: candidates.length,
      run: (i) => discoverCandidate(candidateAt(candidates, i), this.busyTimeoutMs),
      module: DISCOVER_WORKER,
      data: { candidates, busyTimeoutMs: this.busyTimeoutMs },
      threads: this.discoveryWorkers(candidates.length),
      // A worker that died or hung took this candidate with it: the rest are still listed.
      lost: (i, why) => ({
        skipped: {
          path: join(
            candidateAt(candidates, i).lane.root,
            "conversations",
            candidateAt(candidates, i).name,
          ),
          reason: `not read: ${why}`,
        },
      }),
      stallMs: this.busyTimeoutMs + WORKER_STALL_MS,
      ...(onProgress ? { onProgress } : {}),
    });
    const sessions: Discovered[] = [];
    for (const result of results) {
      if ("session" in result) sessions.push(result.session);
      else skipped.push(result.skipped);
    }
    return { sessions, skipped };
  }

  // -- load ----------------------------------------------------------------

  load(id: string): Transcript<AntigravityBody> {
    const found = this.locate(id);
    if (!found) {
      const pb = this.lanes
        .map((lane) => lanePaths(lane, id).pb)
        .find((p) => statOrUndefined(p) !== undefined);
      if (pb)
        throw new UnsupportedError(
          HARNESS,
          "an encrypted conversation from agy before 1.0.4 (a lone .pb file), which txcript cannot read",
          { file: pb },
        );
      throw this.notFound(id);
    }
    const { lane, db } = found;
    const wal = checkFile(db);
    const body = readSnapshot(db, (conn) => readDatabase(conn, db, id), {
      harness: HARNESS,
      busyTimeoutMs: this.busyTimeoutMs,
      wal,
    });
    const paths = lanePaths(lane, id);
    for (const [key, file] of paths.logFiles) {
      const text = readTextIfPresent(file);
      if (text !== undefined) body[key] = text;
    }
    if (lane.lane === "acp") {
      body.lane = "acp";
      const sidecar = readTextIfPresent(paths.meta);
      if (sidecar !== undefined) body.acp_meta = sidecar;
    }
    const { meta } = summarize(listingRows(body));
    if (lane.lane === "acp" && meta.cwd === undefined) {
      const cwd = acpCwd(body.acp_meta);
      if (cwd !== undefined) meta.cwd = cwd;
    }
    return { meta, body };
  }

  // -- save ----------------------------------------------------------------

  save(transcript: Transcript<AntigravityBody>, options: SaveOptions = {}): Saved {
    const { body } = transcript;
    const id = checkPathComponent(transcript.meta.id, HARNESS);
    if (body.id !== id) {
      throw new InvalidRequestError(
        HARNESS,
        `the transcript's id ${JSON.stringify(id)} differs from its body's ${JSON.stringify(body.id)}`,
      );
    }
    const [lane] = this.lanes; // the CLI lane: what `agy --conversation` resumes
    if (!lane) throw new StoreError(HARNESS, "no store root to save into");
    const paths = lanePaths(lane, id);
    // Folders through symlinks are refused before anything is created.
    checkInside(lane.root, paths.logs, HARNESS);
    mkdirInside(lane.root, paths.conversations, HARNESS);
    // One save of a conversation at a time: the loser of a race hears so,
    // rather than both writing brain/<id> and one database silently winning.
    const lock = tryLock(paths.conversations, `${id}.db`);
    if ("heldBy" in lock) {
      throw new ConflictError(
        HARNESS,
        `conversation ${id} is being saved by another process (pid ${lock.heldBy})`,
        { file: paths.db },
      );
    }
    let tmp: string | undefined;
    try {
      const realRoot = realpathSync(lane.root);
      const existing = statOrUndefined(paths.db, false);
      if (existing && !options.overwrite) {
        throw new ConflictError(
          HARNESS,
          `conversation ${id} already exists (overwriting was not asked for)`,
          { file: paths.db },
        );
      }
      if (existing?.isSymbolicLink()) {
        const target = realpathOrUndefined(paths.db);
        if (target !== undefined && !isInside(realRoot, target))
          throw new UnsafePathError(
            HARNESS,
            `${paths.db} resolves to ${target}, outside ${realRoot}`,
          );
      } else if (existing?.isDirectory()) {
        throw new StoreError(HARNESS, "is a directory, not a conversation database", {
          file: paths.db,
        });
      }
      sweepTemps(paths.conversations);
      tmp = tempPath(paths.conversations, `${id}.db`);
      writeDatabase(tmp, body);
      fsyncPath(tmp, "r+");
      // The brain directory comes before the database: agy wedges on a database without it.
      mkdirInside(lane.root, paths.logs, HARNESS);
      sweepTemps(paths.logs);
      const files = [paths.db, paths.brain];
      for (const [key, file] of paths.logFiles) {
        const text = body[key];
        if (text !== undefined) {
          writeFileAtomic(file, text);
          files.push(file);
        } else rmSync(file, { force: true }); // a stale mirror of a replaced conversation
      }
      fsyncPath(paths.logs, "r");
      this.retire(paths.db, existing);
      // The commit point; exclusive unless overwriting, so that a database
      // that appeared meanwhile (agy itself) is never replaced.
      publish(tmp, paths.db, !options.overwrite);
      tmp = undefined;
      fsyncPath(paths.conversations, "r");
      return { harness: HARNESS, id, path: paths.db, files };
    } catch (error) {
      if (tmp !== undefined) {
        for (const suffix of ["", "-journal", "-wal", "-shm"])
          rmSync(tmp + suffix, { force: true });
      }
      if (error instanceof TargetExistsError) {
        throw new ConflictError(HARNESS, `conversation ${id} already exists`, { file: paths.db });
      }
      if (error instanceof TxcriptError) throw error;
      throw new StoreError(HARNESS, describeCause(error), { file: paths.db, cause: error });
    } finally {
      lock.release();
    }
  }

  /**
   * Make way for a new database at `path`: fold the old one's `-wal` into it
   * (so that a crash before the rename still leaves the whole old
   * conversation), then remove its `-wal` and `-shm`, which SQLite would
   * otherwise replay over the new file.
   */
  private retire(path: string, existing: Stats | undefined): void {
    if (existing?.isFile()) {
      let db: Db | undefined;
      try {
        db = openForWriting(path, this.busyTimeoutMs);
        const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
        if (result?.busy)
          throw Object.assign(new Error("checkpoint blocked"), { code: "SQLITE_BUSY" });
      } catch (error) {
        if (isBusy(error)) {
          throw new StoreError(
            HARNESS,
            "conversation is in use by another process (a running agy?); not overwritten",
            { file: path, cause: error },
          );
        }
        // Not a database, or a damaged one: there is nothing to fold in.
      } finally {
        db?.close();
      }
    }
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }

  // -- delete --------------------------------------------------------------

  delete(id: string): string[] {
    const found = this.locate(id);
    if (!found) throw this.notFound(id);
    const paths = lanePaths(found.lane, id);
    // Check everything before removing anything.
    const realRoot = realpathSync(found.lane.root);
    const realConversations = realpathSync(paths.conversations);
    if (!isInside(realRoot, realConversations))
      throw new UnsafePathError(
        HARNESS,
        `${paths.conversations} resolves to ${realConversations}, outside ${realRoot}`,
      );
    const target = realpathOrUndefined(paths.db);
    if (target === undefined || dirname(target) !== realConversations) {
      throw new UnsafePathError(
        HARNESS,
        `${paths.db} resolves to ${target ?? "nothing"}, not a conversation directly in ${realConversations}`,
      );
    }
    const brain = statOrUndefined(paths.brain, false);
    if (brain && !brain.isSymbolicLink()) {
      const realBrain = realpathSync(paths.brain);
      if (!isInside(realRoot, realBrain))
        throw new UnsafePathError(
          HARNESS,
          `${paths.brain} resolves to ${realBrain}, outside ${realRoot}`,
        );
    }
    const removed: string[] = [];
    try {
      // The database first: a crash after it leaves only orphans, never a
      // database without its -wal.
      for (const file of [paths.db, paths.wal, paths.shm]) {
        if (statOrUndefined(file, false)) {
          unlinkSync(join(realConversations, file.slice(paths.conversations.length + 1)));
          removed.push(file);
        }
      }
      if (brain) {
        // A symlinked brain/<id> loses the link only, never what it points to.
        rmSync(paths.brain, { recursive: !brain.isSymbolicLink(), force: true });
        removed.push(paths.brain);
      }
    } catch (error) {
      throw new StoreError(HARNESS, `delete stopped part-way (${describeCause(error)})`, {
        file: paths.db,
        cause: error,
      });
    }
    return removed;
  }

  // -- fingerprint ---------------------------------------------------------

  scan(): Fingerprint[] {
    const out: Fingerprint[] = [];
    for (const lane of this.lanes) {
      let names: string[];
      try {
        names = readdirSync(join(lane.root, "conversations"));
      } catch {
        continue; // discover() reports unreadable directories
      }
      for (const name of names.sort()) {
        if (!name.endsWith(".db")) continue;
        const id = name.slice(0, -3);
        const paths = lanePaths(lane, id);
        const found = fingerprintOf(lane, paths);
        // A dangling or unreadable .db still goes to discovery, which says why it is skipped.
        if (found.files[0]?.path !== paths.db)
          found.files.unshift({ path: paths.db, mtime_ms: 0, size: -1 });
        out.push(found);
      }
    }
    return out;
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    const found = this.locate(id);
    return found && fingerprintOf(found.lane, lanePaths(found.lane, id));
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Write `body` as a new database at `path`, every row in one transaction. */
function writeDatabase(path: string, body: AntigravityBody): void {
  const db = createDatabase(path);
  try {
    // A temporary file: the rename is the commit, and we fsync before it.
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.transaction(() => {
      for (const sql of AGY_SCHEMA) db.exec(sql);
      insertRows(db, "trajectory_meta", body.trajectory_meta);
      insertRows(db, "steps", body.steps);
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

function insertRows(db: Db, table: KnownTable, rows: readonly object[]): void {
  if (rows.length === 0) return;
  const columns = (KNOWN[table] as readonly Column[]).map((c) => c.name);
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  for (const row of rows) {
    const record = row as Record<string, unknown>;
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
