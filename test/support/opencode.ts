/**
 * OpenCode databases for tests: an empty one with the schema OpenCode
 * 1.18.33 creates (test/fixtures/opencode/schema-1.18.33.sql, dumped from a
 * database the real CLI made), and a copy of the fixture database the real
 * CLI wrote (test/fixtures/opencode/opencode.db).
 */

import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase } from "../../src/sqlite.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "opencode");
export const OPENCODE_FIXTURE_DB = join(FIXTURES, "opencode.db");
export const OPENCODE_SCHEMA = readFileSync(join(FIXTURES, "schema-1.18.33.sql"), "utf8");

/** `dir/opencode.db` with 1.18.33's schema and no sessions, in WAL mode as OpenCode leaves it. */
export function createOpenCodeDatabase(dir: string, schema = OPENCODE_SCHEMA): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "opencode.db");
  // Through txcript's own opener: the first open in a process decides
  // whether SQLite takes URI filenames, which txcript's read-only opens need.
  const db = createDatabase(path);
  db.pragma("journal_mode = WAL");
  db.exec(schema);
  db.close();
  return path;
}

/** A copy of the database the real OpenCode wrote, as `dir/opencode.db`. */
export function copyOpenCodeFixture(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "opencode.db");
  copyFileSync(OPENCODE_FIXTURE_DB, path);
  createDatabase(":memory:").close(); // see createOpenCodeDatabase: URIs on in this process
  return path;
}
