/**
 * Output far larger than the memory the command may use (issue 31 item 9,
 * issue 33 goal 6): a small Claude Code session (about 1 MB) whose tool
 * calls carry deeply nested arguments renders to tens of megabytes, since
 * every level of a pretty-printed JSON value is indented. Each command runs
 * with a V8 heap far smaller than its output, so it succeeds only if the
 * output is written a message at a time; one that builds the whole page,
 * document or JSON tree as one value dies out of memory (as `export`,
 * `export --format markdown`, `view` and `view --format markdown` did, and
 * `view` through the pager on a terminal, which joined the whole text for it).
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows those failing.
 */

import { spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, TEST_CACHE } from "../support/cli.js";
import { claudeChainFields } from "../support/large-sessions.js";

const SID = "d0d0d0d0-0000-4000-8000-00000000d0d0";
const TS = "2026-11-30T09:15:00.000Z";
/** Messages: every second one a tool call whose input nests DEPTH objects. */
const N = 400;
const DEPTH = 400;
/** The V8 heap each command gets (MB): far below its output's size. */
const HEAP_MB = 40;

let home = "";
let session = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-streamed-"));
  const dir = join(home, ".claude", "projects", "-bench");
  mkdirSync(dir, { recursive: true });
  const deep = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const base = claudeChainFields(SID, TS, i);
    lines.push(
      i % 2 === 0
        ? `{"type":"user",${base},"message":{"role":"user","content":"question ${i}"}}`
        : `{"type":"assistant",${base},"message":{"id":"msg_${i}","role":"assistant","model":"claude-opus-5","content":[{"type":"tool_use","id":"toolu_${i}","name":"mcp__bench__deep","input":${deep}}]}}`,
    );
  }
  session = join(dir, `${SID}.jsonl`);
  writeFileSync(session, `${lines.join("\n")}\n`);
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with a small heap, stdout to a file; its status, stderr and output. */
function runSmall(args: string[]): { status: number | null; stderr: string; out: string } {
  const outPath = join(home, `out-${args.join("-").replace(/[^a-z0-9-]/gi, "_")}`);
  const fd = openSync(outPath, "w");
  try {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        NO_COLOR: "1",
        TXCRIPT_CACHE: TEST_CACHE,
      },
      cwd: ROOT,
      stdio: ["ignore", fd, "pipe"],
      encoding: "utf8",
      timeout: 180_000,
    });
    return { status: r.status, stderr: (r.stderr ?? "").slice(0, 2000), out: outPath };
  } finally {
    closeSync(fd);
  }
}

const hasScript = spawnSync("script", ["--version"]).status === 0;

/**
 * Run the CLI with a small heap on a pseudo-terminal (util-linux `script`),
 * paging through `wc -c`: what the pager counted, and the terminal's text.
 */
function pagedBytes(args: string[]): { status: number | null; bytes: number; out: string } {
  const line = [process.execPath, `--max-old-space-size=${HEAP_MB}`, BIN, ...args]
    .map((w) => `'${w.replace(/'/g, "'\\''")}'`)
    .join(" ");
  const r = spawnSync("script", ["-qec", line, "/dev/null"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      TERM: "xterm",
      NO_COLOR: "1",
      PAGER: "wc -c",
      TXCRIPT_CACHE: TEST_CACHE,
    },
    cwd: ROOT,
    encoding: "utf8",
    timeout: 180_000,
  });
  const out = (r.stdout ?? "").slice(-2000);
  const counted = /^\s*(\d+)\s*$/m.exec(out);
  return { status: r.status, bytes: counted ? Number(counted[1]) : 0, out };
}

/** The output is whole, and larger than the heap the command had. */
function bigAndWhole(r: { status: number | null; stderr: string; out: string }): string {
  expect(r.stderr.split("\n")[0] ?? "").not.toMatch(/heap|memory|Invalid string length/i);
  expect(r.status).toBe(0);
  const size = statSync(r.out).size;
  expect(size).toBeGreaterThan(HEAP_MB * 1024 * 1024);
  return readFileSync(r.out, "utf8");
}

describe(`output larger than a ${HEAP_MB} MB heap is written a message at a time`, () => {
  it("export (a Simple document): whole JSON, every message", () => {
    for (const args of [["export", SID, "--from", "claude_code"]]) {
      const text = bigAndWhole(runSmall(args));
      const doc = JSON.parse(text);
      expect(doc.messages).toHaveLength(N);
      expect(JSON.stringify(doc.messages[N - 1])).toContain("mcp__bench__deep");
      expect(text.endsWith("  ]\n}\n")).toBe(true);
    }
  }, 600_000);

  it("view --format json: whole JSON, every message", () => {
    const text = bigAndWhole(runSmall(["view", SID, "--from", "claude_code", "--format", "json"]));
    const doc = JSON.parse(text);
    expect(doc.messages).toHaveLength(N);
    expect(text.endsWith("  ]\n}\n")).toBe(true);
  }, 600_000);

  it("export --format markdown and view --format markdown: the whole page", () => {
    for (const args of [
      ["export", SID, "--from", "claude_code", "--format", "markdown"],
      ["view", SID, "--from", "claude_code", "--format", "markdown", "--no-pager"],
    ]) {
      const text = bigAndWhole(runSmall(args));
      expect(text.startsWith("# question 0")).toBe(true);
      expect(text).toContain(`#${N}`);
      expect(text.endsWith("\n")).toBe(true);
    }
  }, 600_000);

  it("view (compact text): every message, to the last", () => {
    const text = bigAndWhole(runSmall(["view", SID, "--from", "claude_code", "--no-pager"]));
    expect(text).toContain("── #1 ── user");
    expect(text).toContain(`── #${N} ── assistant`);
  }, 600_000);

  it("export --format html, to a file and to stdout: the whole page", () => {
    const file = join(home, "page.html");
    const r = runSmall(["export", SID, "--from", "claude_code", "--format", "html", "--out", file]);
    expect(r.status).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    expect(readFileSync(file, "utf8").trimEnd().endsWith("</html>")).toBe(true);
    const text = bigAndWhole(
      runSmall(["export", SID, "--from", "claude_code", "--format", "html"]),
    );
    expect(text.trimEnd().endsWith("</html>")).toBe(true);
  }, 600_000);

  it.skipIf(!hasScript)(
    "view on a terminal, text and Markdown: streamed into the pager as rendered",
    () => {
      for (const format of ["text", "markdown"]) {
        const count = pagedBytes(["view", SID, "--from", "claude_code", "--format", format]);
        expect(count.out).not.toMatch(/heap|memory|Invalid string length/i);
        expect(count.status).toBe(0);
        expect(count.bytes).toBeGreaterThan(HEAP_MB * 1024 * 1024);
      }
    },
    600_000,
  );

  it("convert --to simple and --to common of the session file: whole JSON", () => {
    for (const to of ["simple", "common"]) {
      const text = bigAndWhole(runSmall(["convert", session, "--to", to]));
      expect(JSON.parse(text).messages).toHaveLength(N);
    }
  }, 600_000);
});
