/**
 * Readers of untrusted JSON that every harness's records need: a value (or
 * a record's field) when it has the expected kind, else undefined. Pure.
 * The one copy; harness folders import it rather than write their own.
 */

import { type Block, isJsonObject, type Json, type JsonObject, type Tool } from "../../common.js";

/** `record[key]` when `key` is given (and record is an object), else the value itself. */
function pick(value: Json | undefined, key: string | undefined): Json | undefined {
  if (key === undefined) return value;
  return isJsonObject(value) ? value[key] : undefined;
}

/** The value when it is a string; with a key, the record's field when it is one. */
export function str(value: Json | undefined): string | undefined;
export function str(record: JsonObject | undefined, key: string): string | undefined;
export function str(value: Json | undefined, key?: string): string | undefined {
  const v = pick(value, key);
  return typeof v === "string" ? v : undefined;
}

/** The value when it is an object; with a key, the record's field when it is one. */
export function obj(value: Json | undefined): JsonObject | undefined;
export function obj(record: JsonObject | undefined, key: string): JsonObject | undefined;
export function obj(value: Json | undefined, key?: string): JsonObject | undefined {
  const v = pick(value, key);
  return isJsonObject(v) ? v : undefined;
}

/** Whether every key of `args` is one of `keys`. */
export function hasOnly(args: JsonObject, keys: readonly string[]): boolean {
  return Object.keys(args).every((k) => keys.includes(k));
}

/** A whole number of zero or more. */
export function isCount(v: Json | undefined): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

/**
 * A Read from a harness's `{<path key>, offset?, limit?}` (offset 1-based),
 * or undefined when the arguments are not exactly that.
 */
export function readFromArgs(args: JsonObject, pathKey: string): Tool | undefined {
  const path = args[pathKey];
  if (typeof path !== "string" || !hasOnly(args, [pathKey, "offset", "limit"])) return undefined;
  const tool: Tool = { name: "Read", file_path: path };
  if (args.offset !== undefined) {
    if (!isCount(args.offset) || args.offset < 1) return undefined;
    tool.offset = args.offset;
  }
  if (args.limit !== undefined) {
    if (!isCount(args.limit)) return undefined;
    tool.limit = args.limit;
  }
  return tool;
}

/** An inline image record (`data` and its media type under `mediaKey`) as a base64 Common image. */
export function base64Image(record: JsonObject, mediaKey: string): Block {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: str(record, mediaKey) ?? "",
      data: str(record, "data") ?? "",
    },
  };
}
