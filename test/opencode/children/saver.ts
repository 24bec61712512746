/**
 * Saves large sessions into an OpenCode database one after another, until
 * killed: store.test.ts kills it with SIGKILL at random points. Prints
 * "ready <ms of one save>" after the first save.
 * Usage: saver.ts <root> <turns>
 */

import { performance } from "node:perf_hooks";
import { OpenCodeStore, openCodeCodec } from "../../../src/harness/opencode/index.js";
import { session } from "../support.js";

const [root, turns] = process.argv.slice(2) as [string, string];
const store = new OpenCodeStore({ root, env: {} });
const t0 = performance.now();
for (let n = 0; ; n++) {
  store.save(openCodeCodec.fromCommon(session(`crash-${n}`, Number(turns), 2000)));
  if (n === 0) process.stdout.write(`ready ${Math.ceil(performance.now() - t0)}\n`);
}
