/**
/**
 * What the read-only stores (Amp, Cursor, Kiro CLI, Goose, Copilot CLI, Grok CLI,
 * Crush) share: the one-line refusal to delete, discovery that reads each
 * listed session and turns a failure into a skipped entry (and a second
 * lane that cannot be read into one too), a fingerprint only for an id the
 * store lists, a database row as JSON, and a session's row with its message
 * rows (Goose, Crush). The harness, its listing and how
 * one session is read come in as parameters.
 */

import { statSync } from "node:fs";
import type { JsonObject, Meta } from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { pathComponentProblem } from "../../paths.js";
import type { Db } from "../../sqlite.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  HarnessId,
  Skipped,
} from "../../transcript.js";
import { skipReason } from "./store-files.js";

/** `delete` on a read-only store: `what` names the harness's sessions ("Amp threads"). */
export function deleteRefusal(harness: HarnessId, what: string): UnsupportedError {
  return new UnsupportedError(harness, `txcript does not delete ${what}: it only reads them`);
}

/**
 * `read()`, or undefined with its failure added to `skipped` under `path`:
 * a second lane (a shared database) that cannot be read is named, not fatal.
 */
function readOrSkip<T>(path: string, read: () => T, skipped: Skipped[]): T | undefined {
  try {
    return read();
  } catch (cause) {
    skipped.push({ path, reason: skipReason(cause) });
    return undefined;
  }
}

/**
 * One session of a second lane, looked up by `find` in its database, or
 * undefined when there is no database or the first lane holds the id.
 */
export function laneRow<R>(
  db: string | undefined,
  taken: () => boolean,
  find: (db: string) => R | undefined,
): { db: string; row: R } | undefined {
  if (db === undefined || taken()) return undefined;
  const row = find(db);
  return row === undefined ? undefined : { db, row };
}

/**
 * A lane session's metadata: the id the harness finds it by, whatever its
 * record says, and the database's last write when the record has no time.
 */
export function laneMeta(meta: Meta, id: string, db: string): Meta {
  meta.id = id;
  if (meta.timestamp === EPOCH) meta.timestamp = timestampFromMillis(statSync(db).mtimeMs);
  return meta;
}

/** Where a second lane of sessions lives: one database shared by them all. */
export interface Lane {
  harness: HarnessId;
  db: string;
  /** Ids the first lane holds: the same id in this lane is left out. */
  taken: ReadonlySet<string>;
}

/**
 * A second lane of sessions held in one shared database: `read` lists it
 * (a failure is one skipped entry under the database), `rows` picks its
 * sessions and `entry` describes each; the database is each one's path.
 * Returns the listing, for what the caller still reports of it.
 */
export function discoverLane<L, R>(
  into: Discovery,
  lane: Lane,
  read: () => L,
  rows: (listing: L) => readonly R[],
  entry: (row: R) => Omit<Discovered, "harness" | "path">,
): L | undefined {
  const listing = readOrSkip(lane.db, read, into.skipped);
  if (listing === undefined) return undefined;
  for (const row of rows(listing)) {
    const d = entry(row);
    if (!lane.taken.has(d.id)) into.sessions.push({ harness: lane.harness, path: lane.db, ...d });
  }
  return listing;
}

/**
 * Discovery over listed items: each is read by `found`; one that fails is
 * skipped with why, under `pathOf(item)`. Progress counts the items done.
 */
export function discoverEach<T>(
  items: readonly T[],
  pathOf: (item: T) => string,
  found: (item: T, path: string) => Discovered,
  options: DiscoverOptions = {},
): Discovery {
  const sessions: Discovered[] = [];
  const skipped: Discovery["skipped"] = [];
  for (const item of items) {
    const path = pathOf(item);
    try {
      sessions.push(found(item, path));
    } catch (cause) {
      skipped.push({ path, reason: skipReason(cause) });
    }
    options.onProgress?.(sessions.length + skipped.length, items.length);
  }
  return { sessions, skipped };
}

/** The fingerprint of a listed session; undefined for an unsafe id or one the store does not list. */
export function listedFingerprint(
  id: string,
  ids: () => readonly string[],
  stamp: () => Fingerprint,
): Fingerprint | undefined {
  if (pathComponentProblem(id) !== undefined || !ids().includes(id)) return undefined;
  return stamp();
}

/**
 * A row of a harness's own database (`SELECT *`) as JSON, column by
 * column: text, numbers, booleans and NULL as they are, a bigint as a
 * number, a blob as its UTF-8 text (neither Goose nor Crush writes one).
 */
export function rowObject(row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null)
      out[k] = v;
    else if (typeof v === "bigint") out[k] = Number(v);
    else if (Buffer.isBuffer(v)) out[k] = v.toString("utf8");
  }
  return out;
}

/**
 * The `sessions` row with this id (as JSON) and its `messages` rows by
 * `session_id`, sorted by `order` (a fixed ORDER BY list, never input);
 * undefined when the database holds no such session. Goose and Crush keep
 * their sessions so.
 */
export function sessionWithMessages(
  db: Db,
  id: string,
  order: string,
): { session: JsonObject; messages: Record<string, unknown>[] } | undefined {
  const row = db
    .prepare<[string], Record<string, unknown>>("SELECT * FROM sessions WHERE id = ?")
    .get(id);
  if (row === undefined) return undefined;
  const messages = db
    .prepare<[string], Record<string, unknown>>(
      `SELECT * FROM messages WHERE session_id = ? ORDER BY ${order}`,
    )
    .all(id);
  return { session: rowObject(row), messages };
}
