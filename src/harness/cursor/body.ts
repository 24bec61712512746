/**
 * Cursor's native Body, in one of the two layouts its agent CLI leaves on
 * disk (docs/formats/cursor.md): an agent transcript
 * (`projects/<slug>/agent-transcripts/<id>/<id>.jsonl`, one
 * `{role, message: {content}}` line per message, Anthropic-style blocks)
 * or a chat store (`chats/<hash>/<id>/store.db`: the JSON message blobs in
 * rowid order, the `meta` table's agent record and `meta.json`). Every
 * line, blob and field is kept verbatim, unknown ones included.
 */

import type { JsonObject } from "../../common.js";

/** An agent transcript: every line of `<id>.jsonl`, in order. */
interface CursorTranscriptBody {
  layout: "transcript";
  lines: JsonObject[];
}

/** A chat store: `meta.json`, the `meta` table's agent record, and the JSON blobs in rowid order. */
export interface CursorChatBody {
  layout: "chat";
  /** `meta.json` beside `store.db` (title, createdAtMs, updatedAtMs, schemaVersion). */
  chat: JsonObject;
  /** The `meta` table's key "0": the agent record (agentId, name, workspacePath, ...). */
  agent: JsonObject;
  /** The JSON blobs (messages), in rowid order. */
  messages: JsonObject[];
  /** How many blobs were not JSON (Cursor's protobuf turn graph): counted, not kept. */
  opaque: number;
}

export type CursorBody = CursorTranscriptBody | CursorChatBody;

/** The message kinds of a transcript line or a chat blob this reader knows. */
const ROLES = ["user", "assistant", "tool", "system"] as const;
export type CursorRole = (typeof ROLES)[number];

/** A line's or blob's role, or undefined for a record this reader does not know (kept, not read). */
export function roleOf(record: JsonObject): CursorRole | undefined {
  const r = record.role;
  return ROLES.find((role) => role === r);
}

/** Messages a listing counts: the records that read as a message (an estimate: empty ones count). */
export function messageCount(body: CursorBody): number {
  const records = body.layout === "transcript" ? body.lines : body.messages;
  return records.filter((r) => {
    const role = roleOf(r);
    return role !== undefined && role !== "system";
  }).length;
}
