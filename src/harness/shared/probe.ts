/**
 * Stamps for change detection, shared by the probes and stores of
 * harnesses that keep one session a file. A probe stats and parses
 * nothing else, so this module loads only node:fs and the types.
 */

import { statSync } from "node:fs";
import { statOrUndefined } from "../../fsx.js";
import { type Fingerprint, fileStamp } from "../../transcript.js";

/** One fingerprint a file; a file that cannot be stat'ed gets a stamp no real file has. */
export function stampEach(paths: readonly string[]): Fingerprint[] {
  return paths.map((path) => {
    try {
      return { files: [fileStamp(path, statSync(path))] };
    } catch {
      return { files: [{ path, mtime_ms: 0, size: -1 }] };
    }
  });
}

/** One fingerprint a path that is a regular file now; others are left out. */
export function stampFiles(paths: readonly string[]): Fingerprint[] {
  return paths.flatMap((path) => {
    const fp = fileFingerprint(path);
    return fp === undefined ? [] : [fp];
  });
}

/** The fingerprint of one session file; undefined when there is no path or no file. */
export function fileFingerprint(path: string | undefined): Fingerprint | undefined {
  if (path === undefined) return undefined;
  const st = statSync(path, { throwIfNoEntry: false });
  return st?.isFile() ? { files: [fileStamp(path, st)] } : undefined;
}

/**
 * A file's size, times and inode for a stamp, or null when nothing is
 * there (a missing path, or one through a file: see `statOrUndefined`).
 */
export function fileState(path: string): number[] | null {
  const st = statOrUndefined(path);
  return st === undefined ? null : [st.size, st.mtimeMs, st.ctimeMs, st.ino];
}
