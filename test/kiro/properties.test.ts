/**
 * The Kiro CLI codec's properties over random Common sessions: fromCommon is
 * deterministic, and its text form reads back to the same Body.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const kiro = harness("kiro");

describe("Kiro CLI codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = kiro.codec.fromCommon(common);
        expect(kiro.codec.fromCommon(common)).toEqual(once);
        const text = kiro.text.render(once);
        expect(kiro.text.render(kiro.codec.fromCommon(common))).toBe(text);
        const back = kiro.text.parse(text, "s.jsonl");
        expect(back.body).toEqual(once.body);
        // Every message of the session comes back as one message, in order.
        const read = kiro.codec.toCommon(back);
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
          // Half the time as log entries, so their data and blocks are read.
          const lines = headed
            ? values.map((v, i) => ({
                version: "v1",
                kind: ["Prompt", "AssistantMessage", "ToolResults", "ResetTo"][i % 4],
                data: {
                  content: [v, { kind: "text", data: v }],
                  target_index: v,
                  meta: { timestamp: v },
                },
              }))
            : values;
          const text = lines.map((v) => JSON.stringify(v)).join("\n");
          try {
            const t = kiro.text.parse(text, "x.jsonl");
            kiro.codec.toCommon(t);
          } catch (e) {
            expect(e).toBeInstanceOf(Error);
            expect(String((e as Error).message)).not.toContain("\n");
            expect((e as Error).name).toMatch(/ParseError|UnsupportedError/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
