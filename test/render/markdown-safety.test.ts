/**
 * Properties of the Markdown page's safety (issue 30, item 2) over session
 * data built from HTML fragments, script links, fences, backticks and
 * entities, in every place the page shows data (title, prose, thinking,
 * tool calls and output, tool names, image data): parsed by markdown-it
 * (the project's own renderer) with raw HTML allowed, the only HTML in the
 * page is txcript's own `<details>`/`<summary>`; rendered permissively (raw
 * HTML on, every link accepted) no script, handler or script URL appears;
 * and an image is embedded only as base64 of an image type.
 */

import fc from "fast-check";
import MarkdownIt, { type MarkdownIt as Parser } from "markdown-it";
import { describe, expect, it } from "vitest";
import type { Block, Message } from "../../src/common.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import type { Common, Transcript } from "../../src/transcript.js";

const FRAGMENTS = [
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "<svg onload=alert(1)>",
  "<iframe src=javascript:alert(1)></iframe>",
  "<x-data>",
  "</details>",
  "<details data-x=1>",
  "<summary data-x>",
  "</summary>",
  "<!-- c -->",
  "<?php x ?>",
  "<![CDATA[x]]>",
  "<div>",
  '<a href="javascript:alert(1)">a</a>',
  "[l](javascript:alert(1))",
  "[l]( JaVaScRiPt:alert(1))",
  "![i](javascript:alert(1))",
  "[d](data:text/html,<script>alert(1)</script>)",
  "<javascript:alert(1)>",
  "[r]: javascript:alert(1)",
  "[r]",
  ">[r]: javascript:alert(1)",
  "- [r]:\n  javascript:alert(1)",
  "&lt;",
  "&#60;script&#62;",
  "`",
  "``",
  "```",
  "~~~",
  "\\",
  "\n",
  "\n\n",
  "    ",
  "> ",
  "- ",
  "1. ",
  "|",
  "<",
  ">",
  "&",
  " ",
  "*",
  "_",
  "# ",
  "  ```",
  "\n  ",
  // Block structure a line scan can misjudge: a fence inside a list item ends with the item.
  "- a\n  ```\n<img src=x onerror=alert(1)>",
  "`a\n# h <svg onload=alert(1)> `",
  "[a](\njavascript:alert(1))",
];

/** Strings made of hostile fragments and arbitrary characters. */
const hostile = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, fc.string()), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));

const at = "2026-09-01T10:00:00.000Z";

const imageData = fc.oneof(
  hostile,
  fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b).toString("base64")),
);
const mediaType = fc.oneof(
  fc.constantFrom("image/png", "image/svg+xml", "text/html", "image/png;x=<script>"),
  hostile,
);

const session = fc
  .record({
    title: hostile,
    prose: hostile,
    thinking: hostile,
    answer: hostile,
    command: hostile,
    path: hostile,
    tool: hostile,
    input: hostile,
    output: hostile,
    mediaType,
    data: imageData,
  })
  .map((d): Transcript<Common> => {
    const assistant: Block[] = [
      { type: "thinking", text: d.thinking },
      { type: "text", text: d.answer },
      { type: "tool_use", id: "b1", tool: { name: "Bash", command: d.command } },
      { type: "tool_use", id: "r1", tool: { name: "Read", file_path: d.path } },
      {
        type: "tool_use",
        id: "x1",
        tool: { name: "Raw", tool_name: d.tool || "t", input: { [d.input]: d.input } },
      },
      { type: "image", source: { type: "base64", media_type: d.mediaType, data: d.data } },
    ];
    const body: Message[] = [
      { role: "user", content: [{ type: "text", text: d.prose }], timestamp: at },
      { role: "assistant", content: assistant, timestamp: at },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "b1", content: d.output },
          { type: "tool_result", tool_use_id: "r1", content: d.output, is_error: true },
          { type: "tool_result", tool_use_id: "x1", content: d.output },
        ],
        timestamp: at,
      },
    ];
    return { meta: { id: "s", timestamp: at, title: d.title, cwd: "/w" }, body };
  });

interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}

/** Every raw HTML token markdown-it finds in `md`, inline ones included. */
function htmlTokens(md: string): string[] {
  const parser = new MarkdownIt({ html: true });
  const out: string[] = [];
  const walk = (tokens: readonly Token[]) => {
    for (const t of tokens) {
      if (t.type === "html_block" || t.type === "html_inline") out.push(t.content);
      if (t.children) walk(t.children);
    }
  };
  walk(parser.parse(md, {}));
  return out;
}

/** txcript's own HTML: `<details>` (maybe open), `<summary>` and their ends, around escaped text. */
const OWN_TAG = /^<\/?(details|summary)( open)?>$/;

describe("Markdown safety properties", () => {
  it("the only raw HTML markdown-it finds is txcript's own details and summary", () => {
    fc.assert(
      fc.property(session, (t) => {
        const md = renderMarkdown({ transcript: t });
        for (const html of htmlTokens(md)) {
          expect(html).not.toMatch(/<[!?]/);
          for (const tag of html.match(/<[^>]*>?/g) ?? []) expect(tag).toMatch(OWN_TAG);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("rendered permissively (raw HTML, any link), no script, handler or script URL", () => {
    const permissive = new MarkdownIt({ html: true, linkify: true });
    permissive.validateLink = () => true;
    fc.assert(
      fc.property(session, (t) => {
        const html = permissive.render(renderMarkdown({ transcript: t }));
        for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
          expect(tag).toMatch(/^<(\w+)/);
          expect(tag).not.toMatch(/^<(script|iframe|svg|x-data|div|style|object|embed)\b/i);
          expect(tag).not.toMatch(/\son\w+\s*=/i);
          for (const [, url] of tag.matchAll(/\s(?:href|src)="([^"]*)"/gi)) {
            const target = (url ?? "").replace(/&amp;/g, "&").trim().toLowerCase();
            if (target.startsWith("data:"))
              expect(target).toMatch(/^data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/]*={0,2}$/);
            expect(target).not.toMatch(/^(javascript|vbscript|file):/);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("image data is embedded only as base64 of an image type, and valid base64 images are kept", () => {
    fc.assert(
      fc.property(mediaType, imageData, (type, data) => {
        const t: Transcript<Common> = {
          meta: { id: "s", timestamp: at },
          body: [
            {
              role: "user",
              content: [{ type: "image", source: { type: "base64", media_type: type, data } }],
              timestamp: at,
            },
          ],
        };
        const md = renderMarkdown({ transcript: t });
        const parser = new MarkdownIt({ html: true });
        parser.validateLink = () => true;
        const targets: string[] = [];
        const walk = (tokens: ReturnType<Parser["parse"]>) => {
          for (const tok of tokens) {
            const target = String(tok.attrGet("src") ?? tok.attrGet("href") ?? "");
            if (/^\s*data:/i.test(target)) targets.push(target);
            if (tok.children) walk(tok.children);
          }
        };
        walk(parser.parse(md, {}));
        const valid = /^image\/[a-z0-9.+-]+$/i.test(type) && /^[A-Za-z0-9+/]*={0,2}$/.test(data);
        if (valid) expect(targets).toEqual([`data:${type};base64,${data}`]);
        else {
          expect(targets).toEqual([]);
          expect(md).toContain("left out");
        }
      }),
      { numRuns: 300 },
    );
  });
});
