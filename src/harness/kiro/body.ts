/**
 * Kiro CLI's native Body: a session of the 2.x engine, `<id>.json` (SessionData: id, cwd,
 * times, title, session_state) and `<id>.jsonl` (one `LogEntry` per line,
 * `{"version":"v1","kind":...,"data":...}`), every field and every entry
 * kept verbatim, unknown versions and kinds included.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";

export interface KiroSessionBody {
  layout?: undefined;
  /** The session's `<id>.json` metadata, verbatim (empty when read from the log alone). */
  session: JsonObject;
  /** One `LogEntry` per line of `<id>.jsonl`, in order. */
  entries: JsonObject[];
}

/**
 * A conversation of the older engine's SQLite database (`data.sqlite3`,
 * table `conversations_v2`, or the one-per-directory `conversations` of
 * earlier builds): the row's columns and its `ConversationState` JSON.
 */
export interface KiroConversationBody {
  layout: "conversation";
  /** The row's `key`: the working directory the conversation belongs to. */
  key: string;
  /** The row's `created_at` / `updated_at` (epoch ms), when the table has them. */
  created_at?: number;
  updated_at?: number;
  /** The `value` column: a serialized `ConversationState`, verbatim. */
  conversation: JsonObject;
}

/**
 * A session of the agent engine (KAS: `kiro-cli chat --v3`, the Kiro IDE):
 * `~/.kiro/sessions/<bucket>/sess_<uuid>/`, its `session.json` and its
 * `messages.jsonl` (one `{id, timestamp, payload}` a line), both verbatim.
 */
export interface KiroAgentBody {
  layout: "agent";
  /** `session.json` (SessionMetadata), verbatim; empty when read from the rows alone. */
  session: JsonObject;
  /** One persisted message per line of `messages.jsonl`, in order, unknown kinds included. */
  rows: JsonObject[];
  /**
   * A subagent's transcript only: the root's `sub_agent_start` row that
   * names it (`payload.subSessionId` its file's name), verbatim; its
   * `prompt` opens the sub-session and its `subAgentName` is the title.
   */
  start?: JsonObject;
}

export type KiroBody = KiroSessionBody | KiroConversationBody | KiroAgentBody;

/** The `LogEntryV1` kinds Kiro CLI 2.2.1 writes (`crates/agent/src/agent/event_log.rs`). */
const ENTRY_KINDS = [
  "Prompt",
  "AssistantMessage",
  "ToolResults",
  "Compaction",
  "ResetTo",
  "CancelledPrompt",
  "Clear",
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The `ContentBlock` kinds (`agent_loop/types.rs`, serde camelCase). */
const BLOCK_KINDS = ["text", "toolUse", "toolResult", "image", "thinking"] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** An entry's kind, or undefined for a version or kind this reader does not know (kept, not read). */
export function entryKind(entry: JsonObject): EntryKind | undefined {
  if (entry.version !== "v1") return undefined;
  const k = entry.kind;
  return ENTRY_KINDS.find((kind) => kind === k);
}

/** A content block's kind, or undefined for one this reader does not know. */
export function blockKind(block: Json): BlockKind | undefined {
  if (!isJsonObject(block)) return undefined;
  const k = block.kind;
  return BLOCK_KINDS.find((kind) => kind === k);
}

/** A string field of a JSON object, when it is one. */
export function str(value: JsonObject | undefined, key: string): string | undefined {
  const v = value?.[key];
  return typeof v === "string" ? v : undefined;
}

/** An object field of a JSON object, when it is one. */
export function obj(value: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = value?.[key];
  return isJsonObject(v) ? v : undefined;
}

/** A list field of a JSON object (empty when missing or not a list). */
export function list(value: JsonObject | undefined, key: string): Json[] {
  const v = value?.[key];
  return Array.isArray(v) ? v : [];
}
