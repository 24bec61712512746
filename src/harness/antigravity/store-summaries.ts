/**
 * agy's summaries cache, `<lane root>/conversation_summaries.db`: one row
 * per conversation with its picker title, preview and live run status.
 * Read-only and best effort: a cache that is missing, locked, corrupt, older
 * or newer (other columns) gives what it can, never an error, because the
 * conversation databases stay the list of record (the table lags them).
 * Writing a row (`writeSummaryRow`) happens only when the table has exactly
 * the documented columns. Facts: docs/formats/antigravity.md, "Surfaces and
 * the summaries cache".
 */

import { join } from "node:path";
import { type Db, isBusy, openForWriting, readSnapshot } from "../../sqlite.js";

/** The cache's file name, beside `conversations/`. */
const SUMMARIES_FILE = "conversation_summaries.db";

/** The 19 documented columns, in table order. */
export const SUMMARY_COLUMNS = [
  "conversation_id",
  "title",
  "preview",
  "step_count",
  "last_modified_time",
  "workspace_uris",
  "status",
  "source",
  "project_id",
  "agent_name",
  "parent_conversation_id",
  "nesting_depth",
  "battle_id",
  "winning_conversation_id",
  "not_fully_idle",
  "killed",
  "last_user_input_time",
  "last_user_input_step_index",
  "app_data_dir",
] as const;

/** The status value of an idle conversation. */
const IDLE_STATUS = "CASCADE_RUN_STATUS_IDLE";
/** The status value of a running one. */
const RUNNING_STATUS = "CASCADE_RUN_STATUS_RUNNING";

/** What txcript takes from one cached row. */
export interface CachedSummary {
  title?: string;
  preview?: string;
  /** `status` verbatim (`CASCADE_RUN_STATUS_…`). */
  status?: string;
  /** RUNNING, or IDLE with `not_fully_idle` set; never when `killed`. */
  running: boolean;
}

export function summariesPath(root: string): string {
  return join(root, SUMMARIES_FILE);
}

/** The columns of `conversation_summaries`, or undefined when there is no such table. */
function columnsOf(db: Db): string[] | undefined {
  const rows = db.prepare("PRAGMA table_info('conversation_summaries')").all();
  const names: string[] = [];
  for (const row of rows) {
    if (typeof row === "object" && row !== null && "name" in row && typeof row.name === "string")
      names.push(row.name);
  }
  return names.length > 0 ? names : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function truthy(value: unknown): boolean {
  return value === 1 || value === 1n || value === "1" || value === "true" || value === true;
}

/**
 * The cache's rows by conversation id: empty when the file is missing,
 * unreadable, locked past `busyTimeoutMs`, or has no `conversation_id`.
 * Only the columns present are read, so an older or newer table still gives
 * what it shares with the documented one.
 */
export function readSummaries(root: string, busyTimeoutMs = 200): Map<string, CachedSummary> {
  const out = new Map<string, CachedSummary>();
  try {
    readSnapshot(
      summariesPath(root),
      (db) => {
        const columns = columnsOf(db);
        if (!columns?.includes("conversation_id")) return;
        const wanted = ["title", "preview", "status", "not_fully_idle", "killed"].filter((c) =>
          columns.includes(c),
        );
        const select = ["conversation_id", ...wanted].map((c) => `"${c}"`).join(",");
        for (const row of db.prepare(`SELECT ${select} FROM conversation_summaries`).iterate()) {
          if (typeof row !== "object" || row === null) continue;
          const r = new Map(Object.entries(row));
          const id = text(r.get("conversation_id"));
          if (id === undefined) continue;
          const status = text(r.get("status"));
          // RUNNING runs; IDLE with not_fully_idle still has a subagent at
          // work unless killed. ERROR, UNLOADED and unknown values are not
          // shown as running: a false "running" is worse than a missed one.
          const killed = truthy(r.get("killed"));
          const found: CachedSummary = {
            running:
              !killed &&
              (status === RUNNING_STATUS ||
                (status === IDLE_STATUS && truthy(r.get("not_fully_idle")))),
          };
          const title = text(r.get("title"));
          if (title !== undefined) found.title = title;
          const preview = text(r.get("preview"));
          if (preview !== undefined) found.preview = preview;
          if (status !== undefined) found.status = status;
          out.set(id, found);
        }
      },
      { harness: "antigravity", busyTimeoutMs },
    );
  } catch {
    // Missing, locked, corrupt: the cache only ever adds to the listing.
    return new Map();
  }
  return out;
}

/** One row for `writeSummaryRow`, by documented column. */
export type SummaryRow = Record<(typeof SUMMARY_COLUMNS)[number], string | number>;

/** Why a row was not written, or undefined when it was. */
export type SummaryWrite = { written: true } | { written: false; reason: string };

/**
 * Insert `row` into the cache at `root` in one IMMEDIATE transaction (SQLite's
 * write lock, waiting up to `busyTimeoutMs`), only when the table exists with
 * exactly the documented columns in order and holds no row for that id.
 * Never creates the file or the table: a cache the app has not made is
 * not ours to make.
 */
export function writeSummaryRow(root: string, row: SummaryRow, busyTimeoutMs = 5000): SummaryWrite {
  const path = summariesPath(root);
  let db: Db;
  try {
    db = openForWriting(path, busyTimeoutMs);
  } catch {
    return { written: false, reason: `no summaries cache at ${path}` };
  }
  try {
    const columns = columnsOf(db);
    if (columns === undefined)
      return { written: false, reason: `${path} has no conversation_summaries table` };
    if (columns.join(",") !== SUMMARY_COLUMNS.join(","))
      return {
        written: false,
        reason: `${path}: conversation_summaries has ${columns.length} columns, not the 19 documented`,
      };
    db.exec("BEGIN IMMEDIATE");
    try {
      const exists = db
        .prepare("SELECT 1 FROM conversation_summaries WHERE conversation_id = ?")
        .get(row.conversation_id);
      if (exists !== undefined) {
        db.exec("ROLLBACK");
        return { written: false, reason: `${path} already has a row for ${row.conversation_id}` };
      }
      db.prepare(
        `INSERT INTO conversation_summaries (${SUMMARY_COLUMNS.join(",")}) VALUES (${SUMMARY_COLUMNS.map(() => "?").join(",")})`,
      ).run(...SUMMARY_COLUMNS.map((c) => row[c]));
      db.exec("COMMIT");
      return { written: true };
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  } catch (error) {
    return {
      written: false,
      reason: `${path} ${isBusy(error) ? "stayed locked" : "could not be written"}`,
    };
  } finally {
    db.close();
  }
}
