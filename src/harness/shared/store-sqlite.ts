/**
 * One write to a harness's SQLite database: a `BEGIN IMMEDIATE`
 * transaction (the write lock taken up front, so no other writer slips in
 * between txcript's reads and inserts), a busy database retried until the
 * timeout, anything else rolled back and named in one line.
 */

import { existsSync } from "node:fs";
import { StoreError } from "../../errors.js";
import { type Db, isBusy, openForWriting, sleepSync, sqliteError } from "../../sqlite.js";
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
