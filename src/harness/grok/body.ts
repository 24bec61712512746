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

/** The update kinds this reader turns into messages; any other kind stays in the Body only. */
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

/** The roles a line's update speaks in: chunks by their kind; a call is the assistant's, its finish the user's (its result). */
function rolesOf(update: JsonObject | undefined): ("user" | "assistant")[] {
  const kind = kindOf(update);
  if (kind === undefined) return [];
  if (kind === "user_message_chunk") return ["user"];
  const status = str(update, "status");
  const finished = status === "completed" || status === "failed";
  if (kind === "tool_call") return finished ? ["assistant", "user"] : ["assistant"];
  if (kind === "tool_call_update") return finished ? ["user"] : [];
  return ["assistant"];
}

/**
 * Messages a listing counts, an estimate from the lines alone: each run of
 * one role's updates (empty chunks count), else the chat history's user
 * and assistant lines.
 */
export function messageCount(body: GrokBody): number {
  let n = 0;
  let previous: string | undefined;
  for (const line of body.updates) {
    for (const role of rolesOf(updateOf(line))) {
      if (role === previous) continue;
      previous = role;
      n++;
    }
  }
  if (n > 0) return n;
  return body.history.filter(
    (l) => (l.type === "user" || l.type === "assistant") && l.synthetic_reason === undefined,
  ).length;
}
