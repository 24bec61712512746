/**
 * Goose's native Body: the session (a `sessions` row, or the first line of
 * a legacy `.jsonl`) and its messages as Goose serialises its `Message`
 * (`{id, role, created, content: [...], metadata}`), every field and every
 * content item kept verbatim, unknown kinds included.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";

export interface GooseBody {
  /** The session's row (database) or metadata line (legacy), verbatim. */
  session: JsonObject;
  /** One Goose `Message` JSON per message, in order. */
  messages: JsonObject[];
}

/** The content kinds Goose's `MessageContent` enum knows (its serde `type` tags). */
const CONTENT_KINDS = [
  "text",
  "image",
  "jsonRenderSpec",
  "toolRequest",
  "toolResponse",
  "toolConfirmationRequest",
  "actionRequired",
  "frontendToolRequest",
  "thinking",
  "redactedThinking",
  "systemNotification",
  "conversationCompacted",
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A content item's kind, or undefined for one this version does not know (kept, not read). */
export function contentKind(item: Json): ContentKind | undefined {
  if (!isJsonObject(item)) return undefined;
  const t = item.type;
  return CONTENT_KINDS.find((k) => k === t);
}

/** A message's content items (an empty list when the field is missing or not a list). */
export function contentOf(message: JsonObject): Json[] {
  return Array.isArray(message.content) ? message.content : [];
}
