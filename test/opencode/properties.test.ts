/**
 * Properties of the OpenCode codec and text codec over random input:
 * fromCommon is deterministic and mints ids that sort as OpenCode's do;
 * the export text round-trips; toCommon never throws on arbitrary rows and
 * gives exactly the message count the store lists (codec.piecesOf).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Json } from "../../src/common.js";
import { openCodeCodec, openCodeText } from "../../src/harness/opencode/index.js";
import type { OpenCodeBody, Row } from "../../src/harness/shared/opencode/body.js";
import { partKind, piecesOf, readData } from "../../src/harness/shared/opencode/body.js";
import { isOpenCodeId } from "../../src/harness/shared/opencode/ids.js";
import { compare } from "../../src/harness/shared/opencode/text.js";
import { jsonArb, textArb, transcriptArb } from "../support/arbitraries.js";

const common = transcriptArb();

describe("fromCommon", () => {
  it("is deterministic", () => {
    fc.assert(
      fc.property(common, (c) => {
        const a = openCodeCodec.fromCommon(structuredClone(c));
        const b = openCodeCodec.fromCommon(structuredClone(c));
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { numRuns: 60 },
    );
  });

  it("mints OpenCode-shaped ids: messages and parts strictly ascending in the session's order", () => {
    fc.assert(
      fc.property(common, (c) => {
        const { body } = openCodeCodec.fromCommon(c);
        expect(isOpenCodeId(body.session.id as string, "ses")).toBe(true);
        const ids = body.messages.map((m) => m.row.id as string);
        const parts = body.messages.flatMap((m) => m.parts.map((p) => p.id as string));
        for (const id of ids) expect(isOpenCodeId(id, "msg")).toBe(true);
        for (const id of parts) expect(isOpenCodeId(id, "prt")).toBe(true);
        // OpenCode's order (time_created, then id) is the session's order, and
        // its parts' order (by id) is each message's.
        const byTime = [...body.messages].sort(
          (a, b) =>
            (a.row.time_created as number) - (b.row.time_created as number) ||
            compare(a.row.id as string, b.row.id as string),
        );
        expect(byTime.map((m) => m.row.id)).toEqual(ids);
        for (const m of body.messages) {
          const own = m.parts.map((p) => p.id as string);
          expect([...own].sort(compare)).toEqual(own);
        }
        expect(new Set([...ids, ...parts]).size).toBe(ids.length + parts.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe("the export text", () => {
  it("renders, parses and renders again to the same text, reading the same Common", () => {
    fc.assert(
      fc.property(common, (c) => {
        const native = openCodeCodec.fromCommon(c);
        const text = openCodeText.render(native);
        const parsed = openCodeText.parse(text, "random.json");
        expect(openCodeText.render(parsed)).toBe(text);
        expect(openCodeCodec.toCommon(parsed)).toEqual(openCodeCodec.toCommon(native));
      }),
      { numRuns: 60 },
    );
  });

  it("refuses what is not an export document with a one-line error naming the place", () => {
    for (const [text, at] of [
      ["[]", /expected an object/],
      ['{"info":{"id":"nope"}}', /does not start with "ses"/],
      ['{"info":{"id":"ses_x"},"messages":[{"info":{}}]}', /messages\[0\]\.info\.id/],
      [
        '{"info":{"id":"ses_x"},"messages":[{"info":{"id":"m","role":"user"},"parts":[3]}]}',
        /parts\[0\]/,
      ],
      ['{"info":', /invalid JSON/],
    ] as const) {
      expect(() => openCodeText.parse(text, "doc.json")).toThrow(at);
      try {
        openCodeText.parse(text, "doc.json");
      } catch (e) {
        expect((e as Error).message).toMatch(/^doc\.json/);
        expect((e as Error).message).not.toMatch(/\n/);
      }
    }
  });
});

// Random rows: parts of every kind with fields of any JSON type.
const fieldArb: fc.Arbitrary<Json> = fc.oneof(textArb(), jsonArb(2));
const partArb: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.oneof(textArb(), fieldArb) }),
  fc.record(
    { type: fc.constant("reasoning"), text: fieldArb, metadata: fieldArb },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constant("file"),
      url: fc.oneof(fc.constant("data:image/png;base64,AAAA"), fieldArb),
      mime: fieldArb,
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constant("tool"),
      tool: fc.oneof(
        fc.constantFrom("bash", "read", "write", "edit", "multiedit", "apply_patch", "grep"),
        fieldArb,
      ),
      callID: fieldArb,
      state: fc.oneof(
        fieldArb,
        fc.record(
          {
            status: fc.constantFrom("pending", "running", "completed", "error", "odd"),
            input: fieldArb,
            output: fieldArb,
            error: fieldArb,
            metadata: fieldArb,
            time: fieldArb,
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    type: fc.constantFrom("step-start", "step-finish", "patch", "snapshot"),
    extra: fieldArb,
  }),
  jsonArb(2),
);
const messageArb = fc.record({
  info: fc.oneof(
    fc.record(
      {
        role: fc.constantFrom("user", "assistant"),
        modelID: fieldArb,
        tokens: fieldArb,
        finish: fieldArb,
        time: fieldArb,
      },
      { requiredKeys: ["role"] },
    ),
    jsonArb(2),
  ),
  parts: fc.array(fc.oneof(partArb, fc.constant("not json")), { maxLength: 6 }),
});

function bodyOf(messages: { info: Json; parts: (Json | "not json")[] }[]): OpenCodeBody {
  const sid = "ses_random000000AAAAAAAAAAAAAA";
  const session: Row = {
    id: sid,
    project_id: "global",
    slug: "s",
    directory: "/w",
    title: "t",
    version: "v",
    time_created: 1,
    time_updated: 2,
  };
  return {
    session,
    messages: messages.map((m, i) => ({
      row: {
        id: `msg_${i}`,
        session_id: sid,
        time_created: i,
        time_updated: i,
        data: JSON.stringify(m.info),
      },
      parts: m.parts.map((p, j) => ({
        id: `prt_${i}_${j}`,
        message_id: `msg_${i}`,
        session_id: sid,
        time_created: i,
        time_updated: i,
        data: p === "not json" ? "{not json" : JSON.stringify(p),
      })),
    })),
  };
}

describe("toCommon on arbitrary rows", () => {
  it("never throws, and gives the count the store lists", () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), (messages) => {
        const body = bodyOf(messages);
        const t = openCodeCodec.toCommon({
          meta: { id: "x", timestamp: "1970-01-01T00:00:00Z" },
          body,
        });
        const expected = body.messages.reduce((n, m) => {
          const role = readData(m.row)?.role;
          return (
            n +
            piecesOf(
              typeof role === "string" ? role : undefined,
              m.parts.map((p) => partKind(readData(p))),
            )
          );
        }, 0);
        expect(t.body).toHaveLength(expected);
        // Every call has exactly one result, right after its message.
        const calls = t.body.flatMap((m) => m.content).filter((b) => b.type === "tool_use").length;
        const results = t.body
          .flatMap((m) => m.content)
          .filter((b) => b.type === "tool_result").length;
        expect(results).toBe(calls);
      }),
      { numRuns: 200 },
    );
  });
});
