/**
 * Readers of untrusted JSON that every harness's records need: a value (or
 * a record's field) when it has the expected kind, else undefined. Pure.
 * The one copy; harness folders import it rather than write their own.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";

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
