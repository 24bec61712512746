import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/common.js";
import { InvalidRequestError } from "../../src/errors.js";
import {
  closeOverToolPairs,
  parseRange,
  parseSessionRef,
  RangeSyntaxError,
  resolveRange,
} from "../../src/range.js";

const ts = "2026-01-01T00:00:00Z";
const user = (text: string): Message => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp: ts,
});
const call = (id: string): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id, tool: { name: "Bash", command: "ls" } }],
  timestamp: ts,
});
const result = (id: string): Message => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content: "ok" }],
  timestamp: ts,
});

// 1 user, 2 call a, 3 result a, 4 call b+c (one message), 5 result b, 6 result c, 7 user
const session: Message[] = [
  user("hi"),
  call("a"),
  result("a"),
  { role: "assistant", content: [...call("b").content, ...call("c").content], timestamp: ts },
  result("b"),
  result("c"),
  user("bye"),
];

describe("range syntax", () => {
  it("reads every documented form", () => {
    expect(parseRange("7")).toEqual({ from: 7, to: 7 });
    expect(parseRange("5-12")).toEqual({ from: 5, to: 12 });
    expect(parseRange("5-")).toEqual({ from: 5 });
    expect(parseRange("-10")).toEqual({ to: 10 });
  });

  it.each(["", "-", "0", "a", "3-2", "1-2-3", "#1", " 1", "1.5", "-0", "99999999999999999999"])(
    "refuses %j",
    (text) => {
      expect(() => parseRange(text)).toThrow(RangeSyntaxError);
    },
  );

  it("splits the reference at the last #", () => {
    expect(parseSessionRef("abc#3-4")).toEqual({
      ref: "abc",
      range: { from: 3, to: 4 },
      rangeText: "3-4",
    });
    expect(parseSessionRef("abc")).toEqual({ ref: "abc" });
  });
});

describe("resolving a range against a session", () => {
  it("selects whole pairs", () => {
    expect(resolveRange(session, { from: 2, to: 3 }, "s")).toEqual({ start: 1, end: 3 });
    expect(resolveRange(session, { from: 4 }, "s")).toEqual({ start: 3, end: 7 });
    expect(resolveRange(session, { to: 1 }, "s")).toEqual({ start: 0, end: 1 });
  });

  it("refuses a cut pair and names the nearest whole range", () => {
    expect(() => resolveRange(session, { from: 3, to: 3 }, "s")).toThrow(
      "range #3 would separate a tool call from its result; the nearest whole range is #2-3",
    );
    expect(() => resolveRange(session, { from: 4, to: 5 }, "s")).toThrow(
      "the nearest whole range is #4-6",
    );
    expect(() => resolveRange(session, { from: 5 }, "s")).toThrow("the nearest whole range is #4-");
  });

  it("refuses out-of-range numbers, naming the session's size", () => {
    expect(() => resolveRange(session, { from: 8 }, "session x")).toThrow(InvalidRequestError);
    expect(() => resolveRange(session, { from: 8 }, "session x")).toThrow(
      "range #8- is out of bounds",
    );
    expect(() => resolveRange(session, { from: 2, to: 9 }, "session x")).toThrow(
      "session x has 7 messages (#1-7)",
    );
  });

  it("the closure of any range keeps every pair whole (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), (x, y) => {
        const [a, b] = closeOverToolPairs(session, Math.min(x, y), Math.max(x, y));
        expect(a).toBeLessThanOrEqual(Math.min(x, y));
        expect(b).toBeGreaterThanOrEqual(Math.max(x, y));
        // Whole: resolving the closed range never throws.
        expect(resolveRange(session, { from: a + 1, to: b + 1 }, "s")).toEqual({
          start: a,
          end: b + 1,
        });
      }),
    );
  });
});
