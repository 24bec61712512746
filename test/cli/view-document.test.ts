/**
 * `view` of documents (files and stdin) through the built binary: the text,
 * Markdown, HTML and JSON projections, ranges, and their errors.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, txcript } from "../support/cli.js";

const full = join(ROOT, "test/fixtures/common/full.simple.json");
const fullCommon = JSON.parse(
  readFileSync(join(ROOT, "test/fixtures/common/full.common.json"), "utf8"),
);

describe("view of a Simple document", () => {
  it("prints a header and every message with its ordinal, tools paired by number", () => {
    const r = txcript(["view", full]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const out = r.stdout;
    expect(out.split("\n")[0]).toBe("Fix the flaky test");
    expect(out).toContain("cwd      /home/al/my_app");
    expect(out).toContain("branch   main");
    for (let n = 1; n <= 7; n++) expect(out).toContain(`── #${n} ──`);
    expect(out).not.toContain("── #8 ──");
    // The user command, its output, the typed tools and their results share numbers.
    expect(out).toContain("→ [1] /review --fast");
    expect(out).toMatch(/← \[1\]\n {2}review started/);
    expect(out).toContain("→ [2] Bash (in /home/al/my_app) [background]\n  $ npm test -- login");
    expect(out).toMatch(/← \[2\] error\n {2}1 failing/);
    expect(out).toContain("→ [3] Read /home/al/my_app/test/login.ts (lines 10-29)");
    expect(out).toContain("  - sleep(10)\n  + await ready()");
    expect(out).toContain('→ [7] mcp__github__search {"q":"flaky login"}');
    // JSON results print as JSON, images as placeholders, thinking marked.
    expect(out).toMatch(
      /← \[4\]\n {2}\{\n {4}"file": "\/home\/al\/my_app\/notes.md",\n {4}"created": true/,
    );
    expect(out).toContain("[image: image/png, 8 bytes]");
    expect(out).toContain("[thinking]\n  Check the test first.");
    expect(out).toContain("[thinking (encrypted)]");
    expect(out).toContain("stopped: max_tokens");
    // No colors off a terminal.
    expect(out).not.toContain("\x1b[");
  });

  it("selects a range and keeps the session's numbering", () => {
    const r = txcript(["view", `${full}#4-5`]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("── #4 ──");
    expect(r.stdout).toContain("── #5 ──");
    expect(r.stdout).not.toContain("── #3 ──");
    expect(r.stdout).not.toContain("── #6 ──");
    expect(r.stdout).toContain("→ [2] Bash");
  });

  it("--format json prints Common JSON of the selection", () => {
    const r = txcript(["view", full, "--format", "json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(fullCommon);
    const part = JSON.parse(txcript(["view", `${full}#6-`, "--format", "json"]).stdout);
    expect(part.meta).toEqual(fullCommon.meta);
    expect(part.messages).toEqual(fullCommon.messages.slice(5));
  });

  it("--format markdown and html carry the same content", () => {
    const md = txcript(["view", full, "--format", "markdown"]);
    expect(md.status).toBe(0);
    expect(md.stdout.startsWith("# Fix the flaky test\n")).toBe(true);
    expect(md.stdout).toContain("**Assistant** · #4 · `claude-opus-5`");
    expect(md.stdout).toContain("```console\n$ npm test -- login");
    expect(md.stdout).toContain("](data:image/png;base64,iVBORw0KGgo=)");
    const html = txcript(["view", full, "--format", "html"]);
    expect(html.status).toBe(0);
    expect(html.stdout).toContain("<title>Fix the flaky test</title>");
    expect(html.stdout).toContain('id="m7"');
    expect(html.stdout.replace(/<[^>]+>/g, "")).toMatch(
      /test\((?:&#x27;|')login(?:&#x27;|'), \.\.\.\)/,
    );
    // The page's own script only (allowed by hash in its CSP).
    expect(html.stdout.match(/<script/gi)).toHaveLength(1);
  });

  it("escapes hostile text in HTML", () => {
    const doc = JSON.stringify({
      messages: [{ role: "user", content: "<script>alert(1)</script>" }],
    });
    const r = txcript(["view", "-", "--format", "html"], { input: doc });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(r.stdout.match(/<script/gi)).toHaveLength(1);
  });

  it("reads stdin", () => {
    const doc = JSON.stringify({ title: "piped", messages: [{ role: "user", content: "hello" }] });
    const r = txcript(["view", "-"], { input: doc });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("piped");
    expect(r.stdout).toContain("── #1 ── user");
    expect(r.stdout).toContain("hello");
  });
});

describe("view errors", () => {
  it.each([
    [
      [`${full}#3-4`],
      1,
      "range #3-4 would separate a tool call from its result; the nearest whole range is #2-5",
    ],
    [
      [`${full}#9`],
      1,
      "range #9 is out of bounds: test/fixtures/common/full.simple.json has 7 messages (#1-7)",
    ],
    [[`${full}#0`], 2, 'malformed range "#0"'],
    [[`${full}#x-y`], 2, 'malformed range "#x-y"'],
    [[full, "--format", "pdf"], 2, "argument 'pdf' is invalid"],
    [["-", "--as", "nope"], 2, 'unknown format "nope"'],
  ])("%j exits %i: %s", (args, status, message) => {
    const r = txcript(["view", ...(args as string[]).map((a) => a.replace(`${ROOT}/`, ""))], {
      input: "{}",
    });
    expect(r.status).toBe(status);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});
