/**
 * Cline's native Body: the session's messages file, as parsed, and its
 * manifest when there is one. Cline's CLI (3.x, `@cline/core`) keeps
 * `<sessions>/<id>/<id>.messages.json` (`{version, updated_at, agent,
 * sessionId, origin, messages, system_prompt}`) beside `<id>.json` (the
 * manifest: cwd, provider, model, times, title); a subagent or teammate
 * writes `<root id>/<agent id>.messages.json` in its root session's folder.
 * The older Cline (the VS Code extension and the CLI before 3.0) kept
 * `tasks/<id>/api_conversation_history.json`, a bare array of Anthropic
 * messages. Pure.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";

export interface ClineBody {
  /** The messages file: Cline's object, or the legacy bare array. */
  doc: JsonObject | Json[];
  /** The manifest `<id>.json` beside it (main sessions of Cline 3.x only). */
  manifest?: JsonObject;
}

/** The messages file format version Cline 3.0 writes. */
export const MESSAGES_VERSION = 1;

/** The messages of a messages file: its objects with a role of user or assistant. */
export function messagesOf(doc: JsonObject | Json[]): JsonObject[] {
  const list = Array.isArray(doc) ? doc : Array.isArray(doc.messages) ? doc.messages : [];
  return list.filter(
    (m): m is JsonObject => isJsonObject(m) && (m.role === "user" || m.role === "assistant"),
  );
}

/** Is the parsed document a messages file (an object with a `messages` array, or a bare array)? */
export function isMessagesDoc(value: Json): value is JsonObject | Json[] {
  if (Array.isArray(value)) return true;
  return isJsonObject(value) && Array.isArray(value.messages);
}

const USER_INPUT = /^<user_input mode="[a-z]+">([\s\S]*)<\/user_input>$/;

/** A prompt as typed: Cline stores it wrapped in `<user_input mode="act">…</user_input>`. */
export function unwrapPrompt(text: string): string {
  const m = USER_INPUT.exec(text);
  return m?.[1] ?? text;
}

/** A user message's typed text (text blocks, unwrapped), for titles. */
export function userText(message: JsonObject): string[] {
  const c = message.content;
  if (typeof c === "string") return [unwrapPrompt(c)];
  if (!Array.isArray(c)) return [];
  return c.flatMap((i) =>
    isJsonObject(i) && i.type === "text" && typeof i.text === "string"
      ? [unwrapPrompt(i.text)]
      : [],
  );
}
