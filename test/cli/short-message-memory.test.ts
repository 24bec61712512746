/**
 * pi, Gemini CLI and Qwen Code sessions of many short messages viewed with
 * a V8 heap smaller than main's build needed for them (issue 33 goal 6):
 * their readers now build slim Common messages (exact block arrays, an
 * assistant's fields in its literal, a repeated time or model name held
 * once; src/harness/shared/slim.ts), and Gemini CLI's replay no longer
 * keeps every record's id through its walk. On sessions of 100,000 lines
 * main's build needed 56 MB (pi), 39 MB (Gemini CLI) and 64 MB (Qwen Code),
 * this one 36, 24 and 39 MB; TXCRIPT_TEST_BIN=<main's dist/cli/main.js>
 * shows each view here run out of memory.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithHeap } from "../support/cli.js";
import { shortText as text, lineUuid as uuid, writeLines } from "../support/large-sessions.js";

const TS = "2026-11-30T09:15:00.000Z";
/** Lines of each session (25 MB of pi, 12 MB of Gemini CLI, 36 MB of Qwen Code). */
const LINES = 100_000;
const PI_ID = "e9e9e9e9-0000-4000-8000-00000000e9e9";
const GEMINI_ID = "eaeaeaea-0000-4000-8000-00000000eaea";
const QWEN_ID = "ebebebeb-0000-4000-8000-00000000ebeb";

let home = "";

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "txcript-short-messages-"));
  const pi = join(home, "pi", ".pi", "agent", "sessions", "--bench--");
  mkdirSync(pi, { recursive: true });
  const entry = (i: number) => String(i).padStart(8, "0");
  const ms = Date.parse(TS);
  writeLines(join(pi, `2026-11-30T09-15-00-000Z_${PI_ID}.jsonl`), LINES, (i) => {
    if (i === 0)
      return `{"type":"session","version":3,"id":"${PI_ID}","timestamp":"${TS}","cwd":"/bench"}`;
    const parent = i === 1 ? "null" : `"${entry(i - 2)}"`;
    const message =
      i % 2
        ? `{"role":"user","content":[{"type":"text","text":"${text(i)}"}],"timestamp":${ms}}`
        : `{"role":"assistant","content":[{"type":"text","text":"${text(i)}"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-5","stopReason":"stop","timestamp":${ms}}`;
    return `{"type":"message","id":"${entry(i - 1)}","parentId":${parent},"timestamp":"${TS}","message":${message}}`;
  });
  const gemini = join(home, "gemini", ".gemini", "tmp", "bench");
  mkdirSync(join(gemini, "chats"), { recursive: true });
  writeFileSync(join(gemini, ".project_root"), "/bench");
  const file = join(gemini, "chats", `session-2026-11-30T09-15-${GEMINI_ID.slice(0, 8)}.jsonl`);
  // Every record followed by the `$set` of lastUpdated the CLI appends after it.
  writeLines(file, LINES, (i) => {
    if (i === 0)
      return `{"sessionId":"${GEMINI_ID}","projectHash":"${"0".repeat(64)}","startTime":"${TS}","lastUpdated":"${TS}","kind":"main"}`;
    if (i % 2 === 0) return `{"$set":{"lastUpdated":"${TS}"}}`;
    return i % 4 === 1
      ? `{"id":"${uuid(i)}","timestamp":"${TS}","type":"user","content":[{"text":"${text(i)}"}]}`
      : `{"id":"${uuid(i)}","timestamp":"${TS}","type":"gemini","content":"${text(i)}","tokens":{"input":120,"output":8,"cached":0,"thoughts":0,"tool":0,"total":128},"model":"gemini-2.5-pro"}`;
  });
  const qwen = join(home, "qwen", ".qwen", "projects", "-bench", "chats");
  mkdirSync(qwen, { recursive: true });
  writeLines(join(qwen, `${QWEN_ID}.jsonl`), LINES, (i) => {
    const parent = i === 0 ? "null" : `"${uuid(i - 1)}"`;
    const base = `"uuid":"${uuid(i)}","parentUuid":${parent},"sessionId":"${QWEN_ID}","timestamp":"${TS}","cwd":"/bench","version":"0.24.4"`;
    return i % 2 === 0
      ? `{${base},"type":"user","message":{"role":"user","parts":[{"text":"${text(i)}"}]}}`
      : `{${base},"type":"assistant","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"${text(i)}"}]},"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":8,"totalTokenCount":128}}`;
  });
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

/** View the session in `where` with a small heap: it holds its odd and last messages. */
function viewSmall(where: string, from: string, id: string, heapMb: number, last: number) {
  const out = join(home, `out-${where}`);
  const view = runWithHeap(heapMb, join(home, where), out, [
    "view",
    id,
    "--from",
    from,
    "--no-pager",
  ]);
  expect(view.stderr).not.toMatch(/heap out of memory/);
  expect(view.status).toBe(0);
  const shown = readFileSync(view.out, "utf8");
  expect(shown).toContain(text(5));
  expect(shown).toContain(text(last));
}

describe("sessions of many short messages with a heap smaller than main's build needed", () => {
  it("views a pi session, every message in it", () => {
    viewSmall("pi", "pi", PI_ID, 44, LINES - 1);
  }, 320_000);

  it("views a Gemini CLI session, every message in it", () => {
    viewSmall("gemini", "gemini_cli", GEMINI_ID, 30, LINES - 1);
  }, 320_000);

  it("views a Qwen Code session, every message in it", () => {
    viewSmall("qwen", "qwen_code", QWEN_ID, 48, LINES - 1);
  }, 320_000);
});
