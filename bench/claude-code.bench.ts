/**
 * Claude Code benchmark: a generated store of realistic sessions (split
 * responses, tool results large and small, bookkeeping lines). Prints the
 * median time of discovery against the baseline of loading and converting
 * every session, the reader's and writer's throughput on one large session,
 * and peak RSS. `npx tsx bench/claude-code.bench.ts [sessions]`
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeCodeCodec } from "../src/harness/claude-code/codec.js";
import { ClaudeCodeStore } from "../src/harness/claude-code/store.js";
import { claudeCodeText } from "../src/harness/claude-code/text.js";
import { mb, report, timeMedian } from "./util.js";

const SESSIONS = Number(process.argv[2] ?? 200);

/** Deterministic pseudo-random numbers, so every run measures the same data. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function uuid(n: number, k: number): string {
  const hex = (n * 100_003 + k).toString(16).padStart(12, "0").slice(-12);
  return `6a1b2c3d-${(n % 65536).toString(16).padStart(4, "0")}-4000-8000-${hex}`;
}

/** One session of about `turns` tool-using turns. */
function session(n: number, turns: number): string {
  const rand = rng(n + 1);
  const sid = uuid(n, 0);
  const cwd = `/home/dev/projects/app_${n % 17}`;
  const lines: string[] = [];
  let k = 1;
  let parent: string | null = null;
  let t = Date.UTC(2026, 5, 1) + n * 3_600_000;
  const env = (type: string) => ({
    parentUuid: parent,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId: sid,
    version: "2.1.200",
    gitBranch: "main",
    type,
  });
  const push = (record: Record<string, unknown>) => {
    const id = uuid(n, k++);
    t += 1000 + Math.floor(rand() * 20_000);
    lines.push(JSON.stringify({ ...record, uuid: id, timestamp: new Date(t).toISOString() }));
    parent = id;
  };
  push({ ...env("user"), message: { role: "user", content: `Task ${n}: make the tests pass` } });
  for (let turn = 0; turn < turns; turn++) {
    const msg = `msg_${n}_${turn}`;
    const usage = {
      input_tokens: 8 + turn,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 20_000 + turn * 900,
      output_tokens: 120,
    };
    const base = { id: msg, type: "message", role: "assistant", model: "claude-opus-5", usage };
    const call = `toolu_${n}_${turn}`;
    const blocks = [
      {
        type: "thinking",
        thinking: "Consider the failing case. ".repeat(8),
        signature: "Eq".repeat(200),
      },
      { type: "text", text: `Step ${turn}: reading the code.` },
      {
        type: "tool_use",
        id: call,
        name: turn % 3 === 0 ? "Bash" : "Read",
        input:
          turn % 3 === 0
            ? { command: "npm test", timeout: 120000 }
            : { file_path: `${cwd}/src/f${turn}.ts` },
      },
    ];
    for (const block of blocks) {
      push({
        ...env("assistant"),
        requestId: `req_${msg}`,
        message: { ...base, content: [block], stop_reason: null },
      });
    }
    const size = rand() < 0.1 ? 200_000 : 1_000 + Math.floor(rand() * 8_000);
    push({
      ...env("user"),
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: call, content: "x".repeat(size) }],
      },
      toolUseResult: { stdout: "x".repeat(Math.min(size, 2000)), stderr: "" },
    });
    if (turn % 10 === 9)
      lines.push(
        JSON.stringify({ type: "file-history-snapshot", messageId: uuid(n, k), snapshot: {} }),
      );
  }
  lines.push(JSON.stringify({ type: "custom-title", customTitle: `Session ${n}`, sessionId: sid }));
  return `${lines.join("\n")}\n`;
}

const root = mkdtempSync(join(tmpdir(), "txcript-bench-cc-"));
try {
  let bytes = 0;
  for (let n = 0; n < SESSIONS; n++) {
    const dir = join(root, `-home-dev-projects-app-${n % 17}`);
    mkdirSync(dir, { recursive: true });
    const text = session(n, 20 + (n % 60));
    bytes += Buffer.byteLength(text);
    writeFileSync(join(dir, `${uuid(n, 0)}.jsonl`), text);
  }
  const store = new ClaudeCodeStore({ root });
  const ids = (await store.discover()).sessions.map((s) => s.id);

  const discover = await timeMedian(() => store.discover(), 5);
  const baseline = await timeMedian(() => {
    for (const id of ids) claudeCodeCodec.toCommon(store.load(id));
  }, 3);

  const big = session(9999, 1200);
  const parse = await timeMedian(() => claudeCodeCodec.toCommon(claudeCodeText.parse(big)));
  const common = claudeCodeCodec.toCommon(claudeCodeText.parse(big));
  const write = await timeMedian(() => claudeCodeText.render(claudeCodeCodec.fromCommon(common)));
  const roundTrip = await timeMedian(() => claudeCodeText.render(claudeCodeText.parse(big)));

  report([
    { store: `${ids.length} sessions`, size: mb(bytes) },
    {
      "discover (shallow scan) median": `${discover.toFixed(1)} ms`,
      "baseline: load + toCommon every session": `${baseline.toFixed(1)} ms`,
      ratio: `${(baseline / discover).toFixed(2)}x faster`,
    },
    {
      "large session": mb(Buffer.byteLength(big)),
      "parse + toCommon": `${parse.toFixed(1)} ms (${(Buffer.byteLength(big) / 1048576 / (parse / 1000)).toFixed(0)} MB/s)`,
      "fromCommon + render": `${write.toFixed(1)} ms`,
      "parse + render (byte-exact trip)": `${roundTrip.toFixed(1)} ms`,
    },
    { "peak RSS": mb(process.resourceUsage().maxRSS * 1024) },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
