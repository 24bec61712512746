/**
 * The Cursor codec's properties over random Common sessions: fromCommon is
 * deterministic, its text form reads back to the same Body, arbitrary
 * JSON lines in either layout give a Transcript or a one-line error, and a
 * graph-only chat's prompt history reads as its string prompts.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const cursor = harness("cursor");

describe("Cursor codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = cursor.codec.fromCommon(common);
        expect(cursor.codec.fromCommon(common)).toEqual(once);
        const text = cursor.text.render(once);
        const back = cursor.text.parse(text, "s.jsonl");
        expect(back.body).toEqual(once.body);
        expect(cursor.text.render(back)).toBe(text);
        // Every non-empty message comes back as one message, in order.
        const read = cursor.codec.toCommon(back);
        expect(read.body.map((m) => m.role)).toEqual(
          common.body.filter((m) => m.content.length > 0).map((m) => m.role),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("never crashes on arbitrary JSON lines: a Transcript or a one-line error", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 6 }),
        fc.constantFrom("raw", "transcript", "chat"),
        (values, shape) => {
          // As transcript lines or chat blobs too, so their parts are read.
          const roles = ["user", "assistant", "tool", "system"];
          const lines =
            shape === "raw"
              ? values
              : values.map((v, i) => {
                  const parts = [
                    v,
                    { type: "text", text: v },
                    { type: "tool-call", args: v, toolName: v },
                  ];
                  return shape === "transcript"
                    ? { role: roles[i % 4], message: { content: parts } }
                    : { role: roles[i % 4], content: parts, createdAt: v, providerOptions: v };
                });
          const text = lines.map((v) => JSON.stringify(v)).join("\n");
          try {
            cursor.codec.toCommon(cursor.text.parse(text, "x.jsonl"));
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

  it("reads a graph-only chat's prompt_history.json as one user message per non-blank string, whatever else it holds", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 8 }), (prompts) => {
        const header = { cursor_chat: { chat: {}, agent: {}, opaque: 3, prompts } };
        const c = cursor.codec.toCommon(cursor.text.parse(JSON.stringify(header), "x.jsonl"));
        const strings = prompts.filter(
          (p): p is string => typeof p === "string" && p.trim() !== "",
        );
        expect(c.body.map((m) => m.content)).toEqual(
          strings.map((text) => [{ type: "text", text }]),
        );
      }),
      { numRuns: 200 },
    );
  });
});
