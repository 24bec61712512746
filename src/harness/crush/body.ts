/**
 * Crush's native Body: one session's `sessions` row and its `messages`
 * rows, every column kept verbatim (a message's `parts` column as the JSON
 * text Crush stored), and the project directory the session's database
 * belongs to (Crush keeps no cwd in its rows: a database is a project's).
 * The part kinds and their fields are docs/formats/crush.md's.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";

export interface CrushBody {
  /** The `sessions` row, verbatim. */
  session: JsonObject;
  /** The `messages` rows, in Crush's order (created_at, then insertion). */
  messages: JsonObject[];
  /** The project directory whose data directory holds the database, when known. */
  cwd?: string;
}

/** The part kinds Crush's message service writes (the `type` of each `{type, data}` wrapper). */
const PART_KINDS = [
  "reasoning",
  "text",
  "image_url",
  "binary",
  "tool_call",
  "tool_result",
  "finish",
  "shell_command",
] as const;
export type PartKind = (typeof PART_KINDS)[number];

/** One part: a kind this version reads with its data, or an unknown kind kept raw. */
export type Part =
  | { kind: PartKind; data: JsonObject }
  | { kind: "raw"; type: string; value: Json };

/** A wrapper's kind, or undefined for a kind this version does not know. */
function partKind(type: Json | undefined): PartKind | undefined {
  return PART_KINDS.find((k) => k === type);
}

/**
 * A `parts` column read tolerantly: a column that is not a JSON list (or nests
 * deeper than txcript follows) reads as no parts (`undefined`, so the caller can say so); each wrapper of a
 * known kind with object data is read, anything else kept raw.
 */
export function readParts(column: Json | undefined): Part[] | undefined {
  if (typeof column !== "string") return undefined;
  const parsed = parseBounded(column);
  const value = parsed?.value;
  if (!Array.isArray(value)) return undefined;
  return value.map((item): Part => {
    const type = isJsonObject(item) ? item.type : undefined;
    const kind = partKind(type);
    const data = isJsonObject(item) ? item.data : undefined;
    if (kind !== undefined && isJsonObject(data)) return { kind, data };
    return { kind: "raw", type: typeof type === "string" ? type : "", value: item };
  });
}
