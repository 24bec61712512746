/**
 * The pi codec's properties: fromCommon is deterministic and its text parses
 * back to the same Body; the text form is byte-exact for any text with a
 * header; arbitrary entries after a header never crash the reader.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const pi = harness("pi");
const HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: "p",
  timestamp: "2026-01-01T00:00:00Z",
  cwd: "/p",
});

describe("pi codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = pi.codec.fromCommon(common);
        expect(pi.codec.fromCommon(common)).toEqual(once);
        const text = pi.text.render(once);
        const back = pi.text.parse(text, "s.jsonl");
        expect([...back.body.lines]).toEqual([...once.body.lines]);
        expect(pi.text.render(back)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("keeps any text after a header byte for byte, and reads it without crashing", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.jsonValue().map((v) => JSON.stringify(v)),
            fc.string(),
          ),
          { maxLength: 8 },
        ),
        fc.constantFrom("\n", "\r\n"),
        (lines, eol) => {
          const text = [HEADER, ...lines].join(eol);
          const parsed = pi.text.parse(text, "p.jsonl");
          expect(pi.text.render(parsed)).toBe(text);
          expect(() => pi.codec.toCommon(parsed)).not.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("arbitrary entries shaped like pi's read as a Transcript or a one-line ParseError", () => {
    const entry = fc.record({
      type: fc.constantFrom("message", "session_info", "compaction", "label"),
      id: fc.constantFrom("a", "b", "c"),
      parentId: fc.constantFrom("a", "b", "c", null),
      message: fc.record({
        role: fc.constantFrom("user", "assistant", "toolResult", "bashExecution", "custom"),
        content: fc.jsonValue(),
      }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.boolean(), (entries, headed) => {
        const text = [...(headed ? [HEADER] : []), ...entries.map((e) => JSON.stringify(e))].join(
          "\n",
        );
        try {
          pi.codec.toCommon(pi.text.parse(text, "e.jsonl"));
        } catch (e) {
          expect(e).toBeInstanceOf(ParseError);
          expect(String((e as Error).message)).not.toContain("\n");
        }
      }),
      { numRuns: 200 },
    );
  });
});
