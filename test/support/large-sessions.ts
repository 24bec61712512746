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

/** The fields a Claude Code line `i` of session `sid` starts with: its uuid, line i - 1 as parent. */
export function claudeChainFields(sid: string, ts: string, i: number): string {
  const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  const parent = i === 0 ? "null" : `"00000000-0000-4000-8000-${String(i - 1).padStart(12, "0")}"`;
  return `"uuid":"${uuid}","parentUuid":${parent},"sessionId":"${sid}","timestamp":"${ts}","cwd":"/bench"`;
}
