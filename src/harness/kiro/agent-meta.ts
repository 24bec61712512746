/**
 * What the agent engine's files say of a session, without converting it:
 * the 23 `payload.type` kinds of `messages.jsonl` rows and `session.json`
 * in Common's Meta terms (docs/formats/kiro.md "The agent engine"). Pure;
 * shared by the codec, the text form and the store.
 */

import { isJsonObject, type Json, type JsonObject, type Meta } from "../../common.js";
import { EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import { str } from "./body.js";

/** Every `payload.type` of `MessagePayloadSchema` (KAS 2.15.1, 23 members). */
const AGENT_KINDS = [
  "user",
  "assistant",
  "tool_call",
  "tool_result",
  "system",
  "agent_note",
  "tool_revert",
  "error",
  "mode_change",
  "session_event",
  "sub_agent_start",
  "sub_agent_complete",
  "sub_agent_progress",
  "steering_inclusion",
  "turn_start",
  "turn_end",
  "tombstone",
  "usage_summary",
  "ContextualHookInvoked",
  "pending_interaction",
  "interaction_resolved",
  "session_metadata",
  "session_start",
] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** A row's payload, when it is an object with a string `type`. */
export function payloadOf(row: JsonObject): JsonObject | undefined {
  const p = row.payload;
  return isJsonObject(p) && typeof p.type === "string" ? p : undefined;
}

/** A payload's kind, or undefined for one this version does not know. */
export function agentKind(payload: JsonObject): AgentKind | undefined {
  const t = payload.type;
  return AGENT_KINDS.find((k) => k === t);
}

/** The session's metadata in Common terms, from `session.json`. */
export function agentMeta(session: JsonObject, fallbackId = ""): Meta {
  const meta: Meta = {
    id: str(session, "id") || fallbackId,
    timestamp: timeOf(session.createdAt) ?? EPOCH,
  };
  const paths = session.workspacePaths;
  const cwd = Array.isArray(paths) && typeof paths[0] === "string" ? paths[0] : undefined;
  if (cwd) meta.cwd = cwd;
  const title = str(session, "title");
  if (title) meta.title = title;
  const model = str(session, "modelId");
  if (model) meta.model = model;
  return meta;
}

/** An ISO 8601 time, when the value is one. */
export function timeOf(value: Json | undefined): Timestamp | undefined {
  return typeof value === "string" ? normalizeTimestamp(value) : undefined;
}
