/**
 * Atomic file writes shared by every store and the CLI: a temporary file in
 * the target's directory, written, fsynced and renamed into place, so a
 * crash leaves the old file or the new one, never a partial one. Temporary
 * names carry the writer's pid, so a later save can sweep what a killed one
 * left behind.
 */

import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** `.<name>.tmp-<pid>-<hex>`, plus SQLite's sidecars of such a name. */
export const TEMP_NAME = /^\..+\.tmp-(\d+)-[0-9a-f]+(?:-journal|-wal|-shm)?$/;

/** A fresh temporary path for `name` in `dir` (hidden, so no store lists it). */
export function tempPath(dir: string, name: string): string {
  return join(dir, `.${name}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
}

/** fsync a file or directory; where that is impossible (directories on Windows) durability rests on the rename. */
export function fsyncPath(path: string, flags = "r"): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, flags);
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Remove temporary files in `dir` left by saves whose process is gone (or by this one). */
export function sweepTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m && (Number(m[1]) === process.pid || !processAlive(Number(m[1])))) {
      rmSync(join(dir, name), { force: true });
    }
  }
}

/**
 * Write `data` to `path` atomically. Throws the underlying error (after
 * removing the temporary file); callers wrap it in their own error class.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o666): void {
  const tmp = tempPath(dirname(path), basename(path));
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", mode);
    writeFileSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
}
