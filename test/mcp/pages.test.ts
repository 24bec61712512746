/**
 * Paging and cursors in-process, as properties: for any pieces and any
 * budget, pages stay within the budget, never split a surrogate pair,
 * break between messages when that keeps a page at least half full, and
 * concatenate to the whole; any string handed back as a cursor is either
 * one this server issued or a one-line refusal.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/errors.js";
import { decodeCursor, encodeCursor, type Position, pageOf } from "../../src/mcp/pages.js";
import type { ViewParts } from "../../src/view.js";

function partsOf(head: string, messages: string[], tail: string): ViewParts {
  return { head, message: (i) => messages[i]!, tail };
}

const piece = fc.string({ unit: "grapheme", maxLength: 60 });

describe("pageOf", () => {
  it("pages within the budget that add up to the whole", () => {
    fc.assert(
      fc.property(
        piece,
        fc.array(piece, { maxLength: 12 }),
        piece,
        fc.integer({ min: 2, max: 80 }),
        fc.nat(),
        (head, all, tail, budget, startSeed) => {
          const start = all.length === 0 ? 0 : startSeed % (all.length + 1);
          const parts = partsOf(head, all, tail);
          const whole = head + all.slice(start).join("") + tail;
          const texts: string[] = [];
          let at: Position | undefined = { piece: -1, offset: 0 };
          for (let n = 0; at !== undefined; n++) {
            const page = pageOf(parts, start, all.length, at, budget);
            expect(page.text.length).toBeLessThanOrEqual(budget);
            const last = page.text.charCodeAt(page.text.length - 1);
            if (page.next !== undefined) expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
            texts.push(page.text);
            at = page.next;
            expect(n).toBeLessThan(whole.length + all.length + 10);
          }
          expect(texts.join("")).toBe(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps whole messages together when they fit", () => {
    const parts = partsOf("H\n", ["a".repeat(30), "b".repeat(30), "c".repeat(30)], "");
    const first = pageOf(parts, 0, 3, { piece: -1, offset: 0 }, 70);
    expect(first.text).toBe(`H\n${"a".repeat(30)}${"b".repeat(30)}`);
    expect([first.firstMessage, first.lastMessage]).toEqual([0, 1]);
    expect(first.next).toEqual({ piece: 2, offset: 0 });
    // A message larger than the budget is cut.
    const big = partsOf("", ["x".repeat(250)], "");
    const cut = pageOf(big, 0, 1, { piece: -1, offset: 0 }, 100);
    expect(cut.text).toBe("x".repeat(100));
    expect(cut.next).toEqual({ piece: 0, offset: 100 });
  });
});

describe("cursors", () => {
  it("round-trip, and anything else is a one-line refusal", () => {
    const c = { kind: "search" as const, query: "abc", offset: 20 };
    expect(decodeCursor(encodeCursor(c), "search")).toEqual(c);
    expect(() => decodeCursor(encodeCursor(c), "read")).toThrow(InvalidRequestError);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        try {
          decodeCursor(text, "read");
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidRequestError);
          expect((error as Error).message).not.toContain("\n");
        }
      }),
    );
    const forged = Buffer.from(JSON.stringify({ kind: "read", harness: "nope" })).toString(
      "base64url",
    );
    expect(() => decodeCursor(forged, "read")).toThrow(/is not a read cursor this server issued/);
  });
});
