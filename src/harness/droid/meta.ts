/**
 * A Droid session's metadata in Common terms, from its records (and the
 * settings text for the model when no message names one). Pure; shared by
 * the codec, the text codec and the store.
 */

import type { JsonObject, Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { conversation, headerOf, settingsModel } from "./body.js";

/** A record's `timestamp` (ISO text), normalized. */
export function recordTime(record: JsonObject): Timestamp | undefined {
  const t = str(record, "timestamp");
  return t === undefined ? undefined : normalizeTimestamp(t);
}

/** The first and last message times. */
export function timeSpan(records: Iterable<JsonObject>): { first?: Timestamp; last?: Timestamp } {
  let first: Timestamp | undefined;
  let last: Timestamp | undefined;
  for (const r of records) {
    if (r.type !== "message") continue;
    const t = recordTime(r);
    if (t === undefined) continue;
    first ??= t;
    last = t;
  }
  const span: { first?: Timestamp; last?: Timestamp } = {};
  assignDefined(span, "first", first);
  assignDefined(span, "last", last);
  return span;
}

/** The first assistant message's `modelId`. */
function firstModel(records: Iterable<JsonObject>): string | undefined {
  for (const r of conversation(records)) {
    const m = obj(r, "message");
    const model = str(m, "modelId");
    if (m?.role === "assistant" && model) return model;
  }
  return undefined;
}

/** The session's metadata: header id, cwd and title, first message time, first model. */
export function droidMeta(
  records: Iterable<JsonObject>,
  settings: string | undefined,
  fallbackId = "",
): Meta {
  const header = headerOf(records);
  const meta: Meta = {
    id: str(header, "id") ?? fallbackId,
    timestamp: timeSpan(records).first ?? EPOCH,
  };
  const cwd = str(header, "cwd");
  if (cwd) meta.cwd = cwd;
  const title = str(header, "title")?.trim();
  if (title) meta.title = title;
  assignDefined(meta, "model", firstModel(records) ?? settingsModel(settings));
  return meta;
}
