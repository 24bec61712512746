/**
 * A first `opencode.db` for a data directory where OpenCode has never run:
 * the schema OpenCode 1.18.33 creates there (schema.ts), its migrations
 * recorded as done, write-ahead logging on, built under a temporary name
 * and published with a hard link, so a database OpenCode (or another
 * txcript) creates meanwhile is never replaced and nobody ever opens a
 * half-made one. A data directory that still holds OpenCode's pre-SQLite
 * `storage/` is refused: OpenCode moves that into the database only when it
 * creates the database itself.
 */

import { existsSync, mkdirSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { describeCause, StoreError } from "../../errors.js";
import { publish, TargetExistsError, tempPath } from "../../fsx.js";
import { createDatabase, type Db, sqliteError } from "../../sqlite.js";
import { DATABASE, STORAGE_DIR } from "./probe.js";
import { MIGRATIONS, SCHEMA, SCHEMA_VERSION } from "./schema.js";

/**
 * Create `database` (in OpenCode's data directory `root`) unless it exists.
 * Throws a one-line StoreError when it cannot be done safely.
 */
export function createOpenCodeDatabase(root: string, database: string): void {
  if (existsSync(database)) return;
  if (existsSync(`${root}/${STORAGE_DIR}`)) {
    throw new StoreError(
      "opencode",
      `no ${DATABASE} here but OpenCode's older ${STORAGE_DIR}/ folder is: run OpenCode once so that it moves it into ${DATABASE}, then continue again`,
      { file: root },
    );
  }
  try {
    mkdirSync(dirname(database), { recursive: true });
  } catch (cause) {
    throw new StoreError("opencode", `cannot create OpenCode's data folder`, {
      file: root,
      cause,
    });
  }
  const tmp = tempPath(dirname(database), DATABASE);
  let db: Db | undefined;
  try {
    const fresh = createDatabase(tmp);
    db = fresh;
    // As OpenCode opens it: write-ahead logging (kept in the file's header).
    fresh.pragma("journal_mode = WAL");
    const now = Date.now();
    fresh.transaction(() => {
      for (const statement of SCHEMA) fresh.exec(statement);
      const done = fresh.prepare("INSERT INTO migration (id, time_completed) VALUES (?, ?)");
      for (const id of MIGRATIONS) done.run(id, now);
    })();
    fresh.close();
    db = undefined;
    publish(tmp, database, true);
  } catch (error) {
    // Another writer made it first: theirs stands, and ours is not needed.
    if (error instanceof TargetExistsError) return;
    const failed = sqliteError("opencode", database, error);
    throw new StoreError(
      "opencode",
      `could not create OpenCode ${SCHEMA_VERSION}'s database: ${failed.detail || describeCause(error)}`,
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
