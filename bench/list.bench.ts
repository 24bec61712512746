/**
 * `list --json` as a new user meets it, whole processes of the built CLI
 * (dist/), over a generated store of 1,000 agy conversations of ~200 steps
 * written as agy leaves them (the latest fifth of each still in its -wal
 * beside the -shm). Each figure sits beside a baseline measured in the same
 * run, since the machine is shared. The cold figures come from interleaved
 * rounds (bench/rounds.ts: every command once a round, CPU (user + system)
 * beside wall, medians and quartiles, with the load average the rounds
 * saw); with `--callgrind` (or TXCRIPT_BENCH_CALLGRIND=1) also callgrind's
 * instruction counts of the cold list and the native baseline, which load
 * cannot move (minutes). The warm figures are hyperfine medians.
 * - cold `list --json` (empty cache folder: no index and no code cache, as
 *   on the first run after an install) beside the read floor: a minimal Node
 *   program that opens every database read-only with better-sqlite3 and
 *   reads the rows a listing needs (the SQL txcript's listing runs), with
 *   no decoding;
 * - and beside a native baseline, where rustc is installed: the Rust peer's
 *   `discover` (skillsynchq/txcript) is the yardstick but cannot be
 *   built here (its crates cannot be fetched offline), so
 *   bench/native/agy-discover.rs, a Rust program with no crates (SQLite
 *   through its C API, `rustc -O -lsqlite3`), is built into a temporary
 *   folder and does what the peer's discover does per conversation: every
 *   row of every table copied out, both display logs read, the listing's
 *   few protobuf fields decoded. It is not the peer itself: the peer adds
 *   its own JSON output and serde on top, so it stands for "a native
 *   program reading every database whole";
 * - cold `--no-cache list --json` beside the same floor;
 * - warm `list --json` (index and code cache made by one run before)
 *   beside the warm floor: start Node, load SQLite, stat every file a
 *   fingerprint covers, read every entry row from the index and print them.
 *
 *   npx tsx bench/list.bench.ts [conversations] [steps] [runs] [--callgrind]
 */

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { beside, GOALS } from "./goals.js";
import {
  callgrindInstructions,
  canTimeRounds,
  interleavedTimes,
  type RoundCommand,
  showSpread,
} from "./rounds.js";
import { hyperfineTimes, mb, report } from "./util.js";

/** Milliseconds, whole. */
const ms = (v: number) => `${v.toFixed(0)} ms`;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "list");
const SQLITE = pathToFileURL(require.resolve("better-sqlite3")).href;

/** The agy store, generated once into .bench-data/. */
export function agyStore(count: number, steps: number): string {
  const root = join(DATA, `agy-v1-${count}x${steps}`);
  if (existsSync(join(root, "complete"))) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, "conversations"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec: ConversationSpec = {
      steps,
      seed: i + 1,
      layout: i % 4 === 0 ? "typed" : "generic",
    };
    if (i % 2) spec.modelName = "gemini-3.8-flash";
    if (i % 3 === 0) spec.checkpointTitle = `Task ${i}`;
    writeAgyDatabase(root, buildConversation(spec), { walShare: 0.2 });
  }
  writeFileSync(join(root, "complete"), "");
  return root;
}

/**
 * bench/native/agy-discover.rs built with `rustc -O` into `dir`; undefined
 * when rustc or SQLite's library is missing (the figure is then left out).
 */
export function nativeDiscover(dir: string): string | undefined {
  const out = join(dir, "agy-discover");
  const source = join(ROOT, "bench", "native", "agy-discover.rs");
  const r = spawnSync("rustc", ["-O", "--edition", "2021", "-o", out, source], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (r.status !== 0 || !existsSync(out)) return undefined;
  return out;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

/**
 * The read floor: every database opened read-only (the same read-only,
 * create-nothing URI txcript uses) and the rows a listing reads fetched
 * raw: the version, the three small tables, the latest gen_metadata, the
 * first user input, latest checkpoint and planner steps, the first and
 * last steps without their payloads, and the step indexes grouped by type
 * and status. One line of JSON per database is printed.
 */
export function readFloorCode(conversations: string): string {
  return `process.env.SQLITE_USE_URI = "1";
    const { default: Database } = await import(${JSON.stringify(SQLITE)});
    const { readdirSync } = await import("node:fs");
    const { pathToFileURL } = await import("node:url");
    const dir = ${JSON.stringify(conversations)};
    const out = [];
    for (const n of readdirSync(dir)) {
      if (!n.endsWith(".db")) continue;
      const db = new Database(pathToFileURL(dir + "/" + n).href + "?mode=ro&readonly_shm=1", { readonly: true, fileMustExist: true });
      db.exec("BEGIN");
      const row = {
        v: db.pragma("user_version", { simple: true }),
        meta: db.prepare("SELECT * FROM trajectory_meta").raw().all(),
        blob: db.prepare("SELECT * FROM trajectory_metadata_blob").raw().all(),
        parents: db.prepare("SELECT * FROM parent_references").raw().all(),
        gen: db.prepare("SELECT * FROM gen_metadata ORDER BY idx DESC LIMIT 8").raw().all(),
        picks: db.prepare("SELECT * FROM steps WHERE idx IN ((SELECT min(idx) FROM steps WHERE step_type = 14), (SELECT max(idx) FROM steps WHERE step_type = 23), (SELECT max(idx) FROM steps WHERE step_type = 15))").raw().all(),
        ends: db.prepare("SELECT idx, step_type, status, metadata FROM steps WHERE idx IN ((SELECT min(idx) FROM steps), (SELECT max(idx) FROM steps))").raw().all(),
        groups: db.prepare("SELECT step_type, group_concat(idx) FROM steps INDEXED BY idx_steps_step_type GROUP BY step_type UNION ALL SELECT NULL, group_concat(idx) FROM steps INDEXED BY idx_steps_status WHERE status IN (1, 2, 8, 9, 11)").raw().all(),
      };
      db.exec("COMMIT");
      db.close();
      out.push(JSON.stringify({ id: n, steps: row.groups.length, picks: row.picks.length }));
    }
    process.stdout.write(out.join("\\n") + "\\n");`;
}

/**
 * The warm floor: what a warm list that is never stale must do at least:
 * load SQLite, stat every file a fingerprint covers (each database and its
 * -wal), read every entry row of the index and print them.
 */
export function warmFloorCode(conversations: string[], index: string): string {
  return `const { default: Database } = await import(${JSON.stringify(SQLITE)});
    const { readdirSync, statSync } = await import("node:fs");
    const { join } = await import("node:path");
    for (const dir of ${JSON.stringify(conversations)})
      for (const n of readdirSync(dir)) if (n.endsWith(".db")) {
        statSync(join(dir, n)); statSync(join(dir, n + "-wal"), { throwIfNoEntry: false });
      }
    const db = new Database(${JSON.stringify(index)}, { readonly: true });
    const rows = db.prepare("SELECT discovered FROM entries WHERE state = 'session' ORDER BY updated_ms DESC").pluck().all();
    process.stdout.write(JSON.stringify(rows.map((r) => JSON.parse(r))));`;
}

/** The wall times (ms) of `hyperfineTimes`' answer. */
function wallOf(times: Record<string, { wall: number }>): Record<string, number> {
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, t.wall]));
}

/** A shell word. */
export function sh(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function main(): void {
  const [count = 1000, steps = 200, runs = 7] = process.argv
    .slice(2)
    .filter((a) => !a.startsWith("--"))
    .map(Number);
  const t0 = performance.now();
  const root = agyStore(count, steps);
  const gen = performance.now() - t0;
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  const conversations = join(root, "conversations");
  const cache = join(DATA, `cache-${count}x${steps}`);
  const cold = join(DATA, `cache-cold-${count}x${steps}`);
  const env = {
    HOME: join(DATA, "home"),
    TXCRIPT_ANTIGRAVITY_ROOT: root,
    // The other harnesses' default roots, made empty: only agy is measured.
    TXCRIPT_CLAUDE_CODE_ROOT: join(DATA, "none"),
    TXCRIPT_CODEX_ROOT: join(DATA, "none"),
  };
  report([
    {
      store: `${count} agy conversations of ~${steps} steps, the latest fifth of each in its -wal`,
      size: mb(bytesUnder(root)),
      generated: gen > 1000 ? `${(gen / 1000).toFixed(1)} s` : "cached in .bench-data/",
      "load average": loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    },
  ]);
  const node = sh(process.execPath);
  const floorFile = join(DATA, "read-floor.mjs");
  writeFileSync(floorFile, readFloorCode(conversations));
  const nativeDir = mkdtempSync(join(tmpdir(), "txcript-native-"));
  const native = nativeDiscover(nativeDir);
  const coldList: RoundCommand = {
    command: `${node} ${sh(BIN)} list --json`,
    env: { ...env, TXCRIPT_CACHE: cold },
    prepare: `rm -rf ${sh(cold)}`,
  };
  if (!canTimeRounds()) throw new Error("the cold figures need GNU time (/usr/bin/time)");
  // Interleaved rounds, CPU beside wall: the machine is shared and loaded.
  const { times: coldTimes, load } = interleavedTimes(
    {
      ...(native ? { "native discover": { command: `${sh(native)} ${sh(root)}`, env } } : {}),
      "cold list --json": coldList,
      "--no-cache list --json": { command: `${node} ${sh(BIN)} --no-cache list --json`, env },
      floor: { command: `${node} ${sh(floorFile)}`, env },
      "node -e 0": { command: `${node} -e 0`, env },
    },
    Math.max(runs, 9),
  );
  const wall = (name: string) => coldTimes[name]?.wall.median ?? Number.NaN;
  const cpu = (name: string) => coldTimes[name]?.cpu.median ?? Number.NaN;
  const both = (name: string) => {
    const t = coldTimes[name];
    return t ? `CPU ${showSpread(t.cpu)}, wall ${showSpread(t.wall)}` : "not measured";
  };
  report([
    {
      rounds: `${Math.max(runs, 9)} interleaved, medians [quartiles]`,
      "load average during the rounds": `${load[0].toFixed(1)} to ${load[1].toFixed(1)} on ${availableParallelism()} cores`,
    },
    { "read floor (open every database read-only, read the listing's rows)": both("floor") },
    { "cold list --json (empty cache)": both("cold list --json") },
    { "--no-cache list --json": both("--no-cache list --json") },
    { "node -e 0": both("node -e 0") },
    native
      ? {
          "native discover (Rust, no crates: every row of every table, both logs)":
            both("native discover"),
        }
      : { "native discover": "not measured: rustc or libsqlite3 missing" },
    {
      "cold list --json beside the floor": `${(cpu("cold list --json") / cpu("floor")).toFixed(2)}x CPU, ${(wall("cold list --json") / wall("floor")).toFixed(2)}x wall`,
    },
    // Issue 33 goal 1 (the peer's discover; its stand-in here).
    native
      ? {
          "goal 1, cold list --json beside native discover": `CPU ${ms(cpu("cold list --json"))} beside ${ms(cpu("native discover"))}: ${beside(GOALS.listColdCpu, cpu("cold list --json") / cpu("native discover"))}`,
          wall: `${ms(wall("cold list --json"))} beside ${ms(wall("native discover"))}: ${beside(GOALS.listColdWall, wall("cold list --json") / wall("native discover"))}`,
        }
      : { "goal 1": "not measured: rustc or libsqlite3 missing" },
  ]);
  // Instructions, which no load moves: slow (minutes), so asked for.
  if (
    native &&
    (process.argv.includes("--callgrind") || process.env.TXCRIPT_BENCH_CALLGRIND === "1")
  ) {
    const nativeI = callgrindInstructions([native, root], env);
    const listI = callgrindInstructions(
      [process.execPath, BIN, "list", "--json"],
      { ...env, TXCRIPT_CACHE: cold },
      `rm -rf ${sh(cold)}`,
    );
    const g = (n: number | undefined) => (n === undefined ? "failed" : `${(n / 1e9).toFixed(2)} G`);
    report([
      {
        "callgrind instructions (user space, every thread)": `native discover ${g(nativeI)}, cold list --json ${g(listI)}`,
        ratio: `${((listI ?? Number.NaN) / (nativeI ?? Number.NaN)).toFixed(2)}x (the kernel's share, large for native's reads, is not counted)`,
      },
    ]);
  }
  rmSync(nativeDir, { recursive: true, force: true });

  rmSync(cache, { recursive: true, force: true });
  spawnSync(process.execPath, [BIN, "list", "--json"], {
    env: { PATH: process.env.PATH ?? "", ...env, TXCRIPT_CACHE: cache },
    stdio: "ignore",
  });
  const warmFile = join(DATA, "warm-floor.mjs");
  writeFileSync(warmFile, warmFloorCode([conversations], join(cache, "index.db")));
  const warmTimes = hyperfineTimes(
    {
      "warm list --json": {
        command: `${node} ${sh(BIN)} list --json`,
        env: { ...env, TXCRIPT_CACHE: cache },
      },
      "warm floor": { command: `${node} ${sh(warmFile)}`, env },
      floor: { command: `${node} ${sh(floorFile)}`, env },
    },
    runs * 2,
  );
  const warm = wallOf(warmTimes);
  const wf = warm["warm floor"] ?? Number.NaN;
  const wfCpu = warmTimes["warm floor"]?.cpu ?? Number.NaN;
  const wCpu = warmTimes["warm list --json"]?.cpu ?? Number.NaN;
  const w = warm["warm list --json"] ?? Number.NaN;
  report([
    {
      "warm list --json": `${w.toFixed(0)} ms`,
      "warm floor (start, stat every fingerprinted file, print every row)": `${wf.toFixed(0)} ms`,
      "beside the read floor": `${(w / (warm.floor ?? Number.NaN)).toFixed(2)}x`,
    },
    // Issue 33 goal 2.
    {
      "goal 2, warm list --json beside the warm floor": `wall ${ms(w)} beside ${ms(wf)}: ${beside(GOALS.listWarmWall, w / wf)}`,
      "CPU (user + system)": `${ms(wCpu)} beside ${ms(wfCpu)}: ${beside(GOALS.listWarmCpu, wCpu / wfCpu)}`,
    },
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
