/**
 * Property tests: random Common transcripts survive Common JSON and Simple
 * round trips unchanged, and rendering is stable.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeTool, toolToCanonical } from "../../src/common.js";
import { readCommon, renderCommon } from "../../src/common-json.js";
import { convert, parseToCommon } from "../../src/convert.js";
import { parseSimple, renderSimple } from "../../src/harness/simple.js";
import { Checker, parseJson } from "../../src/json.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { transcriptArb } from "../support/arbitraries.js";

const readCommonText = (text: string): Transcript<Common> =>
  readCommon(new Checker("common", "prop.json"), parseJson(text, "common", "prop.json"));

const RUNS = { numRuns: 300 };

describe("round trips of random Common transcripts", () => {
  it("Common JSON: read(render(c)) equals c", () => {
    fc.assert(
      fc.property(transcriptArb({ loneSurrogates: true }), (c) => {
        expect(readCommonText(renderCommon(c))).toEqual(c);
      }),
      RUNS,
    );
  });

  it("Simple: parse(render(c)) equals c", () => {
    fc.assert(
      fc.property(transcriptArb({ loneSurrogates: true }), (c) => {
        expect(parseSimple(renderSimple(c), "prop.json")).toEqual(c);
      }),
      RUNS,
    );
  });

  it("rendering is a fixed point: render(parse(render(c))) is byte-identical", () => {
    fc.assert(
      fc.property(transcriptArb(), (c) => {
        const common = renderCommon(c);
        expect(renderCommon(readCommonText(common))).toBe(common);
        const simple = renderSimple(c);
        expect(renderSimple(parseSimple(simple))).toBe(simple);
      }),
      RUNS,
    );
  });

  it("convert Simple -> Common -> Simple -> Common is stable", () => {
    fc.assert(
      fc.property(transcriptArb(), (c) => {
        const simple = renderSimple(c);
        const common1 = convert(simple, "simple", "common");
        const simple2 = convert(common1, "common", "simple");
        const common2 = convert(simple2, "simple", "common");
        expect(simple2).toBe(simple);
        expect(common2).toBe(common1);
        expect(parseToCommon(common2, "common")).toEqual(c);
      }),
      { numRuns: 100 },
    );
  });

  it("the arbitrary keeps its promises: normalized tools, unique tool ids, non-empty names", () => {
    fc.assert(
      fc.property(transcriptArb(), (c) => {
        const ids = c.body.flatMap((m) =>
          m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])),
        );
        expect(new Set(ids).size).toBe(ids.length);
        for (const m of c.body) {
          for (const b of m.content) {
            if (b.type !== "tool_use") continue;
            expect(normalizeTool(b.tool)).toEqual(b.tool);
            expect(toolToCanonical(b.tool).name).not.toBe("");
          }
        }
        expect(c.meta.id).not.toBe("");
      }),
      { numRuns: 200 },
    );
  });
});
