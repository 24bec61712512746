/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so peak
 * RSS figures do not leak between benchmarks) and prints what each reports.
 * A single file runs with `npx tsx bench/<name>.bench.ts`.
 */

import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", join(here, file)], {
    stdio: "inherit",
  });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
