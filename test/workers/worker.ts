/**
 * A worker module for the runShared and readAhead tests: doubles item numbers, or
 * misbehaves as the batch's data asks (exits, throws, hangs) on the first
 * chunk it takes. It raises `started` so that the calling thread can wait
 * until a worker has taken a chunk.
 */

import { threadId } from "node:worker_threads";
import type { WorkerChunk } from "../../src/workers.js";

export interface TestJob {
  mode: "ok" | "exit" | "throw" | "hang";
  /** Word 0: set to 1 once a worker has taken a chunk; word 1, if there, counts the chunks taken. */
  started: SharedArrayBuffer;
}

export interface Doubled {
  index: number;
  doubled: number;
  worker: boolean;
  /** The thread that doubled it. */
  thread?: number;
  /** The item's own data, as the worker received it with its chunk. */
  item?: unknown;
}

export default function double({ indexes, data, items }: WorkerChunk<TestJob, unknown>): Doubled[] {
  const started = new Int32Array(data.started);
  Atomics.store(started, 0, 1);
  Atomics.notify(started, 0);
  if (started.length > 1) {
    Atomics.add(started, 1, 1);
    Atomics.notify(started, 1);
  }
  switch (data.mode) {
    case "exit":
      process.exit(3);
      break;
    case "throw":
      throw new Error("worker failure");
    case "hang":
      for (;;) {
        // never answers
      }
    case "ok":
      break;
    default:
      data.mode satisfies never;
  }
  return indexes.map((index, k) => ({
    index,
    doubled: index * 2,
    worker: true,
    thread: threadId,
    ...(k < items.length ? { item: items[k] } : {}),
  }));
}
