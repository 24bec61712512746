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

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { assignDefined } from "../../json.js";
import { type Db, isBusy, openForWriting, readSnapshot } from "../../sqlite.js";
import { IDLE_STATUS, RUNNING_STATUS, SUMMARY_COLUMNS, type SummaryRow } from "./summary-row.js";

export { SUMMARY_COLUMNS, type SummaryRow } from "./summary-row.js";

/** The cache's file name, beside `conversations/`. */
const SUMMARIES_FILE = "conversation_summaries.db";

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
          assignDefined(found, "title", title);
          const preview = text(r.get("preview"));
          assignDefined(found, "preview", preview);
          assignDefined(found, "status", status);
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

/** Why a row was not written, or undefined when it was. */
export type SummaryWrite = { written: true } | { written: false; reason: string };

/**
 * Put `row` into the cache at `root` in one IMMEDIATE transaction (SQLite's
 * write lock, waiting up to `busyTimeoutMs`), replacing the row for that
 * id (the conversation was just written, so what was said of it is stale),
 * only when the table exists with exactly the documented columns in order.
 * Never creates the file or the table (a cache the app has not made is not
 * ours to make), and never writes through a link.
 */
export function writeSummaryRow(root: string, row: SummaryRow, busyTimeoutMs = 5000): SummaryWrite {
  const path = summariesPath(root);
  let isFile = false;
  try {
    isFile = lstatSync(path).isFile();
  } catch {
    // missing: said below
  }
  if (!isFile) return { written: false, reason: `no summaries cache at ${path}` };
  let db: Db;
  try {
    db = openForWriting(path, busyTimeoutMs);
  } catch {
    return { written: false, reason: `${path} could not be opened` };
  }
  try {
    const columns = columnsOf(db);
    if (columns === undefined)
      return { written: false, reason: `${path} has no conversation_summaries table` };
    if (columns.join(",") !== SUMMARY_COLUMNS.join(",")) {
      const documented: readonly string[] = SUMMARY_COLUMNS;
      const extra = columns.filter((c) => !documented.includes(c));
      const missing = documented.filter((c) => !columns.includes(c));
      const how = [
        extra.length > 0 ? `extra ${extra.join(", ")}` : "",
        missing.length > 0 ? `missing ${missing.join(", ")}` : "",
      ].filter((x) => x !== "");
      return {
        written: false,
        reason: `${path}: conversation_summaries has ${columns.length} columns, not the ${documented.length} documented (${how.length > 0 ? how.join("; ") : "in another order"})`,
      };
    }
    db.exec("BEGIN IMMEDIATE");
    try {
      db.prepare("DELETE FROM conversation_summaries WHERE conversation_id = ?").run(
        row.conversation_id,
      );
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
