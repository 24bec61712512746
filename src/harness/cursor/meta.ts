/**
 * A Cursor session's metadata in Common terms, and the user-text rules
 * both layouts share. Pure; used by the codec, the text codec and the
 * store (which lists sessions without converting their messages).
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { EPOCH, type Timestamp, timestampFromMillis } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import type { CursorChatBody } from "./body.js";

/** The newest `meta.json` `schemaVersion` this reader was checked against. */
const KNOWN_CHAT_SCHEMA = 1;

/** Cursor's times: epoch milliseconds (`createdAt`, `createdAtMs`, `updatedAtMs`). */
export function cursorTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > 8.64e15)
    return undefined;
  return timestampFromMillis(Math.trunc(value));
}

/** An assistant blob's model: `providerOptions.cursor.modelName`. */
export function blobModel(blob: JsonObject): string | undefined {
  return str(obj(obj(blob, "providerOptions"), "cursor"), "modelName") || undefined;
}

/** A chat store whose `meta.json` says a newer schema than this reader knows: named, not guessed at. */
export function checkChatSchema(chat: JsonObject, origin?: string): void {
  const v = chat.schemaVersion;
  if (typeof v === "number" && v > KNOWN_CHAT_SCHEMA)
    throw new UnsupportedError(
      "cursor",
      `Cursor chat schemaVersion ${v} is newer than the ${KNOWN_CHAT_SCHEMA} this version reads`,
      { file: origin },
    );
}

/** A chat's metadata: `meta.json` first, then the agent record, then the messages. */
export function chatMeta(body: CursorChatBody, fallbackId = ""): Meta {
  const { chat, agent } = body;
  const first = body.messages.find((m) => cursorTime(m.createdAt) !== undefined);
  const meta: Meta = {
    id: str(agent, "agentId") || fallbackId,
    timestamp:
      cursorTime(chat.createdAtMs) ??
      cursorTime(agent.createdAt) ??
      cursorTime(first?.createdAt) ??
      EPOCH,
  };
  const cwd = str(agent, "workspacePath") || str(chat, "cwd");
  if (cwd) meta.cwd = cwd;
  const title = str(chat, "title") || str(agent, "name");
  if (title) meta.title = title;
  const model =
    str(agent, "lastUsedModel") ||
    body.messages.map(blobModel).find((m) => m !== undefined) ||
    undefined;
  if (model) meta.model = model;
  return meta;
}

const QUERY = /<user_query>\n?([\s\S]*?)\n?<\/user_query>/;

/**
 * What a user's text block says: the text inside `<user_query>` when
 * Cursor wrapped it, undefined for editor-injected context (`<user_info>`
 * with no query), else the text as it is.
 */
export function userText(text: string): string | undefined {
  const m = QUERY.exec(text);
  if (m !== null) return m[1] ?? "";
  return text.includes("<user_info>") ? undefined : text;
}

/** A user's text as Cursor wraps it. */
export function wrapUserText(text: string): string {
  return `<user_query>\n${text}\n</user_query>`;
}
