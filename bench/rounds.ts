/**
 * Whole-process timings that hold up on a shared, loaded machine: the
 * commands run in interleaved rounds (each round runs every command once,
 * in an order rotated by one each round, so none always runs after the same
 * neighbour), each timed for wall and CPU (user + system, of the process and
 * its threads, by GNU time), and reported as medians with quartiles beside
 * the load average the rounds saw. `callgrindInstructions` adds a figure no
 * load can move: the user-space instructions valgrind's callgrind counts.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

export interface RoundCommand {
  /** A shell command line. */
  command: string;
  /** Its environment (PATH is added; nothing else is inherited). */
  env: Record<string, string>;
  /** A shell command run before each timed run, untimed (e.g. emptying a cache). */
  prepare?: string;
}

/** Median and quartiles (ms). */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
}

export interface RoundTimes {
  wall: Spread;
  cpu: Spread;
}

const GNU_TIME = "/usr/bin/time";

/** Whether GNU time is installed (the CPU figures need it). */
export function canTimeRounds(): boolean {
  return existsSync(GNU_TIME);
}

/** The value at fraction `p` of `values` (linear between ranks). */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (
    (sorted[lo] ?? Number.NaN) +
    ((sorted[hi] ?? Number.NaN) - (sorted[lo] ?? Number.NaN)) * (at - lo)
  );
}

function spread(values: readonly number[]): Spread {
  return { median: quantile(values, 0.5), q1: quantile(values, 0.25), q3: quantile(values, 0.75) };
}

/** `m [q1-q3] ms`. */
export function showSpread(s: Spread): string {
  return `${s.median.toFixed(0)} [${s.q1.toFixed(0)}-${s.q3.toFixed(0)}] ms`;
}

/**
 * Each command's wall and CPU medians and quartiles over `rounds`
 * interleaved rounds, after one untimed round (the page cache); and the
 * lowest and highest 1-minute load average seen between runs.
 */
export function interleavedTimes(
  commands: Record<string, RoundCommand>,
  rounds: number,
): { times: Record<string, RoundTimes>; load: [number, number] } {
  const names = Object.keys(commands);
  const wall = new Map(names.map((n) => [n, [] as number[]]));
  const cpu = new Map(names.map((n) => [n, [] as number[]]));
  const loads: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), "txcript-rounds-"));
  const out = join(dir, "time");
  try {
    for (let round = -1; round < rounds; round++) {
      const shift = Math.max(0, round);
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + shift) % names.length] ?? "";
        const c = commands[name];
        if (!c) continue;
        const env = { PATH: process.env.PATH ?? "", ...c.env };
        if (c.prepare) spawnSync("sh", ["-c", c.prepare], { env, stdio: "ignore" });
        const t0 = performance.now();
        const r = spawnSync(
          GNU_TIME,
          ["-f", "%U %S", "-o", out, "sh", "-c", `exec ${c.command} >/dev/null`],
          { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
        );
        const ms = performance.now() - t0;
        if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
        const [user, system] = readFileSync(out, "utf8").trim().split(/\s+/).slice(-2).map(Number);
        if (round < 0) continue;
        wall.get(name)?.push(ms);
        cpu.get(name)?.push(((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000);
        loads.push(loadavg()[0] ?? Number.NaN);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const times: Record<string, RoundTimes> = {};
  for (const n of names)
    times[n] = { wall: spread(wall.get(n) ?? []), cpu: spread(cpu.get(n) ?? []) };
  return { times, load: [Math.min(...loads), Math.max(...loads)] };
}

/**
 * The user-space instructions callgrind counts for `argv` (every thread of
 * the process), or undefined when valgrind is missing or the run failed.
 * `prepare` runs first, untimed. Slow: about 40 times the command's CPU.
 */
export function callgrindInstructions(
  argv: readonly string[],
  env: Record<string, string>,
  prepare?: string,
): number | undefined {
  const fullEnv = { PATH: process.env.PATH ?? "", ...env };
  if (prepare) spawnSync("sh", ["-c", prepare], { env: fullEnv, stdio: "ignore" });
  const r = spawnSync("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", ...argv], {
    env: fullEnv,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const m = /Collected : (\d+)/.exec(r.stderr ?? "");
  return r.status === 0 && m ? Number(m[1]) : undefined;
}
