/**
 * `txcript serve` in Chromium, each figure beside the same answer from the
 * built CLI in the same run. Generated homes of Claude Code sessions:
 *
 * - the list: 1,000 and 20,000 sessions (11 messages each); the time from
 *   starting the server to the first list drawn in Chromium (cold index),
 *   then warm medians of a fresh page to its first hundred rows, and of a
 *   typed filter redrawn; beside `list --json --limit 100`;
 * - search: the 20,000-session home's 220,000 messages, one word planted
 *   in every tenth session; the first search (it fills the text index),
 *   then warm medians of the API round trip and of a search typed in
 *   Chromium to its hits drawn; beside `query --json --limit 50`;
 * - a session of 10,001 messages: its page in Chromium (first contentful
 *   paint, load, JS heap and DOM nodes from the DevTools protocol), beside
 *   `export --format html` and the exported file opened in Chromium.
 *
 * The server's peak RSS is read from /proc. Nothing asserts time.
 *
 *   npx tsx bench/serve.bench.ts [runs] [sizes, e.g. 1000,20000]
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launch, type Session } from "../test/browser/chromium.js";
import { BIN } from "../test/support/cli.js";
import {
  claudeProject,
  claudeSession,
  PLANTED,
  type Served,
  startServe,
} from "../test/support/serve.js";
import { median, report, runProcess } from "./util.js";

const runs = Number(process.argv[2] ?? 7);
const sizes = (process.argv[3] ?? "1000,20000").split(",").map(Number);
const BIG_TURNS = 5000; // 10,001 messages

const ms = (n: number) => `${n.toFixed(0)} ms`;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const sid = (i: number) => `5e4d3c2b-0000-4000-8000-${String(i).padStart(12, "0")}`;
const BIG = "5e4d3c2b-0000-4000-8000-bbbbbbbbbbbb";
const began = performance.now();
/** Progress on stderr, so a long run shows where it is. */
const step = (what: string) =>
  process.stderr.write(`[${((performance.now() - began) / 1000).toFixed(0)} s] ${what}\n`);
const rows: Record<string, string | number>[] = [
  { machine: `${cpus().length} cores`, "load average at start": loadavg()[0]?.toFixed(2) ?? "?" },
];

/** A home of `count` sessions (5 turns, 11 messages), the planted word in every tenth. */
function makeHome(count: number, big: boolean): string {
  const home = mkdtempSync(join(tmpdir(), "txcript-serve-bench-"));
  const project = claudeProject(home);
  mkdirSync(project, { recursive: true });
  for (let i = 0; i < count; i++) {
    const word = i % 10 === 0 ? PLANTED : "ordinary";
    writeFileSync(
      join(project, `${sid(i)}.jsonl`),
      claudeSession(sid(i), `Task ${i}: look at module ${i}`, `Done with ${word} module ${i}.`, 5),
    );
  }
  if (big)
    writeFileSync(
      join(project, `${BIG}.jsonl`),
      claudeSession(BIG, "A very long session", "The end.", BIG_TURNS),
    );
  return home;
}

/** Peak resident memory of a process (VmHWM), bytes. */
function peakRss(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

async function timed(fn: () => Promise<unknown>, n = runs): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * A fresh page of the app to its first rows drawn: ms from the navigation's
 * start to the client's "list-drawn" mark, by the page's own clock.
 */
async function listRendered(chromium: Session, served: Served): Promise<number> {
  const page = await chromium.context.newPage();
  await page.goto(served.base);
  await page.locator("#sessions tbody tr").first().waitFor({ timeout: 600_000 });
  const at = await page.evaluate(
    () => performance.getEntriesByName("list-drawn")[0]?.startTime ?? Number.NaN,
  );
  await page.close();
  return at;
}

/** Median of `n` values of `fn` after one warm-up. */
async function medianOf(fn: () => Promise<number>, n = runs): Promise<number> {
  await fn();
  const values: number[] = [];
  for (let i = 0; i < n; i++) values.push(await fn());
  return median(values);
}

/** The CLI, whole processes on a warm cache of its own. */
function cliOn(home: string) {
  const cache = mkdtempSync(join(tmpdir(), "txcript-serve-bench-cache-"));
  const env = { HOME: home, TXCRIPT_CACHE: cache, NO_COLOR: "1" };
  const run = (args: string[]) => runProcess([process.execPath, BIN, ...args], env);
  return {
    run,
    times: (args: string[]) => median(Array.from({ length: Math.min(runs, 5) }, () => run(args))),
    done: () => rmSync(cache, { recursive: true, force: true }),
  };
}

const chromium = await launch();
/** Servers started, stopped at the end even when a step fails. */
const started: Served[] = [];
try {
  for (const size of sizes) {
    const searchToo = size === Math.max(...sizes);
    const home = makeHome(size, size === Math.min(...sizes));
    step(`${size} sessions written`);
    const t0 = performance.now();
    const served = await startServe(home);
    started.push(served);
    await listRendered(chromium, served);
    const cold = performance.now() - t0;
    step("first list drawn");
    const warm = await medianOf(() => listRendered(chromium, served));
    // Typing a filter: the list redrawn with the one matching session.
    const page = await chromium.context.newPage();
    await page.goto(served.base);
    await page.locator("#sessions tbody tr").first().waitFor();
    let n = 0;
    const filtered = await timed(async () => {
      const want = `module ${(n++ * 37) % size}`;
      await page.fill("#filter", want);
      await page.waitForFunction(
        (w) => {
          const r = document.querySelectorAll("#sessions tbody tr");
          return r.length >= 1 && (r[0]?.textContent ?? "").includes(w);
        },
        want,
        { timeout: 60_000 },
      );
    });
    await page.close();
    step("list and filter timed");
    const cli = cliOn(home);
    cli.run(["list", "--json", "--limit", "100"]); // fills the CLI's own index
    const cliList = cli.times(["list", "--json", "--limit", "100"]);
    rows.push({
      sessions: size,
      "start to first list drawn in Chromium (cold index)": ms(cold),
      "navigation to 100 rows drawn, warm": ms(warm),
      "filter typed to rows redrawn (less 150 ms debounce)": ms(filtered - 150),
      "CLI list --json --limit 100": ms(cliList),
    });
    step("CLI list timed");
    if (searchToo) await searchFigures(served, cli, size);
    if (size === Math.min(...sizes)) await bigPage(served, cli);
    rows.push({ [`server peak RSS (${size} sessions)`]: mib(peakRss(served.child.pid)) });
    await served.stop();
    cli.done();
    rmSync(home, { recursive: true, force: true });
  }
} finally {
  await chromium.close();
  for (const s of started) await s.stop();
}
report(rows);

async function searchFigures(
  served: Served,
  cli: ReturnType<typeof cliOn>,
  size: number,
): Promise<void> {
  const t1 = performance.now();
  await (await fetch(`${served.base}api/search?q=${PLANTED}`)).arrayBuffer();
  const first = performance.now() - t1;
  step("first search");
  const api = await timed(async () => {
    const r = await fetch(`${served.base}api/search?q=${PLANTED}&limit=50`);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`search: ${r.status}`);
  });
  const page = await chromium.context.newPage();
  await page.goto(`${served.base}#/search`);
  let n = 0;
  const inBrowser = await timed(async () => {
    // A different query each time, so the hits are redrawn: the word, and a module's number.
    const q = `${PLANTED} ${(n++ * 10) % size}`;
    await page.evaluate(() => {
      const c = document.getElementById("search-count");
      if (c) c.textContent = "";
    });
    await page.fill("#search", q);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      /^\d+ hits?$/.test(document.getElementById("search-count")?.textContent ?? ""),
    );
  });
  await page.close();
  step("search timed");
  cli.run(["query", PLANTED, "--json"]);
  const cliQuery = cli.times(["query", PLANTED, "--json", "--limit", "50"]);
  rows.push({
    messages: size * 11,
    "first search (fills the text index)": ms(first),
    "search round trip (API)": ms(api),
    "search typed to hits drawn in Chromium": ms(inBrowser),
    "CLI query --json --limit 50": ms(cliQuery),
  });
}

interface PageFigures {
  fcp: number;
  load: number;
  heap: number;
  nodes: number;
}

/** Open `url` in a fresh page: first contentful paint, load, JS heap and DOM nodes. */
async function measurePage(url: string): Promise<PageFigures> {
  const page: Page = await chromium.context.newPage();
  const cdp = await chromium.context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.goto(url, { waitUntil: "load", timeout: 600_000 });
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      fcp: fcp?.startTime ?? Number.NaN,
      load: nav instanceof PerformanceNavigationTiming ? nav.loadEventEnd : Number.NaN,
    };
  });
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  const figures = { ...timing, heap: metric("JSHeapUsedSize"), nodes: metric("Nodes") };
  await page.close();
  return figures;
}

function medians(all: PageFigures[]): PageFigures {
  return {
    fcp: median(all.map((f) => f.fcp)),
    load: median(all.map((f) => f.load)),
    heap: median(all.map((f) => f.heap)),
    nodes: median(all.map((f) => f.nodes)),
  };
}

async function bigPage(served: Served, cli: ReturnType<typeof cliOn>): Promise<void> {
  const n = Math.min(runs, 5);
  const url = `${served.base}s/claude_code/${BIG}`;
  await measurePage(url); // warm-up: loads and keeps the session
  const servedFigures: PageFigures[] = [];
  for (let i = 0; i < n; i++) servedFigures.push(await measurePage(url));
  step("served session page timed");
  const dir = mkdtempSync(join(tmpdir(), "txcript-serve-bench-page-"));
  const file = join(dir, "big.html");
  const cliExport = cli.times(["export", BIG, "--format", "html", "--out", file, "--force"]);
  const exported: PageFigures[] = [];
  for (let i = 0; i < n; i++) exported.push(await measurePage(`file://${file}`));
  rmSync(dir, { recursive: true, force: true });
  const s = medians(servedFigures);
  const e = medians(exported);
  rows.push({
    "session page, 10,001 messages (served)": `first paint ${ms(s.fcp)}, load ${ms(s.load)}, JS heap ${mib(s.heap)}, ${s.nodes.toFixed(0)} DOM nodes`,
  });
  rows.push({
    "CLI export --format html": ms(cliExport),
    "the exported file in Chromium": `first paint ${ms(e.fcp)}, load ${ms(e.load)}, JS heap ${mib(e.heap)}, ${e.nodes.toFixed(0)} DOM nodes`,
  });
}
