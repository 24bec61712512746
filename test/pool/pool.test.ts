/**
 * The synchronous task pool (src/pool.ts) on real worker threads: results
 * come back in task order whoever computed them, and a worker that exits,
 * throws, hangs or never loads costs only the task it held (reported
 * through `lost`), never a hang or a wrong result; the next batch still runs.
 */

import { describe, expect, it } from "vitest";
import { runTasks } from "../../src/pool.js";
import type { TestJob } from "./worker.js";

const MODULE = new URL("./worker.ts", import.meta.url);

type Result = { index: number; doubled: number } | { lost: number; why: string };

/** A batch whose calling thread waits (up to 60 s) for a worker to take a task before its own first. */
function batch(mode: TestJob["mode"], count: number, stallMs = 60_000, module = MODULE) {
  const started = new SharedArrayBuffer(4);
  const flag = new Int32Array(started);
  let first = true;
  let fromWorkers = 0;
  const results = runTasks<Result>({
    count,
    run: (index) => {
      if (first) {
        first = false;
        Atomics.wait(flag, 0, 0, 60_000);
      }
      return { index, doubled: index * 2 };
    },
    module,
    data: { mode, started } satisfies TestJob,
    workers: 1,
    lost: (index, why) => ({ lost: index, why }),
    stallMs,
    onResult: (_done, _count, worker) => {
      if (worker) fromWorkers++;
    },
  });
  return { results, fromWorkers, workerStarted: Atomics.load(flag, 0) === 1 };
}

describe("runTasks", () => {
  it("returns every result in task order, some computed by a worker thread", () => {
    const { results, fromWorkers } = batch("ok", 300);
    expect(results).toEqual(Array.from({ length: 300 }, (_, i) => ({ index: i, doubled: i * 2 })));
    expect(fromWorkers).toBeGreaterThan(0);
  });

  it("runs everything on the calling thread with no workers asked for", () => {
    const seen: boolean[] = [];
    const results = runTasks({
      count: 5,
      run: (i) => i + 1,
      module: MODULE,
      data: undefined,
      workers: 0,
      lost: () => -1,
      stallMs: 1000,
      onResult: (_d, _c, worker) => seen.push(worker),
    });
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([false, false, false, false, false]);
  });

  for (const mode of ["exit", "throw"] as const) {
    it(`a worker that ${mode === "exit" ? "exits" : "throws"} mid-task loses that task only, and the next batch still runs`, () => {
      const { results, workerStarted } = batch(mode, 50);
      expect(workerStarted).toBe(true);
      const lost = results.filter((r) => "lost" in r);
      expect(lost).toEqual([
        {
          lost: expect.any(Number),
          why: "the worker thread reading it stopped before answering",
        },
      ]);
      const lostIndex = (lost[0] as { lost: number }).lost;
      results.forEach((r, i) => {
        if (i !== lostIndex) expect(r).toEqual({ index: i, doubled: i * 2 });
      });
      // The dead worker is replaced.
      const next = batch("ok", 300);
      expect(next.results).toEqual(
        Array.from({ length: 300 }, (_, i) => ({ index: i, doubled: i * 2 })),
      );
      expect(next.fromWorkers).toBeGreaterThan(0);
    });
  }

  it("gives up on a worker that hangs after the stall time, losing only its task", () => {
    const { results } = batch("hang", 40, 300);
    const lost = results.filter((r) => "lost" in r);
    expect(lost).toEqual([
      {
        lost: expect.any(Number),
        why: "the worker thread reading it gave no answer within 300 ms",
      },
    ]);
    expect(results.filter((r) => !("lost" in r))).toHaveLength(39);
    const next = batch("ok", 300);
    expect(next.results.every((r, i) => "doubled" in r && r.doubled === i * 2)).toBe(true);
  });

  it("does every task on the calling thread when the worker module cannot load", () => {
    const missing = new URL("./no-such-worker.js", import.meta.url);
    for (let round = 0; round < 2; round++) {
      const results = runTasks({
        count: 100,
        run: (i) => i,
        module: missing,
        data: undefined,
        workers: 2,
        lost: () => -1,
        stallMs: 60_000,
      });
      expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i));
    }
  });
});
