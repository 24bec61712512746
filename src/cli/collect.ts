/**
 * A full garbage collection on demand, for the CLI alone (it sets a V8
 * flag for the moment it takes; the library never calls this). `continue`
 * calls it between loading a session and writing its copy: loading leaves
 * the source's bytes (outside the V8 heap) and the native records it
 * parsed as garbage, and the writer that follows makes short-lived objects
 * only, so no full collection came to free them before the command ended:
 * a copy of a large session peaked at its load's garbage plus the writer's
 * (bench/memory.bench.ts). `view` and `export` collect between loading and
 * rendering for the same reason (a page's strings die young, yet its
 * rendering grew the heap over the load's garbage by 10 to 20 MB), but only
 * after a large load: a small session's would pay a new context and a full
 * collection for nothing, and `export` of many sessions pays it for each.
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined;

/** Run a full collection now (a no-op where V8 gives no `gc` function). */
export function collectGarbage(): void {
  if (collect === undefined) {
    // `gc` is given to contexts made while the flag is set: one context, then unset.
    setFlagsFromString("--expose-gc");
    // Asked with typeof: a V8 that ignored the flag has no `gc`, and naming it would throw.
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    setFlagsFromString("--no-expose-gc");
    collect = typeof gc === "function" ? () => gc() : () => undefined;
  }
  collect();
}

/** What a load must leave in memory (V8's heap and array buffers) before a collection pays. */
const LARGE_LOAD = 64 * 1024 * 1024;

/** `collectGarbage` after a load that left at least LARGE_LOAD in memory. */
export function collectAfterLargeLoad(): void {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  if (heapUsed + arrayBuffers >= LARGE_LOAD) collectGarbage();
}
