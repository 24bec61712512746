/**
 * `jsonChunks` (src/cli/output.ts), which `list --json` writes record by
 * batch of records so that a large listing is never one string: its pieces joined are
 * exactly `JSON.stringify(doc, null, 2)` and a newline, whether a top-level
 * array is given whole or as an iterable made while it is written.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonChunks } from "../../src/cli/output.js";

const joined = (doc: Record<string, unknown>) => [...jsonChunks(doc)].join("");
const expected = (doc: Record<string, unknown>) => `${JSON.stringify(doc, null, 2)}\n`;

function* lazily<T>(items: readonly T[]): Generator<T> {
  yield* items;
}

describe("jsonChunks", () => {
  it("writes what JSON.stringify writes, for any document", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (doc) => {
        expect(joined(doc)).toBe(expected(doc));
      }),
    );
  });

  it("writes a top-level iterable as the array it yields", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.array(fc.jsonValue()), (sessions, skipped) => {
        const doc = { version: 1, sessions, skipped };
        expect(joined({ version: 1, sessions: lazily(sessions), skipped })).toBe(expected(doc));
      }),
    );
  });

  it("writes a long iterable, stringified a batch at a time, as the array it yields", () => {
    for (const n of [127, 128, 129, 256, 300]) {
      const items = Array.from({ length: n }, (_, i) =>
        i % 7 === 0 ? undefined : { i, text: `line ${i}\nnext`, nested: [i, { deep: [] }] },
      );
      const doc = { version: 1, sessions: items, skipped: [] };
      expect(joined({ version: 1, sessions: lazily(items), skipped: lazily([]) })).toBe(
        expected(doc),
      );
    }
  });

  it("leaves out what JSON.stringify leaves out, and writes null for it in an array", () => {
    const doc = { a: undefined, b: [undefined, 1], c: {}, d: [], e: "x\ny" };
    expect(joined(doc)).toBe(expected(doc));
    expect(joined({})).toBe("{}\n");
    expect(joined({ a: undefined })).toBe("{}\n");
  });
});
