/**
 * CPU-bound batches shared between the calling thread and a few worker
 * threads (tinypool): `runShared` cuts the items into chunks, and the
 * caller and every worker take the next chunk from one queue until none is
 * left, so the caller works while workers start and nobody idles while work
 * remains. Results come back in item order. Harness-agnostic: the worker
 * module's default export decides what a chunk is (see `WorkerChunk`).
 *
 * A worker that throws, exits or stalls loses only the chunk it held: its
 * items come back through `lost`, and its lane takes no more chunks. (A
 * thread that exits mid-chunk is seen only when `stallMs` runs out: tinypool
 * does not fail the task of a thread that ends.)
 *
 * Pools start on the first batch that asks for threads (an import starts
 * nothing) and are kept for the next batch, so a process that lists
 * repeatedly pays thread start-up and module loading once; idle threads are
 * unreferenced (they never hold the process open) and exit after
 * `IDLE_EXIT_MS`, or at once at `releasePools` (which spares a pool a batch
 * is still using).
 */

import { existsSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Tinypool } from "tinypool";

/**
 * A worker module beside the module at `base` (its `import.meta.url`):
 * `<name>.ts` when run from source, `<name>.js` when built or bundled.
 */
export function workerModule(name: string, base: string): URL {
  return new URL(`./${name}.${base.endsWith(".ts") ? "ts" : "js"}`, base);
}

/** Why a worker failed, in one line. */
function failure(error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return why.split("\n")[0] ?? why;
}

/** What a worker module's default export receives for one chunk. */
export interface WorkerChunk<D, I = never> {
  /** Indexes of the items in this chunk (into the batch's items). */
  indexes: number[];
  /** The batch's shared data, as passed to `runShared`. */
  data: D;
  /** Each index's own data (`SharedBatch.item`), in `indexes` order; empty without `item`. */
  items: I[];
}

export interface SharedBatch<D, R, I = never> {
  /** How many items (0..count-1). */
  count: number;
  /** Runs one item on the calling thread. Must not throw. */
  run: (index: number) => R;
  /** A module whose default export maps a `WorkerChunk<D>` to the chunk's results, in order. */
  module: URL;
  /**
   * Structured-cloneable data every worker chunk receives. It is copied
   * with each chunk: what only some items need belongs in `item`.
   */
  data: D;
  /**
   * Structured-cloneable data of item `index`, sent with its chunk alone
   * (`WorkerChunk.items`). Agy's discovery sent all 1,000 candidates with
   * each chunk of 8: 270 M instructions of cloning on a cold `list`.
   */
  item?: (index: number) => I;
  /** Worker threads beside the calling thread; 0 runs everything on the caller. */
  threads: number;
  /** The result for an item whose worker failed or stalled. */
  lost: (index: number, why: string) => R;
  /** A chunk a worker has held this long without answering is given up. */
  stallMs: number;
  /** Items per chunk (default 8). */
  chunkSize?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Run a batch on the calling thread and `threads` workers; results in item order. */
export async function runShared<D, R, I = never>(batch: SharedBatch<D, R, I>): Promise<R[]> {
  const { count } = batch;
  const results = new Array<R>(count);
  const size = Math.max(1, batch.chunkSize ?? 8);
  let next = 0;
  let done = 0;
  const take = (): number[] | undefined => {
    if (next >= count) return undefined;
    const indexes: number[] = [];
    for (const end = Math.min(count, next + size); next < end; next++) indexes.push(next);
    return indexes;
  };
  const finish = (indexes: number[], values: readonly R[]) => {
    values.forEach((value, k) => {
      const index = indexes[k];
      if (index !== undefined) results[index] = value;
    });
    done += indexes.length;
    batch.onProgress?.(done, count);
  };

  const onCaller = async () => {
    for (let chunk = take(); chunk; chunk = take()) {
      // Item by item, so that a serial run reports progress per item.
      for (const i of chunk) finish([i], [batch.run(i)]);
      // Let worker replies land between chunks.
      await nextTurn();
    }
  };

  let threads = Math.max(0, Math.min(Math.floor(batch.threads), Math.ceil(count / size) - 1));
  // A worker module that is not there (a partial install) leaves the work to the caller.
  if (threads > 0 && !existsSync(fileURLToPath(batch.module))) threads = 0;
  if (threads === 0) {
    await onCaller();
    return results;
  }
  const pool = await poolFor(batch.module, threads);
  const release = hold(pool);
  const onWorker = async () => {
    for (let chunk = take(); chunk; chunk = take()) {
      const { item } = batch;
      const task: WorkerChunk<D, I> = {
        indexes: chunk,
        data: batch.data,
        items: item ? chunk.map((i) => item(i)) : [],
      };
      try {
        const values: unknown = await pool.run(task, {
          signal: AbortSignal.timeout(batch.stallMs),
        });
        if (!Array.isArray(values) || values.length !== chunk.length)
          throw new Error("the worker answered with something else");
        finish(chunk, values);
      } catch (error) {
        const why = failure(error);
        finish(
          chunk,
          chunk.map((i) => batch.lost(i, `a worker thread failed (${why})`)),
        );
        // This lane is done: the caller and the other lanes take the rest.
        return;
      }
    }
  };
  // Workers first: the caller's first chunk runs synchronously.
  const workers = Array.from({ length: threads }, onWorker);
  try {
    await Promise.all([...workers, onCaller()]);
  } finally {
    release();
  }
  return results;
}

export interface ReadAhead<T, R> {
  /** The batches, in order. */
  batches: readonly T[];
  /** A batch on the calling thread. Must not throw. */
  here: (batch: T) => R;
  /** A module whose default export maps a batch's `job` to its result. */
  module: URL;
  /** The structured-cloneable job the worker receives for a batch. */
  job: (batch: T) => unknown;
  /** Whether a worker's answer is a batch's result; anything else counts as a failure. */
  accept: (value: unknown, batch: T) => value is R;
  /** False: every batch on the calling thread. */
  worker: boolean;
  /** A batch the worker has held this long without answering is given up (also how an exit is seen). */
  stallMs: number;
  /** Told once, in one line, when the worker fails; the calling thread then does the rest. */
  onFailure?: (why: string) => void;
  /**
   * Asked after each of the worker's results, and before the caller reads
   * a batch beside it (`share`): false lets the worker thread go at once
   * (its heap with it) and the calling thread does the rest, batches the
   * worker still held included, as after a failure but silently (a memory
   * budget: see session-index.ts).
   */
  keep?: () => boolean;
  /** Asked before a batch is posted: false reads that batch on the calling thread (a session too big for the worker's heap). */
  onWorker?: (batch: T) => boolean;
  /**
   * The worker's heap limits (`worker_threads` `resourceLimits`): a bound
   * makes its V8 collect before it grows, so the thread's heap stays near
   * what one batch holds.
   */
  resourceLimits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number };
  /**
   * The caller reads batches too while the worker is behind, so results
   * come out of order (each batch once): for a caller whose own work per
   * batch is less than the worker's.
   */
  share?: boolean;
}

/**
 * Each batch with its result, each read on one worker thread while the
 * caller handles the one before: the next batch is posted to the worker
 * before a result is yielded, so whatever the caller does with it
 * (synchronously) runs beside the worker. In order, unless `share`: then
 * the worker has two batches posted at a time, and whenever its next
 * result is not in yet the caller reads a batch itself, from the far end,
 * so both threads read while any batch is left. A failed or stalled
 * worker, or a worker module that is not there, leaves the rest to the
 * calling thread.
 */
export async function* readAhead<T, R>(
  ahead: ReadAhead<T, R>,
): AsyncGenerator<{ batch: T; result: R }> {
  const { batches } = ahead;
  let pool =
    ahead.worker && batches.length > 0 && existsSync(fileURLToPath(ahead.module))
      ? await poolFor(ahead.module, 1, ahead.resourceLimits)
      : undefined;
  const there = async (batch: T): Promise<R> => {
    const used = pool;
    if (used) {
      let why = "it answered with something else";
      try {
        // Posted now, before the first await: the caller's next work overlaps it.
        const value: unknown = await used.run(ahead.job(batch), {
          signal: AbortSignal.timeout(ahead.stallMs),
        });
        if (ahead.accept(value, batch)) return value;
      } catch (error) {
        why = failure(error);
      }
      // Told once: a second batch posted to the same worker may fail with it.
      if (pool === used) {
        pool = undefined;
        ahead.onFailure?.(why);
      }
    }
    return ahead.here(batch);
  };
  const depth = ahead.share ? 2 : 1;
  /** Batches front..back-1 are not taken yet: the worker takes from the front, a sharing caller from the back. */
  let front = 0;
  let back = batches.length;
  const posted: { batch: T; result: Promise<R>; settled: boolean }[] = [];
  const fill = () => {
    while (pool && posted.length < depth && front < back) {
      const batch = batches[front];
      if (batch === undefined || ahead.onWorker?.(batch) === false) return;
      front++;
      const job = { batch, result: there(batch), settled: false };
      const settle = () => {
        job.settled = true;
      };
      job.result.then(settle, settle);
      posted.push(job);
    }
  };
  // keep said no: the worker goes at once, its heap with it; a batch it
  // still held fails silently (`there` tells only the pool in use) and is read here.
  const keepWorker = () => {
    if (pool && ahead.keep?.() === false) {
      pool = undefined;
      letGo(ahead.module);
    }
  };
  // Held until the last batch (or the caller stops early): releasePools leaves it alone.
  const release = pool ? hold(pool) : () => {};
  try {
    for (let k = 0; ; k++) {
      fill();
      const next = posted[0];
      if (next && (next.settled || !ahead.share || front >= back)) {
        const result = await next.result;
        posted.shift();
        keepWorker();
        fill();
        yield { batch: next.batch, result };
      } else if (front < back) {
        // The worker is behind (sharing), kept off this batch, or gone: read one here.
        if (next) keepWorker();
        const first = batches[front];
        const mustHere = first !== undefined && ahead.onWorker?.(first) === false;
        const batch = pool && next && !mustHere ? batches[--back] : batches[front++];
        if (batch === undefined) break;
        fill();
        // Let other work in (an MCP server's requests) between batches.
        if (!pool && posted.length === 0 && k > 0) await nextTurn();
        yield { batch, result: ahead.here(batch) };
        // Let the worker's reply land before asking whether it is in.
        if (posted.length > 0) await nextTurn();
      } else break;
    }
  } finally {
    release();
  }
}

/**
 * The file a worker thread imports. Built code names its `.js` module
 * directly; run from source (tests, tsx) the module is TypeScript, which a
 * bare worker cannot import, so a small entry registers tsx's loader first
 * (tsx is a devDependency: only source runs need it).
 */
function workerFilename(module: URL): string {
  if (!module.pathname.endsWith(".ts")) return module.href;
  const api = import.meta.resolve("tsx/esm/api");
  const entry = [
    `import { register } from ${JSON.stringify(api)};`,
    "register();",
    `const m = await import(${JSON.stringify(module.href)});`,
    "export default m.default;",
  ].join("\n");
  return `data:text/javascript,${encodeURIComponent(entry)}`;
}

/** An idle worker thread exits after this long, in ms. */
const IDLE_EXIT_MS = 20_000;

const pools = new Map<string, Tinypool>();

/**
 * The worker's Node flags. By default a worker inherits the host's, V8's
 * flags included (`node --max-old-space-size=4096 txcript list`): Node
 * refuses V8 flags in an explicit `execArgv` (they hold for the whole
 * process anyway), and a worker that fails to start loses its chunk. The
 * exception is `--input-type`, which a worker refuses to inherit: a host
 * started as `node --input-type=module -e …` gets the rest of its flags
 * passed explicitly, which still fails if V8 flags are among them.
 */
function workerExecArgv(flags: readonly string[]): { execArgv?: string[] } {
  const isInputType = (flag: string, i: number) =>
    flag === "--input-type" || flag.startsWith("--input-type=") || flags[i - 1] === "--input-type";
  if (!flags.some(isInputType)) return {};
  return { execArgv: flags.filter((flag, i) => !isInputType(flag, i)) };
}

/** End the pool of a worker module now (its threads and their heaps), if there is one. */
function letGo(module: URL): void {
  const pool = pools.get(module.href);
  if (!pool) return;
  pools.delete(module.href);
  void pool.destroy();
}

/**
 * End every idle pool now (one no batch is using), its threads and heaps
 * with it, and wait for them to go: for a caller done with a large batch
 * (the index after a store's discovery), whose next work would otherwise
 * run beside idle threads' heaps.
 */
export async function releasePools(): Promise<void> {
  const idle = [...pools].filter(([, pool]) => !busy.has(pool));
  for (const [key] of idle) pools.delete(key);
  await Promise.all(idle.map(([, pool]) => pool.destroy()));
}

/** Pools a batch is using now, with how many: `releasePools` leaves them alone. */
const busy = new Map<Tinypool, number>();

/** Mark `pool` in use until the returned function is called. */
function hold(pool: Tinypool): () => void {
  busy.set(pool, (busy.get(pool) ?? 0) + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (busy.get(pool) ?? 1) - 1;
    if (left > 0) busy.set(pool, left);
    else busy.delete(pool);
  };
}

/**
 * The pool for a worker module, grown to `threads` if it had fewer.
 * tinypool is imported here, not at the top: its import opens a pipe to
 * stdout, and importing txcript must leave nothing behind.
 */
async function poolFor(
  module: URL,
  threads: number,
  resourceLimits?: ReadAhead<unknown, unknown>["resourceLimits"],
): Promise<Tinypool> {
  const key = module.href;
  const existing = pools.get(key);
  if (existing && existing.options.maxThreads >= threads) return existing;
  const { Tinypool } = await import("tinypool");
  const pool = new Tinypool({
    filename: workerFilename(module),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_EXIT_MS,
    isolateWorkers: false,
    ...workerExecArgv(process.execArgv),
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  if (existing) void existing.destroy();
  pools.set(key, pool);
  return pool;
}
