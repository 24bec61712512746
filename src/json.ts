/**
 * JSON helpers shared by the text codecs: parsing with line/column errors,
 * canonical key order for opaque values, and a checker that reads untyped
 * JSON into typed values, naming the JSON path of anything malformed.
 */

import {
  type ParseError as JsoncError,
  parse as jsoncParse,
  printParseErrorCode,
} from "jsonc-parser";
import { isJsonObject, type Json, type JsonObject } from "./common.js";
import { describeCause, ParseError } from "./errors.js";
import { normalizeTimestamp, type Timestamp } from "./time.js";
import type { TextForm } from "./transcript.js";

/** 1-based line and column of a UTF-16 offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * JSON.parse as a Json value; throws what JSON.parse throws. The one cast
 * of parsed text: without a reviver, JSON.parse returns JSON by construction.
 */
export function jsonFromText(text: string): Json {
  return JSON.parse(text) as Json; // cast: no reviver, so only JSON comes back
}

/**
 * JSON.parse, with errors that say where. V8's messages give a position for
 * some errors and not others, so on failure jsonc-parser (strict settings)
 * locates the first error.
 */
export function parseJson(text: string, form: TextForm, origin?: string): Json {
  let value: Json;
  try {
    value = jsonFromText(text);
  } catch (cause) {
    if (text.trim() === "") {
      throw new ParseError(form, "invalid JSON: the input is empty", { file: origin, cause });
    }
    const errors: JsoncError[] = [];
    jsoncParse(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const { line, column } = lineColumn(text, offset);
    const what = first
      ? printParseErrorCode(first.error)
          .replace(/([a-z])([A-Z])/g, "$1 $2")
          .toLowerCase()
      : describeCause(cause);
    throw new ParseError(form, `invalid JSON (${what})`, {
      file: origin,
      at: `line ${line}, column ${column}`,
      cause,
    });
  }
  checkDepth(value, form, origin);
  return value;
}

/**
 * The deepest nesting parseJson accepts. JSON.parse itself copes with any
 * depth, but what follows (sortKeys, JSON.stringify, deep equality) recurses
 * and would overflow the stack a few thousand levels down; no real session
 * nests anywhere near this deep (serde_json, which txcript uses, stops at 128).
 */
export const MAX_JSON_DEPTH = 512;

/** One open container of a depth-first walk: its children's keys (undefined for an array) and the next one to visit. */
type Frame = (
  | { value: readonly unknown[]; keys: undefined }
  | { value: Readonly<Record<string, unknown>>; keys: string[] }
) & {
  next: number;
  /** The key this container sits at in its parent. */
  at: string | number;
};

/**
 * The path to the first value (in document order) nested deeper than
 * `max`, or undefined when there is none. Iterative, and it holds only the
 * open containers of the current path: memory grows with the depth, never
 * with the width (a document two million entries wide costs nothing extra).
 */
export function tooDeep(root: unknown, max = MAX_JSON_DEPTH): (string | number)[] | undefined {
  const open = (value: unknown, at: string | number): Frame | undefined =>
    Array.isArray(value)
      ? { value, keys: undefined, next: 0, at }
      : isJsonObject(value)
        ? { value, keys: Object.keys(value), next: 0, at }
        : undefined;
  const first = open(root, "");
  if (first === undefined) return undefined;
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    if (stack.length > max) return stack.slice(1).map((f) => f.at);
    const top = stack.at(-1);
    if (top === undefined) break;
    let key: string | number;
    let child: unknown;
    if (top.keys === undefined) {
      if (top.next >= top.value.length) {
        stack.pop();
        continue;
      }
      key = top.next++;
      child = top.value[key];
    } else {
      const k = top.keys[top.next++];
      if (k === undefined) {
        stack.pop();
        continue;
      }
      key = k;
      child = top.value[k];
    }
    const frame = open(child, key);
    if (frame !== undefined) stack.push(frame);
  }
  return undefined;
}

/** Refuse values nested deeper than MAX_JSON_DEPTH, naming the first few steps of the path. */
function checkDepth(root: unknown, form: TextForm, origin: string | undefined): void {
  const path = tooDeep(root);
  if (path === undefined) return;
  const shown = 6;
  const at = path.slice(0, shown).reduce<string>((p, k) => joinPath(p, k), "");
  throw new ParseError(form, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, {
    file: origin,
    at: path.length > shown ? `${at}…` : at,
  });
}

/**
 * JSON.parse, or undefined when the text is not JSON or nests deeper than
 * MAX_JSON_DEPTH (what follows a conversion recurses and would overflow the
 * stack on a hostile blob). For the tolerant readers: their callers keep
 * such text as a string, or skip the line, as each format's doc says. The
 * value is boxed because `null` is JSON too.
 */
export function parseBounded(text: string): { value: Json } | undefined {
  let value: Json;
  try {
    value = jsonFromText(text);
  } catch {
    return undefined;
  }
  // Nesting deeper than the limit takes more than two characters per level.
  if (typeof value !== "object" || value === null || text.length <= 2 * MAX_JSON_DEPTH) {
    return { value };
  }
  return tooDeep(value) === undefined ? { value } : undefined;
}

/** A deep copy with object keys sorted, the order txcript writes opaque JSON in. */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: JsonObject = {};
    for (const key of Object.keys(value).sort()) {
      const child = value[key];
      if (child === undefined) continue;
      const sorted = sortKeys(child);
      // Assigning "__proto__" would set the prototype and silently drop the key.
      if (key === "__proto__") {
        Object.defineProperty(out, key, {
          value: sorted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = sorted;
    }
    return out;
  }
  return value;
}

/** `messages` + 3 -> `messages[3]`; `messages[3]` + `content` -> `messages[3].content`. */
export function joinPath(at: string, key: string | number): string {
  if (typeof key === "number") return `${at}[${key}]`;
  return at === "" ? key : `${at}.${key}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? "a string" : JSON.stringify(value);
    case "number":
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** Reads untyped JSON; every failure is a ParseError naming the path. */
export class Checker {
  constructor(
    readonly form: TextForm,
    readonly origin?: string,
  ) {}

  fail(at: string, detail: string): never {
    throw new ParseError(this.form, detail, { file: this.origin, at });
  }

  expected(at: string, what: string, got: unknown): never {
    return this.fail(at, `expected ${what}, got ${describe(got)}`);
  }

  object(value: unknown, at: string): Record<string, unknown> {
    return isJsonObject(value) ? value : this.expected(at, "an object", value);
  }

  /** An object of a document JSON.parse read, so its values are JSON. */
  jsonObject(value: unknown, at: string): JsonObject {
    return isJsonObject(value) ? value : this.expected(at, "an object", value);
  }

  array(value: unknown, at: string): unknown[] {
    if (!Array.isArray(value)) return this.expected(at, "an array", value);
    return value;
  }

  string(value: unknown, at: string): string {
    if (typeof value !== "string") return this.expected(at, "a string", value);
    return value;
  }

  uint(value: unknown, at: string): number {
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      return this.expected(at, "a non-negative integer", value);
    }
    return value;
  }

  boolean(value: unknown, at: string): boolean {
    if (typeof value !== "boolean") return this.expected(at, "true or false", value);
    return value;
  }

  timestamp(value: unknown, at: string): Timestamp {
    const ts = typeof value === "string" ? normalizeTimestamp(value) : undefined;
    if (ts === undefined) return this.expected(at, "an RFC 3339 timestamp", value);
    return ts;
  }

  /** A required key of `obj` (the object at `at`), read by `read`. */
  required<V, T>(
    obj: Readonly<Record<string, V>>,
    key: string,
    at: string,
    what: string,
    read: (value: V, at: string) => T,
  ): T {
    const value = obj[key];
    if (value === undefined) return this.fail(at, `${what} needs "${key}"`);
    return read(value, joinPath(at, key));
  }

  /** An optional key: absent or null reads as undefined. */
  optional<V, T>(
    obj: Readonly<Record<string, V>>,
    key: string,
    at: string,
    read: (value: V, at: string) => T,
  ): T | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    return read(value, joinPath(at, key));
  }
}

/*
 * Optional fields, one idiom (exactOptionalPropertyTypes forbids writing an
 * undefined into an optional field): onto an object that exists,
 * `assignDefined(target, "key", value)`; inside an object literal,
 * `...defined({ key: value })`. Not `if (v !== undefined) o.k = v` nor
 * `...defined({ k: v })` (test/foundation/source-shape.test.ts;
 * scripts/dev/optional-fields.mjs rewrites them).
 */

/** A value known not to be undefined: what TypeScript narrows `v !== undefined` to. */
// biome-ignore lint/complexity/noBannedTypes: `{} | null` is every value but undefined, TypeScript's own narrowing.
type Present<V> = V & ({} | null);

/** `fields` without its undefined values, to spread into an object literal. */
export function defined<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Present<T[K]> } {
  const out: { [K in keyof T]?: Present<T[K]> } = {};
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Set `target[key] = value` only when value is defined (exactOptionalPropertyTypes-friendly). */
export function assignDefined<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value !== undefined) target[key] = value;
}

/**
 * The same elements in an array with no spare room. An array grown by
 * `push` keeps room for about 16 more elements (some 130 bytes): a reader
 * holding a million one-block messages would carry 130 MB of it.
 */
export function exactArray<T>(items: T[]): T[] {
  return items.slice();
}
