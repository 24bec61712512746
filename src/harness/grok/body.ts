/**
 * Grok CLI's native Body: one session folder
 * (`$GROK_HOME/sessions/<cwd group>/<uuid>/`, docs/formats/grok.md), kept
 * verbatim: `summary.json`, every line of `updates.jsonl` and every line
 * of `chat_history.jsonl`, unknown lines, kinds and fields included. Also
 * the guards that narrow an `updates.jsonl` line to its update.
 */

import type { JsonObject } from "../../common.js";
import { obj, str } from "../shared/fields.js";

export interface GrokBody {
  /** `summary.json`: `info`, `generated_title`, `created_at`, `current_model_id`, ... */
  summary: JsonObject;
  /** `updates.jsonl`: ACP `session/update` notifications, in file order. */
  updates: JsonObject[];
  /** `chat_history.jsonl`: what the model was sent, read only when `updates` hold no message. */
  history: JsonObject[];
}

/** The update kinds this reader reads as conversation; any other kind is read as a Raw record (`rawKindOf`). */
export type GrokUpdateKind =
  | "user_message_chunk"
  | "agent_message_chunk"
  | "agent_thought_chunk"
  | "tool_call"
  | "tool_call_update"
  | "plan";

const KINDS: readonly GrokUpdateKind[] = [
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
];

/** A line's `params.update`, when it has one. */
export function updateOf(line: JsonObject): JsonObject | undefined {
  return obj(obj(line, "params"), "update");
}

/** A line's update kind when this reader knows it; undefined for any other line. */
export function kindOf(update: JsonObject | undefined): GrokUpdateKind | undefined {
  const kind = str(update, "sessionUpdate");
  return KINDS.find((k) => k === kind);
}

/**
 * The kind of an update this reader does not read as conversation
 * (`hook_execution`, `retry_state`, any newer kind): its `sessionUpdate`
 * when that is a string and not one of `GrokUpdateKind`. Such an update
 * is read as a Raw record, never dropped.
 */
export function rawKindOf(update: JsonObject | undefined): string | undefined {
  const kind = str(update, "sessionUpdate");
  return kind === undefined || kindOf(update) !== undefined ? undefined : kind;
}

/** The roles a line's update speaks in: chunks by their kind; a call is the assistant's, its finish the user's (its result); a Raw record the assistant's. */
function rolesOf(update: JsonObject | undefined): ("user" | "assistant")[] {
  const kind = kindOf(update);
  if (kind === undefined) return rawKindOf(update) === undefined ? [] : ["assistant"];
  if (kind === "user_message_chunk") return ["user"];
  const status = str(update, "status");
  const finished = status === "completed" || status === "failed";
  if (kind === "tool_call") return finished ? ["assistant", "user"] : ["assistant"];
  if (kind === "tool_call_update") return finished ? ["user"] : [];
  return ["assistant"];
}

/**
 * Messages a listing counts, an estimate from the lines alone: each run of
 * one role's updates (empty chunks count), plus the chat history's user
 * and assistant lines when no update is conversation (the codec's
 * fallback).
 */
export function messageCount(body: GrokBody): number {
  let n = 0;
  let conversation = false;
  let previous: string | undefined;
  for (const line of body.updates) {
    const update = updateOf(line);
    if (kindOf(update) !== undefined) conversation = true;
    for (const role of rolesOf(update)) {
      if (role === previous) continue;
      previous = role;
      n++;
    }
  }
  if (conversation) return n;
  return (
    n +
    body.history.filter(
      (l) => (l.type === "user" || l.type === "assistant") && l.synthetic_reason === undefined,
    ).length
  );
}
