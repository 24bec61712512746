/**
 * A text refresh's sessions cut into batches: each batch is read (on the
 * text worker or the calling thread) and written in one transaction, so
 * what a batch holds at once, its sessions loaded and their chunks, is
 * bounded by the bytes of its sources rather than by a count of sessions
 * whatever their size; and the text worker's terms: from how many batches
 * it starts, its heap, the RSS it is let go at, and when the calling
 * thread reads batches beside it. Pure.
 */

/**
 * A batch closes when its sources reach this many bytes: a loaded session
 * takes about 6 to 8 times its file's size (bench/memory's load+toCommon),
 * so a batch's transcripts stay within some tens of MB on either thread.
 */
const TEXT_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * ...or this many sessions: small sessions share a transaction (one commit
 * and one worker round trip per batch), and an interrupted build keeps
 * every batch it finished.
 */
const TEXT_BATCH_SESSIONS = 64;

/**
 * The calling thread also reads batches beside the worker (`readAhead`'s
 * `share`) only when the build starts under this RSS: its own reading heap
 * then sits beside the worker's. bench/scale's 20,000 sessions start at
 * about 153 MB (where a budget of 176 MB let the worker go within the
 * first batch anyway), and their first `query` peaked at 264 to 303 MB sharing
 * (7 runs, load average 7 to 18) against 252 to 277 MB not (5 runs; main
 * 235 to 264 MB, 4 runs); bench/index's and bench/scale's 1,000-session
 * stores start near 80 MB.
 */
export const TEXT_SHARE_RSS = 128 * 1024 * 1024;

/**
 * From this many batches up, sessions' text is read on a worker thread
 * while the index writes the batch before; below it, starting a worker
 * costs more than it saves. bench/index, 707 MB of sources on 2 cores: the
 * text build took 0.72x the time of the calling thread alone (9.1 s against
 * 12.6 s), for a peak RSS of 393 MB against 221 MB (the worker's own heap).
 * So it is let go at an RSS of `TEXT_WORKER_RSS` bytes: bench/scale's 20,000
 * sessions, 343 MB with the worker throughout, 237 MB on the calling thread.
 * Still so with the calling thread reading a session at a time: 264 to 277
 * MB with the worker throughout (4 runs); let go here, 208 to 214 MB (7
 * runs). What the worker adds is mostly pages V8 keeps committed in both
 * isolates and glibc's per-thread arenas, not live data (heaps used 20 to
 * 30 MB each): bench/index's 100 agy conversations level off at 183 to
 * 201 MB with it throughout (146 MB without), so at 176 MB, as before,
 * they lost the worker after three batches and read the rest on one
 * thread (0.45x the load's speed). A worker costs a second isolate's
 * warm-up (about 0.9 s of CPU there, docs/architecture.md), so it pays
 * where the calling thread, which cannot be spread, is the busiest.
 */
export const TEXT_WORKER_FROM = 2;
export const TEXT_WORKER_RSS = 208 * 1024 * 1024;
/**
 * The text worker's heap, bounded so its V8 collects rather than grows (bench/index's 100
 * conversations, RSS budget lifted: peak 273 MB unbounded, 227 MB so; one run each). A session
 * larger than a batch's TEXT_BATCH_BYTES is read on the calling thread (`oversized`).
 */
export const TEXT_WORKER_HEAP = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };
/** `items` in order, cut where a batch would pass `maxBytes` (a larger item alone) or `maxCount`. */
export function batchesByBytes<T extends { bytes: number }>(
  items: readonly T[],
  maxBytes = TEXT_BATCH_BYTES,
  maxCount = TEXT_BATCH_SESSIONS,
): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (batch.length > 0 && (bytes + item.bytes > maxBytes || batch.length >= maxCount)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += item.bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** A batch over the byte bound: one session larger than a batch may be. */
export function oversized(
  batch: readonly { bytes: number }[],
  maxBytes = TEXT_BATCH_BYTES,
): boolean {
  return batch.reduce((sum, item) => sum + item.bytes, 0) > maxBytes;
}
