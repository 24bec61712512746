/**
 * Writing a harness's SQLite database: one `BEGIN IMMEDIATE` transaction
 * (the write lock taken up front, so no other writer slips in between
 * txcript's reads and inserts), a busy database retried until the timeout,
 * anything else rolled back and named in one line; and a first database
 * made whole before anyone can open it.
 */

import { existsSync, unlinkSync } from "node:fs";
import { basename, dirname } from "node:path";
import { describeCause, StoreError } from "../../errors.js";
import { publish, TargetExistsError, tempPath } from "../../fsx.js";
import {
  createDatabase,
  type Db,
  isBusy,
  openForWriting,
  sleepSync,
  sqliteError,
} from "../../sqlite.js";
import type { HarnessId } from "../../transcript.js";

/** Whose database: the harness's id, and its name in messages. */
export interface DatabaseOwner {
  readonly harness: HarnessId;
  readonly name: string;
}

/** Run `write` in one `BEGIN IMMEDIATE` transaction on the existing `database`. */
export function writeTransaction<T>(
  owner: DatabaseOwner,
  database: string,
  busyTimeoutMs: number,
  write: (db: Db) => T,
): T {
  if (!existsSync(database)) {
    throw new StoreError(owner.harness, `no ${owner.name} database here`, { file: database });
  }
  const deadline = Date.now() + busyTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    let db: Db | undefined;
    let begun = false;
    try {
      db = openForWriting(database, Math.max(0, deadline - Date.now()));
      db.exec("BEGIN IMMEDIATE");
      begun = true;
      const result = write(db);
      db.exec("COMMIT");
      begun = false;
      return result;
    } catch (error) {
      if (begun && db?.inTransaction) {
        try {
          db.exec("ROLLBACK");
        } catch {
          // The connection is closed below; SQLite rolls back what was not committed.
        }
      }
      if (isBusy(error) && Date.now() < deadline) {
        sleepSync(Math.min(10 * 2 ** Math.min(attempt, 5), 200));
        continue;
      }
      throw sqliteError(owner.harness, database, error);
    } finally {
      db?.close();
    }
  }
}

/**
 * Make `database` (its folder already there) unless something holds its
 * name: `build` fills it in one transaction, write-ahead logging on (kept
 * in the file's header), under a temporary name, published with a hard
 * link, so a database the harness (or another txcript) makes meanwhile
 * stands and nobody ever opens a half-made one. `what` names it in errors.
 */
export function createPublished(
  owner: DatabaseOwner,
  database: string,
  what: string,
  build: (db: Db) => void,
): void {
  const tmp = tempPath(dirname(database), basename(database));
  let db: Db | undefined;
  try {
    const fresh = createDatabase(tmp);
    db = fresh;
    fresh.pragma("journal_mode = WAL");
    fresh.transaction(() => build(fresh))();
    fresh.close();
    db = undefined;
    publish(tmp, database, true);
  } catch (error) {
    // Another writer made it first: theirs stands, and ours is not needed.
    if (error instanceof TargetExistsError) return;
    const failed = sqliteError(owner.harness, database, error);
    throw new StoreError(
      owner.harness,
      `could not create ${what}: ${failed.detail || describeCause(error)}`,
      { file: database, cause: error },
    );
  } finally {
    db?.close();
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) {
      try {
        unlinkSync(f);
      } catch {
        // Already published (the link) or never made.
      }
    }
  }
}
