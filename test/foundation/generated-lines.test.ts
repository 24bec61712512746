/**
 * `Lines.generated`: lines made anew on each walk (what a JSONL codec's
 * `fromCommon` gives a store to save), gathered once only when a line is
 * asked for by number, and equal (`toEqual`) to any Lines holding the same
 * lines, whatever holds them.
 */

import { describe, expect, it } from "vitest";
import { joinLines, Lines, type VerbatimLine } from "../../src/lines.js";

const LINES: VerbatimLine[] = [
  { text: '{"a":1}', eol: "\n" },
  { text: '{"b":2}', eol: "\r\n" },
  { text: "last", eol: "" },
];

/** Generated lines, counting how often they are made. */
function counted(): { lines: Lines; made: () => number } {
  let made = 0;
  const lines = Lines.generated(function* () {
    made++;
    yield* LINES.map((l) => ({ ...l }));
  });
  return { lines, made: () => made };
}

describe("Lines.generated", () => {
  it("makes its lines afresh on every walk, the same each time, and holds none", () => {
    const { lines, made } = counted();
    expect(made()).toBe(0);
    expect([...lines]).toEqual(LINES);
    expect(joinLines(lines)).toBe('{"a":1}\n{"b":2}\r\nlast');
    expect(made()).toBe(2);
    // A walk that stops early makes only what it reached.
    for (const line of lines) {
      expect(line.text).toBe('{"a":1}');
      break;
    }
    expect(made()).toBe(3);
  });

  it("gathers the lines once when one is asked for by number, and walks what it gathered", () => {
    const { lines, made } = counted();
    expect(lines.length).toBe(3);
    expect(lines.at(-1)).toEqual({ text: "last", eol: "" });
    expect(lines.text(1)).toBe('{"b":2}');
    expect(lines.at(3)).toBeUndefined();
    expect([...lines]).toEqual(LINES);
    expect(made()).toBe(1);
  });

  it("equals any Lines of the same lines, and no other", () => {
    const text = joinLines(LINES);
    expect(counted().lines).toEqual(Lines.of(LINES));
    expect(counted().lines).toEqual(Lines.split(text));
    expect(Lines.split(text)).toEqual(Lines.fromBytes(new TextEncoder().encode(text)));
    expect(counted().lines).not.toEqual(Lines.of(LINES.slice(0, 2)));
    expect(counted().lines).not.toEqual(Lines.split(`${text}\n`));
  });
});
