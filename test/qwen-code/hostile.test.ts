/**
 * Malformed, truncated, hostile and huge Qwen Code input: a one-line
 * ParseError naming the file, or the CLI's tolerant reading (lines that are
 * not records skipped and kept verbatim); never a crash or a hang. Plus
 * fast-check properties: any mix of lines parses or fails cleanly and
 * renders back byte for byte, and fromCommon is deterministic and a fixed
 * point of the text form.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { qwenCodec, qwenText } from "../../src/harness/qwen-code/index.js";
import { MAX_LINES } from "../../src/lines.js";
import { shapedSessionArb } from "../cross/shaped.js";

const SID = "11111111-2222-4333-8444-555555555555";
const line = (uuid: string, parentUuid: string | null, type: string, parts: unknown[]) =>
  JSON.stringify({
    uuid,
    parentUuid,
    sessionId: SID,
    timestamp: "2026-12-05T10:00:00.000Z",
    type,
    message: { role: type === "assistant" ? "model" : "user", parts },
  });
const read = (text: string) => qwenCodec.toCommon(qwenText.parse(text, "bad.jsonl"));

function oneLine(f: () => unknown, kind: typeof ParseError | typeof UnsupportedError = ParseError) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(kind);
    const err = e as Error;
    expect(err.message).not.toContain("\n");
    expect(err.message).toContain("bad.jsonl");
    return err.message;
  }
  throw new Error("expected an error");
}

describe("malformed and truncated input", () => {
  it("refuses empty input and text with no record in one line naming the file", () => {
    expect(oneLine(() => read(""))).toMatch(/empty/);
    expect(oneLine(() => read("not json\n{]"))).toMatch(/not a Qwen Code session/);
    // A Claude Code line has no parts but still names a session: a record needs a known type.
    expect(
      oneLine(() => read('{"uuid":"a","parentUuid":null,"sessionId":"s","type":"summary"}')),
    ).toMatch(/known type/);
  });

  it("skips a cut-off last line and invalid lines, keeping them verbatim", () => {
    const text = `${line("a", null, "user", [{ text: "hi" }])}\nnot json\n${line("b", "a", "assistant", [{ text: "yo" }]).slice(0, 40)}`;
    const t = qwenText.parse(text, "bad.jsonl");
    expect(qwenText.render(t)).toBe(text);
    expect(qwenCodec.toCommon(t).body).toHaveLength(1);
  });

  it("keeps unknown record kinds and subtypes verbatim and reads around them", () => {
    const text = [
      line("a", null, "user", [{ text: "hi" }]),
      JSON.stringify({ uuid: "x", parentUuid: "a", sessionId: SID, type: "future_kind", data: 1 }),
      JSON.stringify({
        uuid: "y",
        parentUuid: "a",
        sessionId: SID,
        type: "system",
        subtype: "future_subtype",
      }),
      line("b", "y", "assistant", [{ text: "yo" }, { futurePart: { z: 1 } }]),
    ].join("\r\n");
    const t = qwenText.parse(text, "bad.jsonl");
    expect(qwenText.render(t)).toBe(text);
    const body = qwenCodec.toCommon(t).body;
    expect(body.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(body[1]!.content).toEqual([{ type: "text", text: "yo" }]);
  });

  it("does not hang on a parentUuid cycle, and reads wrong-typed fields as absent", () => {
    const text = [
      line("a", "b", "user", [{ text: "one" }]),
      line("b", "a", "assistant", [{ text: "two" }]),
      JSON.stringify({
        uuid: "c",
        parentUuid: "b",
        sessionId: SID,
        type: "assistant",
        model: 7,
        usageMetadata: "x",
        message: { parts: "no" },
      }),
    ].join("\n");
    const t = read(text);
    expect(t.body.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("refuses more lines than it can hold, in one line", () => {
    const huge = "\n".repeat(MAX_LINES + 1);
    oneLine(() => read(huge), UnsupportedError);
  });

  it("reads a long session (20,000 records) without recursion", () => {
    const lines = [line("r0", null, "user", [{ text: "start" }])];
    for (let i = 1; i < 20_000; i++)
      lines.push(line(`r${i}`, `r${i - 1}`, i % 2 ? "assistant" : "user", [{ text: `m${i}` }]));
    expect(read(lines.join("\n")).body).toHaveLength(20_000);
  });
});

describe("properties", () => {
  it("any mix of JSON lines parses (rendering back byte for byte) or fails in one line", () => {
    const record = fc.record({
      uuid: fc.constantFrom("a", "b", "c", ""),
      parentUuid: fc.constantFrom("a", "b", null, 3),
      sessionId: fc.constantFrom(SID, ""),
      type: fc.constantFrom("user", "assistant", "tool_result", "system", "other"),
      message: fc.record({ parts: fc.array(fc.jsonValue(), { maxLength: 3 }) }),
      toolCallResult: fc.jsonValue(),
      usageMetadata: fc.jsonValue(),
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            record.map((r) => JSON.stringify(r)),
            fc.string(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        (lines) => {
          const text = lines.join("\n");
          try {
            const t = qwenText.parse(text, "bad.jsonl");
            expect(qwenText.render(t)).toBe(text);
            qwenCodec.toCommon(t);
          } catch (e) {
            expect(e).toBeInstanceOf(ParseError);
            expect((e as Error).message).not.toContain("\n");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("fromCommon is deterministic, and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = qwenCodec.fromCommon(common);
        expect(qwenCodec.fromCommon(common)).toEqual(once);
        const text = qwenText.render(once);
        const back = qwenText.parse(text, "s.jsonl");
        expect([...back.body.lines]).toEqual([...once.body.lines]);
        expect(qwenText.render(back)).toBe(text);
      }),
      { numRuns: 60 },
    );
  });
});
