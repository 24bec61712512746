/**
 * Run the built txcript binary in a child process, as a user would.
 * `npm test` builds dist/ before the suite runs.
 */

import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** TXCRIPT_TEST_BIN runs the suite against another build (e.g. an older one, to see a test fail). */
export const BIN = process.env.TXCRIPT_TEST_BIN || join(ROOT, "dist", "cli", "main.cjs");

/**
 * The index cache of every run in this test file, unless a test gives its
 * own TXCRIPT_CACHE: outside the stores and homes whose trees tests hash.
 */
export const TEST_CACHE = mkdtempSync(join(tmpdir(), "txcript-cache-"));
process.on("exit", () => rmSync(TEST_CACHE, { recursive: true, force: true }));

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  /** Extra environment; HOME defaults to a path that does not exist so no real store is read. */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export function txcript(args: readonly string[], options: RunOptions = {}): RunResult {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    PATH: process.env.PATH,
    HOME: "/nonexistent-txcript-home",
    NO_COLOR: "1",
    TXCRIPT_CACHE: TEST_CACHE,
    ...options.env,
  })) {
    if (v !== undefined) env[k] = v;
  }
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input: options.input ?? "",
    env,
    cwd: options.cwd ?? ROOT,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Run the CLI with a V8 heap of `heapMb`, stdout into the file `out` (so no
 * output is held here), stdin from the file `stdin` if given; its status
 * and the head of its stderr.
 */
export function runWithHeap(
  heapMb: number,
  home: string,
  out: string,
  args: readonly string[],
  stdin?: string,
): { status: number | null; stderr: string; out: string } {
  const fd = openSync(out, "w");
  const input = stdin === undefined ? "ignore" : openSync(stdin, "r");
  try {
    const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", TXCRIPT_CACHE: TEST_CACHE },
      cwd: ROOT,
      stdio: [input, fd, "pipe"],
      encoding: "utf8",
      timeout: 300_000,
    });
    return { status: r.status, stderr: (r.stderr ?? "").slice(0, 2000), out };
  } finally {
    closeSync(fd);
    if (typeof input === "number") closeSync(input);
  }
}

/**
 * Print the child's peak RSS on exit (stderr): VmHWM of /proc/self/status,
 * its own high-water mark (a spawned child's ru_maxrss starts at the RSS of
 * the process it was forked from: this test runner). No `?` in it: a data:
 * URL's query would end the module there.
 */
const PEAK_HOOK = `data:text/javascript,import{readFileSync as r}from"node:fs";process.on("exit",()=>{const m=/VmHWM:\\s*(\\d+)/.exec(r("/proc/self/status","utf8"));process.stderr.write("\\npeak-rss "+Number(m&&m[1])*1024+"\\n")})`;

/**
 * Run the CLI with stdout into the file `out` (so no output is held here):
 * its status, the head of its stderr, and its peak RSS in bytes (Linux only:
 * 0 without /proc).
 */
export function runWithPeak(
  home: string,
  out: string,
  args: readonly string[],
): { status: number | null; stderr: string; peak: number } {
  const fd = openSync(out, "w");
  try {
    const r = spawnSync(process.execPath, ["--import", PEAK_HOOK, BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", TXCRIPT_CACHE: TEST_CACHE },
      cwd: ROOT,
      stdio: ["ignore", fd, "pipe"],
      encoding: "utf8",
      timeout: 300_000,
    });
    const stderr = r.stderr ?? "";
    const peak = /peak-rss (-?\d+)/.exec(stderr)?.[1];
    return {
      status: r.status,
      stderr: stderr.slice(0, 2000),
      peak: peak === undefined ? Number.NaN : Number(peak),
    };
  } finally {
    closeSync(fd);
  }
}
