/**
 * A Kiro CLI session's metadata in Common terms, read from its `<id>.json`
 * (SessionData). Pure; shared by the codec, the text codec and the store
 * (which lists sessions without converting their entries).
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { EPOCH, formatTimestamp, normalizeTimestamp, type Timestamp } from "../../time.js";
import { obj, str } from "./body.js";

/** Kiro's times: RFC 3339 text (SessionData, chrono) or epoch seconds (MessageMetadata). */
export function kiroTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e11)
    return formatTimestamp({ seconds: Math.floor(value), nanos: 0 });
  return typeof value === "string" ? normalizeTimestamp(value) : undefined;
}

/** The model: `session_state.rts_model_state.model_info.model_id` (name when no id). */
function sessionModel(session: JsonObject): string | undefined {
  const info = obj(obj(obj(session, "session_state"), "rts_model_state"), "model_info");
  return str(info, "model_id") || str(info, "model_name") || undefined;
}

/** The session's metadata in Common terms. */
export function kiroMeta(session: JsonObject, fallbackId = ""): Meta {
  const meta: Meta = {
    id: str(session, "session_id") || fallbackId,
    timestamp: kiroTime(session.created_at) ?? EPOCH,
  };
  const cwd = str(session, "cwd");
  if (cwd) meta.cwd = cwd;
  const title = str(session, "title");
  if (title) meta.title = title;
  const model = sessionModel(session);
  if (model) meta.model = model;
  return meta;
}
