/**
 * The Markdown page, parsed back with the reference CommonMark parser
 * (commonmark.js) and checked by structure: one h1, one h2 per turn, tool
 * calls as fenced code in the right language, results under their call,
 * <details> for thinking and long output, no stray backslash escapes, no
 * repeated tool names, no absolute local path unless asked.
 */

import { Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/render/markdown.js";
import { buildModel } from "../../src/render/model.js";
import { hostileSession, pageSessions, sourceSession } from "./sessions.js";

interface Outline {
  headings: { level: number; text: string }[];
  fences: { info: string; text: string }[];
  html: string[];
  texts: string[];
}

function outline(md: string): Outline {
  const doc = new Parser().parse(md);
  const out: Outline = { headings: [], fences: [], html: [], texts: [] };
  const walker = doc.walker();
  let heading: { level: number; text: string } | undefined;
  for (let e = walker.next(); e !== null; e = walker.next()) {
    const { node, entering } = e;
    if (node.type === "heading") {
      if (entering) heading = { level: node.level, text: "" };
      else if (heading) {
        out.headings.push(heading);
        heading = undefined;
      }
    } else if (node.type === "code_block" && entering) {
      out.fences.push({ info: node.info ?? "", text: node.literal ?? "" });
    } else if ((node.type === "html_block" || node.type === "html_inline") && entering) {
      out.html.push(node.literal ?? "");
    } else if ((node.type === "text" || node.type === "code") && entering) {
      if (heading) heading.text += node.literal ?? "";
      out.texts.push(node.literal ?? "");
    }
  }
  return out;
}

describe("Markdown pages", () => {
  for (const { name, harness, transcript } of pageSessions()) {
    it(`${name}: one h1, one h2 per turn, fences with languages`, () => {
      const md = renderMarkdown({ transcript, harness, home: "/home/dana" });
      const o = outline(md);
      const turns = buildModel({ transcript }).turns;
      expect(o.headings.filter((h) => h.level === 1)).toHaveLength(1);
      const h2 = o.headings.filter((h) => h.level === 2);
      expect(h2.map((h) => h.text.replace(/:.*/, ""))).toEqual(
        [...turns].map((t) => `Turn ${t.n}`),
      );
      // Every fence is closed (the parser would swallow the rest of the page otherwise).
      expect(o.fences.every((f) => !f.text.includes("## Turn"))).toBe(true);
      // No escapes shown as text, no JSON where a command belongs.
      expect(md).not.toMatch(/[a-z]\\_[a-z]/);
      expect(md).not.toContain('"CommandLine"');
      expect(md).not.toMatch(/\*\*\[\d+\] `(\w+)`\*\* `\1`/);
    });
  }

  it("shows the agy 1.2.0 GENERIC run_command as its command, in a console fence", () => {
    const agy = pageSessions().find((s) => s.name === "antigravity 1.2.0 sample")!;
    const o = outline(renderMarkdown({ transcript: agy.transcript }));
    const shells = o.fences.filter((f) => f.info === "console");
    expect(shells.map((f) => f.text.trim())).toEqual(["$ ls", "$ false"]);
    // The error result of the missing file is under its Read, with the path relative to the cwd.
    const md = renderMarkdown({ transcript: agy.transcript });
    expect(md).toContain("**[2] `Read`** `missing.txt`");
    expect(md).toMatch(
      /\*Result of \[2\] · error\*\n\n```text\nopen \.\/missing\.txt: no such file/,
    );
    expect(md).not.toContain("/tmp/agy-fixture/project");
  });

  it("renders the cross session's edits as diffs, reads in the file's language, thinking in <details>", () => {
    const t = sourceSession();
    const o = outline(renderMarkdown({ transcript: t, home: "/home/dana" }));
    const infos = new Set(o.fences.map((f) => f.info));
    expect(infos).toContain("diff");
    expect(infos).toContain("console");
    const diff = o.fences.find((f) => f.info === "diff")!;
    expect(diff.text.split("\n").some((l) => l.startsWith("-"))).toBe(true);
    expect(diff.text.split("\n").some((l) => l.startsWith("+"))).toBe(true);
    expect(o.html.some((h) => h.startsWith("<details><summary>Thinking</summary>"))).toBe(true);
    const md = renderMarkdown({ transcript: t, home: "/home/dana" });
    expect(md).not.toContain("/home/dana");
    expect(md).toContain("`~/shop`");
    const shown = renderMarkdown({ transcript: t, home: "/home/dana", showPaths: true });
    expect(shown).toContain("/home/dana/shop");
  });

  it("collapses long output and keeps every line of it", () => {
    const long = Array.from({ length: 200 }, (_, i) => `line ${i} \`\`\`\` with fences`).join("\n");
    const md = renderMarkdown({
      transcript: {
        meta: { id: "s", timestamp: "2026-01-01T00:00:00Z" },
        body: [
          {
            role: "user",
            content: [{ type: "text", text: "go" }],
            timestamp: "2026-01-01T00:00:00Z",
          },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "t", tool: { name: "Bash", command: "seq 200" } }],
            timestamp: "2026-01-01T00:00:00Z",
          },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "t", content: long }],
            timestamp: "2026-01-01T00:00:00Z",
          },
        ],
      },
    });
    const o = outline(md);
    expect(o.html.some((h) => h.includes("<details><summary>Result of [1] (200 lines)"))).toBe(
      true,
    );
    expect(o.fences.find((f) => f.info === "text")!.text).toBe(`${long}\n`);
    // A results-only message is folded under its call, not shown as "User".
    expect(md.match(/\*\*User\*\*/g)).toHaveLength(1);
  });

  it("keeps a hostile transcript's text inside code and escapes, with fences intact", () => {
    const md = renderMarkdown({ transcript: hostileSession() });
    const o = outline(md);
    expect(o.headings.filter((h) => h.level === 1)).toHaveLength(1);
    expect(o.headings[0]!.text).toContain("</title>");
  });
});
