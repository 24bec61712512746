/**
 * The native Body of an OpenCode session: its database rows, verbatim.
 *
 * OpenCode (1.2 and later) keeps every session in one SQLite database, in
 * the tables `session`, `message` and `part` (plus the `project` the
 * session belongs to). The Body holds each row as a column -> value record,
 * every column included, and the `data` columns as their exact JSON text,
 * so loading and saving a session reproduces its rows. Interpreting `data`
 * is the codec's job; this module only names the shapes and reads a `data`
 * column tolerantly.
 */

import type { JsonObject } from "../../../common.js";
import { isJsonObject } from "../../../common.js";

/** A value SQLite hands back: text, integer, real, blob or NULL. */
export type SqlValue = string | number | bigint | Uint8Array | null;

/** One row, every column, in the table's column order. */
export type Row = Record<string, SqlValue>;

export interface OpenCodeMessage {
  /** `message` row: id, session_id, time_created, time_updated, data (info JSON without id/sessionID). */
  row: Row;
  /** `part` rows, by id (the order OpenCode loads them in): data is the part JSON without its ids. */
  parts: Row[];
}

export interface OpenCodeBody {
  /** The `session` row. */
  session: Row;
  /** The `project` row the session belongs to, when known (a save creates it when missing). */
  project?: Row;
  /** Messages in OpenCode's order: by time_created, then id. */
  messages: OpenCodeMessage[];
}

/** The tables txcript reads and writes, and the columns it fills itself. */
export const SESSION_TABLE = "session";
export const MESSAGE_TABLE = "message";
export const PART_TABLE = "part";
export const PROJECT_TABLE = "project";

/** A column as a string, or undefined. */
export function text(row: Row, column: string): string | undefined {
  const v = row[column];
  return typeof v === "string" ? v : undefined;
}

/** A column as a finite number (integers come back as numbers or bigints), or undefined. */
export function num(row: Row, column: string): number | undefined {
  const v = row[column];
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "bigint") return Number(v);
  return undefined;
}

/** The deepest nesting a `data` column may have; deeper is read as damaged. */
const MAX_DEPTH = 256;

/** Fewer than MAX_DEPTH brackets cannot nest deeper than it: most rows skip the walk. */
function mayBeDeep(json: string): boolean {
  let brackets = 0;
  // indexOf runs natively: far faster than a character loop over a long output.
  for (const open of ["{", "["]) {
    for (let i = json.indexOf(open); i !== -1; i = json.indexOf(open, i + 1)) {
      if (++brackets > MAX_DEPTH) return true;
    }
  }
  return false;
}

function tooDeep(root: unknown): boolean {
  const pending: [unknown, number][] = [[root, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_DEPTH) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * A `data` column as a JSON object, or undefined when it is not text, not
 * JSON, not an object, or absurdly deep. OpenCode itself skips parts it
 * cannot decode (message-v2 `hydrate`), so the reader does too: a damaged
 * row costs its own content, never the session.
 */
export function readData(row: Row): JsonObject | undefined {
  const raw = row.data;
  const textValue =
    typeof raw === "string"
      ? raw
      : raw instanceof Uint8Array
        ? Buffer.from(raw).toString("utf8")
        : undefined;
  if (textValue === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(textValue);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || (mayBeDeep(textValue) && tooDeep(value))) return undefined;
  return value;
}

/** OpenCode's project for sessions outside any git repository. */
export const GLOBAL_PROJECT = "global";

// ---------------------------------------------------------------------------
// What parts contribute: shared by the codec's reader and the store's message count

/** What a part contributes: a block, a tool call with its result, or nothing. */
export type PartKind = "block" | "tool" | "skip";

export function isPartKind(value: unknown): value is PartKind {
  return value === "block" || value === "tool" || value === "skip";
}

export function partKind(data: JsonObject | undefined): PartKind {
  switch (data?.type) {
    case "text":
    case "reasoning":
      return typeof data.text === "string" && data.text !== "" ? "block" : "skip";
    case "file":
      return typeof data.url === "string" ? "block" : "skip";
    case "tool":
      return "tool";
    default:
      return "skip";
  }
}

/**
 * How many Common messages one OpenCode message becomes, from its role and
 * its parts' kinds: the rule toCommon follows, so the store can count
 * without decoding parts.
 */
export function piecesOf(role: string | undefined, kinds: readonly PartKind[]): number {
  if (role === "user") return kinds.includes("block") ? 1 : 0;
  if (role !== "assistant") return 0;
  let count = 0;
  let open = false;
  let results = false;
  for (const k of kinds) {
    if (k === "skip") continue;
    if (k === "block" && results) {
      count += 2;
      open = false;
      results = false;
    }
    open = true;
    if (k === "tool") results = true;
  }
  if (open) count++;
  if (results) count++;
  return count;
}
