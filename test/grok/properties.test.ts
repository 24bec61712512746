/**
 * The Grok codec's properties: fromCommon is deterministic and its text
 * reads back to the same Body; arbitrary lines and arbitrary
 * update-shaped lines give a Transcript or a one-line ParseError, never a
 * crash; every update of a kind not read as conversation is one Raw record,
 * and comes back as the same update through Common.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kindOf } from "../../src/harness/grok/body.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";

const grok = harness("grok");

function readsOrRefusesInOneLine(text: string): void {
  try {
    grok.codec.toCommon(grok.text.parse(text, "x.jsonl"));
  } catch (e) {
    expect((e as Error).name).toBe("ParseError");
    expect((e as Error).message).not.toContain("\n");
  }
}

describe("Grok codec properties", () => {
  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = grok.codec.fromCommon(common);
        expect(grok.codec.fromCommon(common)).toEqual(once);
        const text = grok.text.render(once);
        const back = grok.text.parse(text, "t.jsonl");
        expect(back.body).toEqual(once.body);
        expect(grok.text.render(back)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it("never crashes on arbitrary lines: a Transcript or a one-line ParseError", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 8 }), (lines) => {
        readsOrRefusesInOneLine(lines.join("\n"));
      }),
      { numRuns: 300 },
    );
  });

  it("never crashes on arbitrary update-shaped lines", () => {
    const kinds = [
      "user_message_chunk",
      "agent_message_chunk",
      "agent_thought_chunk",
      "tool_call",
      "tool_call_update",
      "plan",
      "hook_execution",
      "retry_state",
      "other",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...kinds), fc.jsonValue(), fc.constantFrom("a", "b")), {
          maxLength: 10,
        }),
        fc.jsonValue(),
        (updates, top) => {
          const lines = [
            {
              grok_session: {
                summary: { info: top, created_at: top, generated_title: top },
                chat_history: [top],
              },
            },
            ...updates.map(([kind, v, id]) => ({
              timestamp: v,
              method: "session/update",
              params: {
                _meta: { agentTimestampMs: v },
                update: {
                  sessionUpdate: kind,
                  content: v,
                  toolCallId: id,
                  status: kind === "tool_call_update" ? "completed" : v,
                  rawInput: v,
                  rawOutput: v,
                  entries: v,
                  _meta: { modelId: v },
                },
              },
            })),
          ];
          readsOrRefusesInOneLine(lines.map((l) => JSON.stringify(l)).join("\n"));
          readsOrRefusesInOneLine(JSON.stringify(top));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads every non-conversation update as one Raw record, and writes it back as it was", () => {
    const kind = fc.oneof(
      fc.constantFrom("hook_execution", "retry_state"),
      fc.string({ minLength: 1 }).filter((k) => kindOf({ sessionUpdate: k }) === undefined),
    );
    const fields = fc.dictionary(
      fc.string().filter((k) => k !== "sessionUpdate"),
      fc.jsonValue(),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(kind, fields), { minLength: 1, maxLength: 6 }), (records) => {
        const text = records
          .map(([k, f], i) =>
            JSON.stringify({
              timestamp: 1_784_388_056 + i,
              method: "_x.ai/session/update",
              params: { sessionId: "s", update: { ...f, sessionUpdate: k } },
            }),
          )
          .join("\n");
        const common = grok.codec.toCommon(grok.text.parse(text, "s/updates.jsonl"));
        const raws = common.body.flatMap((m) =>
          m.content.flatMap((b) =>
            b.type === "tool_use" && b.tool.name === "Raw" ? [b.tool] : [],
          ),
        );
        expect(common.body.every((m) => m.role === "assistant")).toBe(true);
        expect(raws.map((r) => r.tool_name)).toEqual(records.map(([k]) => k));
        // As JSON carries them (a -0 is written 0).
        expect(raws.map((r) => r.input)).toEqual(
          records.map(([, f]) => JSON.parse(JSON.stringify(f))),
        );
        const again = grok.codec.toCommon(grok.codec.fromCommon(common));
        expect(again.body.flatMap((m) => m.content)).toEqual(common.body.flatMap((m) => m.content));
      }),
      { numRuns: 200 },
    );
  });
});
