/**
 * The few rows discovery reads from an agy conversation database (first
 * prompt, last steps, statuses) and the message count estimated from step
 * types, without loading the conversation. Opens nothing itself.
 */

import { type Db, quoteIdentifier, sqliteCode } from "../../sqlite.js";
import {
  CHECKPOINT,
  checkVersion,
  foreignLayout,
  IN_FLIGHT,
  KNOWN_TABLES,
  type KnownTable,
  knownColumns,
  knownRows,
  PLANNER_RESPONSE,
  type RowOf,
  requireSteps,
  rowReader,
  SILENT,
  typedRows,
  USER_INPUT,
} from "./store-rows.js";

import { type ListingRows, RECENT_GEN_METADATA } from "./summary.js";

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
    .prepare<[], [string, string]>(
      "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index')",
    )
    .raw()
    .all();
  for (const [type, name] of rows) (type === "table" ? tables : indexes).add(name);
  return { tables, indexes };
}

/**
 * The steps a listing needs, by primary key through the step_type index:
 * the first user input, the latest checkpoint and the latest planner step.
 */
function picksSql(select: string): string {
  return `SELECT ${select} FROM steps WHERE idx IN (
  (SELECT min(idx) FROM steps WHERE step_type = ${USER_INPUT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${CHECKPOINT}),
  (SELECT max(idx) FROM steps WHERE step_type = ${PLANNER_RESPONSE}))`;
}

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
    .prepare<[], [number | null, string | null]>(
      // Silent kinds are skipped below: a NOT IN here costs more than their strings.
      `SELECT step_type, group_concat(idx) FROM steps ${byType} GROUP BY step_type
       UNION ALL SELECT NULL, group_concat(idx) FROM steps ${byStatus} WHERE status IN (${IN_FLIGHT})`,
    )
    .raw()
    .all();
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

export function readListing(db: Db, file: string, id: string): ListingRead {
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
  // agy's own layout: every column named, so SQLite is never asked for
  // their names (a missing one fails with SQLITE_ERROR, and readListing
  // reads the shape); any other layout: `SELECT *` and the names it has.
  const named = shape === AGY_SHAPE;
  const table = <K extends KnownTable>(name: K, sql: (select: string) => string): RowOf<K>[] => {
    if (!shape.tables.has(name)) return [];
    return named
      ? knownRows(db, name, sql(knownColumns(name).join(", ")), file)
      : typedRows(db, name, sql("*"), file);
  };
  const rows: ListingRows = {
    id,
    trajectory_meta: table(
      "trajectory_meta",
      (c) => `SELECT ${c} FROM trajectory_meta ORDER BY rowid`,
    ),
    trajectory_metadata_blob: table(
      "trajectory_metadata_blob",
      (c) => `SELECT ${c} FROM trajectory_metadata_blob ORDER BY rowid`,
    ),
    parent_references: table(
      "parent_references",
      (c) => `SELECT ${c} FROM parent_references ORDER BY idx`,
    ),
  };
  const recent = table(
    "gen_metadata",
    (c) => `SELECT ${c} FROM gen_metadata ORDER BY idx DESC LIMIT ${RECENT_GEN_METADATA}`,
  );
  if (recent.length > 0) rows.recent_gen_metadata = recent;
  let columns: readonly string[];
  let picks: unknown[][];
  if (named) {
    columns = knownColumns("steps");
    picks = db
      .prepare<[], unknown[]>(picksSql(columns.join(", ")))
      .raw()
      .all();
  } else {
    const typed = db.prepare<[], unknown[]>(picksSql("*")).raw();
    columns = typed.columns().map((c) => c.name);
    picks = typed.all();
  }
  const read = rowReader("steps", columns, file);
  for (const step of picks.map(read)) {
    if (step.step_type === USER_INPUT) rows.first_user_input = step;
    else if (step.step_type === CHECKPOINT) rows.latest_checkpoint = step;
    else rows.latest_planner = step;
  }
  const ends = named
    ? knownRows(db, "steps", endsSql(columns), file)
    : typedRows(db, "steps", endsSql(columns), file);
  const [first] = ends;
  const last = ends.at(-1);
  if (first && last) {
    rows.first_step = first;
    rows.last_step = last;
  }
  return { rows, messageCount: messageCount(db, shape) };
}
