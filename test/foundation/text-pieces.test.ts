/**
 * JSONL text forms render in pieces, a line at a time (issue 31 item 9):
 * `convert --to <a JSONL harness>` streams the native text instead of
 * building it as one string (a huge session's text can be longer than one
 * string may be). The pieces join to exactly `render`'s text.
 */

import { describe, expect, it } from "vitest";
import { renderFromCommon, renderFromCommonChunks } from "../../src/convert.js";
import { allHarnesses } from "../../src/harness/index.js";
import type { Common, TextForm, Transcript } from "../../src/transcript.js";

const TS = "2026-11-30T09:15:00.000Z";

function session(): Transcript<Common> {
  const body: Common = [];
  for (let i = 0; i < 40; i++) {
    body.push({
      role: i % 2 ? "assistant" : "user",
      timestamp: TS,
      content: [{ type: "text", text: `message ${i}\nwith a second line and "quotes"` }],
    });
  }
  return {
    meta: { id: "9a9a9a9a-0000-4000-8000-000000009a9a", timestamp: TS, cwd: "/work" },
    body,
  };
}

const JSONL: TextForm[] = ["claude_code", "codex", "qwen_code", "pi", "droid", "copilot"];

describe("JSONL forms in pieces", () => {
  it("every JSONL form gives its pieces, a line each", () => {
    const given = allHarnesses()
      .filter((h) => h.text.renderPieces !== undefined)
      .map((h) => h.id);
    expect(given.sort()).toEqual([...JSONL].sort());
  });

  for (const id of JSONL) {
    it(`${id}: the pieces join to exactly the rendered text, one line a piece`, () => {
      const t = session();
      const pieces = [...renderFromCommonChunks(t, id)];
      const text = renderFromCommon(t, id);
      expect(pieces.join("")).toBe(text);
      expect(pieces.length).toBeGreaterThan(20);
      for (const piece of pieces) expect(piece.indexOf("\n")).toBe(piece.length - 1);
    });
  }
});
