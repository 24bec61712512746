/**
 * The HTML page as text: self-contained (no URL to load anything from, one
 * inline script allowed by its hash in the page's CSP), hostile
 * transcripts escaped, tool calls linked to their results, no absolute
 * local path unless asked. The browser suite (test/browser) checks the
 * same pages running.
 */

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SCRIPT } from "../../src/render/assets.js";
import { renderHtml } from "../../src/render/html.js";
import { hostileSession, pageSessions, sourceSession } from "./sessions.js";

/** Every tag's attributes, crudely but adequately for our own output. */
function tags(html: string): string[] {
  return html.match(/<[a-z][^>]*>/gi) ?? [];
}

describe("HTML pages", () => {
  it("allow exactly the inline script, by hash, and load nothing", () => {
    const html = renderHtml({ transcript: sourceSession() });
    const hash = createHash("sha256").update(SCRIPT).digest("base64");
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<script/g)).toHaveLength(1);
    for (const t of tags(html)) expect(t).not.toMatch(/\s(src|href)="(https?:|\/\/)/i);
  });

  for (const { name, transcript, harness } of pageSessions()) {
    it(`${name}: every call links to its result and back`, () => {
      const html = renderHtml({ transcript, harness });
      const calls = [...html.matchAll(/<div class="call [^"]*" id="c(\d+)"/g)].map((m) => m[1]);
      expect(calls.length).toBeGreaterThan(0);
      for (const n of calls) {
        if (html.includes(`href="#r${n}"`)) {
          expect(html).toContain(`id="r${n}"`);
          expect(html).toContain(`href="#c${n}"`);
        }
      }
      expect(html).not.toContain('"CommandLine"');
    });
  }

  it("escapes a hostile transcript: no tag, handler or javascript: URL of its own", () => {
    const html = renderHtml({ transcript: hostileSession() });
    expect(html.match(/<script/gi)).toHaveLength(1);
    for (const t of tags(html)) {
      expect(t).not.toMatch(/\son\w+=/i);
      expect(t).not.toMatch(/(href|src)="\s*(javascript|vbscript|data:text)/i);
      expect(t).not.toMatch(/^<(iframe|svg|object|embed)/i);
    }
    expect(html).toContain("&lt;script&gt;");
    // Local file links show their text, unlinked, whatever their escapes.
    expect(html).not.toMatch(/href="file:/i);
    expect(html).toContain('<a title="./a.ts" class="file">ok</a>');
    expect(html).not.toContain("/home/eve");
  });

  it("shows home as ~ and session paths relative, unless --show-paths", () => {
    const t = sourceSession();
    const html = renderHtml({
      transcript: t,
      home: "/home/dana",
      path: "/home/dana/.codex/x.jsonl",
    });
    expect(html).not.toContain("/home/dana");
    expect(html).toContain("~/shop");
    const shown = renderHtml({
      transcript: t,
      home: "/home/dana",
      showPaths: true,
      path: "/home/dana/.codex/x.jsonl",
    });
    expect(shown).toContain("/home/dana/.codex/x.jsonl");
  });
});
