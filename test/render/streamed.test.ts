/**
 * Every streamed output joins to exactly the one-string output it replaced
 * (issue 31 item 9, issue 33 goal 6): Simple and Common JSON, Markdown, the
 * compact text view, and the terminal sanitizer over pieces. Checked on the
 * page sessions of every harness and over generated transcripts and ranges.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forTerminal, forTerminalChunks } from "../../src/cli/sanitize.js";
import { renderCommon, renderCommonChunks } from "../../src/common-json.js";
import { renderFromCommon, renderFromCommonChunks } from "../../src/convert.js";
import { renderSimple, renderSimpleChunks } from "../../src/harness/simple.js";
import { renderMarkdown, renderMarkdownChunks } from "../../src/render/markdown.js";
import { type Painter, renderText, renderTextChunks } from "../../src/render/text.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { shapedSessionArb } from "../cross/shaped.js";
import { HOSTILE_STRINGS, transcriptArb } from "../support/arbitraries.js";
import { hostileSession, pageSessions } from "./sessions.js";

const join = (pieces: Iterable<string>) => [...pieces].join("");

/** A painter that marks every piece, so a lost or doubled piece shows. */
const marks: Painter = {
  bold: (s) => `<b>${s}</b>`,
  dim: (s) => `<d>${s}</d>`,
  red: (s) => `<r>${s}</r>`,
  green: (s) => `<g>${s}</g>`,
  cyan: (s) => `<c>${s}</c>`,
  yellow: (s) => `<y>${s}</y>`,
  magenta: (s) => `<m>${s}</m>`,
  text: (s) => s,
};

function sameEverywhere(t: Transcript<Common>, start: number, end: number): void {
  const slice = { meta: t.meta, body: t.body.slice(start, end) };
  expect(join(renderSimpleChunks(slice))).toBe(renderSimple(slice));
  expect(join(renderCommonChunks(slice))).toBe(renderCommon(slice));
  expect(join(renderFromCommonChunks(slice, "simple"))).toBe(renderFromCommon(slice, "simple"));
  expect(join(renderFromCommonChunks(slice, "common"))).toBe(renderFromCommon(slice, "common"));
  const page = { transcript: t, start, end, home: "/home/x" };
  expect(join(renderMarkdownChunks(page))).toBe(renderMarkdown(page));
  const view = { meta: t.meta, messages: t.body, start, end };
  expect(join(renderTextChunks(view))).toBe(renderText(view));
  expect(join(renderTextChunks(view, marks))).toBe(renderText(view, marks));
  expect(join(forTerminalChunks(renderTextChunks(view)))).toBe(forTerminal(renderText(view)));
}

const range = (n: number, a: number, b: number): [number, number] => {
  const start = n === 0 ? 0 : a % (n + 1);
  const end = start + (b % (n - start + 1));
  return [start, end];
};

describe("streamed output is the one-string output, piece by piece", () => {
  it("on every harness's page session, whole and in ranges", () => {
    const sessions = [
      ...pageSessions(),
      { name: "hostile", harness: "claude_code", transcript: hostileSession() },
    ];
    for (const { transcript: t } of sessions) {
      const n = t.body.length;
      for (const [start, end] of [
        [0, n],
        [0, 0],
        [1, Math.min(n, 3)],
        [n - 1, n],
        [Math.floor(n / 2), n],
      ] as const) {
        if (start >= 0 && start <= end) sameEverywhere(t, start, end);
      }
    }
  });

  it("over generated transcripts (hostile strings, every block) and ranges", () => {
    fc.assert(
      fc.property(transcriptArb({ maxMessages: 10 }), fc.nat(), fc.nat(), (t, a, b) => {
        const [start, end] = range(t.body.length, a, b);
        sameEverywhere(t, start, end);
      }),
      { numRuns: 150 },
    );
  });

  it("over generated tool-shaped sessions with hostile titles", () => {
    fc.assert(
      fc.property(
        shapedSessionArb,
        fc.constantFrom(...HOSTILE_STRINGS),
        fc.nat(),
        fc.nat(),
        (t0, title, a, b) => {
          const t = { ...t0, meta: { ...t0.meta, title } };
          const [start, end] = range(t.body.length, a, b);
          sameEverywhere(t, start, end);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("Markdown pieces are messages, not the page: a long session's largest piece is one message", () => {
    const body: Common = [];
    for (let i = 0; i < 300; i++)
      body.push({
        role: i % 2 ? "assistant" : "user",
        timestamp: "2026-07-01T10:00:00Z",
        content: [{ type: "text", text: `message ${i} ${"words ".repeat(100)}` }],
      });
    const input = {
      transcript: { meta: { id: "m", timestamp: "2026-07-01T10:00:00Z" }, body },
      start: 0,
      end: body.length,
    };
    const pieces = [...renderMarkdownChunks(input)];
    const page = renderMarkdown(input);
    expect(pieces.join("")).toBe(page);
    expect(pieces.length).toBeGreaterThan(300);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(page.length / 100);
  });

  it("the terminal sanitizer over pieces cut anywhere, \\r\\n across a cut included", () => {
    const unit = fc.constantFrom("a", "\r", "\n", "\r\n", "\u001b", "\u0085", "\u202e", "é", " ");
    fc.assert(
      fc.property(fc.array(fc.array(unit, { maxLength: 6 }).map((u) => u.join(""))), (pieces) => {
        expect(join(forTerminalChunks(pieces))).toBe(forTerminal(pieces.join("")));
      }),
      { numRuns: 400 },
    );
  });
});
