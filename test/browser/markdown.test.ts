/**
 * The Markdown export rendered the way a permissive renderer would (raw
 * HTML allowed, every link target accepted: markdown-it with `html: true`
 * and no link validation) and opened in headless Chromium: nothing from the
 * session runs, no `javascript:` link survives, no element carries an
 * event handler. The control renders the same hostile prose raw, to show
 * the harness does see scripts run.
 */

import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/render/markdown.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { hostileSession } from "../render/sessions.js";
import { launch, openPage, type Session } from "./chromium.js";

let chromium: Session;
beforeAll(async () => {
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
});

const at = "2026-09-01T10:00:00Z";
const PROSE = [
  `<img src=x onerror="window.__pwned=(window.__pwned||0)+1">`,
  `<script>window.__pwned=(window.__pwned||0)+1</script>`,
  '\\`<img src=x onerror="window.__pwned=(window.__pwned||0)+1">`',
  `[a](javascript:window.__pwned=1) [b]( JaVaScRiPt:window.__pwned=1) [c](<javascript:window.__pwned=1>)`,
  `[d](jav&#x61;script:window.__pwned=1) <javascript:window.__pwned=1>`,
  `[e][ref]\n\n[ref]: javascript:window.__pwned=1`,
  `<details open><summary>x</summary><svg onload="window.__pwned=1"></svg></details>`,
  "```\nunclosed fence",
].join("\n\n");

function injection(): Transcript<Common> {
  return {
    meta: { id: "inject", timestamp: at, title: "inject" },
    body: [
      { role: "user", content: [{ type: "text", text: PROSE }], timestamp: at },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: PROSE },
          {
            type: "image",
            source: {
              type: "base64",
              media_type: "image/png",
              data: `AAAA)<img src=x onerror="window.__pwned=(window.__pwned||0)+1">(`,
            },
          },
          { type: "text", text: "after" },
        ],
        timestamp: at,
      },
    ],
  };
}

/** A permissive renderer: raw HTML passes, every link target is accepted. */
function permissive(markdown: string): string {
  const md = new MarkdownIt({ html: true, linkify: true });
  md.validateLink = () => true;
  return `<!doctype html><meta charset="utf-8"><body>${md.render(markdown)}</body>`;
}

async function verdict(html: string) {
  const o = await openPage(chromium, html);
  await o.page.waitForTimeout(300);
  const result = await o.page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
    scriptLinks: Array.from(document.querySelectorAll("[href],[src]"))
      .map((e) => e.getAttribute("href") ?? e.getAttribute("src") ?? "")
      .filter((u) => /^\s*(javascript|vbscript):/i.test(u)).length,
    handlers: Array.from(document.querySelectorAll("*")).filter((e) =>
      Array.from(e.attributes).some((a) => a.name.startsWith("on")),
    ).length,
    scripts: document.querySelectorAll("script").length,
  }));
  await o.page.close();
  return result;
}

describe("Markdown export in Chromium through a permissive renderer", () => {
  it("control: the same prose passed through raw runs scripts and keeps javascript: links", async () => {
    const v = await verdict(permissive(PROSE));
    expect(v.pwned).toBeGreaterThan(0);
    expect(v.scriptLinks).toBeGreaterThan(0);
  });

  for (const [name, transcript] of [
    ["injection session", injection()],
    ["hostile session", hostileSession()],
  ] as const) {
    it(`${name}: nothing runs, no script link, no handler, no script element`, async () => {
      const markdown = renderMarkdown({ transcript });
      const v = await verdict(permissive(markdown));
      expect(v).toEqual({ pwned: 0, scriptLinks: 0, handlers: 0, scripts: 0 });
      expect(markdown).toContain("not valid base64 image data");
    });
  }
});
