/**
 * runShared (src/workers.ts) on real worker threads: results come back in
 * item order whoever computed them, and a worker that exits, throws or
 * hangs costs only the chunk it held (reported through `lost`), never a
 * hang or a wrong result; a worker module that cannot load leaves the work
 * to the calling thread; the next batch still runs.
 */

import { describe, expect, it } from "vitest";
import { readAhead, releasePools, runShared } from "../../src/workers.js";
import type { Doubled, TestJob } from "./worker.js";

const MODULE = new URL("./worker.ts", import.meta.url);

type Result = Doubled | { lost: number; why: string };

/** Busy for `ms` on this thread (the caller must be slower than a worker to leave it chunks). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

/** A batch whose calling thread takes 5 ms an item, so that the worker gets chunks too. */
async function batch(mode: TestJob["mode"], count: number, stallMs = 60_000, module = MODULE) {
  const started = new SharedArrayBuffer(4);
  const flag = new Int32Array(started);
  const results = await runShared<TestJob, Result>({
    count,
    run: (index) => {
      spin(5);
      return { index, doubled: index * 2, worker: false };
    },
    module,
    data: { mode, started },
    threads: 1,
    chunkSize: 4,
    lost: (index, why) => ({ lost: index, why }),
    stallMs,
  });
  return { results, workerStarted: Atomics.load(flag, 0) === 1 };
}

const doubledBy = (r: Result) => ("doubled" in r ? r.worker : undefined);

describe("runShared", () => {
  it("returns every result in item order, some computed by a worker thread", async () => {
    const { results } = await batch("ok", 300);
    expect(results.map((r) => ("doubled" in r ? [r.index, r.doubled] : r))).toEqual(
      Array.from({ length: 300 }, (_, i) => [i, i * 2]),
    );
    expect(results.some((r) => doubledBy(r) === true)).toBe(true);
  });

  it("keeps an idle worker thread for the next batch, and ends it at releasePools", async () => {
    const threads = async () => {
      const { results } = await batch("ok", 300);
      return new Set(results.map((r) => ("thread" in r ? r.thread : undefined)).filter(Boolean));
    };
    const first = await threads();
    expect(first.size).toBe(1);
    expect(await threads()).toEqual(first); // the same thread, idle between batches
    await releasePools();
    const after = await threads();
    expect(after.size).toBe(1);
    expect([...after].some((t) => first.has(t))).toBe(false); // a new thread: the old one ended
  });

  it("sends each chunk its own items' data (item), in index order", async () => {
    const started = new SharedArrayBuffer(4);
    const results = await runShared<TestJob, Result, string>({
      count: 200,
      run: (index) => {
        spin(5);
        return { index, doubled: index * 2, worker: false };
      },
      module: MODULE,
      data: { mode: "ok", started },
      item: (index) => `item ${index}`,
      threads: 1,
      chunkSize: 4,
      lost: (index, why) => ({ lost: index, why }),
      stallMs: 60_000,
    });
    const fromWorker = results.filter((r) => "doubled" in r && r.worker);
    expect(fromWorker.length).toBeGreaterThan(0);
    for (const r of fromWorker) if ("doubled" in r) expect(r.item).toBe(`item ${r.index}`);
  });

  it("runs everything on the calling thread with no threads asked for", async () => {
    const progress: number[] = [];
    const results = await runShared({
      count: 5,
      run: (i) => i + 1,
      module: MODULE,
      data: undefined,
      threads: 0,
      lost: () => -1,
      stallMs: 1000,
      chunkSize: 2,
      onProgress: (done) => progress.push(done),
    });
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });

  for (const mode of ["exit", "throw"] as const) {
    it(`a worker that ${mode === "exit" ? "exits" : "throws"} mid-chunk loses that chunk only, and the next batch still runs`, async () => {
      // tinypool does not fail the task of a thread that exits: the stall time catches it.
      const { results, workerStarted } = await batch(mode, 50, mode === "exit" ? 2000 : 60_000);
      expect(workerStarted).toBe(true);
      const lost = results.filter((r) => "lost" in r);
      expect(lost).toHaveLength(4);
      for (const r of lost)
        expect(r).toMatchObject({ why: expect.stringMatching(/^a worker thread failed/) });
      results.forEach((r, i) => {
        if ("doubled" in r) expect(r).toMatchObject({ index: i, doubled: i * 2 });
      });
      const next = await batch("ok", 300);
      expect(next.results.every((r, i) => "doubled" in r && r.doubled === i * 2)).toBe(true);
    });
  }

  it("gives up on a worker that hangs after the stall time, losing only its chunk", async () => {
    const { results } = await batch("hang", 40, 300);
    const lost = results.filter((r) => "lost" in r);
    expect(lost).toHaveLength(4);
    expect(results.filter((r) => !("lost" in r))).toHaveLength(36);
  });

  it("does every item on the calling thread when the worker module cannot load", async () => {
    const missing = new URL("./no-such-worker.js", import.meta.url);
    const results = await runShared({
      count: 100,
      run: (i) => i,
      module: missing,
      data: undefined,
      threads: 2,
      lost: () => -1,
      stallMs: 60_000,
    });
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe("readAhead", () => {
  /** Batches of 4 item numbers each. */
  const BATCHES = Array.from({ length: 6 }, (_, b) => [4 * b, 4 * b + 1, 4 * b + 2, 4 * b + 3]);

  function reading(
    mode: TestJob["mode"],
    options: {
      stallMs?: number;
      worker?: boolean;
      module?: URL;
      keep?: () => boolean;
      onWorker?: (batch: number[]) => boolean;
      share?: boolean;
      /** Busy this long per batch read on the calling thread, so that a kept worker would win some. */
      hereMs?: number;
    } = {},
  ) {
    const started = new SharedArrayBuffer(8);
    const failures: string[] = [];
    const here: number[][] = [];
    const ahead = readAhead<number[], Doubled[]>({
      batches: BATCHES,
      here: (batch) => {
        if (options.hereMs) spin(options.hereMs);
        here.push(batch);
        return batch.map((index) => ({ index, doubled: index * 2, worker: false }));
      },
      module: options.module ?? MODULE,
      job: (batch) => ({ indexes: batch, data: { mode, started }, items: [] }),
      accept: (value, batch): value is Doubled[] =>
        Array.isArray(value) && value.length === batch.length,
      worker: options.worker ?? true,
      stallMs: options.stallMs ?? 60_000,
      onFailure: (why) => failures.push(why),
      ...(options.keep ? { keep: options.keep } : {}),
      ...(options.onWorker ? { onWorker: options.onWorker } : {}),
      ...(options.share ? { share: true } : {}),
    });
    return { ahead, failures, here, taken: new Int32Array(started) };
  }

  async function all(ahead: AsyncGenerator<{ batch: number[]; result: Doubled[] }>) {
    const out: { batch: number[]; result: Doubled[] }[] = [];
    for await (const item of ahead) out.push(item);
    return out;
  }

  const correct = (out: { batch: number[]; result: Doubled[] }[]) =>
    out.every(({ batch, result }) =>
      result.every((r, i) => r.index === batch[i] && r.doubled === 2 * (batch[i] ?? -1)),
    ) && out.map((o) => o.batch).join() === BATCHES.join();

  it("yields every batch in order, each read on the worker", async () => {
    const { ahead, failures, here } = reading("ok");
    const out = await all(ahead);
    expect(correct(out)).toBe(true);
    expect(out.every((o) => o.result.every((r) => r.worker))).toBe(true);
    expect(here).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("is spared by releasePools while it reads: every batch still comes from its one worker", async () => {
    const { ahead, failures, here } = reading("ok");
    const out: { batch: number[]; result: Doubled[] }[] = [];
    for await (const item of ahead) {
      out.push(item);
      // Another store's refresh ending mid-read lets idle pools go, not this one.
      if (out.length === 1) await releasePools();
    }
    expect(correct(out)).toBe(true);
    expect(out.every((o) => o.result.every((r) => r.worker))).toBe(true);
    expect(new Set(out.flatMap((o) => o.result.map((r) => r.thread))).size).toBe(1);
    expect(here).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("lets the worker go when keep says no, silently, and reads the rest on the calling thread", async () => {
    let asked = 0;
    // Yes for the first two posts after the first batch, then no (a memory budget reached).
    const { ahead, failures, here } = reading("ok", { keep: () => ++asked <= 2 });
    const out = await all(ahead);
    expect(correct(out)).toBe(true);
    expect(out.map((o) => o.result.every((r) => r.worker))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(here).toEqual(BATCHES.slice(3));
    expect(failures).toEqual([]);
  });

  it("reads a batch kept off the worker on the calling thread, in order, and the worker takes the next", async () => {
    // Batches 0, 2 and 3 stay here (sessions too big for the worker's heap); the rest go to the worker.
    const { ahead, failures, here } = reading("ok", {
      onWorker: (batch) => ![0, 8, 12].includes(batch[0] ?? -1),
    });
    const out = await all(ahead);
    expect(correct(out)).toBe(true);
    expect(out.map((o) => o.result.every((r) => r.worker))).toEqual([
      false,
      true,
      false,
      false,
      true,
      true,
    ]);
    expect(here).toEqual([BATCHES[0], BATCHES[2], BATCHES[3]]);
    expect(failures).toEqual([]);
  });

  it("has the worker on the next batch while the caller is busy with this one", async () => {
    const { ahead, taken } = reading("ok");
    let seen = 0;
    for await (const { batch } of ahead) {
      if (batch[0] === 0) {
        // Still inside the first batch's turn, synchronously: the worker must have taken the second.
        Atomics.wait(taken, 1, 1, 10_000);
        seen = Atomics.load(taken, 1);
      }
    }
    expect(seen).toBe(2);
  });

  /** Every batch once, each with its own results, in whatever order sharing gave them. */
  const eachOnce = (out: { batch: number[]; result: Doubled[] }[]) =>
    out.every(({ batch, result }) =>
      result.every((r, i) => r.index === batch[i] && r.doubled === 2 * (batch[i] ?? -1)),
    ) &&
    out
      .map((o) => o.batch)
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))
      .join() === BATCHES.join();

  it("shares: the caller reads from the far end while the worker's next result is not in", async () => {
    const { ahead, failures, here } = reading("ok", { share: true });
    const out = await all(ahead);
    expect(eachOnce(out)).toBe(true);
    // The worker's first result cannot be in before a turn of the event loop: the caller takes the last batch.
    expect(here[0]).toEqual(BATCHES[5]);
    expect(out.find((o) => o.batch === BATCHES[0])?.result.every((r) => r.worker)).toBe(true);
    expect(out.filter((o) => o.result.every((r) => r.worker)).length).toBe(6 - here.length);
    expect(failures).toEqual([]);
  });

  it("shares: keep saying no lets the worker go at once, silently, and what it held is read here", async () => {
    const { ahead, failures, here } = reading("ok", {
      share: true,
      keep: () => false,
      hereMs: 250,
    });
    const out = await all(ahead);
    expect(eachOnce(out)).toBe(true);
    // An answer already in (a warm pool answers fast) is taken, then the worker goes, never
    // given more than its first two; with keep saying yes and this slow caller it takes a third.
    const fromWorker = out.filter((o) => o.result.every((r) => r.worker));
    expect(fromWorker.length).toBeLessThanOrEqual(2);
    expect(here).toHaveLength(6 - fromWorker.length);
    expect(
      out.every((o) => o.result.every((r) => r.worker) || o.result.every((r) => !r.worker)),
    ).toBe(true);
    expect(failures).toEqual([]);
  });

  it("shares: a batch kept off the worker is read on the calling thread", async () => {
    const { ahead, failures, here } = reading("ok", {
      share: true,
      onWorker: (batch) => batch[0] !== 0,
    });
    const out = await all(ahead);
    expect(eachOnce(out)).toBe(true);
    expect(here[0]).toEqual(BATCHES[0]);
    expect(failures).toEqual([]);
  });

  it("shares: a worker that throws is told once, and every batch is still read", async () => {
    const { ahead, failures } = reading("throw", { share: true });
    const out = await all(ahead);
    expect(eachOnce(out)).toBe(true);
    expect(out.every((o) => o.result.every((r) => !r.worker))).toBe(true);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/worker failure/);
  });

  for (const mode of ["throw", "exit", "hang"] as const) {
    it(`reads the rest on the calling thread, told once, when the worker ${mode === "hang" ? "hangs" : `${mode}s`}`, async () => {
      // tinypool does not fail the task of a thread that exits: the stall time catches it, and a hang.
      const { ahead, failures, here } = reading(mode, {
        stallMs: mode === "throw" ? 60_000 : 1500,
      });
      const out = await all(ahead);
      expect(correct(out)).toBe(true);
      expect(here).toEqual(BATCHES);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(mode === "throw" ? /worker failure/ : /abort/i);
      expect(failures[0]).not.toContain("\n");
    });
  }

  it("reads every batch on the calling thread with no worker asked for, or none installed", async () => {
    for (const options of [
      { worker: false },
      { module: new URL("./no-such-worker.js", import.meta.url) },
    ]) {
      const { ahead, failures, here } = reading("ok", options);
      const out = await all(ahead);
      expect(correct(out)).toBe(true);
      expect(here).toEqual(BATCHES);
      expect(failures).toEqual([]);
    }
  });
});
