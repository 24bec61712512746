/**
 * A large Gemini CLI session given as a file (by path, and on stdin) and
 * viewed and exported with a V8 heap too small for what main's build held
 * (issue 33 goal 6): a file given on the command line was decoded to one
 * string of the whole session, and its lines split and replayed over that;
 * it is now read as lines over its bytes (outside the heap), as the store
 * reads it. Records have times of their own and `$set` updates between
 * them, as the CLI writes. Main's build ran out of memory on each of these
 * at a 56 MB heap; this one needed 30 MB. TXCRIPT_TEST_BIN=<an older
 * dist/cli/main.js> shows it.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { shortText as text, lineUuid as uuid, writeLines } from "../support/large-sessions.js";

const ID = "e9e9e9e9-0000-4000-8000-00000000e9e9";
/** Lines of the session: 15 MB. */
const LINES = 120_000;
const HEAP_MB = 40;
const START = Date.parse("2026-11-30T09:15:00.000Z");
/** Line i's time: a second after line i - 1's. */
const at = (i: number) => new Date(START + i * 1000).toISOString();

let home = "";
let file = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-large-gemini-"));
  file = join(home, `session-2026-11-30T09-15-${ID.slice(0, 8)}.jsonl`);
  writeLines(file, LINES, (i) => {
    if (i === 0)
      return `{"sessionId":"${ID}","projectHash":"${"0".repeat(64)}","startTime":"${at(0)}","lastUpdated":"${at(0)}","kind":"main"}`;
    if (i % 2 === 0) return `{"$set":{"lastUpdated":"${at(i - 1)}"}}`;
    return i % 4 === 1
      ? `{"id":"${uuid(i)}","timestamp":"${at(i)}","type":"user","content":[{"text":"${text(i)}"}]}`
      : `{"id":"${uuid(i)}","timestamp":"${at(i)}","type":"gemini","content":"${text(i)}","tokens":{"input":120,"output":8,"cached":40,"thoughts":0,"tool":0,"total":128},"model":"gemini-2.5-pro"}`;
  });
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with the small heap; what it printed holds the first, odd and last messages. */
function shows(name: string, args: string[], stdin?: string): string {
  const r = runWithHeap(HEAP_MB, home, join(home, `out-${name}`), args, stdin);
  expect(r.stderr).not.toMatch(/heap out of memory/);
  expect(r.status).toBe(0);
  const shown = readFileSync(r.out, "utf8");
  expect(shown).toContain(text(1));
  expect(shown).toContain(text(5));
  expect(shown).toContain(text(LINES - 1));
  return shown;
}

describe("a large Gemini CLI session file with a heap smaller than main's build needed", () => {
  it("views it given by path, every message in it", () => {
    expect(shows("view", ["view", file, "--no-pager"])).toContain(at(LINES - 1).slice(11, 19));
  }, 320_000);

  it("exports it as Markdown given by path", () => {
    expect(shows("md", ["export", file, "--format", "markdown"])).toContain(
      `## Turn ${LINES / 4}:`,
    );
  }, 320_000);

  it("views it given on stdin", () => {
    shows("stdin", ["view", "-", "--no-pager"], file);
  }, 320_000);
});
