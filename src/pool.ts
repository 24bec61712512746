/**
 * Synchronous work sharing across worker threads: `runTasks` runs tasks
 * 0..count-1 on the calling thread and on a few worker threads at once, and
 * returns every result in task order before it returns, so synchronous
 * contracts (`Store.discover`) can use more than one core. Harness-agnostic:
 * the worker module decides what a task is (see `serveTasks`).
 *
 * Why hand-rolled: the libraries that make worker calls synchronous
 * (synckit and the like) run one call at a time on one worker; this needs
 * one batch shared by several threads, with the caller taking part.
 *
 * How: each batch has its own control words (a SharedArrayBuffer). The
 * threads claim task numbers from one shared counter (`Atomics.add`), so the
 * calling thread works while workers start and no thread idles while tasks
 * remain. Workers post results on their MessagePort, which the caller drains
 * with `receiveMessageOnPort`, and wake it with `Atomics.notify`; the caller
 * blocks in `Atomics.wait`, never in the event loop, which a synchronous
 * function cannot reach. Each worker sets its own state word (invited,
 * running, ended), also from its `exit` handler (which runs on a normal end,
 * `process.exit` and an uncaught exception alike), so a worker that dies is
 * seen at once; one that stops answering is given up after `stallMs`
 * without progress. Tasks a lost worker held come back through `lost`,
 * never as a hang. A worker the caller finished without is simply not used.
 *
 * Workers outlive a batch (started threads are kept, unreferenced, for the
 * next one, so a process that lists repeatedly pays their start-up and JIT
 * warm-up once) and exit by themselves after `IDLE_EXIT_MS` without work.
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
  workerData,
} from "node:worker_threads";

/** Control words of a batch (an Int32Array over a SharedArrayBuffer). */
const NEXT = 0; // the next task number to claim
const POSTED = 1; // bumped after each result a worker posts, and on every state change
const STATE = 2; // one word per worker from here on

const INVITED = 0;
const RUNNING = 1;
const ENDED = 2;

/** An idle worker exits after this long, in ms. */
export const IDLE_EXIT_MS = 20_000;

/** What a worker module receives at start (`workerData`). */
interface Handoff {
  port: MessagePort;
  /** One word per pool slot: the generation of the thread living there, 0 when none. */
  alive: SharedArrayBuffer;
  slot: number;
  generation: number;
}

/** What a worker receives for each batch. */
interface Batch {
  id: number;
  control: SharedArrayBuffer;
  /** This worker's state word in `control` (STATE + its place in the batch). */
  state: number;
  count: number;
  data: unknown;
}

export interface RunTasksOptions<R> {
  /** How many tasks: they are numbered 0..count-1. */
  count: number;
  /** Runs task `index` on the calling thread: the same work a worker does. */
  run: (index: number) => R;
  /**
   * The worker module, a file URL: it calls `serveTasks`. A `.ts` module
   * (tests and benchmarks run from source) is loaded through tsx.
   */
  module: URL;
  /** Passed to the worker module's handler (structured-cloned). */
  data: unknown;
  /** Worker threads beside the calling thread; 0 runs every task here. */
  workers: number;
  /** A task a worker held when it died or stalled: what stands for its result. */
  lost: (index: number, why: string) => R;
  /** Give up on workers after this long with no result and no state change, in ms. */
  stallMs: number;
  /** Called on the calling thread as results arrive (in arrival order); `worker`: a worker's. */
  onResult?: (done: number, count: number, worker: boolean) => void;
}

interface Slot {
  thread: Worker;
  port: MessagePort;
  generation: number;
}

let generations = 0;

/** Started workers per worker module, kept for the next batch. */
class Pool {
  /** Up to this many slots; `alive` has a word for each. */
  static readonly MAX = 16;
  readonly slots: (Slot | undefined)[] = [];
  readonly alive = new Int32Array(new SharedArrayBuffer(4 * Pool.MAX));

  constructor(readonly module: URL) {}

  /** The first `n` slots, starting threads where none lives. */
  take(n: number): Slot[] {
    const taken: Slot[] = [];
    for (let s = 0; s < Math.min(n, Pool.MAX); s++) {
      let slot = this.slots[s];
      if (slot && Atomics.load(this.alive, s) !== slot.generation) {
        this.drop(s);
        slot = undefined;
      }
      if (!slot) {
        slot = this.start(s);
        if (!slot) break;
        this.slots[s] = slot;
      }
      taken.push(slot);
    }
    return taken;
  }

  drop(s: number): void {
    const slot = this.slots[s];
    this.slots[s] = undefined;
    if (slot) {
      void slot.thread.terminate();
      slot.port.close();
    }
  }

  dropSlot(slot: Slot): void {
    const s = this.slots.indexOf(slot);
    if (s !== -1) this.drop(s);
  }

  private start(s: number): Slot | undefined {
    const { port1: port, port2: outbox } = new MessageChannel();
    const generation = ++generations;
    const handoff: Handoff = {
      port: outbox,
      alive: this.alive.buffer as SharedArrayBuffer,
      slot: s,
      generation,
    };
    Atomics.store(this.alive, s, generation);
    try {
      const { code, eval: isEval } = bootstrap(this.module);
      const thread = new Worker(code, {
        eval: isEval,
        workerData: handoff,
        transferList: [outbox],
        // Options like `--import tsx` would start a second loader in every worker.
        execArgv: [],
      });
      // An uncaught error is seen through the state words; without a
      // listener it would also be thrown on this thread's event loop.
      thread.on("error", () => {});
      // A worker that never reached serveTasks (its module failed to load) is seen here.
      thread.on("exit", () => Atomics.compareExchange(this.alive, s, generation, 0));
      thread.unref();
      port.unref();
      return { thread, port, generation };
    } catch {
      Atomics.store(this.alive, s, 0);
      port.close();
      return undefined;
    }
  }
}

const pools = new Map<string, Pool>();
let batches = 0;

interface TsxManifest {
  exports: { "./esm/api": { import: { default: string } } };
}

/** tsx's loader, for a worker module run from TypeScript source (tests, benchmarks). */
function bootstrap(module: URL): { code: URL | string; eval: boolean } {
  if (!module.pathname.endsWith(".ts")) return { code: module, eval: false };
  // An eval'd worker is a CommonJS script: it registers tsx (a development
  // dependency, resolved from here), then imports the module. tsx's ESM
  // entry, read from its exports map: require.resolve would give the
  // CommonJS one, which cannot register from a worker.
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const exportsMap = (JSON.parse(readFileSync(manifest, "utf8")) as TsxManifest).exports;
  const tsx = new URL(exportsMap["./esm/api"].import.default, pathToFileURL(manifest)).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`;
  return { code, eval: true };
}

/**
 * Run tasks 0..count-1 across the calling thread and up to `workers` worker
 * threads; returns their results in task order. Blocks until every task
 * has a result (its own, or `lost`'s).
 */
export function runTasks<R>(options: RunTasksOptions<R>): R[] {
  const { count, run } = options;
  const results: (R | undefined)[] = new Array(count);
  const have: boolean[] = new Array(count).fill(false);
  let done = 0;
  const settle = (index: number, result: R, worker = false) => {
    if (have[index]) return;
    have[index] = true;
    results[index] = result;
    done++;
    options.onResult?.(done, count, worker);
  };
  const wanted = Math.max(0, Math.min(options.workers, count - 1));
  if (wanted === 0) {
    for (let i = 0; i < count; i++) settle(i, run(i));
    return results as R[];
  }

  let pool = pools.get(options.module.href);
  if (!pool) {
    pool = new Pool(options.module);
    pools.set(options.module.href, pool);
  }
  const slots = pool.take(wanted);
  const id = ++batches;
  const control = new Int32Array(new SharedArrayBuffer(4 * (STATE + slots.length)));
  const drain = () => {
    for (const { port } of slots) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const [batch, index, result] = m.message as [number, number, R];
        if (batch === id) settle(index, result, true); // not a late answer to a given-up batch
      }
    }
  };
  slots.forEach((slot, w) => {
    const batch: Batch = {
      id,
      control: control.buffer as SharedArrayBuffer,
      state: STATE + w,
      count,
      data: options.data,
    };
    slot.port.postMessage(batch);
  });

  // This thread's share: claim tasks like any worker.
  for (let i = Atomics.add(control, NEXT, 1); i < count; i = Atomics.add(control, NEXT, 1)) {
    settle(i, run(i));
    drain();
  }
  // Workers that have not picked up the batch yet claim nothing from here on.
  for (let w = 0; w < slots.length; w++)
    Atomics.compareExchange(control, STATE + w, INVITED, ENDED);

  // Wait for the running workers to finish what they hold.
  let lastChange = Date.now();
  let stalled = false;
  for (;;) {
    drain();
    if (done === count) break;
    const seen = Atomics.load(control, POSTED);
    const running = slots.some((_, w) => Atomics.load(control, STATE + w) === RUNNING);
    if (!running) break;
    const waited = Date.now() - lastChange;
    if (waited >= options.stallMs) {
      stalled = true;
      break;
    }
    const woke = Atomics.wait(control, POSTED, seen, Math.min(options.stallMs - waited, 1000));
    if (woke !== "timed-out") lastChange = Date.now();
  }
  drain();
  // A worker still running after a stall is stuck: it is not reused.
  slots.forEach((slot, w) => {
    if (Atomics.load(control, STATE + w) === RUNNING) pool.dropSlot(slot);
  });
  const why = stalled
    ? `the worker thread reading it gave no answer within ${options.stallMs} ms`
    : "the worker thread reading it stopped before answering";
  for (let i = 0; i < count; i++) if (!have[i]) settle(i, options.lost(i, why));
  return results as R[];
}

/**
 * The worker side: run in a worker module started by `runTasks`, serves
 * batches with `handler(index, data)` until the thread is idle for
 * `IDLE_EXIT_MS`. The handler must not throw for an ordinary failure: turn
 * it into a result, so that the caller sees the same result the calling
 * thread would have produced.
 */
export function serveTasks<R>(handler: (index: number, data: unknown) => R): void {
  const { port, alive: aliveBuffer, slot, generation } = workerData as Handoff;
  const alive = new Int32Array(aliveBuffer);
  let current: { control: Int32Array; state: number } | undefined;
  const signal = (control: Int32Array) => {
    Atomics.add(control, POSTED, 1);
    Atomics.notify(control, POSTED);
  };
  process.on("exit", () => {
    Atomics.compareExchange(alive, slot, generation, 0);
    if (current) {
      Atomics.store(current.control, current.state, ENDED);
      signal(current.control);
    }
  });
  let idle: NodeJS.Timeout | undefined;
  const rest = () => {
    idle = setTimeout(() => process.exit(0), IDLE_EXIT_MS);
  };
  port.on("message", (batch: Batch) => {
    clearTimeout(idle);
    const control = new Int32Array(batch.control);
    if (Atomics.compareExchange(control, batch.state, INVITED, RUNNING) === INVITED) {
      current = { control, state: batch.state };
      const { count, data } = batch;
      for (let i = Atomics.add(control, NEXT, 1); i < count; i = Atomics.add(control, NEXT, 1)) {
        port.postMessage([batch.id, i, handler(i, data)]);
        signal(control);
      }
      current = undefined;
      Atomics.store(control, batch.state, ENDED);
      signal(control);
    }
    rest();
  });
  rest();
}
