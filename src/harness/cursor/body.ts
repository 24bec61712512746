/**
 * Cursor's native Body, in one of the two layouts its agent CLI leaves on
 * disk (docs/formats/cursor.md): an agent transcript
 * (`projects/<slug>/agent-transcripts/<id>/<id>.jsonl`, one
 * `{role, message: {content}}` line per message, Anthropic-style blocks)
 * or a chat store (`chats/<hash>/<id>/store.db`: the JSON message blobs in
 * rowid order, the `meta` table's agent record and `meta.json`). Every
 * line, blob and field is kept verbatim, unknown ones included.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";

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
  /**
   * `prompt_history.json` beside `store.db`, as parsed (an array of the
   * user's prompt strings [S]); absent when there is no such file. Read
   * only when no blob is a message (see `chatPrompts`).
   */
  prompts?: Json;
  /**
   * The protobuf turn graph from `latestRootBlobId`, decoded to JSON
   * (see graph.ts); absent when the record names no root or the root holds
   * no turn. Read only when no blob is a message.
   */
  turns?: JsonObject[];
}

/**
 * A desktop editor chat (`state.vscdb`): one composer's rows. `source` says
 * which layout held it: a `composerData:<id>` document in `cursorDiskKV`
 * (its messages the `bubbleId:<id>:<bubble>` rows, or, in older builds,
 * bubbles inside the document), or a tab of the oldest `ItemTable`
 * `workbench.panel.aichat.view.aichat.chatdata` value.
 */
export interface CursorDesktopBody {
  layout: "desktop";
  source: "composer" | "aichat";
  /** The `composerHeaders` row (its columns, `value` parsed) when that table holds one. */
  header: JsonObject;
  /** The `composerData:<id>` document (encryption keys removed), or the aichat tab. */
  composer: JsonObject;
  /** The `bubbleId:` rows in conversation order; empty when the bubbles live in `composer`. */
  bubbles: JsonObject[];
  /**
   * The folder of the workspace the chat belongs to (its `workspace.json`):
   * an aichat tab's own workspace, or the workspace whose
   * `composer.composerData` lists the composer. The cwd when the chat's own
   * records name none.
   */
  folder?: string;
}

export type CursorBody = CursorTranscriptBody | CursorChatBody | CursorDesktopBody;

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
  if (body.layout === "desktop") return desktopBubbles(body).length;
  const records = body.layout === "transcript" ? body.lines : body.messages;
  const n = records.filter((r) => {
    const role = roleOf(r);
    return role !== undefined && role !== "system";
  }).length;
  if (n > 0 || body.layout !== "chat") return n;
  const turns = graphTurns(body);
  return turns.length > 0
    ? turns.reduce((k, t) => k + 1 + (Array.isArray(t.steps) && t.steps.length > 0 ? 1 : 0), 0)
    : chatPrompts(body).length;
}

/** A chat's decoded turn graph (see graph.ts): its agent turns, none when absent. */
export function graphTurns(body: CursorChatBody): JsonObject[] {
  return (body.turns ?? []).filter((t) => Array.isArray(t.steps));
}

/**
 * A chat's `prompt_history.json` prompts: its string items that are not
 * blank, in order; none when the file is absent or not an array. The
 * codec reads them only when no blob is a message (a store holding only
 * the protobuf graph), since otherwise they repeat the user blobs.
 */
export function chatPrompts(body: CursorChatBody): string[] {
  const p = body.prompts;
  return Array.isArray(p)
    ? p.filter((x): x is string => typeof x === "string" && x.trim() !== "")
    : [];
}

/**
 * A desktop chat's bubbles: the `bubbleId:` rows, else those an older
 * build kept inside the document (`tabs[].bubbles`, `conversationMap.*.bubbles`,
 * an aichat tab's `bubbles`).
 */
export function desktopBubbles(body: CursorDesktopBody): JsonObject[] {
  if (body.bubbles.length > 0) return body.bubbles;
  const c = body.composer;
  const lists: unknown[] = [];
  if (Array.isArray(c.bubbles)) lists.push(c.bubbles);
  if (Array.isArray(c.tabs))
    for (const tab of c.tabs) if (isJsonObject(tab)) lists.push(tab.bubbles);
  if (isJsonObject(c.conversationMap))
    for (const conv of Object.values(c.conversationMap))
      if (isJsonObject(conv)) lists.push(conv.bubbles);
  return lists.flatMap((l) => (Array.isArray(l) ? l.filter(isJsonObject) : []));
}
