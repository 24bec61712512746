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
import type { VerbatimLine } from "../../lines.js";
import { countsUsage } from "../shared/anthropic.js";
import { obj, str } from "../shared/fields.js";

export { joinLines, splitLines } from "../../lines.js";

export interface DroidBody {
  lines: VerbatimLine[];
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

/** Every line that parses as an object, in order. */
export function recordsOf(lines: readonly VerbatimLine[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of lines) {
    const r = readRecord(line.text);
    if (r !== undefined) out.push(r);
  }
  return out;
}

/** The `session_start` record, when the first record is one with a string id. */
export function headerOf(records: readonly JsonObject[]): JsonObject | undefined {
  const first = records[0];
  return first?.type === "session_start" && typeof first.id === "string" ? first : undefined;
}

/**
 * The conversation's messages: `message` records with a user or assistant
 * message and no `visibility` (Droid marks its injected context
 * `llm_only` and its notices `user_only`).
 */
export function conversation(records: readonly JsonObject[]): JsonObject[] {
  return records.filter((r) => {
    if (r.type !== "message" || r.visibility !== undefined) return false;
    const m = obj(r, "message");
    if (m === undefined || m.visibility !== undefined) return false;
    return m.role === "user" || m.role === "assistant";
  });
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
