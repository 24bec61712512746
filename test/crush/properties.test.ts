/**
 * The Crush codec's properties over random Common sessions and random
 * rows: fromCommon is deterministic, its text form reads back to the same
 * Body byte for byte, and any `parts` column or text document reads to a
 * transcript or fails with a one-line ParseError, never a crash.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const crush = harness("crush");

describe("Crush codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = crush.codec.fromCommon(common);
        expect(crush.codec.fromCommon(common)).toEqual(once);
        const text = crush.text.render(once);
        const back = crush.text.parse(text, "s.json");
        expect(back.body).toEqual(once.body);
        expect(crush.text.render(back)).toBe(text);
        // Every assistant message comes back as one message, in order, when it has content
        // Crush keeps: empty reasoning without a signature is not written (docs/formats/crush.md).
        const read = crush.codec.toCommon(back);
        const kept = (b: (typeof common.body)[number]["content"][number]) =>
          !(b.type === "thinking" && b.text === "" && !b.signature);
        expect(read.body.filter((m) => m.role === "assistant")).toHaveLength(
          common.body.filter((m) => m.role === "assistant" && m.content.some(kept)).length,
        );
      }),
      { numRuns: 60 },
    );
  });

  it("reads any parts column: a transcript whose blocks are all known kinds", () => {
    const wrapper = fc.oneof(
      fc.jsonValue(),
      fc.record({
        type: fc.constantFrom(
          "text",
          "reasoning",
          "image_url",
          "binary",
          "tool_call",
          "tool_result",
          "finish",
          "shell_command",
          "unknown_kind",
        ),
        data: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom("user", "assistant", "tool", "system", "x"),
            fc.oneof(
              fc.array(wrapper, { maxLength: 5 }).map((p) => JSON.stringify(p)),
              fc.string(),
            ),
            fc.oneof(fc.integer(), fc.double(), fc.constant(null)),
          ),
          { maxLength: 6 },
        ),
        (rows) => {
          const body = {
            session: { id: "s", title: "", created_at: 1790848800 },
            messages: rows.map(([role, parts, created_at], i) => ({
              id: `m${i}`,
              role,
              parts,
              created_at,
            })),
          };
          const t = crush.codec.toCommon({
            meta: { id: "s", timestamp: "2026-10-01T10:00:00Z" },
            body,
          });
          for (const m of t.body) {
            expect(["user", "assistant"]).toContain(m.role);
            expect(m.content.length).toBeGreaterThan(0);
            for (const b of m.content)
              expect([
                "text",
                "thinking",
                "image",
                "artifact",
                "tool_use",
                "tool_result",
              ]).toContain(b.type);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never crashes on arbitrary JSON documents: a Transcript or a one-line ParseError", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, headed) => {
        const doc = headed
          ? { crush_session: { id: "s" }, messages: [value, { parts: value }] }
          : value;
        try {
          crush.codec.toCommon(crush.text.parse(JSON.stringify(doc), "x.json"));
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect(String((e as Error).message)).not.toContain("\n");
          expect((e as Error).name).toMatch(/ParseError/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
