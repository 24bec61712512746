/**
 * A Grok session's metadata in Common terms, and Grok's times. Pure;
 * shared by the codec, the text codec and the store.
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { EPOCH, normalizeTimestamp } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { updateOf } from "./body.js";

/** Milliseconds, when they are a finite time a Date can hold (whole). */
function millisOf(ms: Json | undefined): number | undefined {
  return typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) < 8.64e15
    ? Math.floor(ms)
    : undefined;
}

/**
 * When an `updates.jsonl` line happened, in epoch milliseconds:
 * `params._meta.agentTimestampMs`, then `update._meta.agentTimestampMs`,
 * then the envelope's `timestamp` (seconds). A number, not a Timestamp:
 * the codec formats only the times a message takes (formatting every
 * line's was most of toCommon's cost, bench/grok.bench.ts).
 */
export function lineMillis(line: JsonObject): number | undefined {
  const agent =
    millisOf(obj(obj(line, "params"), "_meta")?.agentTimestampMs) ??
    millisOf(obj(updateOf(line), "_meta")?.agentTimestampMs);
  if (agent !== undefined) return agent;
  const seconds = line.timestamp;
  return typeof seconds === "number" ? millisOf(seconds * 1000) : undefined;
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
