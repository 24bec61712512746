/**
 * The Copilot CLI codec's properties: fromCommon is deterministic and its
 * events file parses back to the same Body byte for byte; any lines after a
 * session.start are kept byte for byte and read without a crash; arbitrary
 * events shaped like Copilot's read as a Transcript or a one-line ParseError.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../src/errors.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const copilot = harness("copilot");
const START = JSON.stringify({
  type: "session.start",
  id: "e0",
  timestamp: "2026-10-01T10:00:00.000Z",
  data: { sessionId: "0f0f0f0f-0000-4000-8000-000000000001", context: { cwd: "/p" } },
});
const EVENT_TYPES = [
  "user.message",
  "assistant.message",
  "tool.execution_start",
  "tool.execution_complete",
  "session.usage_record",
  "session.binary_asset",
  "subagent.started",
  "session.model_change",
  "something.new",
] as const;

describe("Copilot CLI codec properties", () => {
  it("fromCommon is deterministic and its events file parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = copilot.codec.fromCommon(common);
        expect(copilot.codec.fromCommon(common)).toEqual(once);
        const text = copilot.text.render(once);
        const back = copilot.text.parse(text, "events.jsonl");
        // The text form is the events file alone: workspace.yaml is the store's (body.ts).
        expect([...back.body.lines]).toEqual([...once.body.lines]);
        expect(copilot.text.render(back)).toBe(text);
        // Every prompt survives the trip through Copilot's events.
        const prompts = (t: typeof common) =>
          t.body.flatMap((m) =>
            m.role === "user"
              ? m.content.flatMap((b) => (b.type === "text" && b.text.trim() ? [b.text] : []))
              : [],
          );
        const read = copilot.codec.toCommon(back);
        for (const p of prompts(common))
          expect(JSON.stringify(read.body)).toContain(JSON.stringify(p).slice(1, -1));
      }),
      { numRuns: 60 },
    );
  });

  it("keeps any lines after a session.start byte for byte, and reads them without crashing", () => {
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
          const text = [START, ...lines].join(eol);
          const parsed = copilot.text.parse(text, "events.jsonl");
          expect(copilot.text.render(parsed)).toBe(text);
          expect(() => copilot.codec.toCommon(parsed)).not.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("arbitrary events shaped like Copilot's read as a Transcript or a one-line ParseError", () => {
    const event = fc.record({
      type: fc.constantFrom(...EVENT_TYPES),
      id: fc.constantFrom("e1", "e2", "e3"),
      parentId: fc.constantFrom("e0", "e1", "e2", null),
      timestamp: fc.oneof(fc.constant("2026-10-01T10:00:01.000Z"), fc.string()),
      data: fc.oneof(
        fc.jsonValue(),
        fc.record({
          content: fc.jsonValue(),
          toolCallId: fc.constantFrom("c1", "c2"),
          toolRequests: fc.jsonValue(),
          success: fc.boolean(),
          result: fc.jsonValue(),
        }),
      ),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), fc.boolean(), (events, headed) => {
        const text = [...(headed ? [START] : []), ...events.map((e) => JSON.stringify(e))].join(
          "\n",
        );
        try {
          copilot.codec.toCommon(copilot.text.parse(text, "events.jsonl"));
        } catch (e) {
          expect(e).toBeInstanceOf(ParseError);
          expect(String((e as Error).message)).not.toContain("\n");
        }
      }),
      { numRuns: 300 },
    );
  });
});
