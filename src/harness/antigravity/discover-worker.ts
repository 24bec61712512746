/**
 * The Antigravity discovery worker: a worker thread started by
 * `AntigravityStore.discover` (through `runTasks`, src/pool.ts) that reads
 * candidates' listings exactly as the calling thread does.
 */

import { serveTasks } from "../../pool.js";
import { type DiscoverJob, discoverCandidate } from "./store.js";

serveTasks((index, data) => {
  const job = data as DiscoverJob;
  return discoverCandidate(job.candidates[index]!, job.busyTimeoutMs);
});
