/**
 * agy conversations shown and continued within a small heap (issue 31
 * item 9, issue 33 goal 6). An agy conversation of 30,000 steps (a 13 MB
 * database and 13 MB of brain mirror) is viewed as JSON and exported as
 * HTML by the CLI with a 36 MB V8 heap, and a Simple document of as many
 * messages is continued into agy with the same heap. A command that holds
 * every step row, the brain mirror and the Common transcript at once (as
 * `view`, `export` and every other showing did), or a writer that holds
 * every step's bytes and both mirror files whole before saving (as
 * `continue` into agy did), needs well over 48 MB and dies out of memory;
 * one that converts the rows as it reads them, and writes the mirror a
 * line at a time, needs under 32 MB. TXCRIPT_TEST_BIN=<an older
 * dist/cli/main.js> shows those failing.
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
import { continueInto } from "../../src/local.js";
import type { Common } from "../../src/transcript.js";
import { BIN, ROOT, TEST_CACHE } from "../support/cli.js";

const N = 30_000;
const HEAP_MB = 36;
const TS = "2026-11-30T09:15:00.000Z";

let home = "";
let id = "";
let doc = "";

const message = (i: number) => ({
  role: i % 2 ? ("assistant" as const) : ("user" as const),
  timestamp: TS,
  text: `step ${i} of the conversation`,
});

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-agy-small-heap-"));
  const body: Common = Array.from({ length: N }, (_, i) => {
    const { role, timestamp, text } = message(i);
    return { role, timestamp, content: [{ type: "text", text }] };
  });
  const meta = { id: "a0c0c0c0-0000-4000-8000-00000000c0c0", timestamp: TS, cwd: "/bench" };
  id = continueInto({ meta, body }, "antigravity", { env: { HOME: home } }).saved.id;
  doc = join(home, "doc.json");
  const messages = Array.from({ length: N }, (_, i) => {
    const { role, timestamp, text } = message(i);
    return { role, timestamp, content: text };
  });
  writeFileSync(doc, JSON.stringify({ id: "s0", timestamp: TS, cwd: "/bench", messages }));
}, 600_000);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with a small heap, stdout to a file; its status, stderr and output. */
function runSmall(
  name: string,
  args: string[],
): { status: number | null; err: string; out: string } {
  const out = join(home, `out-${name}`);
  const fd = openSync(out, "w");
  try {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", TXCRIPT_CACHE: TEST_CACHE },
      cwd: ROOT,
      stdio: ["ignore", fd, "pipe"],
      encoding: "utf8",
      timeout: 300_000,
    });
    return { status: r.status, err: (r.stderr ?? "").slice(0, 2000), out };
  } finally {
    closeSync(fd);
  }
}

function succeeded(r: { status: number | null; err: string }): void {
  expect(r.err.split("\n")[0] ?? "").not.toMatch(/heap|memory|Invalid string length/i);
  expect(r.status).toBe(0);
}

describe("a large agy conversation within a small heap", () => {
  it("view --format json: every message", () => {
    const r = runSmall("json", ["view", id, "--from", "antigravity", "--format", "json"]);
    succeeded(r);
    const shown: { messages: { content: { text?: string }[] }[] } = JSON.parse(
      readFileSync(r.out, "utf8"),
    );
    expect(shown.messages).toHaveLength(N);
    expect(shown.messages.at(-1)?.content[0]?.text).toBe(message(N - 1).text);
  }, 600_000);

  it("export --format html: the whole page", () => {
    const r = runSmall("html", ["export", id, "--from", "antigravity", "--format", "html"]);
    succeeded(r);
    const page = readFileSync(r.out, "utf8");
    expect(page).toContain(message(0).text);
    expect(page).toContain(message(N - 1).text);
    expect(page.trimEnd().endsWith("</html>")).toBe(true);
  }, 600_000);

  it("continue into agy: the database and both mirror files whole", () => {
    const out = join(home, "copy");
    mkdirSync(out);
    const r = runSmall("continue", [
      "continue",
      doc,
      "--with",
      "antigravity",
      "--out",
      out,
      "--no-resume",
    ]);
    succeeded(r);
    const copy = /session ([0-9a-f-]{36})/.exec(r.err)?.[1] ?? "";
    expect(copy).not.toBe("");
    const root = join(out, "antigravity-cli");
    expect(statSync(join(root, "conversations", `${copy}.db`)).size).toBeGreaterThan(N * 100);
    const logs = join(root, "brain", copy, ".system_generated", "logs");
    for (const name of ["transcript.jsonl", "transcript_full.jsonl"]) {
      const lines = readFileSync(join(logs, name), "utf8").trimEnd().split("\n");
      expect(lines).toHaveLength(N);
      expect(JSON.parse(lines.at(-1) ?? "{}").content).toBe(message(N - 1).text);
    }
  }, 600_000);
});
