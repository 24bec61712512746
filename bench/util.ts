/**
 * Benchmark helpers: medians over repeated runs, throughput, peak RSS.
 * Benchmarks generate their own data and print figures; nothing asserts time.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { hideSecrets } from "../src/archive/url.js";
import type { Message } from "../src/common.js";
import { stableUuid } from "../src/ids.js";
import { timestampFromMillis } from "../src/time.js";
import type { Common, Transcript } from "../src/transcript.js";

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Run `fn` `runs` times after `warmup` runs; the median wall time in ms. */
export async function timeMedian(
  fn: () => unknown | Promise<unknown>,
  runs = 7,
  warmup = 1,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function report(rows: Record<string, string | number>[]): void {
  for (const row of rows) {
    process.stdout.write(
      `${Object.entries(row)
        .map(([k, v]) => `${k}: ${v}`)
        .join("  |  ")}\n`,
    );
  }
}

/**
 * A report row for one operation against its baseline: both medians, the
 * baseline's under `baseline` (the column name says what the baseline did),
 * and how many times the baseline's time the operation took.
 */
export function benchRow(
  op: string,
  ms: number,
  baseline: string,
  baselineMs: number,
): Record<string, string> {
  return {
    op,
    median_ms: ms.toFixed(1),
    [baseline]: baselineMs.toFixed(1),
    ratio: (ms / baselineMs).toFixed(2),
  };
}

/** What a store bench times, each beside a baseline that reads and parses the same data. */
export interface StoreOps {
  discover(): Promise<unknown>;
  baseDiscover(): unknown;
  /** Load the longest session and convert it to Common. */
  load(): unknown;
  baseLoad(): unknown;
}

/**
 * The medians of discovery and of load + toCommon of a `turns`-turn session,
 * timed in that order, each beside its baseline's (columns named `baseline`
 * and `loadBaseline`).
 */
export async function storeRows(
  ops: StoreOps,
  turns: number,
  baseline = "baseline_read_parse_ms",
  loadBaseline = baseline,
): Promise<Record<string, string>[]> {
  const discover = await timeMedian(async () => {
    await ops.discover();
  }, 5);
  const baseDiscover = await timeMedian(() => {
    ops.baseDiscover();
  }, 5);
  const load = await timeMedian(() => {
    ops.load();
  }, 5);
  const baseLoad = await timeMedian(() => {
    ops.baseLoad();
  }, 5);
  return [
    benchRow("discover", discover, baseline, baseDiscover),
    benchRow(`load+toCommon ${turns} turns`, load, loadBaseline, baseLoad),
  ];
}

/** Every session row of a SQLite store with `sessions` and `messages(session_id)`, with its message count: the baseline of a discovery. */
export function selectSessions(path: string): void {
  const db = new Database(path, { readonly: true });
  db.prepare(
    "SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s",
  ).all();
  db.close();
}

/** A JSON-lines file's records, blank lines skipped: the baseline's parse. */
export function parseJsonLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** Session `n` of a generated store: `turns` prompts, each answered by a shell call, its output and a reply. */
export function codingSession(
  n: number,
  turns: number,
  outputBytes: number,
  shape: { model: string; cwd: string },
): Transcript<Common> {
  const t0 = Date.parse("2026-08-01T00:00:00Z") + n * 3_600_000;
  let s = 0;
  const at = () => timestampFromMillis(t0 + 1000 * s++);
  const body: Message[] = [];
  for (let i = 0; i < turns; i++) {
    body.push({
      role: "user",
      timestamp: at(),
      content: [
        { type: "text", text: `Step ${i}: run the suite and fix what fails in module ${i}.` },
      ],
    });
    body.push({
      role: "assistant",
      timestamp: at(),
      model: shape.model,
      usage: {
        input_tokens: 900 + i,
        output_tokens: 120,
        cache_read_input_tokens: 20_000 + i * 100,
      },
      content: [
        { type: "thinking", text: `Plan ${i}: run the tests, read the failure, patch the module.` },
        {
          type: "tool_use",
          id: `call_${n}_${i}`,
          tool: { name: "Bash", command: `npm test -- module${i}`, workdir: shape.cwd },
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
      model: shape.model,
      content: [{ type: "text", text: `Module ${i} passes now.` }],
    });
  }
  return {
    meta: {
      id: stableUuid("bench", n),
      timestamp: timestampFromMillis(t0),
      cwd: shape.cwd,
      title: `Session ${n}`,
    },
    body,
  };
}

/** A whole process's wall time in ms; throws with its stderr if it fails. */
export function runProcess(argv: string[], env: Record<string, string>): number {
  const t0 = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), {
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0)
    throw new Error(withoutPasswords(`${argv.join(" ")}: ${r.stderr}`, argv, env));
  return ms;
}

/**
 * `text` with the password of every URL among the arguments and the
 * environment's values hidden, as src/archive/url.ts hides them in
 * txcript's own messages: a failed run's message never shows a password.
 */
function withoutPasswords(
  text: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  let out = text;
  for (const value of [...argv, ...Object.values(env)])
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) out = hideSecrets(out, value);
  return out;
}

/** Interleaved whole-process medians; `before` runs ahead of each sample, untimed. */
export function interleaved(
  variants: Record<string, { argv: string[]; env: Record<string, string>; before?: () => void }>,
  runs: number,
): Record<string, number> {
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(variants).map((k) => [k, []]),
  );
  for (let r = 0; r < runs + 1; r++) {
    for (const [name, v] of Object.entries(variants)) {
      v.before?.();
      const ms = runProcess(v.argv, v.env);
      if (r > 0) samples[name]!.push(ms); // the first round warms the page cache
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export interface HyperfineCommand {
  /** A shell command line. */
  command: string;
  /** Its environment (PATH is added). */
  env: Record<string, string>;
  /** A shell command run before each timed run, untimed (e.g. emptying a cache). */
  prepare?: string;
}

/**
 * Whole-process medians (ms) by hyperfine, each command after two warm-up
 * runs (the page cache), the commands one after another, with each
 * command's CPU time beside its wall time: on a shared machine under load,
 * wall time is mostly waiting for a core, and CPU time (user + system,
 * hyperfine's mean; a worker thread's included) is the steadier figure of
 * the work done. Throws when a command fails.
 */
export function hyperfineTimes(
  commands: Record<string, HyperfineCommand>,
  runs: number,
): Record<string, { wall: number; cpu: number }> {
  const out: Record<string, { wall: number; cpu: number }> = {};
  const dir = mkdtempSync(join(tmpdir(), "txcript-bench-"));
  try {
    for (const [name, c] of Object.entries(commands)) {
      const json = join(dir, "out.json");
      const args = ["--runs", String(runs), "--warmup", "2", "--style", "none", "-N"];
      if (c.command.includes("'") || c.prepare) args.splice(-1, 1); // quoted words need a shell
      if (c.prepare) args.push("--prepare", c.prepare);
      args.push("--export-json", json, c.command);
      const r = spawnSync("hyperfine", args, {
        env: { PATH: process.env.PATH ?? "", ...c.env },
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe"],
      });
      if (r.status !== 0) throw new Error(`hyperfine ${name}: ${r.stderr}`);
      const parsed = JSON.parse(readFileSync(json, "utf8")) as {
        results: { median: number; user: number; system: number }[];
      };
      const result = parsed.results[0];
      out[name] = {
        wall: (result?.median ?? Number.NaN) * 1000,
        cpu: ((result?.user ?? Number.NaN) + (result?.system ?? Number.NaN)) * 1000,
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** A store of one file a session, as `benchSessionFiles` drives it. */
export interface SessionFileBench {
  /** How many sessions to write. */
  sessions: number;
  /** Write session `n` (from `codingSession`) into the store; its file's path. */
  write(n: number, common: ReturnType<typeof codingSession>): string;
  /** The store's discovery. */
  discover(): Promise<unknown>;
  /** Load session `n` and convert it to Common. */
  loadCommon(n: number): unknown;
  /** `codingSession`'s options for session `n`. */
  options(n: number): { model: string; cwd: string };
  /** The baseline's parse of one file: its JSON lines unless the store keeps one JSON document. */
  parse?(path: string): unknown;
}

/**
 * The benchmark of a store of one file a session (JSONL unless `parse` says
 * otherwise): `sessions` sessions
 * of `turns` turns (the first ten times longer), then discovery and load +
 * toCommon of the longest, each against reading and parsing the same files'
 * lines in the same run. Prints medians and ratios.
 */
export async function benchSessionFiles(b: SessionFileBench, turns: number): Promise<void> {
  const paths: string[] = [];
  for (let n = 0; n < b.sessions; n++)
    paths.push(
      b.write(
        n,
        codingSession(n, n === 0 ? turns * 10 : turns, n === 0 ? 4000 : 400, b.options(n)),
      ),
    );
  const parseAll = b.parse ?? parseJsonLines;
  const rows = await storeRows(
    {
      discover: () => b.discover(),
      baseDiscover: () => {
        for (const path of paths) parseAll(path);
      },
      load: () => b.loadCommon(0),
      baseLoad: () => parseAll(paths[0] ?? ""),
    },
    turns * 10,
  );
  report([{ store: `${b.sessions} sessions` }, ...rows]);
}
