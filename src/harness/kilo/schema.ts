/**
 * Kilo Code CLI 7.7.7's database schema, as its changes to OpenCode's: a
 * fresh `kilo.db` (`kilo session list` in an empty HOME, 2026-12-06) holds
 * OpenCode 1.18.33's statements (../shared/opencode/schema.ts) with two
 * tables changed, Kilo's agent board (two tables), four indexes of its own,
 * and four more migrations recorded as done. Each statement is the text that
 * database's sqlite_master holds, at its place there
 * (docs/formats/kilo.md); test/real/kilo-schema.test.ts holds it against the
 * real CLI's. Pure data, no I/O.
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

/** `json_extract` of a part or message's `data` at `path`, optionally qualified by its table, quoted as Kilo's SQL is. */
function field(path: string, table?: string): string {
  return `json_extract(${table === undefined ? '"data"' : `"${table}"."data"`}, '$.${path}')`;
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
  `json_valid("part"."data") AND ((${field("type", "part")} = 'text'`,
  `AND coalesce(${field("synthetic", "part")}, 0) = 0`,
  `AND coalesce(${field("ignored", "part")}, 0) = 0)`,
  `OR ${field("type", "part")} = 'file'`,
  `OR (${field("type", "part")} = 'tool' AND ${field("state.status", "part")} = 'error'))`,
].join(" ");

/** Kilo's agent board tables, as Drizzle writes them (placed after OpenCode's `event`). */
const KILO_TABLES: readonly string[] = [
  `CREATE TABLE \`kilo_board_message\` (
          \`id\` text PRIMARY KEY,
          \`board_root_session_id\` text NOT NULL,
          \`seq\` integer NOT NULL,
          \`time_created\` integer NOT NULL,
          \`sender_session_id\` text NOT NULL,
          \`recipient\` text NOT NULL,
          \`type\` text NOT NULL,
          \`body\` text NOT NULL,
          \`reply_to\` text,
          \`source_message_id\` text NOT NULL,
          \`source_call_id\` text NOT NULL,
          CONSTRAINT \`fk_kilo_board_message_board_root_session_id_kilo_board_root_session_id_fk\` FOREIGN KEY (\`board_root_session_id\`) REFERENCES \`kilo_board\`(\`root_session_id\`) ON DELETE CASCADE
        )`,
  `CREATE TABLE \`kilo_board\` (
          \`root_session_id\` text PRIMARY KEY,
          \`objective\` text NOT NULL,
          \`objective_message_id\` text,
          \`next_seq\` integer DEFAULT 1 NOT NULL,
          \`cleared_seq\` integer DEFAULT 0 NOT NULL,
          \`message_count\` integer DEFAULT 0 NOT NULL,
          \`message_bytes\` integer DEFAULT 0 NOT NULL,
          \`time_created\` integer NOT NULL,
          \`time_updated\` integer NOT NULL,
          CONSTRAINT \`fk_kilo_board_root_session_id_session_id_fk\` FOREIGN KEY (\`root_session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE
        )`,
];

/** Kilo's own indexes, each after the OpenCode statement named by its key (sqlite_master's order). */
const KILO_AFTER: ReadonlyMap<string, readonly string[]> = new Map([
  ["CREATE TABLE `event`", KILO_TABLES],
  [
    "CREATE INDEX `event_aggregate_type_seq_idx`",
    [
      "CREATE UNIQUE INDEX `kilo_board_message_board_seq_idx` ON `kilo_board_message` (`board_root_session_id`,`seq`)",
    ],
  ],
  [
    "CREATE INDEX `message_session_time_created_id_idx`",
    [
      `CREATE INDEX \`recall_message_role_idx\` ON \`message\` (\`id\`,${field("role")},coalesce(${field("parentID")}, ''))`,
    ],
  ],
  [
    "CREATE INDEX `part_session_idx`",
    [
      `CREATE INDEX \`part_session_step_finish_idx\` ON \`part\` (\`session_id\`) WHERE json_valid("part"."data") AND ${field("type", "part")} = 'step-finish'`,
      `CREATE INDEX \`recall_part_search_idx\` ON \`part\` (\`session_id\`,\`id\`,\`message_id\`,${field("type")},${RECALL_TEXT}) WHERE ${RECALL_PARTS}`,
    ],
  ],
]);

/** Kilo's migrations after OpenCode's. */
const KILO_MIGRATIONS: readonly string[] = [
  "20260714141136_session-message-legacy-writer-compat",
  "20260828074139_kilocode_board",
  "20260903104806_kilocode_board_reset",
  "20260907102000_kilocode_model_usage_index",
];

/** OpenCode's statements with Kilo's two changed tables, and Kilo's own where sqlite_master has them. */
function statements(): string[] {
  const out: string[] = [];
  const placed = new Set<string>();
  for (const sql of SCHEMA) {
    if (sql.startsWith("CREATE TABLE `session_message`"))
      // Kilo lets a session_message row have no seq (its legacy writer's rows).
      out.push(
        changed("session_message", (s) => s.replace("`seq` integer NOT NULL", "`seq` integer")),
      );
    else if (sql.startsWith("CREATE TABLE `session_context_epoch`"))
      // Kilo's context epoch keeps its agent, a replacement sequence and a revision.
      out.push(
        changed("session_context_epoch", (s) =>
          s.replace(
            "`baseline_seq` integer NOT NULL,",
            "`baseline_seq` integer NOT NULL, `agent` text DEFAULT 'build' NOT NULL, `replacement_seq` integer, `revision` integer DEFAULT 0 NOT NULL,",
          ),
        ),
      );
    else out.push(sql);
    for (const [anchor, own] of KILO_AFTER)
      if (sql.startsWith(`${anchor} `) || sql.startsWith(`${anchor}(`)) {
        out.push(...own);
        placed.add(anchor);
      }
  }
  // An anchor OpenCode's schema no longer has would drop Kilo's statements silently.
  for (const anchor of KILO_AFTER.keys())
    if (!placed.has(anchor)) throw new Error(`Kilo's schema: OpenCode has no ${anchor}`);
  return out;
}

export const KILO_SCHEMA: OpenCodeSchema = {
  version: KILO_VERSION,
  statements: statements(),
  migrations: [...MIGRATIONS, ...KILO_MIGRATIONS],
};
