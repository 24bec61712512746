/**
 * OpenCode harness benchmark, on a generated database with OpenCode
 * 1.18.33's schema (300 sessions of 40 turns): discovery, and load +
 * toCommon of one large session, each against a raw SELECT of the same rows
 * measured in the same run; writing one session (fromCommon + save) against
 * plain INSERTs of the same rows in one transaction. Prints medians and
 * ratios; asserts nothing.
 */

import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Message } from "../src/common.js";
import { OpenCodeStore, openCodeCodec } from "../src/harness/opencode/index.js";
import { stableUuid } from "../src/ids.js";
import { timestampFromMillis } from "../src/time.js";
import type { Common, Transcript } from "../src/transcript.js";
import { benchRow, mb, report, timeMedian } from "./util.js";

const SESSIONS = 300;
const TURNS = 40;
const SCHEMA = readFileSync(
  join(import.meta.dirname, "..", "test", "fixtures", "opencode", "schema-1.18.33.sql"),
  "utf8",
);

/** A session of `turns` prompts, each answered by a shell call, its output and a reply. */
function session(n: number, turns: number, outputBytes: number): Transcript<Common> {
  const t0 = Date.parse("2026-08-01T00:00:00Z") + n * 3_600_000;
  let s = 0;
  const at = () => timestampFromMillis(t0 + 1000 * s++);
  const body: Message[] = [];
  for (let i = 0; i < turns; i++) {
    body.push({
      role: "user",
      timestamp: at(),
      content: [{ type: "text", text: `Step ${i}: run the suite and fix module ${i}.` }],
    });
    body.push({
      role: "assistant",
      timestamp: at(),
      model: "claude-sonnet-4-5",
      usage: { input_tokens: 900 + i, output_tokens: 120, cache_read_input_tokens: 20_000 },
      content: [
        { type: "thinking", text: `Plan ${i}: run the tests, read the failure, patch.` },
        {
          type: "tool_use",
          id: `call_${n}_${i}`,
          tool: { name: "Bash", command: `npm test -- module${i}`, description: "Run tests" },
        },
      ],
    });
    body.push({
      role: "user",
      timestamp: at(),
      content: [
        {
          type: "tool_result",
          tool_use_id: `call_${n}_${i}`,
          content: `${"ok ".repeat(outputBytes / 3)}\n`,
        },
      ],
    });
    body.push({
      role: "assistant",
      timestamp: at(),
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text: `Module ${i} passes now.` }],
    });
  }
  return {
    meta: {
      id: stableUuid("bench", n),
      timestamp: timestampFromMillis(t0),
      cwd: "/home/dev/app",
      title: `Session ${n}`,
    },
    body,
  };
}

const root = mkdtempSync(join(tmpdir(), "txcript-opencode-bench-"));
try {
  const path = join(root, "opencode.db");
  const setup = new Database(path);
  setup.pragma("journal_mode = WAL");
  setup.exec(SCHEMA);
  setup.close();
  const store = new OpenCodeStore({ root, env: {} });
  for (let n = 0; n < SESSIONS; n++) store.save(openCodeCodec.fromCommon(session(n, TURNS, 2_000)));
  const big = openCodeCodec.fromCommon(session(9999, 400, 60_000));
  store.save(big);
  const bigId = big.body.session.id as string;
  const size =
    statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);

  // Discovery vs a raw SELECT of every session row and every message and part's data.
  const raw = new Database(path, { readonly: true });
  const selectAll = () => {
    raw.prepare("SELECT * FROM session").all();
    raw.prepare("SELECT id, session_id, data FROM message").raw().all();
    raw.prepare("SELECT id, message_id, data FROM part").raw().all();
  };
  const baseDiscover = await timeMedian(selectAll, 5);
  let found = 0;
  const discover = await timeMedian(async () => {
    found = (await store.discover()).sessions.length;
  }, 5);

  // One large session: load + toCommon vs SELECT of its rows, JSON-parsing each data column.
  const selectOne = () => {
    for (const r of raw.prepare("SELECT data FROM message WHERE session_id = ?").pluck().all(bigId))
      JSON.parse(r as string);
    for (const r of raw.prepare("SELECT data FROM part WHERE session_id = ?").pluck().all(bigId))
      JSON.parse(r as string);
  };
  const bigBytes = raw
    .prepare(
      "SELECT (SELECT sum(length(data)) FROM message WHERE session_id = ?) + (SELECT sum(length(data)) FROM part WHERE session_id = ?)",
    )
    .pluck()
    .get(bigId, bigId) as number;
  const baseLoad = await timeMedian(selectOne, 5);
  const load = await timeMedian(() => {
    openCodeCodec.toCommon(store.load(bigId));
  }, 5);
  raw.close();

  // Writing one 1,600-message session: fromCommon + save (then delete) vs plain INSERTs.
  const common = session(1_000_000, 400, 2_000);
  const native = openCodeCodec.fromCommon(common);
  const sid = native.body.session.id as string;
  const writer = new Database(path);
  const baseWrite = await timeMedian(() => {
    writer.exec("BEGIN IMMEDIATE");
    const m = writer.prepare(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    );
    const p = writer.prepare(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const msg of native.body.messages) {
      const r = msg.row;
      m.run(`b${r.id}`, bigId, r.time_created, r.time_updated, r.data);
      for (const q of msg.parts)
        p.run(`b${q.id}`, `b${r.id}`, bigId, q.time_created, q.time_updated, q.data);
    }
    writer.exec("ROLLBACK");
  }, 5);
  writer.close();
  const write = await timeMedian(() => {
    store.save(openCodeCodec.fromCommon(common));
    store.delete(sid);
  }, 5);

  report([
    { store: `${found} sessions`, size: mb(size) },
    benchRow("discover", discover, "baseline_select_all_ms", baseDiscover),
    benchRow(`load+toCommon ${mb(bigBytes)} of rows`, load, "baseline_select_parse_ms", baseLoad),
    benchRow("fromCommon+save+delete 1600 msgs", write, "baseline_insert_rows_ms", baseWrite),
    { peak_rss: mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
