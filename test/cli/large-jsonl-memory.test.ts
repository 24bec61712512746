/**
 * Large Codex and Droid sessions shown and listed with a V8 heap too small
 * for what main's build held (issue 33 goal 6): a Codex rollout exported as
 * Markdown and HTML (its Common transcript and the page's turns held
 * smaller), a Codex rollout listed (its bytes read a line at a time, never
 * one string of the file: with one character outside Latin-1 that string
 * was twice the file), and a Droid session viewed and listed (its Body over
 * the file's bytes, records parsed as they are walked, never all held),
 * and a pi session viewed and listed (its Body over the file's bytes, its
 * active branch walked over line numbers).
 * Each of these ran out of memory with main's build before this change;
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { writeLines } from "../support/large-sessions.js";

const TS = "2026-11-30T09:15:00.000Z";
const CODEX_ID = "e2e2e2e2-0000-4000-8000-00000000e2e2";
const LISTED_ID = "e3e3e3e3-0000-4000-8000-00000000e3e3";
const DROID_ID = "e4e4e4e4-0000-4000-8000-00000000e4e4";
/** The V8 heap each command gets (MB). */
const HEAP_MB = 36;
/** Lines of the exported rollout (about 16 MB): main's build ran out from 80,000. */
const CODEX_LINES = 90_000;
/** Lines of the listed rollout (about 20 MB, 40 MB as main's one UTF-16 string). */
const LISTED_LINES = 110_000;
/** Lines of the Droid session (about 16 MB): main's build ran out from 40,000. */
const DROID_LINES = 60_000;
const PI_ID = "e5e5e5e5-0000-4000-8000-00000000e5e5";
/** Messages of the pi session (about 20 MB, 40 MB as main's one UTF-16 string). */
const PI_LINES = 60_000;
/** pi's heap: main's build, which parsed every entry of the branch at once, ran out below 120 MB. */
const PI_HEAP_MB = 50;

let home = "";

/** A rollout of `count` lines; line 5 holds a character outside Latin-1. */
function rollout(dir: string, id: string, count: number): void {
  writeLines(join(dir, `rollout-2026-11-30T09-15-00-${id}.jsonl`), count, (i) =>
    i === 0
      ? `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${id}","timestamp":"${TS}","cwd":"/bench"}}`
      : `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"${i % 2 ? "user" : "assistant"}","content":[{"type":"${i % 2 ? "input" : "output"}_text","text":"line ${i} of the rollout${i === 5 ? " \u2192" : ""}"}]}}`,
  );
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-large-jsonl-"));
  const exported = join(home, "exported", ".codex", "sessions", "2026", "11", "30");
  mkdirSync(exported, { recursive: true });
  rollout(exported, CODEX_ID, CODEX_LINES);
  const listed = join(home, "listed", ".codex", "sessions", "2026", "11", "30");
  mkdirSync(listed, { recursive: true });
  rollout(listed, LISTED_ID, LISTED_LINES);
  const droid = join(home, "droid", ".factory", "sessions", "-bench");
  mkdirSync(droid, { recursive: true });
  const mid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  writeLines(join(droid, `${DROID_ID}.jsonl`), DROID_LINES, (i) => {
    if (i === 0)
      return `{"type":"session_start","id":"${DROID_ID}","title":"bench","owner":"bench","version":2,"cwd":"/bench"}`;
    const parent = i === 1 ? "" : `"parentId":"${mid(i - 1)}",`;
    const role = i % 2 ? "user" : "assistant";
    const model = i % 2 ? "" : ',"modelId":"claude-opus-5"';
    const word = i === 5 ? "caf\u00e9 \u2192" : "session";
    return `{"type":"message","id":"${mid(i)}",${parent}"timestamp":"${TS}","message":{"role":"${role}","content":[{"type":"text","text":"message ${i} of the ${word}"}]${model}}}`;
  });
  const pi = join(home, "pi", ".pi", "agent", "sessions", "--bench--");
  mkdirSync(pi, { recursive: true });
  const entry = (i: number) => String(i).padStart(8, "0");
  const ms = Date.parse(TS);
  writeLines(join(pi, `2026-11-30T09-15-00-000Z_${PI_ID}.jsonl`), PI_LINES + 1, (i) => {
    if (i === 0)
      return `{"type":"session","version":3,"id":"${PI_ID}","timestamp":"${TS}","cwd":"/bench"}`;
    const parent = i === 1 ? "null" : `"${entry(i - 2)}"`;
    const text = `message ${i - 1} of the ${i === 6 ? "caf\u00e9 \u2192" : "session"}`;
    const message =
      i % 2
        ? `{"role":"user","content":[{"type":"text","text":"${text}"}],"timestamp":${ms}}`
        : `{"role":"assistant","content":[{"type":"text","text":"${text}"}],"api":"x","provider":"x","model":"m","stopReason":"stop","timestamp":${ms}}`;
    return `{"type":"message","id":"${entry(i - 1)}","parentId":${parent},"timestamp":"${TS}","message":${message}}`;
  });
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with a small heap in one of the homes, stdout to a file. */
function runSmall(where: string, args: string[], heapMb = HEAP_MB) {
  const name = args.join("-").replace(/[^a-z0-9-]/gi, "_");
  return runWithHeap(heapMb, join(home, where), join(home, `out-${where}-${name}`), args);
}

describe("large JSONL sessions with a heap smaller than main's build needed", () => {
  it("exports a Codex rollout as Markdown and as HTML, every message in it", () => {
    for (const format of ["markdown", "html"]) {
      const r = runSmall("exported", ["export", CODEX_ID, "--from", "codex", "--format", format]);
      expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
      expect(r.status).toBe(0);
      const page = readFileSync(r.out, "utf8");
      expect(page).toContain(`line ${CODEX_LINES - 1} of the rollout`);
      expect(page).toContain("line 5 of the rollout \u2192");
    }
  }, 320_000);

  it("lists a Codex rollout with a non-Latin-1 character, its messages counted", () => {
    const r = runSmall("listed", ["list", "--from", "codex", "--json"]);
    expect(r.stderr).not.toMatch(/heap out of memory/);
    expect(r.status).toBe(0);
    const listed = readFileSync(r.out, "utf8");
    expect(listed).toContain(LISTED_ID);
    expect(listed).toContain(`"message_count": ${LISTED_LINES - 1}`);
  }, 320_000);

  it("views and lists a Droid session, every message in it", () => {
    const view = runSmall("droid", ["view", DROID_ID, "--from", "droid", "--no-pager"]);
    expect(view.stderr).not.toMatch(/heap out of memory/);
    expect(view.status).toBe(0);
    expect(statSync(view.out).size).toBeGreaterThan(1_000_000);
    const text = readFileSync(view.out, "utf8");
    expect(text).toContain("message 5 of the caf\u00e9 \u2192");
    expect(text).toContain(`message ${DROID_LINES - 1} of the session`);
    const list = runSmall("droid", ["list", "--from", "droid", "--json"]);
    expect(list.stderr).not.toMatch(/heap out of memory/);
    expect(list.status).toBe(0);
    expect(readFileSync(list.out, "utf8")).toContain(DROID_ID);
  }, 320_000);

  it("views and lists a pi session with a non-Latin-1 character, every message in it", () => {
    const view = runSmall("pi", ["view", PI_ID, "--from", "pi", "--no-pager"], PI_HEAP_MB);
    expect(view.stderr).not.toMatch(/heap out of memory/);
    expect(view.status).toBe(0);
    const text = readFileSync(view.out, "utf8");
    expect(text).toContain("message 5 of the caf\u00e9 \u2192");
    expect(text).toContain(`message ${PI_LINES - 1} of the session`);
    const list = runSmall("pi", ["list", "--from", "pi", "--json"], PI_HEAP_MB);
    expect(list.stderr).not.toMatch(/heap out of memory/);
    expect(list.status).toBe(0);
    expect(readFileSync(list.out, "utf8")).toContain(`"message_count": ${PI_LINES}`);
  }, 320_000);
});
