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
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { antigravityCodec } from "../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../src/harness/antigravity/store.js";
import { readSnapshot } from "../src/sqlite.js";
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

function interleaved(variants: Record<string, () => void>, runs: number): Record<string, Timing> {
  const samples = Object.fromEntries(
    Object.keys(variants).map((k) => [k, { wall: [] as number[], cpu: [] as number[] }]),
  );
  for (const fn of Object.values(variants)) fn(); // warm-up
  for (let r = 0; r < runs; r++) {
    for (const [name, fn] of Object.entries(variants)) {
      globalThis.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      fn();
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

/** Discovery, beside opening each database the same way and reading one row. */
function benchDiscovery(label: string, root: string): void {
  const { dir, names, bytes } = storeFiles(root);
  const store = new AntigravityStore({ root });
  let found = 0;
  const t = interleaved(
    {
      discover: () => {
        const d = store.discover();
        found = d.sessions.length;
        if (d.skipped.length > 0) throw new Error(JSON.stringify(d.skipped[0]));
      },
      baseline: () => {
        for (const n of names) {
          readSnapshot(join(dir, n), (db) => db.prepare("SELECT idx FROM steps LIMIT 1").get(), {
            harness: "antigravity",
          });
        }
      },
    },
    7,
  );
  const rate = (ms: number) => (found / (ms / 1000)).toFixed(0);
  const d = t.discover!;
  const b = t.baseline!;
  report([
    {
      [`discover (${label}, ${mb(bytes)})`]: `${rate(d.wall)} conversations/s (median ${d.wall.toFixed(0)} ms wall; ${rate(d.cpu)}/s of CPU time)`,
      "baseline open + one row": `${rate(b.wall)}/s (median ${b.wall.toFixed(0)} ms; ${rate(b.cpu)}/s of CPU time)`,
      ratio: `${(d.wall / b.wall).toFixed(2)}x the baseline's wall time, ${(d.cpu / b.cpu).toFixed(2)}x its CPU time`,
    },
  ]);
}

/**
 * Load + toCommon of every conversation, beside a raw SELECT * of every
 * table. Rates are MB of database at rest per second (the same
 * conversations whichever store is read).
 */
function benchLoad(label: string, root: string, bytes: number): void {
  const { dir, names } = storeFiles(root);
  const store = new AntigravityStore({ root });
  const ids = names.map((n) => n.slice(0, -3));
  let messages = 0;
  const t = interleaved(
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

function main(): void {
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
  benchDiscovery("at rest", stores.rest);
  benchDiscovery("latest fifth of each in -wal", stores.wal);
  benchLoad("at rest", stores.rest, bytes);
  benchLoad("latest fifth in -wal", stores.wal, bytes);

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
  main();
}
