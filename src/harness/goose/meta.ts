/**
 * A Goose session's metadata in Common terms, and Goose's two time forms.
 * Pure; shared by the codec, the text codec and the store (which lists
 * sessions without converting their messages).
 */

import { isJsonObject, type Json, type JsonObject, type Meta } from "../../common.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { firstPromptTitle } from "../../strings.js";
import { EPOCH, formatTimestamp, normalizeTimestamp, type Timestamp } from "../../time.js";
import { str } from "../shared/fields.js";
import { contentOf } from "./body.js";

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
function sessionModel(session: JsonObject): string | undefined {
  const config = jsonValue(session.model_config_json) ?? jsonValue(session.model_config);
  return str(config, "model_name");
}

/** The first user prompt's text items, as a title (what toCommon's text blocks give). */
function promptOf(messages: readonly JsonObject[]): string | undefined {
  function* users() {
    for (const m of messages)
      if (m.role === "user")
        yield contentOf(m).flatMap((item) =>
          isJsonObject(item) && item.type === "text" && typeof item.text === "string"
            ? [item.text]
            : [],
        );
  }
  return firstPromptTitle(users());
}

/** The session's metadata in Common terms; an unnamed session is titled by its first prompt in `messages`. */
export function gooseMeta(
  session: JsonObject,
  fallbackId = "",
  messages: readonly JsonObject[] = [],
): Meta {
  const meta: Meta = {
    id: str(session, "id") ?? fallbackId,
    timestamp: gooseTime(session.created_at) ?? EPOCH,
  };
  const cwd = str(session, "working_dir");
  if (cwd) meta.cwd = cwd;
  const title = str(session, "name") || str(session, "description");
  if (title) meta.title = title;
  else {
    const prompt = promptOf(messages);
    assignDefined(meta, "title", prompt);
  }
  const model = sessionModel(session);
  if (model) meta.model = model;
  return meta;
}
