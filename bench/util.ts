/**
 * Benchmark helpers: medians over repeated runs, throughput, peak RSS.
 * Benchmarks generate their own data and print figures; nothing asserts time.
 */

import { performance } from "node:perf_hooks";

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Run `fn` `runs` times after `warmup` runs; the median wall time in ms. */
export async function timeMedian(
  fn: () => unknown | Promise<unknown>,
  runs = 7,
  warmup = 1,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function report(rows: Record<string, string | number>[]): void {
  for (const row of rows) {
    process.stdout.write(
      `${Object.entries(row)
        .map(([k, v]) => `${k}: ${v}`)
        .join("  |  ")}\n`,
    );
  }
}
