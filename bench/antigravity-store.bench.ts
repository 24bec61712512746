/**
 * Antigravity store benchmark over a generated store of agy-like databases
 * (WAL mode, the latest steps still in an uncheckpointed -wal beside its
 * -shm, as agy leaves them): discovery in conversations per second beside a
 * baseline that only opens each database and reads one row; load + toCommon
 * of every conversation in MB/s of database beside a raw `SELECT *` of the
 * same rows; peak RSS loading one ~200 MB conversation, each in its own
 * process. The store is cached in .bench-data/ between runs.
 *
 *   npx tsx bench/antigravity-store.bench.ts [conversations] [steps]
 *   npx tsx bench/antigravity-store.bench.ts --rss <db-root> <id> [load|convert]
 */

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { antigravityCodec } from "../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../src/harness/antigravity/store.js";
import { readSnapshot } from "../src/sqlite.js";
import type { Discovery } from "../src/transcript.js";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { mb, median, report } from "./util.js";

const HERE = fileURLToPath(import.meta.url);
const DATA = join(
  fileURLToPath(new URL("..", import.meta.url)),
  ".bench-data",
  "antigravity-store",
);

// ---------------------------------------------------------------------------
// Generation: written the way agy writes (test/antigravity-store/support.ts),
// not through the store's save

/** Two copies of one generated store: at rest, and with the latest fifth of each conversation in its -wal. */
function generateStores(count: number, steps: number): { rest: string; wal: string } {
  const base = join(DATA, `stores-v2-${count}x${steps}`);
  const rest = join(base, "rest");
  const wal = join(base, "wal");
  if (existsSync(join(base, "complete"))) return { rest, wal };
  rmSync(base, { recursive: true, force: true });
  mkdirSync(join(rest, "conversations"), { recursive: true });
  mkdirSync(join(wal, "conversations"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec: ConversationSpec = {
      steps,
      seed: i + 1,
      layout: i % 4 === 0 ? "typed" : "generic",
    };
    if (i % 2) spec.modelName = "gemini-3.8-flash";
    if (i % 3 === 0) spec.checkpointTitle = `Task ${i}`;
    const body = buildConversation(spec);
    writeAgyDatabase(rest, body);
    writeAgyDatabase(wal, body, { walShare: 0.2 });
  }
  writeFileSync(join(base, "complete"), "");
  return { rest, wal };
}

function generateLarge(targetBytes: number): { root: string; id: string } {
  const root = join(DATA, `large-v2-${targetBytes >> 20}MB`);
  const id = "b16b16b1-0000-4000-8000-000000000200";
  const dir = join(root, "conversations");
  if (!existsSync(join(root, "complete"))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // ~100 KB tool outputs: about 2,400 steps make 200 MB.
    const steps = Math.ceil(targetBytes / 85_000);
    writeAgyDatabase(root, buildConversation({ id, steps, payloadBytes: 100_000, seed: 99 }), {
      walShare: 0.2,
    });
    writeFileSync(join(root, "complete"), "");
  }
  return { root, id };
}

function bytesOf(dir: string, name: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    const p = join(dir, name + suffix);
    if (existsSync(p)) total += statSync(p).size;
  }
  return total;
}

// ---------------------------------------------------------------------------
// Timing: the machine may be shared, so variants run interleaved (each sees
// the same conditions) and CPU time is reported beside wall time.

interface Timing {
  /** Median wall time, ms. */
  wall: number;
  /** Median CPU time (user + system) of this process, ms. */
  cpu: number;
}

async function interleaved(
  variants: Record<string, () => unknown | Promise<unknown>>,
  runs: number,
): Promise<Record<string, Timing>> {
  const samples = Object.fromEntries(
    Object.keys(variants).map((k) => [k, { wall: [] as number[], cpu: [] as number[] }]),
  );
  for (const fn of Object.values(variants)) await fn(); // warm-up
  for (let r = 0; r < runs; r++) {
    for (const [name, fn] of Object.entries(variants)) {
      globalThis.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await fn();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      samples[name]!.wall.push(wall);
      samples[name]!.cpu.push((cpu.user + cpu.system) / 1000);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, { wall: median(v.wall), cpu: median(v.cpu) }]),
  );
}

// ---------------------------------------------------------------------------
// Peak RSS, in a process of its own

/**
 * This process's peak RSS. On Linux getrusage's maxrss keeps the parent's
 * high-water mark across fork and exec, so the kernel's per-image VmHWM is
 * read instead where it exists.
 */
function peakRss(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

function rssChild(root: string, id: string, what: "load" | "convert" | "idle"): void {
  if (what === "idle") {
    process.stdout.write(JSON.stringify({ maxRss: peakRss() }));
    return;
  }
  const store = new AntigravityStore({ root });
  const loaded = store.load(id);
  const common = what === "convert" ? antigravityCodec.toCommon(loaded) : undefined;
  const maxRss = peakRss();
  process.stdout.write(
    JSON.stringify({ maxRss, steps: loaded.body.steps.length, messages: common?.body.length }),
  );
}

/** This file bundled to plain JavaScript, so the RSS children carry no TypeScript loader. */
function rssEntry(): string {
  const out = join(DATA, "rss-child.mjs");
  buildSync({
    entryPoints: [HERE],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "silent",
  });
  return out;
}

function measureRss(entry: string, root: string, id: string, what: "load" | "convert" | "idle") {
  const r = spawnSync(process.execPath, [entry, "--rss", root, id, what], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { maxRss: number };
}

// ---------------------------------------------------------------------------

function storeFiles(root: string) {
  const dir = join(root, "conversations");
  const names = readdirSync(dir).filter((n) => n.endsWith(".db"));
  return { dir, names, bytes: names.reduce((sum, n) => sum + bytesOf(dir, n), 0) };
}

// ---------------------------------------------------------------------------
// Discovery runs the store as the built CLI does, from plain JavaScript, so
// that its worker threads start as they do for users (from TypeScript source
// every worker would first start tsx's loader).

interface Built {
  store: typeof import("../src/harness/antigravity/store.js");
  sqlite: typeof import("../src/sqlite.js");
}

/** src/ transpiled file by file to plain JavaScript (the layout of dist/). */
function builtSource(): string {
  const out = join(DATA, "build");
  const src = fileURLToPath(new URL("../src", import.meta.url));
  const entryPoints = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(src, f));
  rmSync(out, { recursive: true, force: true });
  buildSync({
    entryPoints,
    outdir: out,
    outbase: src,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  return out;
}

async function builtModules(build: string): Promise<Built> {
  const load = (path: string) => import(pathToFileURL(join(build, path)).href);
  return {
    store: (await load("harness/antigravity/store.js")) as Built["store"],
    sqlite: (await load("sqlite.js")) as Built["sqlite"],
  };
}

/** One discovery in a fresh process: what `txcript list` pays (module loading excluded). */
function coldDiscovery(build: string, root: string, workers: number): number {
  const code = `
    const { AntigravityStore } = await import(${JSON.stringify(pathToFileURL(join(build, "harness/antigravity/store.js")).href)});
    const store = new AntigravityStore({ root: ${JSON.stringify(root)}, discoveryWorkers: ${workers} });
    const t0 = performance.now();
    const found = await store.discover();
    process.stdout.write(JSON.stringify({ ms: performance.now() - t0, n: found.sessions.length }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { ms: number }).ms;
}

/**
 * Discovery on the calling thread alone and with worker threads (the
 * default), beside opening each database the same way and reading one row;
 * then the first discovery of a fresh process, serial and parallel.
 */
async function benchDiscovery(
  label: string,
  root: string,
  built: Built,
  build: string,
): Promise<void> {
  const { dir, names, bytes } = storeFiles(root);
  const serialStore = new built.store.AntigravityStore({ root, discoveryWorkers: 0 });
  const parallelStore = new built.store.AntigravityStore({ root });
  const workers = Math.min(built.store.MAX_DISCOVERY_WORKERS, availableParallelism() - 1);
  let found = 0;
  const check = (d: Discovery) => {
    found = d.sessions.length;
    if (d.skipped.length > 0) throw new Error(JSON.stringify(d.skipped[0]));
  };
  const t = await interleaved(
    {
      serial: async () => check(await serialStore.discover()),
      parallel: async () => check(await parallelStore.discover()),
      baseline: () => {
        for (const n of names) {
          built.sqlite.readSnapshot(
            join(dir, n),
            (db) => db.prepare("SELECT idx FROM steps LIMIT 1").get(),
            { harness: "antigravity" },
          );
        }
      },
    },
    7,
  );
  const cold = { serial: [] as number[], parallel: [] as number[] };
  for (let r = 0; r < 5; r++) {
    cold.serial.push(coldDiscovery(build, root, 0));
    cold.parallel.push(coldDiscovery(build, root, workers));
  }
  const rate = (ms: number) => (found / (ms / 1000)).toFixed(0);
  const [s, p, b] = [t.serial!, t.parallel!, t.baseline!];
  const [cs, cp] = [median(cold.serial), median(cold.parallel)];
  report([
    {
      [`discover (${label}, ${mb(bytes)}), ${workers} worker thread(s) + the caller`]: `${rate(p.wall)} conversations/s (median ${p.wall.toFixed(0)} ms wall)`,
      "serial (calling thread alone)": `${rate(s.wall)}/s (median ${s.wall.toFixed(0)} ms; ${rate(s.cpu)}/s of CPU time)`,
      "baseline open + one row": `${rate(b.wall)}/s (median ${b.wall.toFixed(0)} ms; ${rate(b.cpu)}/s of CPU time)`,
      ratios: `parallel ${(s.wall / p.wall).toFixed(2)}x the serial rate; serial ${(s.wall / b.wall).toFixed(2)}x the baseline's wall time (${(s.cpu / b.cpu).toFixed(2)}x its CPU time)`,
    },
    {
      "  first discovery in a fresh process (workers started then)": `${rate(cp)}/s parallel (median ${cp.toFixed(0)} ms), ${rate(cs)}/s serial (median ${cs.toFixed(0)} ms), ${(cs / cp).toFixed(2)}x`,
    },
  ]);
}

/**
 * Load + toCommon of every conversation, beside a raw SELECT * of every
 * table. Rates are MB of database at rest per second (the same
 * conversations whichever store is read).
 */
async function benchLoad(label: string, root: string, bytes: number): Promise<void> {
  const { dir, names } = storeFiles(root);
  const store = new AntigravityStore({ root });
  const ids = names.map((n) => n.slice(0, -3));
  let messages = 0;
  const t = await interleaved(
    {
      loadConvert: () => {
        messages = 0;
        for (const id of ids) messages += antigravityCodec.toCommon(store.load(id)).body.length;
      },
      load: () => {
        for (const id of ids) store.load(id);
      },
      raw: () => {
        for (const n of names) {
          readSnapshot(
            join(dir, n),
            (db) => {
              const tables = db
                .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
                .pluck()
                .all() as string[];
              for (const table of tables) db.prepare(`SELECT * FROM "${table}"`).raw().all();
            },
            { harness: "antigravity" },
          );
        }
      },
    },
    3,
  );
  const rate = (ms: number) => `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
  const [lc, l, r] = [t.loadConvert!, t.load!, t.raw!];
  report([
    {
      [`load + toCommon (${label})`]: `${rate(lc.wall)} (median ${lc.wall.toFixed(0)} ms, ${messages} messages)`,
      load: `${rate(l.wall)} (median ${l.wall.toFixed(0)} ms)`,
      "raw SELECT *": `${rate(r.wall)} (median ${r.wall.toFixed(0)} ms)`,
      ratio: `load + toCommon ${(lc.wall / r.wall).toFixed(2)}x the raw read's wall time (${(lc.cpu / r.cpu).toFixed(2)}x its CPU time), load alone ${(l.wall / r.wall).toFixed(2)}x (${(l.cpu / r.cpu).toFixed(2)}x)`,
    },
  ]);
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1000);
  const steps = Number(process.argv[3] ?? 200);
  const t0 = performance.now();
  const stores = generateStores(count, steps);
  const large = generateLarge(200 * 1024 * 1024);
  const gen = performance.now() - t0;
  const { names, bytes } = storeFiles(stores.rest);
  report([
    {
      store: `${names.length} conversations of ~${steps} steps`,
      size: mb(bytes),
      generated: gen > 1000 ? `${(gen / 1000).toFixed(1)} s` : "cached in .bench-data/",
      "load average": loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    },
  ]);
  const build = builtSource();
  const built = await builtModules(build);
  await benchDiscovery("at rest", stores.rest, built, build);
  await benchDiscovery("latest fifth of each in -wal", stores.wal, built, build);
  await benchLoad("at rest", stores.rest, bytes);
  await benchLoad("latest fifth in -wal", stores.wal, bytes);

  // Peak RSS loading one large conversation, each in a process of its own.
  const largeBytes = bytesOf(join(large.root, "conversations"), `${large.id}.db`);
  const entry = rssEntry();
  const base = measureRss(entry, large.root, large.id, "idle").maxRss;
  const loaded = measureRss(entry, large.root, large.id, "load");
  const converted = measureRss(entry, large.root, large.id, "convert");
  report([
    {
      "large conversation": mb(largeBytes),
      "peak RSS, load": `${mb(loaded.maxRss)} (${(loaded.maxRss / largeBytes).toFixed(2)}x the database)`,
      "peak RSS, load + toCommon": `${mb(converted.maxRss)} (${(converted.maxRss / largeBytes).toFixed(2)}x)`,
      "the same process idle": mb(base),
    },
  ]);
}

if (process.argv[2] === "--rss") {
  rssChild(process.argv[3]!, process.argv[4]!, process.argv[5] as "load" | "convert" | "idle");
} else {
  await main();
}
