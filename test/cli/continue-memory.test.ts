/**
 * A large session continued into agy without holding the conversation it
 * writes (issue 33 goal 6): `continue --with antigravity` of a Claude Code
 * session of many short lines, run with a V8 heap that holds the session's
 * Common transcript and little more. agy's writer makes each step as the
 * store inserts it, writing its mirror lines beside it; a build that
 * encodes every step row before inserting any (as main did before) needs
 * about twice this heap and dies out of memory here;
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { claudeChainFields } from "../support/large-sessions.js";

const SID = "e2e2e2e2-0000-4000-8000-00000000e2e2";
const TS = "2026-11-30T09:15:00.000Z";
/** Lines of the session: about 33 MB of Claude Code, 100,000 agy steps. */
const N = 100_000;
/**
 * The V8 heap the command gets (MB): this build needs 40 to 44, main's
 * 80 to 96 (measured with --max-old-space-size on this session).
 */
const HEAP_MB = 60;

let home = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-continue-memory-"));
  const dir = join(home, ".claude", "projects", "-bench");
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    const base = claudeChainFields(SID, TS, i);
    lines.push(
      i % 2 === 0
        ? `{"type":"user",${base},"message":{"role":"user","content":"question ${i} about the code"}}`
        : `{"type":"assistant",${base},"message":{"id":"msg_${i}","role":"assistant","model":"claude-opus-5","content":[{"type":"text","text":"answer ${i} with some words"}]}}`,
    );
  }
  writeFileSync(join(dir, `${SID}.jsonl`), `${lines.join("\n")}\n`);
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("a large session continued into agy with a heap about its Common transcript", () => {
  it("writes every step and both brain mirror files whole", () => {
    const out = join(home, "copy");
    mkdirSync(out);
    const args = ["continue", SID, "--from", "claude_code", "--with", "antigravity"];
    const r = runWithHeap(HEAP_MB, home, join(home, "stdout"), [
      ...args,
      "--out",
      out,
      "--no-resume",
    ]);
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.status).toBe(0);
    const copy = /session ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? "";
    expect(copy).not.toBe("");
    const root = join(out, "antigravity-cli");
    const db = new Database(join(root, "conversations", `${copy}.db`), { readonly: true });
    try {
      const count: unknown = db.prepare("SELECT count(*) FROM steps").pluck().get();
      expect(count).toBe(N);
    } finally {
      db.close();
    }
    const logs = join(root, "brain", copy, ".system_generated", "logs");
    for (const name of ["transcript.jsonl", "transcript_full.jsonl"]) {
      const lines = readFileSync(join(logs, name), "utf8").trimEnd().split("\n");
      expect(lines).toHaveLength(N);
      expect(JSON.parse(lines.at(-1) ?? "{}").content).toBe(`answer ${N - 1} with some words`);
    }
  }, 320_000);
});
