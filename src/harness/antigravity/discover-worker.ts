/**
 * The Antigravity discovery worker: a worker thread (src/workers.ts) started
 * by `AntigravityStore.discover` that reads a chunk of candidates' listings
 * exactly as the calling thread does.
 */

import type { WorkerChunk } from "../../workers.js";
import { type CandidateResult, type DiscoverJob, discoverCandidate } from "./store-discover.js";

export default function discoverChunk({
  indexes,
  data,
}: WorkerChunk<DiscoverJob>): CandidateResult[] {
  return indexes.flatMap((i) => {
    const candidate = data.candidates[i];
    return candidate ? [discoverCandidate(candidate, data.busyTimeoutMs)] : [];
  });
}
