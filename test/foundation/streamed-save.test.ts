/**
 * JSONL stores write a copy a line at a time (issue 31 item 9): a child
 * with a 40 MB V8 heap saves a Claude Code session of 544 lines that all
 * share one 1 MiB line text, so the Body costs about a megabyte while the
 * file is 571 MB, more than V8's longest string (2^29 - 24 characters). A
 * save that joins the lines into one string first (as every JSONL store
 * did) fails with "Invalid string length"; one that writes line by line
 * succeeds and the file is whole. Runs the built store module (dist/);
 * TXCRIPT_TEST_DIST=<an older dist> shows the failure.
 */

import { spawnSync } from "node:child_process";
import { createReadStream, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const DIST = process.env.TXCRIPT_TEST_DIST || join(ROOT, "dist");
const HEAP_MB = 40;
const LINES = 544;
/** One line's text: a JSON record about a megabyte long. */
const LINE_CHARS = 1 << 20;

let home: string;

beforeEach(() => {
  home = tempDir("txcript-streamed-save-");
});

/** Save in a child with a small heap; its status and the start of its stderr. */
function saveSmall(script: string): { status: number | null; err: string } {
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, "--input-type=module", "-e", script],
    { env: { PATH: process.env.PATH ?? "", HOME: home }, encoding: "utf8", timeout: 180_000 },
  );
  return { status: r.status, err: (r.stderr ?? "").slice(0, 2000) };
}

/** Every line of the file, checked without reading it whole: count, and that each parses. */
async function linesOf(path: string): Promise<{ count: number; parsed: number }> {
  let count = 0;
  let parsed = 0;
  const rl = createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of rl) {
    count++;
    if (typeof JSON.parse(line) === "object") parsed++;
  }
  return { count, parsed };
}

const mod = (rel: string) => JSON.stringify(pathToFileURL(join(DIST, rel)).href);

describe("a save longer than the longest string is written a line at a time", () => {
  it("Claude Code: the whole file, every line", async () => {
    const id = "e0e0e0e0-0000-4000-8000-00000000e0e0";
    const script = `
      const { ClaudeCodeStore } = await import(${mod("harness/claude-code/store.js")});
      const record = { type: "user", sessionId: "${id}", cwd: "/bench", pad: "x".repeat(${LINE_CHARS}) };
      const text = JSON.stringify(record);
      const lines = Array.from({ length: ${LINES} }, () => ({ text, eol: "\\n", record }));
      new ClaudeCodeStore({ root: ${JSON.stringify(join(home, "projects"))} })
        .save({ meta: { id: "${id}", timestamp: "2026-11-30T09:15:00.000Z" }, body: { lines } });`;
    const r = saveSmall(script);
    expect(r.err).not.toMatch(/heap|memory|Invalid string length/i);
    expect(r.status).toBe(0);
    const dir = join(home, "projects", "-bench");
    const path = join(dir, `${id}.jsonl`);
    expect(statSync(path).size).toBeGreaterThan(2 ** 29);
    expect(await linesOf(path)).toEqual({ count: LINES, parsed: LINES });
    expect(readdirSync(dir)).toEqual([`${id}.jsonl`]);
  }, 300_000);
});
