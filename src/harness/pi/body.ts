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
import { resultGroups } from "../shared/groups.js";

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
export function headerOf(entries: Iterable<JsonObject>): JsonObject | undefined {
  for (const first of entries)
    return first.type === "session" && typeof first.id === "string" ? first : undefined;
  return undefined;
}

/**
 * Every line that parses, in order (the header first): parsed each time
 * they are walked and never kept, so a huge session's entries are never
 * all held at once (nor beside its Common transcript).
 */
export function entriesOf(lines: Iterable<VerbatimLine>): Iterable<JsonObject> {
  return {
    *[Symbol.iterator]() {
      for (const line of lines) {
        const e = readEntry(line.text);
        if (e !== undefined) yield e;
      }
    },
  };
}

/** The active branch and the session's name, from one pass over a session's lines. */
export interface Branch {
  /** The entries on the active branch, root first (see `branchOf`). */
  entries: Iterable<JsonObject>;
  /** The session's name (see `sessionName`). */
  name: string | undefined;
}

/**
 * The entries on the active branch, root first: from the last entry, up its
 * `parentId` chain. A version 1 file (no ids) is linear: every entry is on it.
 * A chain that loops or names a missing parent stops there, as pi's walk does.
 * The walk keeps each entry's line, id and parent only; the branch's
 * entries are parsed again as they are read. The same pass reads the
 * session's name, so that a reader parses each line once for both.
 */
export function branchOf(lines: Lines): Branch {
  let name: string | undefined;
  const entries = activeBranch(lines, (e) => {
    if (e.type === "session_info") name = sessionName([e]);
  });
  return { entries, name };
}

function activeBranch(lines: Lines, onEntry?: (e: JsonObject) => void): Iterable<JsonObject> {
  /** Line of each entry (the header left out), whether its id is a string, and its parent. */
  const lineOf: number[] = [];
  const parentOf: (string | undefined)[] = [];
  const byId = new Map<string, number>();
  let leafHasId = false;
  for (let i = 0; i < lines.length; i++) {
    const e = readEntry(lines.text(i));
    if (e === undefined || e.type === "session") continue;
    onEntry?.(e);
    const k = lineOf.length;
    lineOf.push(i);
    const parent: Json | undefined = e.parentId;
    parentOf.push(typeof parent === "string" ? parent : undefined);
    leafHasId = typeof e.id === "string";
    // The last entry with an id wins, as a Map set again does.
    if (typeof e.id === "string") byId.set(e.id, k);
  }
  if (lineOf.length === 0) return [];
  // Linear: every entry (the header left out), in order.
  if (!leafHasId) return entriesAt(lines, Uint32Array.from(lineOf));
  const path: number[] = [];
  const seen = new Uint8Array(lineOf.length);
  for (let k: number | undefined = lineOf.length - 1; k !== undefined; ) {
    // Every entry reached is the last with its id, so one with an id is seen once.
    if (seen[k] === 1) break;
    seen[k] = 1;
    path.push(k);
    const parent: string | undefined = parentOf[k];
    k = parent === undefined ? undefined : byId.get(parent);
  }
  path.reverse();
  return entriesAt(
    lines,
    Uint32Array.from(path, (k) => lineOf[k] ?? 0),
  );
}

/**
 * The entries on the given lines, parsed as they are read. Out of
 * `activeBranch`'s scope, so that a walk holds four bytes a line, not the
 * index (every entry's id and parent) it was found with.
 */
function entriesAt(lines: Lines, at: Uint32Array): Iterable<JsonObject> {
  return {
    *[Symbol.iterator]() {
      for (const i of at) {
        const e = readEntry(lines.text(i));
        if (e !== undefined) yield e;
      }
    },
  };
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
export function commonEntries(lines: Lines | Branch): Iterable<JsonObject[]> {
  const branch = lines instanceof Lines ? activeBranch(lines) : lines.entries;
  return resultGroups(branch, (e) => {
    const role = commonMessage(e)?.role;
    if (role === undefined) return undefined;
    return role === "toolResult" ? "result" : "message";
  });
}

/** The `(provider, model)` of the first assistant message on the active branch. */
export function firstModel(branch: Iterable<JsonObject>): string | undefined {
  for (const e of branch) {
    const m = commonMessage(e);
    if (m?.role === "assistant" && typeof m.message.model === "string" && m.message.model !== "")
      return m.message.model;
  }
  return undefined;
}

/** The session's name: the last `session_info` entry's (an empty name clears it). */
function sessionName(entries: Iterable<JsonObject>): string | undefined {
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
