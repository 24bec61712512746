/**
 * The HTML page framed for `txcript serve` (PageShell): its script from a
 * URL instead of inline, its own policy allowing only that origin's
 * scripts, the caller's preface at the top of the main column, and the
 * page otherwise the export's.
 */

import { describe, expect, it } from "vitest";
import { renderHtml, renderHtmlChunks } from "../../src/render/index.js";
import type { Common, Transcript } from "../../src/transcript.js";

const at = "2026-09-01T10:00:00Z";
const t: Transcript<Common> = {
  meta: { id: "s1", timestamp: at, title: "A title" },
  body: [
    {
      role: "user",
      content: [{ type: "text", text: "hello <script>x()</script>" }],
      timestamp: at,
    },
    { role: "assistant", content: [{ type: "text", text: "hi" }], timestamp: at },
  ],
};

describe("the served page", () => {
  const served = [
    ...renderHtmlChunks(
      { transcript: t },
      { scriptSrc: "/assets/s.js", preface: '<nav id="p">P</nav>' },
    ),
  ].join("");
  const exported = renderHtml({ transcript: t });

  it("loads its script from the URL and has no inline script", () => {
    expect([...served.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/assets/s.js">',
    ]);
    expect(served).toContain("script-src 'self'");
    expect(served).not.toMatch(/script-src 'sha256-/);
    expect(exported).toMatch(/script-src 'sha256-/);
    expect(exported).not.toContain("<script src=");
  });

  it("puts the preface first in the main column and keeps the rest of the page", () => {
    expect(served.indexOf('<nav id="p">P</nav>')).toBe(
      served.indexOf("<main>") + "<main>\n".length,
    );
    const strip = (s: string) =>
      s
        .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "")
        .replace(/<script[\s\S]*?<\/script>/, "")
        .replace('<nav id="p">P</nav>', "");
    expect(strip(served)).toBe(strip(exported));
    expect(served).toContain("hello &lt;script&gt;x()&lt;/script&gt;");
  });
});
