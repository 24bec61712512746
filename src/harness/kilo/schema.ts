/**
 * Kilo Code CLI 7.7.7's database schema, as its changes to OpenCode's: a
 * fresh `kilo.db` (`kilo session list` in an empty HOME, 2026-12-06) holds
 * OpenCode 1.18.33's statements (../shared/opencode/schema.ts) with two
 * tables changed, Kilo's agent board (two tables), four indexes of its own,
 * and four more migrations recorded as done. Restated from that database's
 * sqlite_master (docs/formats/kilo.md, "Store"); test/real/kilo-schema.test.ts
 * holds it against the real CLI's. Pure data, no I/O.
 */

import type { OpenCodeSchema } from "../shared/opencode/flavor.js";
import { MIGRATIONS, SCHEMA } from "../shared/opencode/schema.js";

/** The Kilo version whose fresh database these statements reproduce. */
const KILO_VERSION = "7.7.7";

/** OpenCode's CREATE statement of `table`, changed by `edit` (which must change it). */
function changed(table: string, edit: (sql: string) => string): string {
  const original = SCHEMA.find((s) => s.startsWith(`CREATE TABLE \`${table}\``));
  const sql = original === undefined ? undefined : edit(original);
  if (original === undefined || sql === undefined || sql === original)
    throw new Error(`Kilo's schema: OpenCode's ${table} table is not the one Kilo changes`);
  return sql;
}

/** `json_extract` of a part or message's `data` at `path`, optionally qualified by its table. */
function field(path: string, table?: string): string {
  return `json_extract(${table === undefined ? "data" : `${table}.data`}, '$.${path}')`;
}

function orEmpty(path: string): string {
  return `coalesce(${field(path)}, '')`;
}

/** A URL-like field, left out when it is a data: URL. */
function notDataUrl(path: string): string {
  return `CASE WHEN ${orEmpty(path)} NOT LIKE 'data:%' THEN ${orEmpty(path)} ELSE '' END`;
}

/** What Kilo's recall search indexes of a part: a text, a file's names, a failed call's error. */
const RECALL_TEXT = [
  "CASE",
  `WHEN ${field("type")} = 'text' THEN ${orEmpty("text")}`,
  `WHEN ${field("type")} = 'file' THEN trim(${[
    orEmpty("filename"),
    notDataUrl("url"),
    orEmpty("source.path"),
    orEmpty("source.name"),
    notDataUrl("source.uri"),
    orEmpty("source.clientName"),
  ].join(" || ' ' || ")})`,
  `ELSE ${orEmpty("state.error")}`,
  "END",
].join(" ");

const RECALL_PARTS = [
  `json_valid(part.data) AND ((${field("type", "part")} = 'text'`,
  `AND coalesce(${field("synthetic", "part")}, 0) = 0`,
  `AND coalesce(${field("ignored", "part")}, 0) = 0)`,
  `OR ${field("type", "part")} = 'file'`,
  `OR (${field("type", "part")} = 'tool' AND ${field("state.status", "part")} = 'error'))`,
].join(" ");

/** Kilo's own tables and indexes, beside OpenCode's. */
const KILO_STATEMENTS: readonly string[] = [
  `CREATE TABLE kilo_board (
  root_session_id text PRIMARY KEY,
  objective text NOT NULL,
  objective_message_id text,
  next_seq integer NOT NULL DEFAULT 1,
  cleared_seq integer NOT NULL DEFAULT 0,
  message_count integer NOT NULL DEFAULT 0,
  message_bytes integer NOT NULL DEFAULT 0,
  time_created integer NOT NULL,
  time_updated integer NOT NULL,
  FOREIGN KEY (root_session_id) REFERENCES session (id) ON DELETE CASCADE
)`,
  `CREATE TABLE kilo_board_message (
  id text PRIMARY KEY,
  board_root_session_id text NOT NULL,
  seq integer NOT NULL,
  time_created integer NOT NULL,
  sender_session_id text NOT NULL,
  recipient text NOT NULL,
  type text NOT NULL,
  body text NOT NULL,
  reply_to text,
  source_message_id text NOT NULL,
  source_call_id text NOT NULL,
  FOREIGN KEY (board_root_session_id) REFERENCES kilo_board (root_session_id) ON DELETE CASCADE
)`,
  "CREATE UNIQUE INDEX kilo_board_message_board_seq_idx ON kilo_board_message (board_root_session_id, seq)",
  `CREATE INDEX recall_message_role_idx ON message (id, ${field("role")}, coalesce(${field("parentID")}, ''))`,
  `CREATE INDEX part_session_step_finish_idx ON part (session_id) WHERE json_valid(part.data) AND ${field("type", "part")} = 'step-finish'`,
  `CREATE INDEX recall_part_search_idx ON part (session_id, id, message_id, ${field("type")}, ${RECALL_TEXT}) WHERE ${RECALL_PARTS}`,
];

/** Kilo's migrations after OpenCode's. */
const KILO_MIGRATIONS: readonly string[] = [
  "20260714141136_session-message-legacy-writer-compat",
  "20260828074139_kilocode_board",
  "20260903104806_kilocode_board_reset",
  "20260907102000_kilocode_model_usage_index",
];

/** OpenCode's statements with Kilo's two changed tables, then Kilo's own before the migration table. */
function statements(): string[] {
  const out = SCHEMA.map((sql) => {
    if (sql.startsWith("CREATE TABLE `session_message`"))
      // Kilo lets a session_message row have no seq (its legacy writer's rows).
      return changed("session_message", (s) =>
        s.replace("`seq` integer NOT NULL", "`seq` integer"),
      );
    if (sql.startsWith("CREATE TABLE `session_context_epoch`"))
      // Kilo's context epoch keeps its agent, a replacement sequence and a revision.
      return changed("session_context_epoch", (s) =>
        s.replace(
          "`baseline_seq` integer NOT NULL,",
          "`baseline_seq` integer NOT NULL, `agent` text NOT NULL DEFAULT 'build', `replacement_seq` integer, `revision` integer NOT NULL DEFAULT 0,",
        ),
      );
    return sql;
  });
  const last = out.pop();
  return last === undefined ? [...KILO_STATEMENTS] : [...out, ...KILO_STATEMENTS, last];
}

export const KILO_SCHEMA: OpenCodeSchema = {
  version: KILO_VERSION,
  statements: statements(),
  migrations: [...MIGRATIONS, ...KILO_MIGRATIONS],
};
