/**
 * A Crush session's metadata in Common terms, and Crush's time columns.
 * Pure; shared by the codec, the text codec and the store (which lists
 * sessions without converting their messages).
 */

import type { Json, JsonObject, Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { firstPromptTitle } from "../../strings.js";
import { EPOCH, formatTimestamp, type Timestamp, timestampFromMillis } from "../../time.js";
import type { Transcript } from "../../transcript.js";
import { str } from "../shared/fields.js";
import { type CrushBody, type Part, readParts } from "./body.js";

/**
 * A Crush time column. Its schema's comments say milliseconds, but its
 * queries write `strftime('%s', 'now')`, whole seconds: a value under 1e11
 * is read as seconds, a larger one as milliseconds.
 */
export function crushTime(value: Json | undefined): Timestamp | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  if (Math.abs(value) < 1e11) return formatTimestamp({ seconds: Math.floor(value), nanos: 0 });
  if (Math.abs(value) < 1e15) return timestampFromMillis(Math.floor(value));
  return undefined;
}

/** The `model` column of a row, when it names one (Crush stores "" for none). */
export function rowModel(row: JsonObject): string | undefined {
  return str(row, "model") || undefined;
}

/**
 * The session's metadata: its id, start, title (the first prompt's when
 * the session's is empty), the project directory, and the model of its
 * first assistant message that names one. `prompts` are the user
 * messages' texts, in order; `firstModel` the first assistant model.
 */
export function crushMeta(
  session: JsonObject,
  cwd: string | undefined,
  prompts: Iterable<readonly string[]>,
  firstModel: string | undefined,
  fallbackId = "",
): Meta {
  const meta: Meta = {
    id: str(session, "id") || fallbackId,
    timestamp: crushTime(session.created_at) ?? EPOCH,
  };
  if (cwd) meta.cwd = cwd;
  const title = str(session, "title");
  if (title?.trim()) meta.title = title;
  else assignDefined(meta, "title", firstPromptTitle(prompts));
  if (firstModel) meta.model = firstModel;
  return meta;
}

/** The row's parts (none when its `parts` column cannot be read). */
export function partsOf(row: JsonObject): Part[] {
  return readParts(row.parts) ?? [];
}

/** The user rows' text parts, in order: what an untitled session is titled by. */
export function promptTexts(messages: readonly JsonObject[]): Iterable<readonly string[]> {
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      partsOf(m).flatMap((p) =>
        p.kind === "text" && typeof p.data.text === "string" ? [p.data.text] : [],
      ),
    );
}

/** The first assistant row's model. */
export function firstAssistantModel(messages: readonly JsonObject[]): string | undefined {
  for (const m of messages) {
    const model = m.role === "assistant" ? rowModel(m) : undefined;
    if (model) return model;
  }
  return undefined;
}

/** A Body with the metadata its rows give (the id `fallbackId` when the row has none). */
export function crushTranscript(body: CrushBody, fallbackId = ""): Transcript<CrushBody> {
  const meta = crushMeta(
    body.session,
    body.cwd,
    promptTexts(body.messages),
    firstAssistantModel(body.messages),
    fallbackId,
  );
  return { meta, body };
}
