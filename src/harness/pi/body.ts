/**
 * pi's native Body: the session file's lines, verbatim (`~/.pi/agent/sessions/
 * --<cwd>--/<time>_<id>.jsonl`). The first line is the `session` header; every
 * other line is an entry `{type, id, parentId, timestamp, …}`, and the entries
 * form a tree whose active branch runs from the last entry up to the root
 * (pi's `_buildIndex` takes the last entry as the leaf). This module splits
 * and joins lines, reads entries, and picks the messages of the active
 * branch that become Common messages; both the codec and the store use it,
 * so a listing counts what `view` numbers. Pure.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { groupResults } from "../shared/groups.js";

export { joinLines, Lines } from "../../lines.js";

/** The session file's lines, held as its bytes (or text) and where each line starts. */
export interface PiBody {
  lines: Lines;
}

/** Split text into verbatim lines. */
export function splitLines(text: string): Lines {
  return Lines.split(text);
}

/** The session format version pi 0.73 writes (`CURRENT_SESSION_VERSION`). */
export const SESSION_VERSION = 3;

/** One line as a JSON object, or undefined (blank, malformed, not an object): pi skips those too. */
function readEntry(text: string): JsonObject | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  const parsed = parseBounded(t);
  return parsed !== undefined && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** The header: the first parsed line, when it is `{type: "session", id: string}` (pi's own check). */
export function headerOf(entries: readonly JsonObject[]): JsonObject | undefined {
  const first = entries[0];
  return first?.type === "session" && typeof first.id === "string" ? first : undefined;
}

/** Every line that parses, in order (the header first). */
export function entriesOf(lines: Iterable<VerbatimLine>): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of lines) {
    const e = readEntry(line.text);
    if (e !== undefined) out.push(e);
  }
  return out;
}

/**
 * The entries on the active branch, root first: from the last entry, up its
 * `parentId` chain. A version 1 file (no ids) is linear: every entry is on it.
 * A chain that loops or names a missing parent stops there, as pi's walk does.
 */
function activeBranch(entries: readonly JsonObject[]): JsonObject[] {
  const body = entries.filter((e) => e.type !== "session");
  const leaf = body.at(-1);
  if (leaf === undefined) return [];
  if (typeof leaf.id !== "string") return body;
  const byId = new Map<string, JsonObject>();
  for (const e of body) if (typeof e.id === "string") byId.set(e.id, e);
  const path: JsonObject[] = [];
  const seen = new Set<string>();
  let current: JsonObject | undefined = leaf;
  while (current !== undefined) {
    const id = current.id;
    if (typeof id !== "string" || seen.has(id)) break;
    seen.add(id);
    path.push(current);
    const parent: Json | undefined = current.parentId;
    current = typeof parent === "string" ? byId.get(parent) : undefined;
  }
  return path.reverse();
}

/** The roles of pi's `AgentMessage` that become Common messages. */
export type CommonRole = "user" | "assistant" | "toolResult" | "bashExecution";

/** A message entry's message when it becomes a Common message, with its role. */
export function commonMessage(
  entry: JsonObject,
): { message: JsonObject; role: CommonRole } | undefined {
  if (entry.type !== "message" || !isJsonObject(entry.message)) return undefined;
  const message = entry.message;
  switch (message.role) {
    case "user":
    case "assistant":
    case "toolResult":
      return { message, role: message.role };
    case "bashExecution":
      // `!!command` runs are kept out of the model's context by pi; out of Common too.
      return message.excludeFromContext === true ? undefined : { message, role: "bashExecution" };
    default:
      return undefined;
  }
}

/**
 * The active branch's entries that become Common messages, grouped: one
 * group per Common message. Consecutive tool results share one (a user
 * message holding every result of a turn, as Anthropic's convention has it).
 */
export function commonEntries(lines: Iterable<VerbatimLine>): JsonObject[][] {
  return groupResults(activeBranch(entriesOf(lines)), (e) => {
    const role = commonMessage(e)?.role;
    if (role === undefined) return undefined;
    return role === "toolResult" ? "result" : "message";
  });
}

/** The `(provider, model)` of the first assistant message on the active branch. */
export function firstModel(entries: readonly JsonObject[]): string | undefined {
  for (const e of activeBranch(entries)) {
    const m = commonMessage(e);
    if (m?.role === "assistant" && typeof m.message.model === "string" && m.message.model !== "")
      return m.message.model;
  }
  return undefined;
}

/** The session's name: the last `session_info` entry's (an empty name clears it). */
export function sessionName(entries: readonly JsonObject[]): string | undefined {
  let name: string | undefined;
  for (const e of entries)
    if (e.type === "session_info")
      name = typeof e.name === "string" ? e.name.trim() || undefined : undefined;
  return name;
}

/** A user message's text: its string content, or its text items joined. */
export function userText(message: JsonObject): string[] {
  const c = message.content;
  if (typeof c === "string") return [c];
  if (!Array.isArray(c)) return [];
  return c.flatMap((i) =>
    isJsonObject(i) && i.type === "text" && typeof i.text === "string" ? [i.text] : [],
  );
}

/** The id a session file's name carries (`<time>_<id>.jsonl`), or undefined. */
export function idFromFileName(name: string): string | undefined {
  const m = /^[^_]+_(.+)\.jsonl$/.exec(name);
  return m?.[1];
}
