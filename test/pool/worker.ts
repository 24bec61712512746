/**
 * A worker module for the pool tests: doubles task numbers, or misbehaves
 * as the batch's data asks (exits, throws, hangs) on the first task it takes.
 * It raises `started` so that the calling thread can wait until a worker
 * has taken a task.
 */

import { serveTasks } from "../../src/pool.js";

export interface TestJob {
  mode: "ok" | "exit" | "throw" | "hang";
  /** Word 0: set to 1 once a worker has taken a task. */
  started: SharedArrayBuffer;
}

serveTasks((index, data) => {
  const job = data as TestJob;
  const started = new Int32Array(job.started);
  Atomics.store(started, 0, 1);
  Atomics.notify(started, 0);
  switch (job.mode) {
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
      job.mode satisfies never;
  }
  return { index, doubled: index * 2 };
});
