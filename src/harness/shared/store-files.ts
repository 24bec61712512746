/**
 * The file work of stores that keep one session a file (Claude Code, Qwen
 * Code, pi, Copilot CLI, ...): finding the copies of a session, stamping
 * files for change detection, the checks discovery makes before reading a
 * file, reading a session's text, and deleting a session's files. What
 * differs between the harnesses (the harness id, the folders, companion
 * folders) comes in as parameters; no harness's layout is known here.
 */

import { isUtf8 } from "node:buffer";
import { lstatSync, readFileSync, rmSync, type Stats, statSync, unlinkSync } from "node:fs";
import { basename } from "node:path";
import {
  ConflictError,
  describeCause,
  errnoCode,
  InvalidRequestError,
  NotFoundError,
  ParseError,
  StoreError,
  TxcriptError,
} from "../../errors.js";
import { mkdirInside, sweepTemps, TargetExistsError, writeFileAtomic } from "../../fsx.js";
import { checkLineCount, Lines, linePieces, type VerbatimLine } from "../../lines.js";
import { linkOutsideProblem, pathComponentProblem, realPathInside } from "../../paths.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  HarnessId,
  Saved,
  Skipped,
} from "../../transcript.js";

/** The existing files among `paths`, most recently modified first (ties by path). */
export function newestFirst(paths: readonly string[]): string[] {
  const found: { path: string; mtime: number }[] = [];
  for (const path of paths) {
    try {
      const st = statSync(path);
      if (st.isFile()) found.push({ path, mtime: st.mtimeMs });
    } catch {
      // not there
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path)).map((f) => f.path);
}

/** What discovery learns of a candidate file before reading it. */
type FileCheck =
  /** A regular, non-empty file inside the root. */
  | { stats: Stats }
  /** Listed as skipped, with why. */
  | { skip: string }
  /** Passed over in silence (not a regular file). */
  | undefined;

/**
 * The checks before a session file named `<id><suffix>` is read: the name
 * is a usable id, a link does not lead outside `root`, it is a regular
 * file and not empty.
 */
function checkSessionFile(root: string, path: string, id: string): FileCheck {
  const nameProblem = pathComponentProblem(id);
  if (nameProblem) return { skip: `not a session id: the name ${nameProblem}` };
  const outside = linkOutsideProblem(root, path);
  if (outside) return { skip: outside };
  const stats = statSync(path);
  if (!stats.isFile()) return undefined;
  if (stats.size === 0) return { skip: "empty file" };
  return { stats };
}

/** Why discovery passed over a file it tried: a txcript error's own detail, else the cause. */
export function skipReason(cause: unknown): string {
  return cause instanceof TxcriptError ? cause.detail : describeCause(cause);
}

/** V8 cannot hold a string much longer than 512 MiB; bigger files are refused, not crashed on. */
const MAX_SESSION_BYTES = 512 * 1024 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A session file's bytes, at most `maxBytes`; a read that fails is a StoreError naming the file. */
function readSessionBytes(harness: HarnessId, path: string, maxBytes: number): Uint8Array {
  try {
    const size = statSync(path).size;
    if (size > maxBytes) throw new RangeError(`the file is larger than ${maxBytes} bytes`);
    return readFileSync(path);
  } catch (cause) {
    throw new StoreError(harness, `cannot read the session: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

/** A session file's text, strict UTF-8, at most `maxBytes`. Errors name the file. */
export function readSessionText(
  harness: HarnessId,
  path: string,
  maxBytes = MAX_SESSION_BYTES,
): string {
  const bytes = readSessionBytes(harness, path, maxBytes);
  try {
    return UTF8.decode(bytes);
  } catch (cause) {
    throw new ParseError(harness, "the session is not valid UTF-8", { file: path, cause });
  }
}

/**
 * A JSONL session file's lines over its bytes (strict UTF-8, at most
 * `maxBytes` and MAX_LINES lines), never one string: the bytes stay
 * outside the V8 heap and a line is decoded when it is read. The same
 * errors as `readSessionText`. `utf8: "replace"` reads bad bytes as
 * U+FFFD instead, as `readFileSync(path, "utf8")` does (for a harness
 * that has always read its files so).
 */
export function readSessionLines(
  harness: HarnessId,
  path: string,
  maxBytes = MAX_SESSION_BYTES,
  utf8: "strict" | "replace" = "strict",
): Lines {
  const bytes = readSessionBytes(harness, path, maxBytes);
  if (utf8 === "strict" && !isUtf8(bytes))
    throw new ParseError(harness, "the session is not valid UTF-8", { file: path });
  checkLineCount(bytes, harness, path);
  return Lines.fromBytes(bytes);
}

/** `no <label> session "<id>"`, naming the store's root. */
export function noSession(
  harness: HarnessId,
  label: string,
  id: string,
  root: string,
): NotFoundError {
  return new NotFoundError(harness, `no ${label} session ${JSON.stringify(id)}`, { file: root });
}

/**
 * Deletes a session's files (and, when `companion` names one, the folder
 * beside each file that holds its side data). Everything is checked before
 * anything is removed: each file must lie inside `root`, and so must a
 * companion folder unless it is a symlink (removed as a link). Returns what
 * was removed; a failure midway is a StoreError naming the first file.
 */
export function removeSessionFiles(
  harness: HarnessId,
  root: string,
  paths: readonly string[],
  companion?: (path: string) => string,
): string[] {
  const side: string[] = [];
  for (const path of paths) {
    realPathInside(root, path, harness);
    if (companion === undefined) continue;
    const dir = companion(path);
    try {
      const st = lstatSync(dir);
      if (!st.isSymbolicLink()) realPathInside(root, dir, harness);
      side.push(dir);
    } catch (cause) {
      if (errnoCode(cause) !== "ENOENT") throw cause;
    }
  }
  const removed: string[] = [];
  try {
    for (const path of paths) {
      unlinkSync(path);
      removed.push(path);
    }
    for (const dir of side) {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    }
  } catch (cause) {
    throw new StoreError(harness, `cannot delete: ${describeCause(cause)}`, {
      file: paths[0],
      cause,
    });
  }
  return removed;
}

/** What reading one checked file gave: a session, why it is skipped, or nothing (not a session). */
export type FileRead = Discovered | { skip: string } | undefined;

/**
 * Discovery over session files named `<id><suffix>`, in order: each file
 * passes `checkSessionFile`, then `read` learns its session; a file that
 * throws is skipped as "cannot read: …". `skipped` may already hold what
 * listing the folders skipped.
 */
export function discoverFiles(
  root: string,
  files: readonly string[],
  suffix: string,
  read: (path: string, id: string, stats: Stats) => FileRead,
  options: DiscoverOptions = {},
  skipped: Skipped[] = [],
): Discovery {
  const sessions: Discovered[] = [];
  files.forEach((path, n) => {
    options.onProgress?.(n, files.length);
    try {
      const id = basename(path).slice(0, -suffix.length);
      const check = checkSessionFile(root, path, id);
      if (check === undefined) return;
      const found = "skip" in check ? check : read(path, id, check.stats);
      if (found === undefined) return;
      if ("skip" in found) skipped.push({ path, reason: found.skip });
      else sessions.push(found);
    } catch (cause) {
      skipped.push({ path, reason: `cannot read: ${describeCause(cause)}` });
    }
  });
  options.onProgress?.(files.length, files.length);
  return { sessions, skipped };
}

/**
 * The working directory a session is filed under (stores that keep a
 * folder per project): the first non-empty one its records name, else the
 * meta's. A session naming none cannot be saved: an InvalidRequestError.
 */
export function sessionCwd(
  harness: HarnessId,
  label: string,
  id: string,
  recorded: readonly (string | undefined)[],
  fallback: string | undefined,
): string {
  const cwd = recorded.find((c) => c !== undefined && c !== "") ?? fallback;
  if (cwd === undefined || cwd === "") {
    throw new InvalidRequestError(
      harness,
      `session ${id} has no working directory: ${label} files sessions by cwd`,
    );
  }
  return cwd;
}

/** Why a session a file names cannot be listed under its id (no safe path component): the skip reason, or undefined. */
export function sessionIdProblem(id: string): string | undefined {
  const problem = pathComponentProblem(id);
  return problem ? `not a session id: ${JSON.stringify(id)} ${problem}` : undefined;
}

/**
 * A failed save as one error: losing an exclusive create to a concurrent
 * save is a ConflictError, a txcript error passes as it is, anything else
 * is a StoreError naming the file (`doing` says what failed).
 */
export function saveError(
  harness: HarnessId,
  id: string,
  path: string,
  cause: unknown,
  doing = "cannot write the session",
): TxcriptError {
  if (cause instanceof TargetExistsError) {
    return new ConflictError(harness, `session ${id} already exists`, { file: path });
  }
  if (cause instanceof TxcriptError) return cause;
  return new StoreError(harness, `${doing}: ${describeCause(cause)}`, { file: path, cause });
}

/**
 * Save a session whose files go in `dir`, made inside `root` first: `write`
 * writes them and gives their paths, which the result lists before the
 * folders made. Any failure is the one save error naming the session and
 * its main file `path`.
 */
export function saveSessionFiles(
  harness: HarnessId,
  id: string,
  path: string,
  at: { root: string; dir: string },
  write: () => readonly string[],
): Saved {
  const files: string[] = [];
  try {
    files.push(...mkdirInside(at.root, at.dir, harness));
    files.unshift(...write());
  } catch (cause) {
    throw saveError(harness, id, path, cause, `cannot save session ${id}`);
  }
  return { harness, id, path, files };
}

/**
 * Save a one-file JSONL session (Claude Code, Qwen Code) at `path` in `dir`:
 * refused when another file already holds the id and this is no overwrite,
 * folders made inside `root` (never through a link), stale temporaries of
 * an interrupted save swept, and the file written a line at a time,
 * exclusively unless overwriting, so that of two concurrent saves one wins.
 */
export function saveJsonlSession(
  harness: HarnessId,
  id: string,
  at: { root: string; dir: string; path: string },
  lines: Iterable<VerbatimLine>,
  overwrite: boolean,
  existing: () => string | undefined,
): Saved {
  if (!overwrite) {
    const file = existing();
    if (file !== undefined)
      throw new ConflictError(harness, `session ${id} already exists`, { file });
  }
  const files = mkdirInside(at.root, at.dir, harness);
  try {
    sweepTemps(at.dir);
    writeFileAtomic(at.path, linePieces(lines), { mode: 0o600, exclusive: !overwrite });
  } catch (cause) {
    throw saveError(harness, id, at.path, cause);
  }
  files.push(at.path);
  return { harness, id, path: at.path, files };
}
