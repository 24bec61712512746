/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so peak
 * RSS figures do not leak between benchmarks) and prints what each reports
 * as it reports it; then how long each took, and again every line that
 * names one of issue 33's goals (bench/goals.ts: each figure beside the
 * baseline of the same run, the ratio and the goal), so the goals are read
 * in one place. `npm run bench -- list scale` runs the benches whose file
 * names hold one of the words; a single file runs with
 * `npx tsx bench/<name>.bench.ts`.
 */

import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** A line about an issue 33 goal: "goal N" in a label, or `beside`'s "(goal <= …)". */
const GOAL_LINE = /\bgoal [1-6]\b|\(goal [<>]=/;

/** Run one bench, its output passed through; its status and the lines naming a goal. */
function runOne(file: string): Promise<{ ok: boolean; goals: string[] }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", join(here, file)], {
      stdio: ["inherit", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      text += chunk.toString("utf8");
    });
    const finish = (ok: boolean) =>
      done({ ok, goals: text.split("\n").filter((line) => GOAL_LINE.test(line)) });
    child.on("error", () => finish(false));
    child.on("close", (status) => finish(status === 0));
  });
}

const start = performance.now();
const took: string[] = [];
const goals: string[] = [];
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const t0 = performance.now();
  const r = await runOne(file);
  if (!r.ok) failed++;
  took.push(`${file}: ${((performance.now() - t0) / 1000).toFixed(0)} s${r.ok ? "" : ", FAILED"}`);
  for (const line of r.goals) goals.push(`${file}: ${line}`);
}
process.stdout.write(
  `\n== time\n${took.join("\n")}\nin all: ${((performance.now() - start) / 60_000).toFixed(1)} min\n`,
);
process.stdout.write(`\n== issue 33's goals\n${goals.join("\n") || "none reported"}\n`);
process.exit(failed === 0 ? 0 : 1);
