/**
 * A text refresh's batches are cut by the bytes of their sources (and a
 * count), so what one batch holds at once is bounded whatever the sessions'
 * sizes; a session larger than the bound is a batch alone, marked oversized
 * (read on the calling thread, never the worker's bounded heap).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchesByBytes, oversized } from "../../src/index/text-batches.js";

const items = (sizes: number[]) => sizes.map((bytes, i) => ({ i, bytes }));

describe("batchesByBytes", () => {
  it("cuts before a batch would pass the byte bound, and at the count", () => {
    const cut = batchesByBytes(items([4, 4, 4, 10, 1, 1, 1, 1, 1]), 10, 3);
    expect(cut.map((b) => b.map((x) => x.bytes))).toEqual([[4, 4], [4], [10], [1, 1, 1], [1, 1]]);
  });

  it("puts a session larger than the bound alone, and only such a batch is oversized", () => {
    const cut = batchesByBytes(items([2, 25, 3]), 10, 64);
    expect(cut.map((b) => b.map((x) => x.bytes))).toEqual([[2], [25], [3]]);
    expect(cut.map((b) => oversized(b, 10))).toEqual([false, true, false]);
  });

  it("keeps every item once, in order, each batch within both bounds unless alone", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 50 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 10 }),
        (sizes, maxBytes, maxCount) => {
          const cut = batchesByBytes(items(sizes), maxBytes, maxCount);
          expect(cut.flat().map((x) => x.i)).toEqual(sizes.map((_, i) => i));
          for (const batch of cut) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxCount);
            const bytes = batch.reduce((sum, x) => sum + x.bytes, 0);
            if (batch.length > 1) expect(bytes).toBeLessThanOrEqual(maxBytes);
            expect(oversized(batch, maxBytes)).toBe(bytes > maxBytes);
          }
        },
      ),
    );
  });
});
