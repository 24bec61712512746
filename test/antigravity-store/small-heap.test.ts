import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueInto } from "../../src/local.js";
import type { Common } from "../../src/transcript.js";
import { runWithHeap } from "../support/cli.js";

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
function runSmall(name: string, args: string[]) {
  return runWithHeap(HEAP_MB, home, join(home, `out-${name}`), args);
}

function succeeded(r: { status: number | null; stderr: string }): void {
  expect(r.stderr.split("\n")[0] ?? "").not.toMatch(/heap|memory|Invalid string length/i);
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
    const copy = /session ([0-9a-f-]{36})/.exec(r.stderr)?.[1] ?? "";
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
