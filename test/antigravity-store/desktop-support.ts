/**
 * The desktop app's layout built from the documented facts
 * (docs/formats/antigravity.md, "Surfaces" and "The summaries cache"):
 * conversations with source 1 and the app's project id, a subagent whose
 * main blob names its root, a live one with a `-wal`, and a summaries cache
 * with the documented columns, or extra or missing ones.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SUMMARY_COLUMNS, type SummaryRow } from "../../src/harness/antigravity/store-summaries.js";
import { buildConversation, mainBlobData } from "../support/agy-fixtures.js";
import { tempDir } from "../support/tmp.js";
import { writeAgyDatabase } from "./support.js";

export const ROOT_ID = "11111111-2222-4333-8444-555555555555";
export const SUB_ID = "66666666-7777-4888-8999-aaaaaaaaaaaa";
export const LIVE_ID = "bbbbbbbb-cccc-4ddd-8eee-ffffffffffff";

/** A conversation as the desktop app writes it: source 1, its own project id. */
export function desktopBody(id: string, seed: number, root?: string) {
  const body = buildConversation({ id, steps: 8, seed });
  for (const row of body.trajectory_meta) row.source = 1;
  body.trajectory_metadata_blob = [
    {
      id: "main",
      data: mainBlobData({
        cwd: "/home/dev/app",
        createdAt: "2026-11-01T10:00:00Z",
        conversationId: root ?? id,
        project: "outside-of-project",
      }),
    },
  ];
  return body;
}

/** The documented table, with `extra` columns appended or `drop` ones left out. */
/** Each documented column's declaration, as [SM] creates the table for agy 1.1.16. */
const DECLARED: Record<string, string> = {
  conversation_id: "text",
  title: 'text NOT NULL DEFAULT ""',
  preview: 'text NOT NULL DEFAULT ""',
  step_count: "integer NOT NULL DEFAULT 0",
  last_modified_time: "datetime NOT NULL",
  workspace_uris: "text NOT NULL",
  status: 'text NOT NULL DEFAULT ""',
  source: 'text NOT NULL DEFAULT ""',
  project_id: 'text NOT NULL DEFAULT ""',
  agent_name: 'text NOT NULL DEFAULT ""',
  parent_conversation_id: 'text NOT NULL DEFAULT ""',
  nesting_depth: "integer NOT NULL DEFAULT 0",
  battle_id: 'text NOT NULL DEFAULT ""',
  winning_conversation_id: 'text NOT NULL DEFAULT ""',
  not_fully_idle: "numeric NOT NULL DEFAULT false",
  killed: "numeric NOT NULL DEFAULT false",
  last_user_input_time: "datetime NOT NULL",
  last_user_input_step_index: "integer NOT NULL DEFAULT -1",
  app_data_dir: 'text NOT NULL DEFAULT ""',
};

/**
 * The documented table (declarations, primary key and indexes as [SM]
 * makes it), with `extra` columns appended or `drop` ones left out; `loose`
 * declares every column without type or constraint, so a test may insert
 * partial rows.
 */
export function makeCache(
  dir: string,
  options: { extra?: string[]; drop?: string[]; loose?: boolean } = {},
): Database.Database {
  const db = new Database(join(dir, "conversation_summaries.db"));
  const cols = [
    ...SUMMARY_COLUMNS.filter((c) => !options.drop?.includes(c)),
    ...(options.extra ?? []),
  ];
  const declare = (c: string) =>
    options.loose ? c : `${c} ${DECLARED[c] ?? 'text NOT NULL DEFAULT ""'}`;
  db.exec(
    `CREATE TABLE conversation_summaries (${cols.map(declare).join(", ")}, PRIMARY KEY (conversation_id))`,
  );
  for (const c of ["last_user_input_time", "last_modified_time"]) {
    if (cols.includes(c))
      db.exec(`CREATE INDEX idx_conversation_summaries_${c} ON conversation_summaries(${c})`);
  }
  return db;
}

export function cacheRow(id: string, status: string, extra: Partial<SummaryRow> = {}): SummaryRow {
  return {
    conversation_id: id,
    title: "",
    preview: "",
    step_count: 8,
    last_modified_time: "2026-11-01 10:00:00+00:00",
    workspace_uris: '["file:///home/dev/app"]',
    status,
    source: "",
    project_id: "outside-of-project",
    agent_name: "",
    parent_conversation_id: "",
    nesting_depth: 0,
    battle_id: "",
    winning_conversation_id: "",
    not_fully_idle: 0,
    killed: 0,
    last_user_input_time: "2026-11-01 10:00:00+00:00",
    last_user_input_step_index: 0,
    app_data_dir: "antigravity",
    ...extra,
  };
}

export function insert(db: Database.Database, row: Record<string, string | number>) {
  const cols = Object.keys(row);
  db.prepare(
    `INSERT INTO conversation_summaries (${cols.join(",")}) VALUES (${cols.map(() => "?").join(",")})`,
  ).run(Object.values(row));
}

export function desktopStore() {
  const home = tempDir();
  const desktop = join(home, ".gemini", "antigravity");
  mkdirSync(join(desktop, "conversations"), { recursive: true });
  writeAgyDatabase(desktop, desktopBody(ROOT_ID, 1));
  writeAgyDatabase(desktop, desktopBody(SUB_ID, 2, ROOT_ID));
  writeAgyDatabase(desktop, desktopBody(LIVE_ID, 3), { leaveWal: true });
  return { home, desktop, env: { HOME: home } };
}
