/**
 * Cursor harness benchmark, on a generated `~/.cursor` (40 chat stores
 * and 40 agent transcripts of 40 turns, built from the documented
 * format): discovery, and load + toCommon of one large chat store, each
 * against reading and parsing the same data measured in the same run.
 * Prints medians and ratios; asserts nothing.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonObject } from "../src/common.js";
import { cursorCodec } from "../src/harness/cursor/codec.js";
import { CursorStore } from "../src/harness/cursor/store.js";
import { createCursorChat, createCursorTranscript } from "../test/support/cursor.js";
import { benchRow, codingSession, report, timeMedian } from "./util.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 40);
const TURNS = 40;

const root = mkdtempSync(join(tmpdir(), "txcript-bench-cursor-"));
try {
  const transcripts: string[] = [];
  for (let n = 0; n < SESSIONS; n++) {
    const common = codingSession(n, n === 0 ? TURNS * 10 : TURNS, n === 0 ? 4000 : 400, {
      model: "composer-2.5",
      cwd: "/srv/app",
    });
    const id = `c0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const body = cursorCodec.fromCommon({ ...common, meta: { ...common.meta, id } }).body;
    if (body.layout !== "chat") throw new Error("fromCommon writes the chat layout");
    createCursorChat(root, { id, blobs: body.messages, agent: body.agent, chat: body.chat });
    // The same session as an agent transcript, under another id.
    const lines: JsonObject[] = body.messages.map((m) => ({
      role: m.role === "assistant" ? "assistant" : "user",
      message: { content: m.content ?? "" },
    }));
    const tid = `d0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    transcripts.push(createCursorTranscript(root, tid, lines));
  }
  const store = new CursorStore({ root, env: {} });
  const parseLines = (path: string) =>
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));

  const discover = await timeMedian(async () => {
    await store.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    for (const path of transcripts) parseLines(path);
  }, 5);
  const big = "c0000000-0000-4000-8000-000000000000";
  const load = await timeMedian(() => {
    cursorCodec.toCommon(store.load(big));
  }, 5);
  const bigTranscript = transcripts[0] ?? "";
  const loadTranscript = await timeMedian(() => {
    cursorCodec.toCommon(store.load("d0000000-0000-4000-8000-000000000000"));
  }, 5);
  const baseLoad = await timeMedian(() => {
    parseLines(bigTranscript);
  }, 5);

  report([
    { store: `${SESSIONS} chat stores + ${SESSIONS} transcripts` },
    benchRow("discover", discover, "baseline_parse_transcripts_ms", baseDiscover),
    benchRow(
      `load+toCommon chat ${TURNS * 10} turns`,
      load,
      "baseline_parse_transcript_ms",
      baseLoad,
    ),
    benchRow(
      `load+toCommon transcript ${TURNS * 10} turns`,
      loadTranscript,
      "baseline_parse_transcript_ms",
      baseLoad,
    ),
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
