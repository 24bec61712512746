/**
 * Terminal escape injection (issue 11, item 6): session text holding OSC,
 * CSI, C1 or bidi controls is shown, never obeyed, in everything printed
 * for people (view text and Markdown, list, errors, prompts), and kept as
 * it is in JSON and files.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellWord } from "../../src/cli/commands/continue.js";
import { forTerminal, oneLineForTerminal } from "../../src/cli/sanitize.js";
import { BIN, ROOT, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

/** Anything a terminal acts on, but newline and tab. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const ATTACKS = [
  "\x1b]52;c;cHduZWQ=\x07", // OSC 52: set the clipboard
  "\x1b]0;owned\x1b\\", // OSC 0: window title
  "\x1b[2J\x1b[H", // CSI: clear the screen
  "\x9b31m", // C1 CSI
  "\x1bP+q\x1b\\", // DCS
  "a\rb", // carriage return over the line
  "\u202eevil", // right-to-left override
  "\x00\x07\x08\x7f",
];

/** Strings mixing plain text, newlines and every kind of control sequence. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...ATTACKS),
      fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) }),
      fc.string(),
      fc.constant("\n"),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(""));

describe("forTerminal", () => {
  it("leaves nothing a terminal would interpret, and keeps newlines, tabs and other text", () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const out = forTerminal(s);
        expect(out).not.toMatch(UNSAFE);
        // Every safe character survives, in order.
        const kept = s.replace(/\r\n/g, "\n").replace(new RegExp(UNSAFE, "g"), "");
        expect(out.replace(/[\u2400-\u2421]|<U\+[0-9A-F]{4}>/g, "")).toBe(
          kept.replace(/[\u2400-\u2421]|<U\+[0-9A-F]{4}>/g, ""),
        );
        expect(oneLineForTerminal(s)).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 500 },
    );
  });

  it("is the identity on text with no control characters", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!UNSAFE.test(s) && !s.includes("\r"));
        expect(forTerminal(s)).toBe(s);
      }),
    );
  });
});

function simpleDoc(title: string, text: string): string {
  return JSON.stringify({
    title,
    cwd: `/tmp/${title}`,
    timestamp: "2026-11-30T09:15:00Z",
    model: `m${title}`,
    messages: [
      { role: "user", content: text },
      {
        role: "assistant",
        content: [
          { type: "thinking", text },
          { type: "tool_use", id: "t1", name: "Bash", input: { command: text } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: text }] },
      { role: "assistant", content: text },
    ],
  });
}

describe("the CLI on hostile session text", () => {
  it("view (text, markdown) and errors show control characters; json keeps them", /* dozens of CLI runs: a loaded machine needs more than the default minute */ {
    timeout: 240_000,
  }, () => {
    const dir = tempDir("txcript-esc-");
    fc.assert(
      fc.property(hostile, hostile, (title, text) => {
        const file = join(dir, "doc.json");
        writeFileSync(file, simpleDoc(title, text));
        for (const format of ["text", "markdown"]) {
          const r = txcript(["view", file, "--format", format, "--no-pager"]);
          expect(r.status).toBe(0);
          expect(r.stdout).not.toMatch(UNSAFE);
        }
        const json = txcript(["view", file, "--format", "json"]);
        expect(json.status).toBe(0);
        expect(JSON.stringify(JSON.parse(json.stdout))).toContain(
          JSON.stringify(text).slice(1, -1),
        );
        // `#` would start a range (a usage error, exit 2): this asks for a missing id.
        const missing = txcript(["view", `x${title.replace(/[\0#]/g, "")}-not-there`]);
        expect(missing.status).toBe(1);
        expect(missing.stderr.trimEnd()).not.toMatch(UNSAFE);
        expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);
      }),
      { numRuns: 6 },
    );
  });

  it("list shows a hostile title and cwd made visible; --json keeps them", () => {
    const home = tempDir("txcript-esc-home-");
    const projects = join(home, ".claude", "projects", "-p");
    mkdirSync(projects, { recursive: true });
    const title = ATTACKS.join(" ");
    const sid = "11111111-2222-4333-8444-555555555555";
    const base = { sessionId: sid, cwd: `/p${ATTACKS[0]}`, timestamp: "2026-11-30T09:15:00.000Z" };
    writeFileSync(
      join(projects, `${sid}.jsonl`),
      [
        { ...base, type: "user", uuid: "u1", message: { role: "user", content: "hi" } },
        { type: "custom-title", customTitle: title, sessionId: sid },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const r = txcript(["list"], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(sid.slice(0, 8));
    expect(r.stdout).not.toMatch(UNSAFE);
    const json = JSON.parse(txcript(["list", "--json"], { env: { HOME: home } }).stdout) as {
      sessions: { title: string; cwd: string }[];
    };
    expect(json.sessions[0]?.title).toBe(title);
    expect(json.sessions[0]?.cwd).toBe(base.cwd);
  });

  it("query snippets and titles, and completion descriptions, show control characters", () => {
    const home = tempDir("txcript-esc-query-");
    const projects = join(home, ".claude", "projects", "-p");
    mkdirSync(projects, { recursive: true });
    const sid = "11111111-2222-4333-8444-666666666666";
    const base = { sessionId: sid, cwd: "/p", timestamp: "2026-11-30T09:15:00.000Z" };
    const said = `needle ${ATTACKS.join(" needle ")} needle`;
    writeFileSync(
      join(projects, `${sid}.jsonl`),
      [
        { ...base, type: "user", uuid: "u1", message: { role: "user", content: said } },
        { type: "custom-title", customTitle: `t ${ATTACKS.join(" ")}`, sessionId: sid },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const cache = tempDir("txcript-esc-cache-");
    const env = { HOME: home, TXCRIPT_CACHE: cache };
    const q = txcript(["query", "needle"], { env });
    expect(q.status).toBe(0);
    expect(q.stdout).toContain(sid.slice(0, 8));
    expect(q.stdout).not.toMatch(UNSAFE);
    const c = txcript(["complete", "--", "view", ""], { env });
    expect(c.stdout).toContain(sid);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what the test looks for
    expect(c.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!hasScript)(
    "on a terminal, with colors, only the painter's own SGR codes are printed",
    () => {
      const dir = tempDir("txcript-esc-tty-");
      const file = join(dir, "doc.json");
      writeFileSync(file, simpleDoc(ATTACKS.join(""), ATTACKS.join("\n")));
      const line = [process.execPath, BIN, "view", file, "--no-pager"].map(shellWord).join(" ");
      const r = spawnSync("script", ["-qec", line, "/dev/null"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { PATH: "/usr/bin:/bin", HOME: dir, TERM: "xterm" },
      });
      expect(r.status).toBe(0);
      const out = r.stdout.replace(/\r\n/g, "\n");
      expect(out).toContain("\x1b[1m"); // colored
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the painter's SGR codes
      expect(out.replace(/\x1b\[\d+m/g, "")).not.toMatch(UNSAFE);
    },
  );
});
