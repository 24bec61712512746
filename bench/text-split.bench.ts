/**
 * The index's text build (the first `query`'s work) split by thread: for
 * each checkout given (this one first, then e.g. a build of main beside
 * it), a fresh index gets its rows (refresh), then its text
 * (`refresh({ text: true })`) in one process through the library, timed:
 * wall, CPU (user + system) of the whole process and of its main thread
 * alone (/proc/self/task/<pid>/stat), the rest being the text worker's and
 * V8's helper threads, and peak RSS (VmHWM). Beside discover + load +
 * toCommon of the same sessions in one process (the floor any text build
 * pays). Checkouts run interleaved, medians of `runs`. On an idle machine
 * of two cores the build's wall time is near the larger of the main
 * thread's CPU and the rest's; under load, wall time means little.
 *
 *   npx tsx bench/text-split.bench.ts <index|scale> <count> [runs] [other checkout...]
 *
 * `index 100` is bench/index's store of 100 agy conversations of 200 steps
 * (+ 200 sessions); `scale 1000` bench/scale's mixed store.
 */

import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generate as generateIndex } from "./index.bench.js";
import { generate as generateScale, loadAll } from "./scale.bench.js";
import { median, report } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Figures {
  ms: number;
  cpu: number;
  main: number;
  rss: number;
}

function buildCode(checkout: string): string {
  const url = JSON.stringify(pathToFileURL(join(checkout, "dist", "index", "index.js")).href);
  return `const { SessionIndex } = await import(${url});
    const { readFileSync } = await import("node:fs");
    // utime + stime of the main thread, in ms (clock ticks of 10 ms).
    const mainCpu = () => {
      const f = readFileSync("/proc/self/task/" + process.pid + "/stat", "utf8").split(") ")[1].split(" ");
      return (Number(f[11]) + Number(f[12])) * 10;
    };
    const index = SessionIndex.open({ env: process.env });
    await index.refresh();
    const m0 = mainCpu();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await index.refresh({ text: true });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const main = mainCpu() - m0;
    index.close();
    const hwm = /VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"));
    process.stdout.write(JSON.stringify({ ms, cpu: (c.user + c.system) / 1000, main, rss: Number(hwm[1]) / 1024 }));`;
}

function main(): void {
  const [kind = "index", countArg = "100", runsArg = "3", ...others] = process.argv.slice(2);
  const count = Number(countArg);
  const env: Record<string, string> =
    kind === "scale" ? generateScale(count).env : generateIndex(count, 200).env;
  const checkouts = [ROOT, ...others.map((o) => resolve(o))];
  const cache = join(tmpdir(), `txcript-text-split-${process.pid}`);
  const runs: Record<string, Figures[]> = {};
  const loads: { ms: number; cpu: number }[] = [];
  for (let r = 0; r < Number(runsArg); r++) {
    loads.push(loadAll(env));
    for (const checkout of checkouts) {
      rmSync(cache, { recursive: true, force: true });
      const out = spawnSync(process.execPath, ["--input-type=module", "-e", buildCode(checkout)], {
        env: { PATH: process.env.PATH ?? "", ...env, TXCRIPT_CACHE: cache },
        encoding: "utf8",
      });
      if (out.status !== 0) throw new Error(out.stderr);
      const figures: Figures = JSON.parse(out.stdout);
      runs[checkout] = [...(runs[checkout] ?? []), figures];
    }
  }
  rmSync(cache, { recursive: true, force: true });
  const load = { ms: median(loads.map((l) => l.ms)), cpu: median(loads.map((l) => l.cpu)) };
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  report([
    {
      store: `${kind} ${count}`,
      "load average": loadavg()
        .map((l) => l.toFixed(1))
        .join(" "),
      "discover + load + toCommon": `${fmt(load.ms)} wall, ${fmt(load.cpu)} CPU`,
    },
    ...checkouts.map((checkout) => {
      const f = runs[checkout] ?? [];
      const m = (key: keyof Figures) => median(f.map((x) => x[key]));
      return {
        checkout,
        "text build": `${fmt(m("ms"))} wall (${(load.ms / m("ms")).toFixed(2)}x load), ${fmt(m("cpu"))} CPU (${(load.cpu / m("cpu")).toFixed(2)}x)`,
        "main thread CPU": `${fmt(m("main"))}, other threads ${fmt(median(f.map((x) => x.cpu - x.main)))}`,
        "peak RSS": `${m("rss").toFixed(0)} MB`,
      };
    }),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
