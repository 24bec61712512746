/**
 * A large JSONL session is shown without holding it twice (issue 31 item 9,
 * issue 33 goal 6): `export --format html` and `view` of a Claude Code
 * session and a Codex rollout of many short lines, each run with a V8 heap
 * smaller than the session's Body and Common transcript together once took.
 * The Body holds the file's bytes (outside the V8 heap) and parses a line
 * when it is read, so only the Common transcript and the line being read
 * are on the heap. A build that keeps every line's text and JSON parse
 * beside the transcript (as main did before) dies out of memory here;
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { claudeChainFields, writeLines } from "../support/large-sessions.js";

const SID = "e0e0e0e0-0000-4000-8000-00000000e0e0";
const CODEX_ID = "e1e1e1e1-0000-4000-8000-00000000e1e1";
const TS = "2026-11-30T09:15:00.000Z";
/** Lines per session: about 13 MB of Claude Code, 8 MB of Codex. */
const N = 40_000;
/** The V8 heap each command gets (MB): below Body + Common as main held them. */
const HEAP_MB = 36;

let home = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-large-"));
  const claude = join(home, ".claude", "projects", "-bench");
  mkdirSync(claude, { recursive: true });
  writeLines(join(claude, `${SID}.jsonl`), N, (i) => {
    const base = claudeChainFields(SID, TS, i);
    // One line in a hundred holds a character outside Latin-1.
    const word = i % 100 === 1 ? "caf\u00e9 \u2192" : "words";
    return i % 2 === 0
      ? `{"type":"user",${base},"message":{"role":"user","content":"question ${i} about the code"}}`
      : `{"type":"assistant",${base},"message":{"id":"msg_${i}","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"answer ${i} with some ${word}"}]}}`;
  });
  const codex = join(home, ".codex", "sessions", "2026", "11", "30");
  mkdirSync(codex, { recursive: true });
  writeLines(join(codex, `rollout-2026-11-30T09-15-00-${CODEX_ID}.jsonl`), N, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${CODEX_ID}","timestamp":"${TS}","cwd":"/bench"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} of the rollout"}]}}`,
  );
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with a small heap, stdout to a file; its status, stderr and output's path. */
function runSmall(args: string[]) {
  const name = args.join("-").replace(/[^a-z0-9-]/gi, "_");
  return runWithHeap(HEAP_MB, home, join(home, `out-${name}`), args);
}

describe("a large JSONL session shown with a heap smaller than its Body and transcript", () => {
  it("exports a Claude Code session as HTML, every message in it", () => {
    const r = runSmall(["export", SID, "--from", "claude_code", "--format", "html"]);
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.status).toBe(0);
    expect(statSync(r.out).size).toBeGreaterThan(1_000_000);
    const page = readFileSync(r.out, "utf8");
    expect(page).toContain(`answer ${N - 1} with some words`);
    expect(page).toContain("answer 3 with some words");
    expect(page).toContain("question 0 about the code");
  }, 320_000);

  it("views a Claude Code session as text, the non-Latin-1 lines intact", () => {
    const r = runSmall(["view", SID, "--from", "claude_code", "--no-pager"]);
    expect(r.stderr).not.toMatch(/heap out of memory/);
    expect(r.status).toBe(0);
    const text = readFileSync(r.out, "utf8");
    expect(text).toContain("answer 101 with some caf\u00e9 \u2192");
    expect(text).toContain(`answer ${N - 1} with some words`);
  }, 320_000);

  it("exports a Codex rollout as HTML, every message in it", () => {
    const r = runSmall(["export", CODEX_ID, "--from", "codex", "--format", "html"]);
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.status).toBe(0);
    const page = readFileSync(r.out, "utf8");
    expect(page).toContain(`line ${N - 1} of the rollout`);
    expect(page).toContain("line 1 of the rollout");
  }, 320_000);
});
