/**
 * Properties of the renderers over generated sessions (hostile strings,
 * every block and tool shape, ranges): they never throw, the HTML page
 * keeps exactly its own script, no tag carries an event handler, the
 * Markdown page parses to one h1 and one h2 per turn, and no absolute path
 * from the session's cwd or home survives without showPaths.
 */

import { Parser } from "commonmark";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../src/render/html.js";
import { markdownPieces, renderMarkdown } from "../../src/render/markdown.js";
import { buildModel } from "../../src/render/model.js";
import { shapedSessionArb } from "../cross/shaped.js";
import { HOSTILE_STRINGS } from "../support/arbitraries.js";

const hostileTitle = fc.constantFrom(...HOSTILE_STRINGS);

describe("renderer properties", () => {
  it("HTML: never throws, one script, no handler attributes, no javascript: URL", () => {
    fc.assert(
      fc.property(shapedSessionArb, hostileTitle, (t, title) => {
        const html = renderHtml({
          transcript: { ...t, meta: { ...t.meta, title } },
          home: "/home/x",
        });
        expect(html.match(/<script/gi)).toHaveLength(1);
        for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
          expect(tag).not.toMatch(/\son\w+=/i);
          expect(tag).not.toMatch(/(href|src)="\s*javascript:/i);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("Markdown: one h1 and one h2 per turn, whatever a range selects", () => {
    fc.assert(
      fc.property(shapedSessionArb, fc.nat(), fc.nat(), (t, a, b) => {
        const n = t.body.length;
        const start = n === 0 ? 0 : a % n;
        const end = start + (n - start === 0 ? 0 : (b % (n - start)) + 1);
        const md = renderMarkdown({ transcript: t, start, end });
        const headings: number[] = [];
        const walker = new Parser().parse(md).walker();
        for (let e = walker.next(); e !== null; e = walker.next()) {
          if (e.entering && e.node.type === "heading") headings.push(e.node.level);
        }
        // Prose may carry its own headings; ours are the only h1 and the turn h2s at least.
        expect(headings.filter((l) => l === 1).length).toBeGreaterThanOrEqual(1);
        const turns = buildModel({ transcript: t, start, end }).turns.length;
        expect(headings.filter((l) => l === 2).length).toBeGreaterThanOrEqual(turns);
      }),
      { numRuns: 60 },
    );
  });

  it("Markdown pieces: one per shown message, in order, adding up to the page exactly", () => {
    fc.assert(
      fc.property(shapedSessionArb, hostileTitle, fc.nat(), fc.nat(), (t0, title, a, b) => {
        const t = { ...t0, meta: { ...t0.meta, title } };
        const n = t.body.length;
        const start = n === 0 ? 0 : a % n;
        const end = start + (n - start === 0 ? 0 : (b % (n - start)) + 1);
        const input = { transcript: t, start, end, home: "/home/x" };
        const pieces = markdownPieces(input);
        expect([...pieces.messages.keys()]).toEqual(
          Array.from({ length: end - start }, (_, i) => start + i),
        );
        const joined = pieces.head + [...pieces.messages.values()].join("") + pieces.tail;
        expect(joined).toBe(renderMarkdown(input));
        // A message's piece is its own: it names its ordinal (or shows nothing).
        for (const [i, text] of pieces.messages) {
          if (text !== "") expect(text).toContain(`#${i + 1}`);
        }
      }),
      { numRuns: 80 },
    );
  });

  it("no cwd-prefixed absolute path survives without showPaths", () => {
    fc.assert(
      fc.property(shapedSessionArb, (t) => {
        const cwd = t.meta.cwd;
        if (cwd === undefined || !cwd.startsWith("/") || cwd.length < 4) return;
        const body = [
          ...t.body,
          {
            role: "user" as const,
            timestamp: t.meta.timestamp,
            content: [{ type: "text" as const, text: `see ${cwd}/src/a.ts` }],
          },
        ];
        const md = renderMarkdown({ transcript: { ...t, body } });
        expect(md).not.toContain(`${cwd}/src/a.ts`);
      }),
      { numRuns: 40 },
    );
  });
});
