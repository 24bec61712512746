/**
 * The Amp codec's properties over random Common sessions: fromCommon is
 * deterministic, its text form reads back to the same Body, and arbitrary
 * JSON gives a Transcript or a one-line error.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const amp = harness("amp");

describe("Amp codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = amp.codec.fromCommon(common);
        expect(amp.codec.fromCommon(common)).toEqual(once);
        const text = amp.text.render(once);
        const back = amp.text.parse(text, "t.json");
        expect(back.body).toEqual(once.body);
        expect(amp.text.render(back)).toBe(text);
        const read = amp.codec.toCommon(back);
        expect(read.body.map((m) => m.role)).toEqual(
          common.body.filter((m) => m.content.length > 0).map((m) => m.role),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("never crashes on arbitrary JSON: a Transcript or a one-line ParseError", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.jsonValue(), (values, top) => {
        const roles = ["user", "assistant", "parent"];
        const thread = {
          v: 1,
          id: top,
          created: top,
          env: top,
          messages: values.map((v, i) => ({
            role: roles[i % 3],
            content: [v, { type: "tool_result", run: v }, { type: "tool_use", input: v, name: v }],
            usage: v,
            state: v,
            meta: { sentAt: v },
          })),
        };
        for (const text of [JSON.stringify(thread), JSON.stringify(top)]) {
          try {
            amp.codec.toCommon(amp.text.parse(text, "x.json"));
          } catch (e) {
            expect((e as Error).name).toBe("ParseError");
            expect((e as Error).message).not.toContain("\n");
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
