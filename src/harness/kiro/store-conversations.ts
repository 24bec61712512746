/**
 * Reading the older engine's conversations out of `data.sqlite3`
 * (docs/formats/kiro.md "The SQLite engine") through `readSnapshot`:
 * `conversations_v2` (`key`, `conversation_id`, `value`, `created_at`,
 * `updated_at`; migration 008) and the one-per-directory `conversations`
 * (`key`, `value`; migration 007) it replaced. An id both tables hold is
 * `conversations_v2`'s. Only those two tables are queried; the database's
 * other tables (settings, auth state) are never read.
 */

import { isJsonObject, type JsonObject } from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { readSnapshot, type SqlValue, sqlText, tableNames } from "../../sqlite.js";
import type { KiroConversationBody } from "./body.js";

export interface KiroConversation {
  id: string;
  body: KiroConversationBody;
  /** The `value` column's length, for the fingerprint. */
  bytes: number;
}

function numberOf(value: SqlValue | undefined): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return undefined;
}

function conversationOf(row: Record<string, SqlValue>): KiroConversation | undefined {
  const value = sqlText(row.value);
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = jsonFromText(value);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  const conversation: JsonObject = parsed;
  const id =
    sqlText(row.conversation_id) ||
    (typeof conversation.conversation_id === "string" ? conversation.conversation_id : "");
  if (!id) return undefined;
  const body: KiroConversationBody = {
    layout: "conversation",
    key: sqlText(row.key) ?? "",
    conversation,
  };
  const created = numberOf(row.created_at);
  const updated = numberOf(row.updated_at);
  assignDefined(body, "created_at", created);
  assignDefined(body, "updated_at", updated);
  return { id, body, bytes: value.length };
}

/** What the database holds: its conversations, and how many rows were not one. */
export interface KiroConversations {
  conversations: KiroConversation[];
  unreadable: number;
}

/** Every conversation in the database (one id once, `conversations_v2` first). */
export function readConversations(file: string, only?: string): KiroConversations {
  return readSnapshot(
    file,
    (db) => {
      const tables = tableNames(db);
      if (!tables.has("conversations_v2") && !tables.has("conversations"))
        throw new UnsupportedError(
          "kiro",
          "no conversations_v2 or conversations table: not a Kiro CLI database",
          { file },
        );
      const found = new Map<string, KiroConversation>();
      let unreadable = 0;
      const add = (rows: Iterable<Record<string, SqlValue>>) => {
        for (const row of rows) {
          const c = conversationOf(row);
          if (c === undefined) unreadable++;
          else if (!found.has(c.id) && (only === undefined || c.id === only)) found.set(c.id, c);
        }
      };
      if (tables.has("conversations_v2"))
        add(
          db
            .prepare<[], Record<string, SqlValue>>(
              "SELECT key, conversation_id, value, created_at, updated_at FROM conversations_v2 ORDER BY rowid",
            )
            .iterate(),
        );
      if (tables.has("conversations"))
        add(
          db
            .prepare<[], Record<string, SqlValue>>(
              "SELECT key, value FROM conversations ORDER BY rowid",
            )
            .iterate(),
        );
      return { conversations: [...found.values()], unreadable };
    },
    { harness: "kiro" },
  );
}
