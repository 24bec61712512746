/**
 * A Kiro older-engine conversation's metadata and history entries
 * (docs/formats/kiro.md "The SQLite engine"). Pure; the store lists
 * conversations with it without converting their messages.
 */

import { isJsonObject, type Json, type JsonObject, type Meta } from "../../common.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import type { KiroConversationBody } from "./body.js";

function field(value: JsonObject | undefined, key: string): Json | undefined {
  return value?.[key];
}

export function text(value: Json | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The one `{Variant: {...}}` key of a serde enum, or undefined. */
export function variant(value: Json | undefined): { name: string; data: JsonObject } | undefined {
  if (!isJsonObject(value)) return undefined;
  const keys = Object.keys(value);
  const name = keys[0];
  if (keys.length !== 1 || name === undefined) return undefined;
  const data = value[name];
  return isJsonObject(data) ? { name, data } : undefined;
}

/** A `created_at`/`updated_at` column (epoch ms) as a time. */
export function columnTime(ms: number | undefined): Timestamp | undefined {
  return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15
    ? timestampFromMillis(Math.trunc(ms))
    : undefined;
}

/** The model the user picked: `model_info.model_id`, else the older `model`. */
export function modelOf(conversation: JsonObject): string | undefined {
  const info = field(conversation, "model_info");
  const id = isJsonObject(info) ? text(info.model_id) : undefined;
  return id || text(conversation.model) || undefined;
}

/** The history entries, each as its user and assistant halves. */
export function historyOf(body: KiroConversationBody): { user: Json; assistant: Json }[] {
  const history = body.conversation.history;
  if (!Array.isArray(history)) return [];
  return history.flatMap((e) => {
    if (isJsonObject(e)) return [{ user: e.user ?? null, assistant: e.assistant ?? null }];
    if (Array.isArray(e) && e.length === 2)
      return [{ user: e[0] ?? null, assistant: e[1] ?? null }];
    return [];
  });
}

export function conversationMeta(body: KiroConversationBody, fallbackId = ""): Meta {
  const meta: Meta = {
    id: text(body.conversation.conversation_id) || fallbackId,
    timestamp: columnTime(body.created_at) ?? firstUserTime(body) ?? EPOCH,
  };
  if (body.key) meta.cwd = body.key;
  const model = modelOf(body.conversation);
  if (model) meta.model = model;
  return meta;
}

export function userTime(user: Json): Timestamp | undefined {
  const ts = isJsonObject(user) ? text(user.timestamp) : undefined;
  return ts === undefined ? undefined : normalizeTimestamp(ts);
}

function firstUserTime(body: KiroConversationBody): Timestamp | undefined {
  for (const e of historyOf(body)) {
    const t = userTime(e.user);
    if (t !== undefined) return t;
  }
  return undefined;
}
