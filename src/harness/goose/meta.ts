/**
 * A Goose session's metadata in Common terms, and Goose's two time forms.
 * Pure; shared by the codec, the text codec and the store (which lists
 * sessions without converting their messages).
 */

import { isJsonObject, type Json, type JsonObject, type Meta } from "../../common.js";
import { jsonFromText } from "../../json.js";
import { EPOCH, formatTimestamp, normalizeTimestamp, type Timestamp } from "../../time.js";
import { str } from "../shared/fields.js";

/** Goose's timestamps: epoch seconds (messages) or SQLite/RFC 3339 text (sessions). */
export function gooseTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e11) {
    return formatTimestamp({ seconds: Math.floor(value), nanos: 0 });
  }
  if (typeof value !== "string") return undefined;
  // SQLite's CURRENT_TIMESTAMP is `YYYY-MM-DD HH:MM:SS` in UTC, without a zone.
  const iso = value.replace(" ", "T");
  return normalizeTimestamp(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
}

/** A JSON column or field that may hold either the object or its text. */
function jsonValue(value: Json | undefined): JsonObject | undefined {
  if (isJsonObject(value)) return value;
  if (typeof value !== "string") return undefined;
  try {
    const parsed = jsonFromText(value);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The session's model: `model_config_json` (database) or `model_config` (legacy). */
export function sessionModel(session: JsonObject): string | undefined {
  const config = jsonValue(session.model_config_json) ?? jsonValue(session.model_config);
  return str(config, "model_name");
}

/** The session's metadata in Common terms. */
export function gooseMeta(session: JsonObject, fallbackId = ""): Meta {
  const meta: Meta = {
    id: str(session, "id") ?? fallbackId,
    timestamp: gooseTime(session.created_at) ?? EPOCH,
  };
  const cwd = str(session, "working_dir");
  if (cwd) meta.cwd = cwd;
  const title = str(session, "name") || str(session, "description");
  if (title) meta.title = title;
  const model = sessionModel(session);
  if (model) meta.model = model;
  return meta;
}
