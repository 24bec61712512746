/**
 * The Antigravity discovery worker: a worker thread (src/workers.ts) started
 * by `AntigravityStore.discover` that reads a chunk of candidates' listings
 * exactly as the calling thread does.
 */

import type { WorkerChunk } from "../../workers.js";
import {
  type Candidate,
  type CandidateResult,
  type DiscoverJob,
  discoverCandidate,
} from "./store-discover.js";

export default function discoverChunk({
  items,
  data,
}: WorkerChunk<DiscoverJob, Candidate>): CandidateResult[] {
  return items.map((candidate) => discoverCandidate(candidate, data.busyTimeoutMs));
}
