/**
 * The HTML page in pieces (issue 31, item 9): a huge session's page is
 * written a message at a time, so no piece holds more than one message and
 * the pieces join to exactly the page renderHtml returns.
 */

import { describe, expect, it } from "vitest";
import { renderHtml, renderHtmlChunks } from "../../src/render/index.js";
import type { Common, Transcript } from "../../src/transcript.js";

const TS = "2026-07-01T10:00:00Z";

describe("the HTML page in pieces", () => {
  it("yields a piece per message that joins to the whole page", () => {
    const body: Common = [];
    for (let i = 0; i < 400; i++)
      body.push({
        role: i % 2 ? "assistant" : "user",
        timestamp: TS,
        content: [{ type: "text", text: `message ${i} ${"words ".repeat(200)}` }],
      });
    const transcript: Transcript<Common> = { meta: { id: "chunked", timestamp: TS }, body };
    const input = { transcript, start: 0, end: body.length };
    const pieces = [...renderHtmlChunks(input)];
    const page = renderHtml(input);
    expect(pieces.join("")).toBe(page);
    expect(pieces.length).toBeGreaterThan(400);
    const longest = Math.max(...pieces.slice(1, -1).map((p) => p.length));
    expect(longest).toBeLessThan(page.length / 100);
  });

  it("streams the table of contents too: no piece grows with the number of turns", () => {
    // Labels that escaping lengthens sixfold: a million such turns made a
    // table of contents longer than one string may be.
    const longest = (turns: number) => {
      const body: Common = [];
      for (let i = 0; i < turns; i++) {
        body.push({
          role: "user",
          timestamp: TS,
          content: [{ type: "text", text: '"'.repeat(79) }],
        });
        body.push({ role: "assistant", timestamp: TS, content: [{ type: "text", text: "ok" }] });
      }
      const transcript: Transcript<Common> = { meta: { id: "toc", timestamp: TS }, body };
      const pieces = [...renderHtmlChunks({ transcript, start: 0, end: body.length })];
      expect(pieces.join("")).toContain(`<a href="#t${turns}">`);
      return Math.max(...pieces.map((p) => p.length));
    };
    expect(longest(2000)).toBe(longest(20));
  });

  it("joins to the whole page for an empty session too", () => {
    const transcript: Transcript<Common> = { meta: { id: "empty", timestamp: TS }, body: [] };
    const input = { transcript, start: 0, end: 0 };
    expect([...renderHtmlChunks(input)].join("")).toBe(renderHtml(input));
  });
});
