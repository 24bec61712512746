/**
 * How the warm commands grow with the store: the same mixed-harness store
 * shape (a fifth agy conversations of 20 steps, two fifths each Claude Code
 * and Codex sessions of 20 messages, one of them holding a rare word) at
 * 1,000 and 20,000 sessions, whole processes of the built CLI (interleaved
 * medians), index warm (rows and text built once beforehand). Past the
 * first 100 per harness, Claude Code and Codex sessions are copies of
 * those under new ids:
 * - `list --json` and `list --json --limit 20`;
 * - `query <rare word> --json`, and the query's own work inside one process
 *   (SessionIndex.query after open and refresh);
 * - `list --json` after one session changed (its file touched before each
 *   run): the incremental refresh;
 * - `usage --by day --json`;
 * - beside `node -e 0`, and beside the warm floors: a Node program that
 *   loads SQLite, lists every folder of the three stores and stats every
 *   file in them (what a list that is never stale cannot skip while Claude
 *   Code and Codex append to their files and agy rewrites its databases),
 *   then reads and prints the index's rows (every row, or the newest 20);
 * - each 20,000 figure beside its 1,000 one, wall and CPU (user + system,
 *   by /usr/bin/time) medians of interleaved runs;
 * - with BENCH_BEFORE_DIST=<a dist/ folder> (an earlier build, beside a
 *   package.json one folder up), the warm commands of that build as well,
 *   in the same runs, over its own index (`<cache>-before`), so a change
 *   is measured against what it changes; BENCH_WARM_ONLY=1 keeps the
 *   indexes there and skips the first build.
 * The first build (a cold `list`, then a first `query`: whole processes,
 * peak RSS by /usr/bin/time) is timed once per store, in MB/s of source
 * beside discover + load + toCommon of every session in one process (the
 * floor any text build pays), measured in the same run.
 *
 *   npx tsx bench/scale.bench.ts [small] [large] [runs]
 */

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Message } from "../src/common.js";
import { harness, openStore } from "../src/harness/index.js";
import { formatTimestamp } from "../src/time.js";
import type { Common, Transcript } from "../src/transcript.js";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation } from "../test/support/agy-fixtures.js";
import { beside, GOALS } from "./goals.js";
import { mb, median, report } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "scale");
const RARE = "zanzibarquux";
/** Sessions per harness saved through its store; the rest are copies of these. */
const TEMPLATES = 100;
const WORDS = "refactor checkout module rerun tests parser cache retry flaky build deploy".split(
  " ",
);

function session(id: string, i: number, rare: boolean): Transcript<Common> {
  const start = Date.UTC(2026, 0, 1) / 1000 + i * 1800;
  const body: Message[] = [];
  for (let n = 0; n < 20; n++) {
    const words = Array.from({ length: 40 }, (_, k) => WORDS[(i * 7 + n * 3 + k) % WORDS.length]);
    const text = `message ${n} of session ${i}: ${words.join(" ")} item${i}x${n}`;
    const m: Message = {
      role: n % 2 ? "assistant" : "user",
      content: [{ type: "text", text: rare && n === 7 ? `${text} ${RARE}` : text }],
      timestamp: formatTimestamp({ seconds: start + n * 5, nanos: 0 }),
    };
    if (n % 2) {
      m.model = i % 3 ? "bench-model" : "bench-model-large";
      m.usage = { input_tokens: 1000 + n, output_tokens: 200, cache_read_input_tokens: 5000 };
    }
    body.push(m);
  }
  return { meta: { id, timestamp: body[0]?.timestamp ?? "", cwd: `/home/dev/p${i % 9}` }, body };
}

interface Store {
  env: Record<string, string>;
  /** A file whose change makes one session stale. */
  touch: string;
  bytes: number;
}

export function generate(count: number): Store {
  const dir = join(DATA, `mixed-v1-${count}`);
  const roots = {
    antigravity: join(dir, "antigravity"),
    claude_code: join(dir, "claude_code"),
    codex: join(dir, "codex"),
  };
  const env = {
    HOME: join(dir, "home"),
    TXCRIPT_ANTIGRAVITY_ROOT: roots.antigravity,
    TXCRIPT_CLAUDE_CODE_ROOT: roots.claude_code,
    TXCRIPT_CODEX_ROOT: roots.codex,
    TXCRIPT_CACHE: join(dir, "cache"),
  };
  if (!existsSync(join(dir, "complete"))) {
    // An unfinished store is finished, not started again: what is there is kept.
    mkdirSync(join(roots.antigravity, "conversations"), { recursive: true });
    const agy = Math.floor(count / 5);
    for (let i = 0; i < agy; i++) {
      const body = buildConversation({ steps: 20, seed: i + 1 });
      if (!existsSync(join(roots.antigravity, "conversations", `${body.id}.db`)))
        writeAgyDatabase(roots.antigravity, body);
    }
    const per = Math.floor((count - agy) / 2);
    for (const h of ["claude_code", "codex"] as const) {
      const store = openStore(harness(h), { root: roots[h], env: {} });
      if (!store) throw new Error(`no ${h} store`);
      // The first TEMPLATES through the store's save, the rest copies of
      // them under their own ids (a save per session took hours at 20,000).
      const templates: { path: string; id: string }[] = [];
      for (let i = 0; i < per; i++) {
        const id = `${h === "codex" ? "c0de" : "c1a0"}0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
        const rare = h === "claude_code" && i === Math.floor(per / 2);
        const template = templates[i % TEMPLATES];
        if (template === undefined || rare) {
          const saved = store.save(session(id, i, rare), { overwrite: true });
          if (!rare) templates.push({ path: saved.path, id });
          continue;
        }
        const path = template.path.replaceAll(template.id, id);
        if (existsSync(path)) continue;
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, readFileSync(template.path, "utf8").replaceAll(template.id, id));
      }
    }
    writeFileSync(join(dir, "complete"), "");
  }
  const cc = readdirSync(roots.claude_code, { recursive: true, encoding: "utf8" })
    .filter((n) => n.endsWith(".jsonl"))
    .sort();
  let bytes = 0;
  for (const root of Object.values(roots))
    for (const n of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      const st = statSync(join(root, n));
      if (st.isFile()) bytes += st.size;
    }
  return { env, touch: join(roots.claude_code, cc[0] ?? ""), bytes };
}

/**
 * One whole process: its time (ms), peak RSS (bytes) and CPU time (user +
 * system, ms), the last two by /usr/bin/time (NaN without it).
 */
export function runOnce(
  argv: string[],
  env: Record<string, string>,
): { ms: number; rss: number; cpu: number } {
  const timed = existsSync("/usr/bin/time");
  const t0 = performance.now();
  const r = spawnSync(
    timed ? "/usr/bin/time" : process.execPath,
    timed ? ["-f", "cpu %U %S rss %M", process.execPath, ...argv] : argv,
    {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    },
  );
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+) rss (\d+)\s*$/.exec(r.stderr);
  if (!m) return { ms, rss: Number.NaN, cpu: Number.NaN };
  return { ms, rss: Number(m[3]) * 1024, cpu: (Number(m[1]) + Number(m[2])) * 1000 };
}

/**
 * Discover, load and toCommon every session of the store `env` names, in
 * one process: wall and CPU time (ms) of that work alone, and the messages
 * read. The floor any text build pays.
 */
export function loadAll(env: Record<string, string>): {
  ms: number;
  cpu: number;
  messages: number;
} {
  const url = JSON.stringify(pathToFileURL(join(ROOT, "dist", "local.js")).href);
  const code = `const { Local } = await import(${url});
    const local = new Local({ env: process.env });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let messages = 0;
    for (const s of (await local.list()).sessions) messages += local.load(s).transcript.body.length;
    const c = process.cpuUsage(c0);
    process.stdout.write(JSON.stringify({ ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, messages }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`load + toCommon: ${r.stderr}`);
  return JSON.parse(r.stdout) as { ms: number; cpu: number; messages: number };
}

/** Open + refresh, then the query alone, in one process: medians in ms. */
function queryWork(env: Record<string, string>): { query: number; hits: number } {
  const url = JSON.stringify(pathToFileURL(join(ROOT, "dist", "index", "index.js")).href);
  const code = `const { SessionIndex } = await import(${url});
    const index = SessionIndex.open({ env: process.env });
    await index.refresh({ text: true });
    const times = []; let hits = 0;
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      hits = index.query(${JSON.stringify(RARE)}).length;
      times.push(performance.now() - t0);
    }
    index.close();
    times.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ query: times[4], hits }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
  });
  return JSON.parse(r.stdout) as { query: number; hits: number };
}

/**
 * The warm floor at this scale: load SQLite, list every folder of the
 * stores and stat every file (no -shm), then read the index's rows (the
 * newest `limit`, or every one) and print them.
 */
function statFloorCode(roots: string[], index: string, limit?: number): string {
  const sqlite = JSON.stringify(
    pathToFileURL(join(ROOT, "node_modules", "better-sqlite3", "lib", "index.js")).href,
  );
  return `const { default: Database } = await import(${sqlite});
    const { readdirSync, statSync } = await import("node:fs");
    const walk = (dir) => {
      let entries; try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
      for (const e of entries) {
        const path = dir + "/" + e.name;
        if (e.isDirectory()) walk(path);
        else if (!e.name.endsWith("-shm")) statSync(path);
      }
    };
    for (const root of ${JSON.stringify(roots)}) walk(root);
    const db = new Database(${JSON.stringify(index)}, { readonly: true });
    const rows = db.prepare("SELECT discovered FROM entries WHERE state = 'session' ORDER BY updated_ms DESC${limit === undefined ? "" : ` LIMIT ${limit}`}").pluck().all();
    process.stdout.write(JSON.stringify(rows.map((r) => JSON.parse(r))));`;
}

/** Wall and CPU medians (ms) of whole processes run in turn, `runs` rounds after one to warm the page cache. */
function interleavedCpu(
  variants: Record<string, { argv: string[]; env: Record<string, string>; before?: () => void }>,
  runs: number,
): { wall: Record<string, number>; cpu: Record<string, number> } {
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let r = 0; r <= runs; r++)
    for (const [name, v] of Object.entries(variants)) {
      v.before?.();
      const once = runOnce(v.argv.slice(1), v.env);
      if (r === 0) continue;
      wall.set(name, [...(wall.get(name) ?? []), once.ms]);
      cpu.set(name, [...(cpu.get(name) ?? []), once.cpu]);
    }
  const medians = (m: Map<string, number[]>) =>
    Object.fromEntries([...m].map(([k, v]) => [k, median(v)]));
  return { wall: medians(wall), cpu: medians(cpu) };
}

interface Measured {
  ms: Record<string, number>;
  cpu: Record<string, number>;
  /** The first build: list + query whole processes, their peak RSS, and the load floor. */
  build: { ms: number; rss: number; cpu: number; load: number; loadCpu: number; messages: number };
  hits: number;
}

function measure(store: Store, runs: number): Measured {
  const { env } = store;
  // BENCH_WARM_ONLY=1: the warm commands alone, over the index already there (no first build).
  const warmOnly = process.env.BENCH_WARM_ONLY === "1";
  const none = { ms: Number.NaN, rss: Number.NaN, cpu: Number.NaN };
  if (!warmOnly) rmSync(env.TXCRIPT_CACHE ?? "", { recursive: true, force: true });
  const first = warmOnly ? none : runOnce([BIN, "list", "--json"], env);
  const firstQuery = runOnce([BIN, "query", RARE, "--json"], env);
  const loaded = warmOnly ? { ms: Number.NaN, cpu: Number.NaN, messages: 0 } : loadAll(env);
  const builds: [string, string][] = [["", BIN]];
  const beforeDist = process.env.BENCH_BEFORE_DIST;
  if (beforeDist) builds.push([" (before)", join(beforeDist, "cli", "main.js")]);
  let tick = 0;
  const commands: Record<
    string,
    { argv: string[]; env: Record<string, string>; before?: () => void }
  > = {};
  for (const [suffix, bin] of builds) {
    // Each build keeps its own index: an earlier build's keys may differ (agy's logs folders).
    const own = suffix === "" ? env : { ...env, TXCRIPT_CACHE: `${env.TXCRIPT_CACHE}-before` };
    const cli = (...args: string[]) => ({ argv: [process.execPath, bin, ...args], env: own });
    Object.assign(commands, {
      [`list${suffix}`]: cli("list", "--json"),
      [`list --limit 20${suffix}`]: cli("list", "--json", "--limit", "20"),
      [`query${suffix}`]: cli("query", RARE, "--json"),
      [`list after one change${suffix}`]: {
        ...cli("list", "--json"),
        // A new mtime each run: one session's fingerprint changes.
        before: () => {
          const at = new Date(Date.UTC(2026, 5, 1) + ++tick * 1000);
          utimesSync(store.touch, at, at);
        },
      },
      [`usage --by day${suffix}`]: cli("usage", "--by", "day", "--json"),
    });
  }
  const roots = [
    env.TXCRIPT_ANTIGRAVITY_ROOT,
    env.TXCRIPT_CLAUDE_CODE_ROOT,
    env.TXCRIPT_CODEX_ROOT,
  ].map((r) => r ?? "");
  const index = join(env.TXCRIPT_CACHE ?? "", "index.db");
  const floorDir = join(dirname(index), "..");
  writeFileSync(join(floorDir, "stat-floor.mjs"), statFloorCode(roots, index));
  writeFileSync(join(floorDir, "stat-floor-20.mjs"), statFloorCode(roots, index, 20));
  commands["warm floor (stat every file, every row)"] = {
    argv: [process.execPath, join(floorDir, "stat-floor.mjs")],
    env,
  };
  commands["warm floor (stat every file, 20 rows)"] = {
    argv: [process.execPath, join(floorDir, "stat-floor-20.mjs")],
    env,
  };
  commands["node -e 0"] = { argv: [process.execPath, "-e", "0"], env };
  const out = interleavedCpu(commands, runs);
  const work = [0, 1, 2].map(() => queryWork(env));
  return {
    cpu: out.cpu,
    ms: {
      ...out.wall,
      "first list (cold)": first.ms,
      "first query (text build)": firstQuery.ms,
      "query work in-process": median(work.map((w) => w.query)),
    },
    build: {
      ms: first.ms + firstQuery.ms,
      rss: Math.max(first.rss, firstQuery.rss),
      cpu: first.cpu + firstQuery.cpu,
      load: loaded.ms,
      loadCpu: loaded.cpu,
      messages: loaded.messages,
    },
    hits: work[0]?.hits ?? 0,
  };
}

/** Issue 33's goal beside the figures it names (goal 5: near flat growth but for the first build). */
const GROWTH_GOALS: Record<string, string> = {
  list: "growth near flat but for printing every row",
  "list --limit 20": "near flat",
  query: "near flat",
  "query work in-process": "<= 20 ms",
  "usage --by day": "near flat",
};

function main(): void {
  const small = Number(process.argv[2] ?? 1000);
  const large = Number(process.argv[3] ?? 20000);
  const runs = Number(process.argv[4] ?? 7);
  // BENCH_NO_BUILD=1: dist/ as it is (another bench may be running from it).
  if (
    process.env.BENCH_NO_BUILD !== "1" &&
    spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0
  )
    throw new Error("build failed");
  const t0 = performance.now();
  const stores = { small: generate(small), large: generate(large) };
  const gen = performance.now() - t0;
  report([
    {
      stores: `${small} and ${large} sessions (1/5 agy, 2/5 Claude Code, 2/5 Codex)`,
      sizes: `${mb(stores.small.bytes)}, ${mb(stores.large.bytes)}`,
      generated: gen > 1000 ? `${(gen / 1000).toFixed(1)} s` : "cached in .bench-data/",
      "load average": loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    },
  ]);
  const a = measure(stores.small, runs);
  const b = measure(stores.large, runs);
  const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(1)} ms`;
  const floorOf = (name: string) =>
    name.startsWith("list --limit 20")
      ? "warm floor (stat every file, 20 rows)"
      : name.startsWith("list")
        ? "warm floor (stat every file, every row)"
        : undefined;
  for (const name of Object.keys(a.ms)) {
    const x = a.ms[name] ?? Number.NaN;
    const y = b.ms[name] ?? Number.NaN;
    const cx = a.cpu[name];
    const cy = b.cpu[name];
    const floor = floorOf(name);
    report([
      {
        [name]: `${ms(x)} at ${small}, ${ms(y)} at ${large}: ${(y / x).toFixed(2)}x for ${(large / small).toFixed(0)}x the sessions`,
        ...(cx !== undefined && cy !== undefined
          ? { CPU: `${ms(cx)}, ${ms(cy)}: ${(cy / cx).toFixed(2)}x` }
          : {}),
        ...(floor !== undefined && cx !== undefined && cy !== undefined
          ? {
              "beside its floor (CPU)": `${(cx / (a.cpu[floor] ?? Number.NaN)).toFixed(2)}x at ${small}, ${(cy / (b.cpu[floor] ?? Number.NaN)).toFixed(2)}x at ${large}`,
            }
          : {}),
        ...(name === "list after one change"
          ? {
              "goal 5, beside a warm list": `${ms(x)} beside ${ms(a.ms.list)}: ${beside(GOALS.scaleChange, x / (a.ms.list ?? Number.NaN))} at ${small}, ${ms(y)} beside ${ms(b.ms.list)}: ${beside(GOALS.scaleChange, y / (b.ms.list ?? Number.NaN))} at ${large}`,
            }
          : {}),
        ...(GROWTH_GOALS[name.replace(" (before)", "")] !== undefined
          ? { "goal 5": GROWTH_GOALS[name.replace(" (before)", "")] ?? "" }
          : {}),
      },
    ]);
  }
  const rate = (bytes: number, t: number) =>
    `${(bytes / 1024 / 1024 / (t / 1000)).toFixed(1)} MB/s`;
  for (const [n, s, m] of [
    [small, stores.small, a],
    [large, stores.large, b],
  ] as const) {
    if (Number.isNaN(m.build.load)) continue; // BENCH_WARM_ONLY
    const goal =
      n === 1000 ? GOALS.scaleBuildRate1000 : n === 2000 ? GOALS.scaleBuildRate2000 : undefined;
    const wall = m.build.load / m.build.ms;
    report([
      {
        [`first build at ${n} (cold list + first query)`]: `${ms(m.build.ms)}, ${rate(s.bytes, m.build.ms)}, CPU ${ms(m.build.cpu)}, peak RSS ${beside(GOALS.scaleBuildRss, m.build.rss / 1048576)}`,
        "discover + load + toCommon (one process)": `${ms(m.build.load)}, ${rate(s.bytes, m.build.load)}, CPU ${ms(m.build.loadCpu)}, ${m.build.messages} messages`,
        "build rate beside load": goal ? beside(goal, wall) : `${wall.toFixed(2)}x (goal >= 0.80x)`,
        "in CPU time": beside(GOALS.indexBuildCpu, m.build.loadCpu / m.build.cpu),
      },
    ]);
  }
  report([{ "rare-word hits": `${a.hits} at ${small}, ${b.hits} at ${large}` }]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
