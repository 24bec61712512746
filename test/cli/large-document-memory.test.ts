/**
 * Large sessions given as a file (by path, piped to stdin, a `.jsonl.zst`
 * rollout) with a V8 heap too small for what main's build held (issue 33
 * goal 6): main decoded the whole file to one string before parsing (twice
 * the file once one character is outside Latin-1), and a zstd rollout was
 * decompressed into one string too. Now a line-based form is parsed from
 * lines over the file's bytes, each decoded when it is read.
 * Each of these ran out of memory with main's build before this change;
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { claudeChainFields, writeLines, writeRawZstd } from "../support/large-sessions.js";

const TS = "2026-11-30T09:15:00.000Z";
const CODEX_ID = "e6e6e6e6-0000-4000-8000-00000000e6e6";
const CLAUDE_ID = "e7e7e7e7-0000-4000-8000-00000000e7e7";
/** The V8 heap each command gets (MB); main's build ran out with 48 for each file below. */
const HEAP_MB = 36;
/** Lines of the rollout (about 16 MB, 32 MB as main's one UTF-16 string). */
const CODEX_LINES = 90_000;
/** Lines of the Claude Code session (about 17 MB, 34 MB as main's string). */
const CLAUDE_LINES = 60_000;
/** The heap of `convert - --to common` (it holds Common and renders it): main's ran out at 64. */
const CONVERT_HEAP_MB = 48;

let dir = "";
const rollout = () => join(dir, "rollout.jsonl");
const session = () => join(dir, "session.jsonl");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "txcript-large-document-"));
  writeLines(rollout(), CODEX_LINES, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${CODEX_ID}","timestamp":"${TS}","cwd":"/bench"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} of the rollout${i === 5 ? " \u2192" : ""}"}]}}`,
  );
  writeRawZstd(join(dir, "rollout.jsonl.zst"), readFileSync(rollout()));
  writeLines(session(), CLAUDE_LINES, (i) => {
    const base = claudeChainFields(CLAUDE_ID, TS, i);
    return i % 2 === 0
      ? `{"type":"user",${base},"message":{"role":"user","content":"question ${i} about the code${i === 4 ? " \u2192" : ""}"}}`
      : `{"type":"assistant",${base},"message":{"id":"msg_${i}","role":"assistant","model":"m","content":[{"type":"text","text":"answer ${i} with some words"}]}}`;
  });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Run the CLI with a small heap, stdout to a file; `stdin` a file to read as `-`. */
function runSmall(args: string[], heapMb = HEAP_MB, stdin?: string) {
  const name = args.join("-").replace(/[^a-z0-9-]/gi, "_");
  return runWithHeap(heapMb, dir, join(dir, `out-${name}`), args, stdin);
}

/** The run ended well, with no out-of-memory, and its output holds each of `expected`. */
function expectWhole(r: ReturnType<typeof runSmall>, ...expected: string[]): void {
  expect(r.stderr).not.toMatch(/heap out of memory/);
  expect(r.status).toBe(0);
  const out = readFileSync(r.out, "utf8");
  for (const text of expected) expect(out).toContain(text);
}

describe("large sessions given as a file with a heap smaller than main's build needed", () => {
  it("views a Codex rollout given by path, every message in it", () => {
    expectWhole(
      runSmall(["view", rollout(), "--no-pager"]),
      "line 5 of the rollout \u2192",
      `line ${CODEX_LINES - 1} of the rollout`,
    );
  }, 320_000);

  it("views a .jsonl.zst rollout given by path, decompressed to bytes", () => {
    expectWhole(
      runSmall(["view", join(dir, "rollout.jsonl.zst"), "--no-pager"]),
      "line 5 of the rollout \u2192",
      `line ${CODEX_LINES - 1} of the rollout`,
    );
  }, 320_000);

  it("exports a Claude Code session given by path as Markdown", () => {
    expectWhole(
      runSmall(["export", session(), "--format", "markdown"]),
      "question 4 about the code \u2192",
      `answer ${CLAUDE_LINES - 1} with some words`,
    );
  }, 320_000);

  it("converts a Claude Code session piped to stdin", () => {
    expectWhole(
      runSmall(["convert", "-", "--to", "common"], CONVERT_HEAP_MB, session()),
      "question 4 about the code \u2192",
      `answer ${CLAUDE_LINES - 1} with some words`,
    );
  }, 320_000);
});
