/**
 * The Droid codec's properties: fromCommon is deterministic and its text
 * parses back to the same Body; the text form is byte-exact for any text
 * after a session start; records shaped like Droid's read as a Transcript
 * or a one-line ParseError, never a crash.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const droid = harness("droid");
const HEADER = JSON.stringify({
  type: "session_start",
  id: "11111111-2222-4333-8444-555555555555",
  title: "t",
  owner: "u",
  version: 2,
  cwd: "/p",
});

describe("Droid codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same lines", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = droid.codec.fromCommon(common);
        expect(droid.codec.fromCommon(common)).toEqual(once);
        const text = droid.text.render(once);
        const back = droid.text.parse(text, "s.jsonl");
        expect([...back.body.lines]).toEqual([...once.body.lines]);
        expect(droid.text.render(back)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("keeps any text after a session start byte for byte, and reads it without crashing", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.jsonValue().map((v) => JSON.stringify(v)),
            fc.string(),
          ),
          {
            maxLength: 8,
          },
        ),
        fc.constantFrom("\n", "\r\n"),
        (lines, eol) => {
          const text = [HEADER, ...lines].join(eol);
          const parsed = droid.text.parse(text, "p.jsonl");
          expect(droid.text.render(parsed)).toBe(text);
          expect(() => droid.codec.toCommon(parsed)).not.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("records shaped like Droid's read as a Transcript or a one-line ParseError", () => {
    const block = fc.oneof(
      fc.record({
        type: fc.constantFrom("text", "thinking", "tool_use", "tool_result", "image", "x"),
        text: fc.string(),
        name: fc.constantFrom("Execute", "Read", "Create", "Edit", "LS"),
        input: fc.jsonValue(),
        content: fc.jsonValue(),
      }),
      fc.jsonValue(),
    );
    const record = fc.record({
      type: fc.constantFrom("message", "session_start", "agent_turn_outcome"),
      id: fc.constantFrom("a", "b", 3),
      visibility: fc.constantFrom(undefined, "llm_only", "user_only"),
      message: fc.record({
        role: fc.constantFrom("user", "assistant", "system", 1),
        content: fc.oneof(fc.array(block, { maxLength: 4 }), fc.string()),
      }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), fc.boolean(), (records, headed) => {
        const text = [...(headed ? [HEADER] : []), ...records.map((r) => JSON.stringify(r))].join(
          "\n",
        );
        try {
          droid.codec.toCommon(droid.text.parse(text, "e.jsonl"));
        } catch (e) {
          expect(e).toBeInstanceOf(ParseError);
          expect(String((e as Error).message)).not.toContain("\n");
        }
      }),
      { numRuns: 200 },
    );
  });
});
