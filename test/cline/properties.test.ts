/**
 * The Cline codec's properties: fromCommon is deterministic and its text
 * parses back to the same Body; arbitrary messages files (any JSON under
 * `messages`, any top-level JSON) read as a Transcript or a one-line
 * ParseError, never a crash.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const cline = harness("cline");

describe("Cline codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = cline.codec.fromCommon(common);
        expect(cline.codec.fromCommon(common)).toEqual(once);
        const text = cline.text.render(once);
        const back = cline.text.parse(text, "s.messages.json");
        expect(back.body).toEqual(once.body);
        expect(cline.text.render(back)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("the manifest always names a model: the session's, else the first assistant's, else unknown", () => {
    fc.assert(
      fc.property(shapedSessionArb, fc.option(fc.string()), (common, model) => {
        const meta = { ...common.meta };
        delete meta.model;
        if (model !== null) meta.model = model;
        const body = cline.codec.fromCommon({ meta, body: common.body }).body;
        const first = common.body.find((m) => m.role === "assistant" && m.model)?.model;
        const want = (model || undefined) ?? (first || undefined) ?? "unknown";
        // The real Cline 3.0.65 refuses a manifest with an empty model.
        expect(body.manifest?.model).toBe(want);
        expect(body.manifest?.model).not.toBe("");
      }),
      { numRuns: 100 },
    );
  });

  it("any messages, shaped like Cline's or not, read as a Transcript", () => {
    const block = fc.oneof(
      fc.jsonValue(),
      fc.record({
        type: fc.constantFrom(
          "text",
          "image",
          "file",
          "thinking",
          "redacted_thinking",
          "tool_use",
          "tool_result",
          "media",
        ),
        text: fc.jsonValue(),
        name: fc.jsonValue(),
        input: fc.jsonValue(),
        content: fc.jsonValue(),
        data: fc.jsonValue(),
      }),
    );
    const message = fc.oneof(
      fc.jsonValue(),
      fc.record({
        role: fc.constantFrom("user", "assistant", "system", 3),
        content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), fc.jsonValue()),
        ts: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
        modelInfo: fc.jsonValue(),
        metrics: fc.jsonValue(),
      }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.boolean(), (messages, wrapped) => {
        const text = JSON.stringify(wrapped ? { version: 1, sessionId: "s", messages } : messages);
        const t = cline.text.parse(text, "s.messages.json");
        const common = cline.codec.toCommon(t);
        expect(common.body.length).toBeLessThanOrEqual(messages.length);
      }),
      { numRuns: 300 },
    );
  });

  it("any other JSON document is a one-line ParseError naming the file", () => {
    fc.assert(
      fc.property(
        fc
          .jsonValue()
          .filter(
            (v) =>
              !Array.isArray(v) &&
              !(
                typeof v === "object" &&
                v !== null &&
                Array.isArray((v as { messages?: unknown }).messages)
              ),
          ),
        (v) => {
          try {
            cline.text.parse(JSON.stringify(v), "bad.messages.json");
            throw new Error("parsed");
          } catch (e) {
            expect(e).toBeInstanceOf(ParseError);
            expect(String((e as Error).message)).not.toContain("\n");
            expect(String((e as Error).message)).toContain("bad.messages.json");
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
