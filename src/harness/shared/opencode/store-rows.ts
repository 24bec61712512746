/**
 * An OpenCode-family database's rows as the store reads them: one session's rows
 * (its Body), a non-OpenCode id's session, the tables a version must have,
 * and the few columns a listing needs for every session at once. Pure
 * SQL over a snapshot the store opened; stores do no conversion.
 */

import { UnsupportedError } from "../../../errors.js";
import { assignDefined } from "../../../json.js";
import type { Db } from "../../../sqlite.js";
import { firstPromptTitle } from "../../../strings.js";
import {
  isPartKind,
  MESSAGE_TABLE,
  type OpenCodeBody,
  PART_TABLE,
  type PartKind,
  PROJECT_TABLE,
  type Row,
  SESSION_TABLE,
  type SqlValue,
  text,
} from "./body.js";
import type { OpenCodePlace } from "./flavor.js";
import { sessionKeys, tail } from "./ids.js";
import { isDefaultTitle } from "./text.js";

export interface Listed {
  session: Row;
  /** Messages by OpenCode's order, each with its role and its parts' kinds. */
  messages: { role: string | undefined; kinds: PartKind[] }[];
  /** The first assistant message's model. */
  model?: string | undefined;
  /** The first prompt as a title, for a session OpenCode left at its default title. */
  prompt?: string | undefined;
  latest: number;
  bytes: number;
}

/** A session's rows in one SELECT each, OpenCode's order (messages by time then id, parts by id). */
export function selectSession(db: Db, id: string): OpenCodeBody | undefined {
  // A row of SQL values is what better-sqlite3 returns for any SELECT *.
  const session = db.prepare<[string], Row>(`SELECT * FROM ${SESSION_TABLE} WHERE id = ?`).get(id);
  if (session === undefined) return undefined;
  const messages = db
    .prepare<[string], Row>(
      `SELECT * FROM ${MESSAGE_TABLE} WHERE session_id = ? ORDER BY time_created, id`,
    )
    .all(id);
  // One indexed query per message (part_message_id_id_idx): no sort of the whole session's parts.
  const partsOf = db.prepare<[string], Row>(
    `SELECT * FROM ${PART_TABLE} WHERE message_id = ? ORDER BY id`,
  );
  const body: OpenCodeBody = {
    session,
    messages: messages.map((row) => ({ row, parts: partsOf.all(text(row, "id") ?? "") })),
  };
  const projectId = text(session, "project_id");
  if (projectId !== undefined && hasTable(db, PROJECT_TABLE)) {
    const project = db
      .prepare<[string], Row>(`SELECT * FROM ${PROJECT_TABLE} WHERE id = ?`)
      .get(projectId);
    assignDefined(body, "project", project);
  }
  return body;
}

/** The session id of `id`: itself, or for a non-OpenCode id the session txcript derives from it (its id ends the same). */
export function sessionIdFor(db: Db, id: string): string {
  if (id.startsWith("ses_")) return id;
  const found = db
    .prepare<[string], SqlValue>(`SELECT id FROM ${SESSION_TABLE} WHERE substr(id, -14) = ?`)
    .pluck()
    .get(tail(sessionKeys(id)));
  return stringOr(found) ?? id;
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function hasTable(db: Db, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

export const REQUIRED_TABLES = [SESSION_TABLE, MESSAGE_TABLE, PART_TABLE] as const;

export function checkTables(
  place: OpenCodePlace,
  db: Db,
  file: string,
  tables: readonly string[] = REQUIRED_TABLES,
): void {
  const missing = tables.filter((t) => !hasTable(db, t));
  if (missing.length > 0) {
    throw new UnsupportedError(
      place.harness,
      `not a ${place.name} database this version knows: no ${missing.join(", ")} table`,
      { file },
    );
  }
}

// The SQL mirror of codec.partKind (the message count must match toCommon's).
const KIND_SQL = `CASE WHEN json_valid(data) THEN CASE json_extract(data, '$.type')
  WHEN 'text' THEN CASE WHEN json_type(data, '$.text') = 'text' AND json_extract(data, '$.text') <> '' THEN 'block' ELSE 'skip' END
  WHEN 'reasoning' THEN CASE WHEN json_type(data, '$.text') = 'text' AND json_extract(data, '$.text') <> '' THEN 'block' ELSE 'skip' END
  WHEN 'file' THEN CASE WHEN json_type(data, '$.url') = 'text' THEN 'block' ELSE 'skip' END
  WHEN 'tool' THEN 'tool' ELSE 'skip' END ELSE 'skip' END`;

export function listDatabase(place: OpenCodePlace, db: Db, file: string): Listed[] {
  checkTables(place, db, file);
  const sessions = db
    .prepare<[], Row>(`SELECT * FROM ${SESSION_TABLE} ORDER BY time_updated DESC, id`)
    .all();
  const listed = new Map<string, Listed>();
  for (const s of sessions) {
    const id = text(s, "id");
    if (id === undefined) continue;
    listed.set(id, {
      session: s,
      messages: [],
      latest: typeof s.time_updated === "number" ? s.time_updated : 0,
      bytes: 0,
    });
  }
  const messages = db
    .prepare<[], SqlValue[]>(
      `SELECT session_id, id, time_updated,
         CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
         length(data) AS bytes,
         CASE WHEN json_valid(data) THEN json_extract(data, '$.modelID') END AS model
       FROM ${MESSAGE_TABLE} ORDER BY session_id, time_created, id`,
    )
    .raw()
    .all();
  const index = new Map<string, { role: string | undefined; kinds: PartKind[] }>();
  for (const [sid, mid, updated, role, bytes, model] of messages) {
    if (typeof sid !== "string" || typeof mid !== "string") continue;
    const l = listed.get(sid);
    if (l === undefined) continue;
    if (l.model === undefined && role === "assistant" && typeof model === "string" && model !== "")
      l.model = model;
    const entry: { role: string | undefined; kinds: PartKind[] } = {
      role: typeof role === "string" ? role : undefined,
      kinds: [],
    };
    l.messages.push(entry);
    index.set(mid, entry);
    if (typeof updated === "number" && updated > l.latest) l.latest = updated;
    if (typeof bytes === "number") l.bytes += bytes;
  }
  const parts = db
    .prepare<[], SqlValue[]>(
      `SELECT message_id, ${KIND_SQL} AS kind, length(data) AS bytes, time_updated, session_id
       FROM ${PART_TABLE} ORDER BY message_id, id`,
    )
    .raw()
    .all();
  for (const [mid, kind, bytes, updated, sid] of parts) {
    if (typeof mid !== "string" || typeof sid !== "string" || !isPartKind(kind)) continue;
    const entry = index.get(mid);
    if (entry === undefined) continue;
    entry.kinds.push(kind);
    const l = listed.get(sid);
    if (l === undefined) continue;
    if (typeof bytes === "number") l.bytes += bytes;
    if (typeof updated === "number" && updated > l.latest) l.latest = updated;
  }
  promptTitles(db, listed);
  return [...listed.values()];
}

/**
 * The first prompt of each session OpenCode left at its default title (few:
 * OpenCode names a session after its first answer), from the text parts of
 * its user messages: what the codec's title fallback reads (text.promptOf).
 */
function promptTitles(db: Db, listed: Map<string, Listed>): void {
  const untitled = [...listed.entries()]
    .filter(([, l]) => isDefaultTitle(text(l.session, "title")))
    .map(([id]) => id);
  if (untitled.length === 0) return;
  const rows = db
    .prepare<[string], SqlValue[]>(
      `SELECT m.session_id, m.id,
         CASE WHEN json_valid(p.data) AND json_extract(p.data, '$.type') = 'text'
           AND json_type(p.data, '$.text') = 'text' THEN json_extract(p.data, '$.text') END
       FROM ${MESSAGE_TABLE} m JOIN ${PART_TABLE} p ON p.message_id = m.id
       WHERE m.session_id IN (SELECT value FROM json_each(?))
         AND json_valid(m.data) AND json_extract(m.data, '$.role') = 'user'
       ORDER BY m.session_id, m.time_created, m.id, p.id`,
    )
    .raw()
    .all(JSON.stringify(untitled));
  const texts = new Map<string, Map<string, string[]>>();
  for (const [sid, mid, value] of rows) {
    if (typeof sid !== "string" || typeof mid !== "string") continue;
    const messages = texts.get(sid) ?? new Map<string, string[]>();
    texts.set(sid, messages);
    const parts = messages.get(mid) ?? [];
    messages.set(mid, parts);
    if (typeof value === "string") parts.push(value);
  }
  for (const [sid, messages] of texts) {
    const l = listed.get(sid);
    if (l !== undefined) l.prompt = firstPromptTitle(messages.values());
  }
}
