/**
 * Factory Droid's native Body: the session file's lines, verbatim
 * (`~/.factory/sessions/<cwd, / as ->/<id>.jsonl`), and the text of its
 * sibling `<id>.settings.json` when the store found one (it holds the
 * session's token totals). The first line is `{"type":"session_start", id,
 * title, cwd, …}`; messages are `{"type":"message", id, parentId,
 * timestamp, message: {role, content: [Anthropic-style blocks]}}`; a
 * message with `visibility` is the harness's own (context reminders the
 * model sees, notices only the user sees) and not part of the conversation.
 * Other line types (`agent_turn_outcome`, …) stay in the Body. Pure.
 */

import { isJsonObject, type JsonObject, type Usage } from "../../common.js";
import { parseBounded } from "../../json.js";
import { Lines } from "../../lines.js";
import { countsUsage } from "../shared/anthropic.js";
import { obj, str } from "../shared/fields.js";

export { joinLines, Lines } from "../../lines.js";

/** The session file's lines, held as its bytes (or text) and where each line starts. */
export interface DroidBody {
  lines: Lines;
  /** The sibling `<id>.settings.json`, verbatim, when there is one. */
  settings?: string;
}

/** One line as a JSON object, or undefined (blank, malformed, not an object). */
function readRecord(text: string): JsonObject | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  const parsed = parseBounded(t);
  return parsed !== undefined && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** Split text into verbatim lines. */
export function splitLines(text: string): Lines {
  return Lines.split(text);
}

/**
 * Every line that parses as an object, in order: parsed each time they are
 * walked and never kept, so a huge session's records are never all held
 * at once (nor beside its Common transcript).
 */
export function recordsOf(lines: Lines): Iterable<JsonObject> {
  return {
    *[Symbol.iterator]() {
      for (const line of lines) {
        const r = readRecord(line.text);
        if (r !== undefined) yield r;
      }
    },
  };
}

/** The first record, when there is one. */
export function firstRecord(records: Iterable<JsonObject>): JsonObject | undefined {
  for (const r of records) return r;
  return undefined;
}

/** The `session_start` record, when the first record is one with a string id. */
export function headerOf(records: Iterable<JsonObject>): JsonObject | undefined {
  const first = firstRecord(records);
  return first?.type === "session_start" && typeof first.id === "string" ? first : undefined;
}

/** Whether a record is a conversation message (see `conversation`). */
function isConversation(r: JsonObject): boolean {
  if (r.type !== "message" || r.visibility !== undefined) return false;
  const m = obj(r, "message");
  if (m === undefined || m.visibility !== undefined) return false;
  return m.role === "user" || m.role === "assistant";
}

/**
 * The conversation's messages: `message` records with a user or assistant
 * message and no `visibility` (Droid marks its injected context
 * `llm_only` and its notices `user_only`).
 */
export function* conversation(records: Iterable<JsonObject>): Generator<JsonObject> {
  for (const r of records) if (isConversation(r)) yield r;
}

/** The session's token totals from its settings text (`tokenUsage`), or undefined. */
export function settingsUsage(settings: string | undefined): Usage | undefined {
  if (settings === undefined) return undefined;
  const parsed = parseBounded(settings);
  // `thinkingTokens` is Droid's own breakdown; it is not added (docs/formats/droid.md).
  return parsed === undefined
    ? undefined
    : countsUsage(obj(obj(parsed.value), "tokenUsage"), {
        input: "inputTokens",
        output: "outputTokens",
        cacheRead: "cacheReadTokens",
        cacheWrite: "cacheCreationTokens",
      });
}

/** The model a settings text names (`model`), or undefined. */
export function settingsModel(settings: string | undefined): string | undefined {
  if (settings === undefined) return undefined;
  const parsed = parseBounded(settings);
  return parsed === undefined ? undefined : str(obj(parsed.value), "model");
}
