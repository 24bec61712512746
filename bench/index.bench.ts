/**
 * Index benchmark, whole processes of the built CLI (dist/) over a
 * generated store: 1,000 agy conversations of ~200 steps (WAL at rest, as
 * agy leaves them) plus Claude Code and Codex sessions beside them.
 * Variants run interleaved, medians of several runs:
 * - warm `list --json` beside a process that opens every agy database and
 *   reads one row (the store benchmark's baseline), and beside `node -e 0`
 *   (what any Node process pays before its first line);
 * - cold `list --json` (empty index) beside `--no-cache list --json`
 *   (every store read directly, as list did before the index);
 * - `--version` beside `node -e 0`;
 * - warm `query` of a rare word (whole process, and the open + refresh +
 *   query work inside one);
 * - the text build (first `query`) in MB/s of source beside load +
 *   toCommon of the same sessions, and the index's size beside the sources';
 * - the text build through the library with the text worker and without
 *   it (time and peak RSS).
 *
 *   npx tsx bench/index.bench.ts [conversations] [steps]
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { harness, openStore } from "../src/harness/index.js";
import { formatTimestamp } from "../src/time.js";
import type { Common, Transcript } from "../src/transcript.js";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { beside, GOALS } from "./goals.js";
import { loadAll, runOnce } from "./scale.bench.js";
import { interleaved, mb, median, report, runProcess } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "index");
const RARE = "zanzibarquux";

function synthetic(id: string, i: number, rare: boolean): Transcript<Common> {
  const start = Date.UTC(2026, 4, 1) / 1000 + i * 600;
  const body: Common = [];
  for (let n = 0; n < 40; n++) {
    const words = `message ${n} of session ${i}: refactor the checkout module and rerun the tests ${"lorem ipsum dolor ".repeat(20)}`;
    body.push({
      role: n % 2 ? "assistant" : "user",
      content: [{ type: "text", text: rare && n === 17 ? `${words} ${RARE}` : words }],
      timestamp: formatTimestamp({ seconds: start + n * 5, nanos: 0 }),
      ...(n % 2 ? { model: "bench-model", usage: { input_tokens: 1000, output_tokens: 200 } } : {}),
    });
  }
  return {
    meta: { id, timestamp: body[0]!.timestamp, cwd: `/home/dev/p${i % 7}`, title: `Session ${i}` },
    body,
  };
}

/** The mixed store: agy conversations, then Claude Code and Codex sessions in their own roots. */
export function generate(
  count: number,
  steps: number,
): { dir: string; env: Record<string, string> } {
  const dir = join(DATA, `mixed-v1-${count}x${steps}`);
  const roots = {
    antigravity: join(dir, "antigravity"),
    claude_code: join(dir, "claude_code"),
    codex: join(dir, "codex"),
  };
  const env = {
    TXCRIPT_ANTIGRAVITY_ROOT: roots.antigravity,
    TXCRIPT_CLAUDE_CODE_ROOT: roots.claude_code,
    TXCRIPT_CODEX_ROOT: roots.codex,
    HOME: join(dir, "home"),
  };
  if (existsSync(join(dir, "complete"))) return { dir, env };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(roots.antigravity, "conversations"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec: ConversationSpec = {
      steps,
      seed: i + 1,
      layout: i % 4 === 0 ? "typed" : "generic",
    };
    if (i % 2) spec.modelName = "gemini-3.8-flash";
    if (i % 3 === 0) spec.checkpointTitle = `Task ${i}`;
    writeAgyDatabase(roots.antigravity, buildConversation(spec));
  }
  for (const [h, n] of [
    ["claude_code", 100],
    ["codex", 100],
  ] as const) {
    const store = openStore(harness(h), { root: roots[h], env: {} })!;
    for (let i = 0; i < n; i++) {
      const id = `${h === "codex" ? "c0de" : "c1a0"}0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      store.save(synthetic(id, i, h === "claude_code" && i === 42));
    }
  }
  writeFileSync(join(dir, "complete"), "");
  return { dir, env };
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

const node = process.execPath;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

function main(): void {
  const count = Number(process.argv[2] ?? 1000);
  const steps = Number(process.argv[3] ?? 200);
  const t0 = performance.now();
  const { dir, env } = generate(count, steps);
  const gen = performance.now() - t0;
  const agyDir = join(env.TXCRIPT_ANTIGRAVITY_ROOT!, "conversations");
  const sourceBytes =
    bytesUnder(env.TXCRIPT_ANTIGRAVITY_ROOT!) +
    bytesUnder(env.TXCRIPT_CLAUDE_CODE_ROOT!) +
    bytesUnder(env.TXCRIPT_CODEX_ROOT!);
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  report([
    {
      store: `${count} agy conversations of ~${steps} steps + 100 Claude Code + 100 Codex sessions`,
      size: mb(sourceBytes),
      generated: gen > 1000 ? `${(gen / 1000).toFixed(1)} s` : "cached in .bench-data/",
      "load average": loadavg()
        .map((l) => l.toFixed(2))
        .join(" "),
    },
  ]);
  const cache = join(dir, "cache");
  const cold = join(dir, "cache-cold");
  const withCache = { ...env, TXCRIPT_CACHE: cache };
  const sqliteUrl = pathToFileURL(join(ROOT, "dist", "sqlite.js")).href;
  const baselineCode = `const { readSnapshot } = await import(${JSON.stringify(sqliteUrl)});
    const { readdirSync } = await import("node:fs");
    const dir = ${JSON.stringify(agyDir)};
    for (const n of readdirSync(dir)) if (n.endsWith(".db"))
      readSnapshot(dir + "/" + n, (db) => db.prepare("SELECT idx FROM steps LIMIT 1").get(), { harness: "antigravity" });`;

  // The least a warm list that is never stale can do: load SQLite, stat every
  // file a fingerprint covers (each agy database and its -wal, each Claude
  // Code and Codex file), read every entry row and print them.
  const floorCode = `const { default: Database } = await import(${JSON.stringify(pathToFileURL(require.resolve("better-sqlite3")).href)});
    const { readdirSync, statSync } = await import("node:fs");
    const { join } = await import("node:path");
    const agy = ${JSON.stringify(agyDir)};
    for (const n of readdirSync(agy)) if (n.endsWith(".db")) {
      statSync(join(agy, n)); statSync(join(agy, n + "-wal"), { throwIfNoEntry: false });
    }
    for (const root of ${JSON.stringify([env.TXCRIPT_CLAUDE_CODE_ROOT, env.TXCRIPT_CODEX_ROOT])})
      for (const n of readdirSync(root, { recursive: true, encoding: "utf8" })) statSync(join(root, n));
    const db = new Database(${JSON.stringify(join(cache, "index.db"))}, { readonly: true });
    const rows = db.prepare("SELECT discovered FROM entries ORDER BY updated_ms DESC").pluck().all();
    process.stdout.write(JSON.stringify(rows.map((r) => JSON.parse(r))));`;

  // Warm the index once (rows only), then warm list vs the baseline.
  runProcess([node, BIN, "list", "--json"], withCache);
  const list = interleaved(
    {
      warm: { argv: [node, BIN, "list", "--json"], env: withCache },
      baseline: { argv: [node, "--input-type=module", "-e", baselineCode], env },
      warmLimit: { argv: [node, BIN, "list", "--json", "--limit", "10"], env: withCache },
      floor: { argv: [node, "--input-type=module", "-e", floorCode], env },
      bare: { argv: [node, "-e", "0"], env },
    },
    7,
  );
  report([
    {
      "warm list --json": fmt(list.warm!),
      "baseline (open every agy database, read one row)": fmt(list.baseline!),
      ratio: `${(list.warm! / list.baseline!).toFixed(2)}x the baseline`,
      "warm list --json --limit 10": fmt(list.warmLimit!),
      // The floor any Node process pays: the 0.25x target sits near or below it.
      "node -e 0 (process start alone)": `${fmt(list.bare!)}, ${(list.bare! / list.baseline!).toFixed(2)}x the baseline`,
      "warm list above process start": fmt(list.warm! - list.bare!),
      "floor (load SQLite, stat every fingerprinted file, read and print every row)": `${fmt(list.floor!)}, ${(list.floor! / list.baseline!).toFixed(2)}x the baseline`,
    },
  ]);

  const coldList = interleaved(
    {
      cold: {
        argv: [node, BIN, "list", "--json"],
        env: { ...env, TXCRIPT_CACHE: cold },
        before: () => rmSync(cold, { recursive: true, force: true }),
      },
      direct: { argv: [node, BIN, "--no-cache", "list", "--json"], env },
    },
    5,
  );
  report([
    {
      "cold list --json (empty index)": fmt(coldList.cold!),
      "--no-cache list --json (the stores read directly)": fmt(coldList.direct!),
      ratio: `${(coldList.cold! / coldList.direct!).toFixed(2)}x`,
    },
  ]);

  const start = interleaved(
    {
      version: { argv: [node, BIN, "--version"], env },
      bare: { argv: [node, "-e", "0"], env },
    },
    15,
  );
  report([
    {
      "txcript --version": fmt(start.version!),
      "node -e 0": fmt(start.bare!),
      ratio: `${(start.version! / start.bare!).toFixed(2)}x`,
    },
  ]);

  // The text build: the first query reads every session's text.
  rmSync(cache, { recursive: true, force: true });
  runProcess([node, BIN, "list", "--json"], withCache);
  const built = runOnce([BIN, "query", RARE, "--json"], withCache);
  const build = built.ms;
  const indexBytes = ["index.db", "index.db-wal"].reduce((sum, f) => {
    const p = join(cache, f);
    return sum + (existsSync(p) ? statSync(p).size : 0);
  }, 0);
  const distUrl = (p: string) => JSON.stringify(pathToFileURL(join(ROOT, "dist", p)).href);
  const loaded = loadAll(env);
  const rate = (ms: number) => `${(sourceBytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`;
  report([
    {
      "index text build (first query after a list, whole process)": `${fmt(build)}, ${rate(build)}, CPU ${fmt(built.cpu)}, peak RSS ${mb(built.rss)}`,
      "discover + load + toCommon of the same sessions (in one process)": `${fmt(loaded.ms)}, ${rate(loaded.ms)}, CPU ${fmt(loaded.cpu)}, ${loaded.messages} messages`,
      "build rate beside load": beside(GOALS.indexBuildRate, loaded.ms / build),
      "in CPU time": beside(GOALS.indexBuildCpu, loaded.cpu / built.cpu),
      "index size": `${mb(indexBytes)}, ${beside(GOALS.indexSize, indexBytes / sourceBytes)} the sources`,
    },
  ]);

  // The text build in one process through the library, with and without the
  // text worker: time and peak RSS (the worker thread's heap included).
  const buildCode = (
    textWorker: boolean,
  ) => `const { SessionIndex } = await import(${distUrl("index/index.js")});
    const index = SessionIndex.open({ env: process.env, textWorker: ${textWorker} });
    await index.refresh();
    const t0 = performance.now();
    await index.refresh({ text: true });
    const ms = performance.now() - t0;
    index.close();
    // VmHWM, not maxRSS: a child's ru_maxrss starts at the RSS of the bench that forked it.
    const { readFileSync } = await import("node:fs");
    const hwm = /VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"));
    const rss = hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
    process.stdout.write(JSON.stringify({ ms, rss }));`;
  const builds: Record<string, { ms: number[]; rss: number[] }> = {
    worker: { ms: [], rss: [] },
    alone: { ms: [], rss: [] },
  };
  const buildCache = join(dir, "cache-build");
  for (let i = 0; i < 3; i++)
    for (const [name, textWorker] of [
      ["worker", true],
      ["alone", false],
    ] as const) {
      rmSync(buildCache, { recursive: true, force: true });
      const r = spawnSync(node, ["--input-type=module", "-e", buildCode(textWorker)], {
        env: { PATH: process.env.PATH ?? "", ...env, TXCRIPT_CACHE: buildCache },
        encoding: "utf8",
      });
      const out = JSON.parse(r.stdout) as { ms: number; rss: number };
      builds[name]?.ms.push(out.ms);
      builds[name]?.rss.push(out.rss);
    }
  rmSync(buildCache, { recursive: true, force: true });
  const side = (name: string) => {
    const b = builds[name] ?? { ms: [], rss: [] };
    return `${fmt(median(b.ms))}, ${rate(median(b.ms))}, peak RSS ${mb(median(b.rss))}`;
  };
  report([
    {
      "text build, text read on a worker thread (library, one process)": side("worker"),
      "text build on the calling thread alone": side("alone"),
      ratio: `${(median(builds.worker?.ms ?? []) / median(builds.alone?.ms ?? [])).toFixed(2)}x`,
      "peak RSS with the worker": beside(
        GOALS.indexBuildRss,
        median(builds.worker?.rss ?? []) / 1048576,
      ),
    },
  ]);

  const queryCode = `const { SessionIndex } = await import(${distUrl("index/index.js")});
    const t0 = performance.now();
    const index = SessionIndex.open({ env: process.env });
    await index.refresh({ text: true });
    const hits = index.query(${JSON.stringify(RARE)});
    index.close();
    process.stdout.write(JSON.stringify({ ms: performance.now() - t0, hits: hits.length }));`;
  const work: number[] = [];
  let hits = 0;
  for (let i = 0; i < 7; i++) {
    const r = spawnSync(node, ["--input-type=module", "-e", queryCode], {
      env: { PATH: process.env.PATH ?? "", ...withCache },
      encoding: "utf8",
    });
    const out = JSON.parse(r.stdout) as { ms: number; hits: number };
    work.push(out.ms);
    hits = out.hits;
  }
  const q = interleaved(
    {
      query: { argv: [node, BIN, "query", RARE, "--json"], env: withCache },
      bare: { argv: [node, "-e", "0"], env },
    },
    7,
  );
  report([
    {
      [`warm query "${RARE}" over ${loaded.messages} messages`]: `${fmt(q.query!)} whole process (node -e 0: ${fmt(q.bare!)})`,
      "open + refresh + query inside the process": `${fmt(median(work))} (${hits} hit${hits === 1 ? "" : "s"})`,
    },
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
