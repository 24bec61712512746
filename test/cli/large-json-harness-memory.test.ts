/**
 * Large Qwen Code, Copilot CLI and Gemini CLI sessions viewed and listed
 * with a V8 heap too small for what main's build held (issue 33 goal 6):
 * each Body is now its file's bytes with its lines parsed as they are
 * walked (Qwen Code's active chain and Gemini CLI's replay keep line
 * numbers, not records). Each session holds a character outside Latin-1.
 * Main's build ran out of memory on every view here (Qwen Code and Copilot
 * CLI still at an 80 MB heap, Gemini CLI at 68 MB);
 * TXCRIPT_TEST_BIN=<an older dist/cli/main.js> shows it.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { shortText as text, lineUuid as uuid, writeLines } from "../support/large-sessions.js";

const TS = "2026-11-30T09:15:00.000Z";
/** Lines of each session (15-19 MB for Qwen Code and Copilot CLI, 9 MB for Gemini CLI). */
const LINES = 60_000;
const QWEN_ID = "e6e6e6e6-0000-4000-8000-00000000e6e6";
const COPILOT_ID = "e7e7e7e7-0000-4000-8000-00000000e7e7";
const GEMINI_ID = "e8e8e8e8-0000-4000-8000-00000000e8e8";
/** This build viewed the Qwen Code and Copilot CLI sessions in 40 MB. */
const HEAP_MB = 50;
/** This build viewed the Gemini CLI session in 48 MB. */
const GEMINI_HEAP_MB = 56;

let home = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-large-json-"));
  const qwen = join(home, "qwen", ".qwen", "projects", "-bench", "chats");
  mkdirSync(qwen, { recursive: true });
  writeLines(join(qwen, `${QWEN_ID}.jsonl`), LINES, (i) => {
    const parent = i === 0 ? "null" : `"${uuid(i - 1)}"`;
    const base = `"uuid":"${uuid(i)}","parentUuid":${parent},"sessionId":"${QWEN_ID}","timestamp":"${TS}","cwd":"/bench","version":"0.24.4"`;
    return i % 2 === 0
      ? `{${base},"type":"user","message":{"role":"user","parts":[{"text":"${text(i)}"}]}}`
      : `{${base},"type":"assistant","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"${text(i)}"}]}}`;
  });
  const copilot = join(home, "copilot", ".copilot", "session-state", COPILOT_ID);
  mkdirSync(copilot, { recursive: true });
  writeLines(join(copilot, "events.jsonl"), LINES, (i) => {
    const tail = `"id":"${uuid(i)}","timestamp":"${TS}","parentId":${i === 0 ? "null" : `"${uuid(i - 1)}"`}`;
    if (i === 0)
      return `{"type":"session.start","data":{"sessionId":"${COPILOT_ID}","version":1,"producer":"copilot-agent","copilotVersion":"1.0.102","startTime":"${TS}","context":{"cwd":"/bench"}},${tail}}`;
    return i % 2
      ? `{"type":"user.message","data":{"content":"${text(i)}","attachments":[]},${tail}}`
      : `{"type":"assistant.message","data":{"messageId":"m${i}","content":"${text(i)}","toolRequests":[],"model":"claude-sonnet-4.5"},${tail}}`;
  });
  const gemini = join(home, "gemini", ".gemini", "tmp", "bench");
  mkdirSync(join(gemini, "chats"), { recursive: true });
  writeFileSync(join(gemini, ".project_root"), "/bench");
  const file = join(gemini, "chats", `session-2026-11-30T09-15-${GEMINI_ID.slice(0, 8)}.jsonl`);
  writeLines(file, LINES, (i) => {
    if (i === 0)
      return `{"sessionId":"${GEMINI_ID}","projectHash":"${"0".repeat(64)}","startTime":"${TS}","lastUpdated":"${TS}","kind":"main"}`;
    return i % 2
      ? `{"id":"${uuid(i)}","timestamp":"${TS}","type":"user","content":[{"text":"${text(i)}"}]}`
      : `{"id":"${uuid(i)}","timestamp":"${TS}","type":"gemini","content":"${text(i)}","model":"gemini-2.5-pro"}`;
  });
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** Run the CLI with a small heap in one of the homes, stdout to a file. */
function runSmall(where: string, args: string[], heapMb: number) {
  const name = args.join("-").replace(/[^a-z0-9-]/gi, "_");
  return runWithHeap(heapMb, join(home, where), join(home, `out-${where}-${name}`), args);
}

/** View and list the session in `where`; the view holds its first, odd and last messages. */
function viewAndList(where: string, from: string, id: string, heapMb: number, count: number) {
  const view = runSmall(where, ["view", id, "--from", from, "--no-pager"], heapMb);
  expect(view.stderr).not.toMatch(/heap out of memory/);
  expect(view.status).toBe(0);
  const shown = readFileSync(view.out, "utf8");
  expect(shown).toContain(text(5));
  expect(shown).toContain(text(LINES - 1));
  const list = runSmall(where, ["list", "--from", from, "--json"], heapMb);
  expect(list.stderr).not.toMatch(/heap out of memory/);
  expect(list.status).toBe(0);
  const listed = readFileSync(list.out, "utf8");
  expect(listed).toContain(id);
  expect(listed).toContain(`"message_count": ${count}`);
}

describe("large JSONL sessions of the JSON harnesses with a heap smaller than main's build needed", () => {
  it("views and lists a Qwen Code session, every message in it", () => {
    viewAndList("qwen", "qwen_code", QWEN_ID, HEAP_MB, LINES);
  }, 320_000);

  it("views and lists a Copilot CLI session, every message in it", () => {
    viewAndList("copilot", "copilot", COPILOT_ID, HEAP_MB, LINES - 1);
  }, 320_000);

  it("views and lists a Gemini CLI session, every message in it", () => {
    viewAndList("gemini", "gemini_cli", GEMINI_ID, GEMINI_HEAP_MB, LINES - 1);
  }, 320_000);
});
