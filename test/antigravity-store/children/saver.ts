/**
 * Saves two versions of one conversation over each other, forever, until
 * killed: crash.test.ts kills it with SIGKILL at random points. Prints
 * "ready <ms of one save>" once the first save is done.
 * Usage: saver.ts <root>
 */

import { performance } from "node:perf_hooks";
import { AntigravityStore } from "../../../src/harness/antigravity/store.js";
import { crashBodies } from "../support.js";

const [root] = process.argv.slice(2) as [string];
const store = new AntigravityStore({ root });
const bodies = crashBodies();
const save = (n: number) => {
  const body = bodies[n % 2]!;
  store.save(
    { meta: { id: body.id, timestamp: "2026-09-10T09:00:00Z" }, body },
    { overwrite: true },
  );
};
const t0 = performance.now();
save(0);
process.stdout.write(`ready ${Math.ceil(performance.now() - t0)}\n`);
for (let n = 1; ; n++) save(n);
