/**
 * Paging and cursors in-process, as properties: for any pieces and any
 * budget (characters, estimated tokens, or both), pages stay within the
 * budget, never split a surrogate pair, end only between pieces (messages)
 * unless one piece alone exceeds the budget, hold every whole piece that
 * fits, and concatenate to the whole; the token estimate is what
 * docs/mcp.md states; any string handed back as a cursor is either one
 * this server issued or a one-line refusal.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/errors.js";
import { decodeCursor, encodeCursor, type Position, pageOf } from "../../src/mcp/pages.js";
import { Budget, CHARS_PER_TOKEN, estimateTokens } from "../../src/mcp/tokens.js";
import type { ViewParts } from "../../src/render/text.js";

function partsOf(head: string, messages: string[], tail: string): ViewParts {
  return { head, message: (i) => messages[i]!, tail };
}

const piece = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", "\n", "line one\nline two\n", "日本語のテキスト", "😀😀😀 emoji"),
);

describe("estimateTokens", () => {
  it("is one token per CHARS_PER_TOKEN ASCII characters, rounded up, plus one per other code point", () => {
    expect(CHARS_PER_TOKEN).toBe(3);
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abc")).toBe(1);
    expect(estimateTokens("abcd")).toBe(2);
    expect(estimateTokens("日本語")).toBe(3);
    expect(estimateTokens("😀")).toBe(1);
    expect(estimateTokens("ab😀é")).toBe(3);
  });
});

describe("pageOf", () => {
  it("pages within the budget, cut between pieces, that add up to the whole", () => {
    fc.assert(
      fc.property(
        piece,
        fc.array(piece, { maxLength: 12 }),
        piece,
        fc.option(fc.integer({ min: 2, max: 80 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        fc.nat(),
        (head, all, tail, maxChars, maxTokens, startSeed) => {
          const start = all.length === 0 ? 0 : startSeed % (all.length + 1);
          const parts = partsOf(head, all, tail);
          const pieces = [head, ...all.slice(start), tail];
          const whole = pieces.join("");
          // Where each piece starts in the whole.
          const bounds = new Set<number>();
          let at0 = 0;
          for (const p of pieces) {
            bounds.add(at0);
            at0 += p.length;
          }
          bounds.add(at0);
          const chars = maxChars ?? 1_000_000;
          const fits = (text: string) =>
            text.length <= chars && (maxTokens === undefined || estimateTokens(text) <= maxTokens);
          const texts: string[] = [];
          let at: Position | undefined = { piece: -1, offset: 0 };
          let done = 0;
          for (let n = 0; at !== undefined; n++) {
            const page = pageOf(parts, start, all.length, at, new Budget(chars, maxTokens));
            expect(fits(page.text)).toBe(true);
            expect(page.chars).toBe(page.text.length);
            expect(page.tokens).toBe(estimateTokens(page.text));
            expect(page.resumed).toBe(!bounds.has(done));
            const last = page.text.charCodeAt(page.text.length - 1);
            if (page.next !== undefined) expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
            texts.push(page.text);
            done += page.text.length;
            if (page.cutInside === undefined) {
              // Ends between pieces, and the next whole piece did not fit.
              expect(bounds.has(done)).toBe(true);
              if (page.next !== undefined) {
                const rest = whole.slice(done);
                const nextPiece = [...bounds].filter((b) => b > done).sort((a, b) => a - b)[0]!;
                expect(fits(page.text + rest.slice(0, nextPiece - done))).toBe(false);
              }
            } else {
              // Cut inside one piece: the page holds that piece only, and all of it would not fit.
              const startOf = Math.max(...[...bounds].filter((b) => b <= done - page.text.length));
              const endOf = Math.min(...[...bounds].filter((b) => b > done - page.text.length));
              expect(done).toBeLessThan(endOf);
              expect(fits(whole.slice(done - page.text.length, endOf))).toBe(false);
              expect(done - page.text.length).toBeGreaterThanOrEqual(startOf);
            }
            at = page.next;
            expect(n).toBeLessThan(whole.length + all.length + 10);
          }
          expect(texts.join("")).toBe(whole);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("keeps whole messages together; cuts one only when it alone exceeds the budget", () => {
    const parts = partsOf("H\n", ["a".repeat(30), "b".repeat(30), "c".repeat(30)], "");
    const first = pageOf(parts, 0, 3, { piece: -1, offset: 0 }, new Budget(70, undefined));
    expect(first.text).toBe(`H\n${"a".repeat(30)}${"b".repeat(30)}`);
    expect([first.firstMessage, first.lastMessage]).toEqual([0, 1]);
    expect(first.next).toEqual({ piece: 2, offset: 0 });
    expect(first.cutInside).toBeUndefined();
    // Not cut to fill the page: the next page starts at the message.
    const half = pageOf(parts, 0, 3, { piece: -1, offset: 0 }, new Budget(40, undefined));
    expect(half.text).toBe(`H\n${"a".repeat(30)}`);
    expect(half.next).toEqual({ piece: 1, offset: 0 });
    // A message larger than the budget is cut, at a line end when there is one.
    const big = partsOf("", [`${"x".repeat(80)}\n${"y".repeat(170)}`], "");
    const cut = pageOf(big, 0, 1, { piece: 0, offset: 0 }, new Budget(100, undefined));
    expect(cut.text).toBe(`${"x".repeat(80)}\n`);
    expect(cut.cutInside).toBe(0);
    expect(cut.next).toEqual({ piece: 0, offset: 81 });
    const rest = pageOf(big, 0, 1, cut.next!, new Budget(100, undefined));
    expect(rest.resumed).toBe(true);
    expect(rest.text).toBe("y".repeat(100));
    // By tokens: 30 ASCII characters are 10 tokens.
    const byTokens = pageOf(parts, 0, 3, { piece: 0, offset: 0 }, new Budget(1_000, 21));
    expect(byTokens.text).toBe("a".repeat(30) + "b".repeat(30));
    expect(byTokens.tokens).toBe(20);
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
