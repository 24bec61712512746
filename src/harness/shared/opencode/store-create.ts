/**
 * A first database for a data directory where an OpenCode-family CLI has
 * never run: the schema its pinned version creates there (the flavor's
 * schema: OpenCode's in schema.ts, a member's own changes on top), its migrations
 * recorded as done, write-ahead logging on, built under a temporary name
 * and published with a hard link, so a database OpenCode (or another
 * txcript) creates meanwhile is never replaced and nobody ever opens a
 * half-made one. A data directory that still holds pre-SQLite sessions
 * under `storage/session/` is refused: the CLI moves those into the database
 * only when it creates the database itself.
 */

import { existsSync, mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { StoreError } from "../../../errors.js";
import { createPublished } from "../store-sqlite.js";
import type { OpenCodeFlavor } from "./flavor.js";
import { STORAGE_DIR } from "./probe.js";

/**
 * Create `database` (in the member's data directory `root`) unless it exists.
 * Throws a one-line StoreError when it cannot be done safely.
 */
export function createFamilyDatabase(flavor: OpenCodeFlavor, root: string, database: string): void {
  if (existsSync(database)) return;
  const { harness, name } = flavor;
  const file = basename(database);
  if (existsSync(`${root}/${STORAGE_DIR}/session`)) {
    throw new StoreError(
      harness,
      `no ${file} here but ${name}'s older ${STORAGE_DIR}/ folder is: run ${name} once so that it moves it into ${file}, then continue again`,
      { file: root },
    );
  }
  try {
    mkdirSync(dirname(database), { recursive: true });
  } catch (cause) {
    throw new StoreError(harness, `cannot create ${name}'s data folder`, {
      file: root,
      cause,
    });
  }
  createPublished(flavor, database, `${name} ${flavor.schema.version}'s database`, (fresh) => {
    for (const statement of flavor.schema.statements) fresh.exec(statement);
    const now = Date.now();
    const done = fresh.prepare("INSERT INTO migration (id, time_completed) VALUES (?, ?)");
    for (const id of flavor.schema.migrations) done.run(id, now);
  });
}
