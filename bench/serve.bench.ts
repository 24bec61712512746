/**
 * `txcript serve` beside the CLI, over a generated home of Claude Code
 * sessions (1,000 by default, 13 messages each, one word planted in every
 * tenth): the time from starting the server to its first list JSON (cold
 * index), then warm medians of a list page, a search round trip and a
 * session page over HTTP, each beside the same answer from the built CLI
 * (`list --json --limit 100`, `query --json`, `export --format html`,
 * whole processes on a warm cache).
 *
 *   npx tsx bench/serve.bench.ts [sessions] [runs]
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../test/support/cli.js";
import { claudeProject, claudeSession, PLANTED, startServe } from "../test/support/serve.js";
import { median, report, runProcess, timeMedian } from "./util.js";

const count = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 15);

const home = mkdtempSync(join(tmpdir(), "txcript-serve-bench-"));
const project = claudeProject(home);
mkdirSync(project, { recursive: true });
const sid = (i: number) => `5e4d3c2b-0000-4000-8000-${String(i).padStart(12, "0")}`;
for (let i = 0; i < count; i++) {
  const word = i % 10 === 0 ? PLANTED : "ordinary";
  writeFileSync(
    join(project, `${sid(i)}.jsonl`),
    claudeSession(sid(i), `Task ${i}: look at module ${i}`, `Done with ${word} module ${i}.`),
  );
}

const t0 = performance.now();
const served = await startServe(home);
const first = await fetch(`${served.base}api/sessions`);
await first.arrayBuffer();
const firstList = performance.now() - t0;
if (first.status !== 200) throw new Error(`list: ${first.status}`);
// The search index is filled on the first search: timed apart, as the CLI's first query.
const t1 = performance.now();
await (await fetch(`${served.base}api/search?q=${PLANTED}`)).arrayBuffer();
const firstSearch = performance.now() - t1;

const get = (path: string) => async () => {
  const r = await fetch(`${served.base}${path}`);
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
};
const list = await timeMedian(get("api/sessions?limit=100"), runs, 2);
const filtered = await timeMedian(get("api/sessions?limit=100&q=module%2099&sort=title"), runs, 2);
const search = await timeMedian(get(`api/search?q=${PLANTED}&limit=50`), runs, 2);
const page = await timeMedian(get(`s/claude_code/${sid(1)}`), runs, 2);
await served.stop();

const cache = mkdtempSync(join(tmpdir(), "txcript-serve-bench-cache-"));
const env = { HOME: home, TXCRIPT_CACHE: cache, NO_COLOR: "1" };
const cli = (args: string[]) => runProcess([process.execPath, BIN, ...args], env);
cli(["query", PLANTED, "--json"]); // fills the CLI's own index
const times = (args: string[]) =>
  median(Array.from({ length: Math.min(runs, 9) }, () => cli(args)));
const cliList = times(["list", "--json", "--limit", "100"]);
const cliQuery = times(["query", PLANTED, "--json", "--limit", "50"]);
const cliPage = times(["export", sid(1), "--format", "html"]);
rmSync(cache, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });

const ms = (n: number) => `${n.toFixed(1)} ms`;
report([
  {
    sessions: count,
    "start to first list JSON (cold index)": ms(firstList),
    "first search (fills the text index)": ms(firstSearch),
  },
  { "list page (100), warm": ms(list), "CLI list --json --limit 100": ms(cliList) },
  { "filtered + sorted list page": ms(filtered) },
  { "search round trip": ms(search), "CLI query --json": ms(cliQuery) },
  { "session page": ms(page), "CLI export --format html": ms(cliPage) },
]);
