/**
 * The Goose codec's properties over random Common sessions: fromCommon is
 * deterministic, and its text form reads back to the same Body.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const goose = harness("goose");

describe("Goose codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = goose.codec.fromCommon(common);
        expect(goose.codec.fromCommon(common)).toEqual(once);
        const text = goose.text.render(once);
        expect(goose.text.render(goose.codec.fromCommon(common))).toBe(text);
        const back = goose.text.parse(text, "s.jsonl");
        expect(back.body).toEqual(once.body);
        // Every message of the session comes back as one message, in order.
        const read = goose.codec.toCommon(back);
        expect(read.body.map((m) => m.role)).toEqual(
          common.body.filter((m) => m.content.length > 0).map((m) => m.role),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("never crashes on arbitrary JSON lines: a Transcript or a one-line ParseError", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (values, headed) => {
          // Half the time behind a valid metadata line, so the messages themselves are read.
          const lines = headed
            ? [
                { working_dir: "/w" },
                ...values.map((v) => ({
                  role: "assistant",
                  created: v,
                  content: [v, { type: "text", text: v }],
                })),
              ]
            : values;
          const text = lines.map((v) => JSON.stringify(v)).join("\n");
          try {
            const t = goose.text.parse(text, "x.jsonl");
            goose.codec.toCommon(t);
          } catch (e) {
            expect(e).toBeInstanceOf(Error);
            expect(String((e as Error).message)).not.toContain("\n");
            expect((e as Error).name).toMatch(/ParseError/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
