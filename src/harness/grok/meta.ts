/**
 * A Grok session's metadata in Common terms, and Grok's times. Pure;
 * shared by the codec, the text codec and the store.
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { updateOf } from "./body.js";

/** Milliseconds as a Timestamp, when they are a finite time a Date can hold. */
function millisTime(ms: Json | undefined): Timestamp | undefined {
  return typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) < 8.64e15
    ? timestampFromMillis(Math.floor(ms))
    : undefined;
}

/**
 * When an `updates.jsonl` line happened: `params._meta.agentTimestampMs`,
 * then `update._meta.agentTimestampMs` (milliseconds), then the envelope's
 * `timestamp` (seconds).
 */
export function lineTime(line: JsonObject): Timestamp | undefined {
  const agent =
    millisTime(obj(obj(line, "params"), "_meta")?.agentTimestampMs) ??
    millisTime(obj(updateOf(line), "_meta")?.agentTimestampMs);
  if (agent !== undefined) return agent;
  const seconds = line.timestamp;
  return typeof seconds === "number" ? millisTime(seconds * 1000) : undefined;
}

/** The session's metadata from `summary.json`: `info.id`, `created_at`, `info.cwd`, `generated_title`, `current_model_id`. */
export function grokMeta(summary: JsonObject, fallbackId = ""): Meta {
  const info = obj(summary, "info");
  const created = str(summary, "created_at");
  const meta: Meta = {
    id: str(info, "id") || fallbackId,
    timestamp: (created === undefined ? undefined : normalizeTimestamp(created)) ?? EPOCH,
  };
  const cwd = str(info, "cwd");
  if (cwd) meta.cwd = cwd;
  const title = str(summary, "generated_title");
  if (title) meta.title = title;
  const model = str(summary, "current_model_id");
  if (model) meta.model = model;
  return meta;
}

/** The session this one was forked or spawned from (`parent_session_id`), when named. */
export function grokParent(summary: JsonObject): string | undefined {
  return str(summary, "parent_session_id") || undefined;
}
