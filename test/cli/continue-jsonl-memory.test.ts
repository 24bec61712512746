/**
 * A large session continued into a JSONL harness (Claude Code) without
 * holding the lines it writes (issue 33 goal 6): `continue --with
 * claude_code` of a Codex rollout of many short lines, run with a V8 heap
 * that holds the session's Common transcript and little more. The target
 * codec's lines are made as the store writes them (`Lines.generated`); a
 * build that makes every line (and its record) before writing any, as
 * main did, ran out of memory here even with twice this heap (128 MB);
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it. Repeated with no
 * record of the copy, it is found unchanged by comparing the file's bytes
 * with the lines as they are made, not the file's text with the whole
 * rendering (which ran out of memory here even at this heap).
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { writeLines } from "../support/large-sessions.js";

const ID = "e8e8e8e8-0000-4000-8000-00000000e8e8";
const TS = "2026-11-30T09:15:00.000Z";
/** Lines of the rollout: about 18 MB, 99,999 messages. */
const N = 100_000;
/** The V8 heap the command gets (MB): this build needs about 40, main's more than 128. */
const HEAP_MB = 64;

let home = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-continue-jsonl-memory-"));
  const dir = join(home, ".codex", "sessions", "2026", "11", "30");
  mkdirSync(dir, { recursive: true });
  writeLines(join(dir, `rollout-2026-11-30T09-15-00-${ID}.jsonl`), N, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${ID}","timestamp":"${TS}","cwd":"/bench"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} of the rollout"}]}}`,
  );
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The `.jsonl` files under `dir`, at any depth. */
function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name));
}

/** `continue` the rollout into Claude Code under `out` with the small heap; it must end well. */
function continueInto(out: string): { stderr: string } {
  const r = runWithHeap(HEAP_MB, home, join(home, "stdout"), [
    "continue",
    ID,
    "--from",
    "codex",
    "--with",
    "claude_code",
    "--out",
    out,
    "--no-resume",
  ]);
  expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
  expect(r.status).toBe(0);
  return r;
}

describe("a large session continued into Claude Code with a heap about its Common transcript", () => {
  it("writes every message, one line each, the last one whole", () => {
    const out = join(home, "copy");
    continueInto(out);
    const [file, ...others] = jsonlFiles(out);
    expect(others).toEqual([]);
    const lines = readFileSync(file ?? "", "utf8")
      .trimEnd()
      .split("\n");
    const records = lines.map((l) => JSON.parse(l));
    const messages = records.filter((r) => r.type === "user" || r.type === "assistant");
    expect(messages).toHaveLength(N - 1);
    expect(messages.at(-1).message.content).toBe(`line ${N - 1} of the rollout`);
    expect(messages.at(-2).message.content).toEqual([
      { type: "text", text: `line ${N - 2} of the rollout` },
    ]);
    // The bookkeeping lines come last, after every message.
    expect(records.slice(-2).map((r) => r.type)).toEqual(["last-prompt", "custom-title"]);
  }, 320_000);

  it("finds the copy unchanged when repeated with no record of it, comparing it as it is made", () => {
    const out = join(home, "copy");
    const before = jsonlFiles(out).map((f) => readFileSync(f, "utf8"));
    // No record of the copy (txcript's state lost, or the copy made elsewhere):
    // what the file holds is compared with what would be written.
    rmSync(join(home, ".local", "state", "txcript", "copies.jsonl"));
    const r = continueInto(out);
    expect(`${readFileSync(join(home, "stdout"), "utf8")}${r.stderr}`).toContain(
      "already holds this copy, unchanged",
    );
    expect(jsonlFiles(out).map((f) => readFileSync(f, "utf8"))).toEqual(before);
  }, 320_000);
});
