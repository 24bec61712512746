/**
 * A Cline session's metadata in Common terms: from the manifest (id, start,
 * cwd, model, title) and the messages file (its session id, the CLI version
 * in `origin`, the first prompt, the first message's time). Pure; shared by
 * the codec, the text codec and the store.
 */

import type { Json, Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { firstPromptTitle } from "../../strings.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { type ClineBody, messagesOf, userText } from "./body.js";

/** Cline's time forms: ISO text (manifest, `updated_at`) or epoch milliseconds (`ts`). */
export function clineTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value === "string") return normalizeTimestamp(value);
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e15)
    return timestampFromMillis(value);
  return undefined;
}

/** The id the messages file names (`sessionId`), else the manifest's (`session_id`). */
function clineId(body: ClineBody): string | undefined {
  const doc = Array.isArray(body.doc) ? undefined : body.doc;
  return str(doc, "sessionId") ?? str(body.manifest, "session_id");
}

export function clineMeta(body: ClineBody, fallbackId = ""): Meta {
  const messages = messagesOf(body.doc);
  const m = body.manifest;
  const doc = Array.isArray(body.doc) ? undefined : body.doc;
  const first = messages.find((x) => typeof x.ts === "number");
  const meta: Meta = {
    id: clineId(body) ?? fallbackId,
    timestamp: clineTime(m?.started_at) ?? clineTime(first?.ts) ?? EPOCH,
  };
  assignDefined(meta, "cwd", str(m, "cwd") || undefined);
  const title =
    str(obj(m, "metadata"), "title")?.trim() ||
    firstPromptTitle(
      (function* () {
        for (const x of messages) if (x.role === "user") yield userText(x);
      })(),
    );
  assignDefined(meta, "title", title);
  const model =
    str(m, "model") ||
    messages.map((x) => str(obj(x, "modelInfo"), "id")).find((id) => id !== undefined && id !== "");
  assignDefined(meta, "model", model);
  assignDefined(meta, "cli_version", str(obj(doc, "origin"), "version"));
  return meta;
}
