/**
 * `txcript usage` benchmark, whole processes of the built CLI (dist/) over
 * generated stores: N sessions (default 1,000) per harness of 10 prompts
 * each (Claude Code with split responses, Codex with repeated token_count,
 * agy with gen_metadata usage rows, Gemini CLI, OpenCode), written by the
 * test fixtures (test/support/usage-stores.ts). Variants run interleaved,
 * medians of several runs, with baselines measured in the same run:
 * - warm `usage --json` (by day, and by session) beside warm `list --json`
 *   over the same index (the cost of the report over the listing) and
 *   beside `node -e 0`;
 * - cold `usage --json` (empty index: every session read for its usage)
 *   beside cold `query` of a word (the same full text build) and cold
 *   `list --json` (rows only).
 *
 *   npx tsx bench/usage.bench.ts [sessions-per-harness] [runs]
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  emptyExpected,
  writeAgyStore,
  writeClaudeStore,
  writeCodexStore,
  writeSavedStore,
} from "../test/support/usage-stores.js";
import { interleaved, report, runProcess } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "usage");
const TURNS = 10;

function generate(n: number): { dir: string; env: Record<string, string> } {
  const dir = join(DATA, `v1-${n}x${TURNS}`);
  const env = {
    HOME: join(dir, "home"),
    TZ: "UTC",
    TXCRIPT_CLAUDE_CODE_ROOT: join(dir, "claude", "projects"),
    TXCRIPT_CODEX_ROOT: join(dir, "codex"),
    TXCRIPT_ANTIGRAVITY_ROOT: join(dir, "agy"),
    TXCRIPT_GEMINI_CLI_ROOT: join(dir, "gemini"),
    TXCRIPT_OPENCODE_ROOT: join(dir, "opencode"),
  };
  const done = join(dir, "complete");
  if (existsSync(done)) return { dir, env };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const all = emptyExpected();
  const opts = { sessions: n, turns: TURNS };
  writeClaudeStore(join(dir, "claude"), opts, all);
  writeCodexStore(env.TXCRIPT_CODEX_ROOT, opts, all);
  writeAgyStore(env.TXCRIPT_ANTIGRAVITY_ROOT, opts, all);
  writeSavedStore(
    "gemini_cli",
    env.TXCRIPT_GEMINI_CLI_ROOT,
    { ...opts, model: "gemini-2.5-pro" },
    all,
  );
  writeSavedStore(
    "opencode",
    env.TXCRIPT_OPENCODE_ROOT,
    { ...opts, model: "claude-sonnet-4-5" },
    all,
  );
  writeFileSync(done, "");
  return { dir, env };
}

const node = process.execPath;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

function main(): void {
  const n = Number(process.argv[2] ?? 1000);
  const runs = Number(process.argv[3] ?? 5);
  const t0 = performance.now();
  const { dir, env } = generate(n);
  const gen = performance.now() - t0;
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  report([
    {
      store: `${n} sessions x 5 harnesses, ${TURNS} prompts each (${n * 5 * TURNS} responses)`,
      generated: `${(gen / 1000).toFixed(1)} s`,
      "load average": loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    },
  ]);
  const warmEnv = { ...env, TXCRIPT_CACHE: join(dir, "cache") };
  runProcess([node, BIN, "usage", "--json"], warmEnv); // builds the index once
  const warm = interleaved(
    {
      day: { argv: [node, BIN, "usage", "--json"], env: warmEnv },
      session: { argv: [node, BIN, "usage", "--by", "session", "--json"], env: warmEnv },
      list: { argv: [node, BIN, "list", "--json"], env: warmEnv },
      bare: { argv: [node, "-e", "0"], env },
    },
    runs,
  );
  report([
    {
      "warm usage --json (by day)": fmt(warm.day!),
      "warm usage --by session --json": fmt(warm.session!),
      "warm list --json (baseline)": fmt(warm.list!),
      "node -e 0": fmt(warm.bare!),
      "usage / list": ratio(warm.day!, warm.list!),
      "by session / list": ratio(warm.session!, warm.list!),
    },
  ]);
  const coldDir = join(dir, "cache-cold");
  const coldEnv = { ...env, TXCRIPT_CACHE: coldDir };
  const wipe = () => rmSync(coldDir, { recursive: true, force: true });
  const cold = interleaved(
    {
      usage: { argv: [node, BIN, "usage", "--json"], env: coldEnv, before: wipe },
      query: { argv: [node, BIN, "query", "answer", "--json"], env: coldEnv, before: wipe },
      list: { argv: [node, BIN, "list", "--json"], env: coldEnv, before: wipe },
    },
    Math.max(1, Math.min(runs, 2)),
  );
  report([
    {
      "cold usage --json (empty index)": fmt(cold.usage!),
      "cold query (same text build, baseline)": fmt(cold.query!),
      "cold list --json (rows only)": fmt(cold.list!),
      "usage / query": ratio(cold.usage!, cold.query!),
      "usage / list": ratio(cold.usage!, cold.list!),
    },
  ]);
}

main();
