/**
 * Large generated sessions for the heap-limited CLI tests: files written a
 * megabyte at a time (never held whole here), and the envelope of a Claude
 * Code line chained to the one before it.
 */

import { closeSync, openSync, writeSync } from "node:fs";

/** `count` lines made by `line`, written to `path` a megabyte or so at a time. */
export function writeLines(path: string, count: number, line: (i: number) => string): void {
  const fd = openSync(path, "w");
  try {
    let batch = "";
    for (let i = 0; i < count; i++) {
      batch += `${line(i)}\n`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = "";
      }
    }
    writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
}

/** Line or record `i`'s id: a uuid that counts. */
export const lineUuid = (i: number): string =>
  `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** Message i's text in a session of short messages; message 5 holds characters outside Latin-1. */
export const shortText = (i: number): string =>
  `message ${i} of the ${i === 5 ? "caf\u00e9 \u2192" : "session"}`;

/** The fields a Claude Code line `i` of session `sid` starts with: its uuid, line i - 1 as parent. */
export function claudeChainFields(sid: string, ts: string, i: number): string {
  const parent = i === 0 ? "null" : `"${lineUuid(i - 1)}"`;
  return `"uuid":"${lineUuid(i)}","parentUuid":${parent},"sessionId":"${sid}","timestamp":"${ts}","cwd":"/bench"`;
}

/**
 * `source` as a zstd frame of raw (stored) blocks, written to `path`: a
 * valid `.zst` file without a compressor (Node 20 has none), as large as
 * its content. Frame layout from RFC 8878: magic, a header with a window
 * descriptor and no content size, then blocks of at most 128 KiB, each a
 * 3-byte little-endian header (last flag, type 0 = raw, size).
 */
export function writeRawZstd(path: string, source: Uint8Array): void {
  const fd = openSync(path, "w");
  try {
    // Magic 0xFD2FB528; descriptor 0 (no checksum, no content size); window 2^(10+7) = 128 KiB.
    writeSync(fd, Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3));
    const max = 128 * 1024;
    let at = 0;
    do {
      const size = Math.min(max, source.length - at);
      const last = at + size >= source.length ? 1 : 0;
      const header = (size << 3) | last;
      writeSync(fd, Uint8Array.of(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff));
      writeSync(fd, source.subarray(at, at + size));
      at += size;
    } while (at < source.length);
  } finally {
    closeSync(fd);
  }
}
