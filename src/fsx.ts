/**
 * The file-system safety every store and the CLI share: atomic writes (a
 * temporary file in the target's directory, written, fsynced and renamed or
 * linked into place, so a crash leaves the old file or the new one, never a
 * partial one), exclusive publishing (the existence check and the publish
 * are one step), folders created without going through a symlink, per-name
 * locks, and the sweep of temporaries that killed writers left behind
 * (their names carry the writer's pid, and a tag for the machine and pid
 * namespace the pid belongs to).
 */

import { isUtf8 } from "node:buffer";
import {
  appendFileSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { crypto } from "./builtins.js";
import { describeCause, errnoCode, ParseError, StoreError, UnsafePathError } from "./errors.js";
import { TEMP_NAME } from "./temp-name.js";
import type { TextForm } from "./transcript.js";
import { Utf8Batches } from "./utf8-batches.js";

let ownTag: string | undefined;

/**
 * Eight hex digits naming this machine and pid namespace. A pid means
 * something only where it was taken: a container writing into the same
 * home (a bind mount) has pids this process cannot see, so a temporary or
 * lock carries the tag, and a pid is judged alive or dead only under the
 * tag it was taken in.
 */
export function namespaceTag(): string {
  if (ownTag === undefined) {
    let ns = "";
    try {
      ns = readlinkSync("/proc/self/ns/pid"); // "pid:[4026531836]" on Linux
    } catch {
      // no /proc: the host name alone
    }
    ownTag = crypto().createHash("sha256").update(`${hostname()}\0${ns}`).digest("hex").slice(0, 8);
  }
  return ownTag;
}

/** A temporary from elsewhere (or an older txcript) is swept only when it is this old. */
const FOREIGN_TEMP_MS = 24 * 60 * 60 * 1000;

/** A fresh temporary path for `name` in `dir` (hidden, so no store lists it). */
export function tempPath(dir: string, name: string): string {
  return join(
    dir,
    `.${name}.tmp-${process.pid}-${namespaceTag()}${crypto().randomBytes(6).toString("hex")}`,
  );
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

/** Is process `pid` running (as far as this process can tell)? */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** `.<name>.lock`: held by the process whose pid it holds. */
const LOCK_NAME = /^\..+\.lock$/;

/**
 * Remove temporaries in `dir` (files, or folders such as a half-built
 * brain directory) left by writers whose process is gone (or by this one),
 * and locks whose holder is gone. Every store calls it before it writes.
 */
export function sweepTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const tag = namespaceTag();
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m) {
      const pid = Number(m[1]);
      const ours = m[2]?.startsWith(tag) === true;
      const gone = ours ? pid === process.pid || !processAlive(pid) : olderThan(join(dir, name));
      if (gone) rmSync(join(dir, name), { force: true, recursive: true });
    } else if (LOCK_NAME.test(name)) {
      const holder = lockHolder(join(dir, name));
      if (holder !== undefined && !holderAlive(holder)) rmSync(join(dir, name), { force: true });
    }
  }
}

/** Was `path` last changed over a day ago (the age at which a foreign temporary is abandoned)? */
function olderThan(path: string): boolean {
  try {
    return Date.now() - lstatSync(path).mtimeMs > FOREIGN_TEMP_MS;
  } catch {
    return false;
  }
}

/** Raised (with code EEXIST) when an exclusive publish finds its target taken. */
export class TargetExistsError extends Error {
  readonly code = "EEXIST";
  constructor(readonly path: string) {
    super(`${path} already exists`);
    this.name = "TargetExistsError";
  }
}

/** Link errors that mean "this file system has no hard links", not "the target exists". */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV", "EMLINK"]);

/**
 * Move the finished temporary file `tmp` to `path`. Replacing: a rename.
 * Exclusive: a hard link, which fails if anything (even a dangling link)
 * holds `path`, so two writers can never both succeed; on a file system
 * without hard links, a check and a rename (the best it allows).
 */
export function publish(tmp: string, path: string, exclusive: boolean): void {
  if (!exclusive) {
    renameSync(tmp, path);
    return;
  }
  try {
    linkSync(tmp, path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") throw new TargetExistsError(path);
    if (code === undefined || !NO_LINKS.has(code)) throw error;
    if (exists(path)) throw new TargetExistsError(path);
    renameSync(tmp, path);
    return;
  }
  unlinkSync(tmp);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export interface WriteOptions {
  /** File mode of a new file (default 0o666, less the umask). */
  mode?: number;
  /** Refuse (TargetExistsError) instead of replacing an existing `path`. */
  exclusive?: boolean;
  /**
   * For a config file the user may keep elsewhere (dotfile setups link
   * them): when `path` is a symlink, replace the file it leads to, not the
   * link, and keep the replaced file's mode.
   */
  throughLink?: boolean;
}

/** Where a replacing write through a link lands, and the mode the file had. */
function replaceTarget(path: string): { path: string; mode: number | undefined } {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch {
    return { path, mode: undefined }; // absent or dangling: a new file at `path`
  }
  try {
    return { path: target, mode: statSync(target).mode & 0o7777 };
  } catch {
    return { path: target, mode: undefined };
  }
}

/**
 * Write `data` to `path` atomically. Throws the underlying error (after
 * removing the temporary file); callers wrap it in their own error class.
 * `data` may come in pieces (an iterable of strings), written as they come,
 * so a document larger than one string can hold is written whole.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  options: WriteOptions = {},
): void {
  const file = openAtomic(path, options);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) file.write(data);
    else for (const piece of data) file.write(piece);
    file.commit();
  } catch (error) {
    file.abort();
    throw error;
  }
}

/**
 * Characters gathered before a write. Small on purpose: a batch V8 must
 * flatten to write is allocated whole, and past about 128 KB it goes to
 * the old generation's large-object space, where each written batch stayed
 * as garbage until a full collection (on a page of 90 MB, about 90 MB more
 * at the peak); 32 Ki characters (64 KB even as UTF-16) die young.
 */
export const WRITE_BATCH = 1 << 15;

/** A file being written atomically: nothing is at its path until `commit`. */
export interface AtomicFile {
  /** Append; strings are encoded and written a megabyte or so at a time. */
  write(piece: string | Uint8Array): void;
  /** Write what is gathered, fsync, close, and move the file into place. */
  commit(): void;
  /** Close and remove the temporary file (after a failure; a no-op once committed). */
  abort(): void;
}

/**
 * Start writing `path` atomically, for a writer that makes its content as
 * it goes (several files at once): a temporary file in its directory, which
 * `commit` moves into place as writeFileAtomic does.
 */
export function openAtomic(path: string, options: WriteOptions = {}): AtomicFile {
  const into = options.throughLink ? replaceTarget(path) : { path, mode: undefined };
  const target = into.path;
  const tmp = tempPath(dirname(target), basename(target));
  let fd: number | undefined = openSync(tmp, "wx", into.mode ?? options.mode ?? 0o666);
  let done = false;
  const open = (): number => {
    if (fd === undefined) throw new Error(`${target}: written after commit or abort`);
    return fd;
  };
  const batches = new Utf8Batches(
    (data) => writeFileSync(open(), data),
    () => false,
  );
  try {
    // The umask narrowed the open's mode: the replaced file's own mode is restored.
    if (into.mode !== undefined) fchmodSync(fd, into.mode);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  return {
    write(piece) {
      if (typeof piece === "string") batches.write(piece);
      else {
        batches.flush();
        writeFileSync(open(), piece);
      }
    },
    commit() {
      batches.end();
      const f = open();
      fsyncSync(f);
      fd = undefined;
      closeSync(f);
      publish(tmp, target, options.exclusive === true);
      done = true;
    },
    abort() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      if (!done) rmSync(tmp, { force: true });
    },
  };
}

/** `dir` relative to `root`, split into components; refused when it is not below the root. */
function componentsBelow(root: string, dir: string, harness: TextForm): string[] {
  const rel = relative(root, dir);
  if (rel.startsWith(`..${sep}`) || rel === ".." || resolve(root, rel) !== dir) {
    throw new UnsafePathError(harness, `${dir} is outside the store ${root}`);
  }
  return rel === "" ? [] : rel.split(sep);
}

function folderError(harness: TextForm, path: string, cause: unknown): StoreError {
  return new StoreError(harness, `cannot create the folder: ${describeCause(cause)}`, {
    file: path,
    cause,
  });
}

/** Refuse a component that is a symlink or not a folder; true when it exists. */
function checkComponent(harness: TextForm, path: string, st: Stats | undefined): boolean {
  if (st === undefined) return false;
  if (st.isSymbolicLink()) {
    throw new UnsafePathError(
      harness,
      `${path} is a symbolic link; txcript writes only through real folders inside the store`,
    );
  }
  if (!st.isDirectory()) throw new StoreError(harness, "is not a directory", { file: path });
  return true;
}

function lstatOrUndefined(path: string, harness: TextForm): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT") return undefined;
    throw folderError(harness, path, cause);
  }
}

/**
 * Check, creating nothing, that `dir` (`root` or a folder below it) can be
 * created or reached without going through a symlink below the root:
 * discovery does not follow such links, so a session written through one
 * would land outside the store, unlisted. The root itself (and what is
 * above it) is the user's choice and may be a link.
 */
export function checkInside(root: string, dir: string, harness: TextForm): void {
  const top = resolve(root);
  let at = top;
  const rootStat = lstatOrUndefined(top, harness);
  if (rootStat !== undefined && !rootStat.isSymbolicLink()) checkComponent(harness, top, rootStat);
  for (const part of componentsBelow(top, resolve(dir), harness)) {
    at = join(at, part);
    if (!checkComponent(harness, at, lstatOrUndefined(at, harness))) return;
  }
}

/**
 * Create `dir` as `checkInside` allows, every folder checked before any is
 * created. Concurrent creators of the same folders both succeed. Returns
 * the folders it created below the root, outermost first.
 */
export function mkdirInside(root: string, dir: string, harness: TextForm): string[] {
  checkInside(root, dir, harness);
  const top = resolve(root);
  try {
    mkdirSync(top, { recursive: true });
    if (!statSync(top).isDirectory()) throw new Error("not a directory");
  } catch (cause) {
    throw folderError(harness, top, cause);
  }
  const created: string[] = [];
  let at = top;
  for (const part of componentsBelow(top, resolve(dir), harness)) {
    at = join(at, part);
    if (checkComponent(harness, at, lstatOrUndefined(at, harness))) continue;
    try {
      mkdirSync(at);
      created.push(at);
    } catch (cause) {
      // Another writer made it first: check what it made.
      if (errnoCode(cause) !== "EEXIST") throw folderError(harness, at, cause);
      checkComponent(harness, at, lstatOrUndefined(at, harness));
    }
  }
  return created;
}

/** Who holds a lock: a pid, and the namespace tag it was taken under (none from older txcripts). */
interface Holder {
  pid: number;
  tag: string | undefined;
  path: string;
}

/** The holder a lock file names (`<pid> <tag>`), or undefined when it names none. */
function lockHolder(path: string): Holder | undefined {
  try {
    const [pidText = "", tag] = readFileSync(path, "utf8").trim().split(/\s+/);
    const pid = Number(pidText);
    return Number.isInteger(pid) && pid > 0 ? { pid, tag, path } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Is a lock's holder still running? Under this process's tag (or none, as
 * older txcripts wrote), as the pid says; under another, this process cannot
 * see it, so it counts as running until the lock is a day old.
 */
function holderAlive(holder: Holder): boolean {
  if (holder.tag === undefined || holder.tag === namespaceTag()) return processAlive(holder.pid);
  return !olderThan(holder.path);
}

/**
 * Take the lock `.<name>.lock` in `dir` for this process, or return the
 * pid of the live process that holds it. A lock whose holder is gone is
 * taken over. The lock is published by a hard link of a finished file, so
 * it always names its holder.
 */
export function tryLock(dir: string, name: string): { release(): void } | { heldBy: number } {
  const path = join(dir, `.${name}.lock`);
  for (let attempt = 0; ; attempt++) {
    const tmp = tempPath(dir, `${name}.lock`);
    writeFileSync(tmp, `${process.pid} ${namespaceTag()}\n`, { flag: "wx" });
    try {
      publish(tmp, path, true);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if (!(error instanceof TargetExistsError)) throw error;
    } finally {
      rmSync(tmp, { force: true });
    }
    const holder = lockHolder(path);
    if (holder !== undefined && (holderAlive(holder) || attempt > 0)) return { heldBy: holder.pid };
    // Its holder is gone (or the lock vanished meanwhile): take it over once.
    rmSync(path, { force: true });
  }
}

/** How long a tool's mkdir lock may go untouched before it counts as abandoned, and how long to wait for one. */
export interface DirLockOptions {
  staleMs?: number;
  timeoutMs?: number;
}

/** Block this thread for `ms` (a lock wait in synchronous code). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Run `fn` holding the lock other tools take on `file` with the
 * proper-lockfile package (Gemini CLI's `projects.json`): a directory
 * `<real path of file>.lock`, made with mkdir (which only one process can
 * win), judged abandoned when its mtime is older than `staleMs` (its holder
 * refreshes it while it works), removed when done. Returns undefined when
 * the lock stays held for `timeoutMs`.
 */
export function withDirLock<T>(
  file: string,
  fn: () => T,
  { staleMs = 10_000, timeoutMs = 10_000 }: DirLockOptions = {},
): { value: T } | undefined {
  const lock = `${realpathSync(file)}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw error;
    }
    let stale = false;
    try {
      stale = Date.now() - statSync(lock).mtimeMs > staleMs;
    } catch {
      continue; // released meanwhile: try again at once
    }
    if (stale) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) return undefined;
    sleepSync(100);
  }
  try {
    return { value: fn() };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Append `line` (no newline of its own) to `path` in one write(2) to an
 * O_APPEND file: the kernel places each such write whole at the end, so
 * concurrent appenders (txcript's, or a harness's own) never interleave or
 * overwrite each other, and no lock is needed. A file whose last line was
 * left unterminated (a crash mid-write elsewhere) gets a newline first, so
 * the torn line cannot swallow this one (a writer that looks while another
 * write is still growing the file may add a blank line: harmless).
 */
export function appendLine(path: string, line: string, mode = 0o666): void {
  let lead = "";
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = "\n";
    }
  } catch {
    // no file yet: the append creates it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  appendFileSync(path, `${lead}${line}\n`, { mode });
}

/**
 * The bytes of `what` at `path` (a session file), refusing one larger than
 * `maxBytes` before reading it: a one-line StoreError naming the file.
 */
export function readFileCapped(
  path: string,
  maxBytes: number,
  harness: TextForm,
  what: string,
): Uint8Array {
  try {
    const size = statSync(path).size;
    if (size > maxBytes) throw new RangeError(`the file is larger than ${maxBytes} bytes`);
    return readFileSync(path);
  } catch (cause) {
    throw new StoreError(harness, `cannot read ${what}: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

// ignoreBOM keeps a byte-order mark in the text, so saving reproduces it.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Refuse `bytes` that are not strict UTF-8 in a one-line ParseError naming the file, decoding nothing. */
export function checkUtf8(bytes: Uint8Array, path: string, harness: TextForm, what: string): void {
  if (!isUtf8(bytes)) throw new ParseError(harness, `${what} is not valid UTF-8`, { file: path });
}

/** `bytes` as strict UTF-8, else a one-line ParseError naming the file. */
export function decodeUtf8(
  bytes: Uint8Array,
  path: string,
  harness: TextForm,
  what: string,
): string {
  try {
    return UTF8.decode(bytes);
  } catch (cause) {
    throw new ParseError(harness, `${what} is not valid UTF-8`, { file: path, cause });
  }
}

/**
 * Stats (of the link itself when `follow` is false), or undefined when
 * nothing is there: a missing path, or one that runs through a file
 * (ENOTDIR, as under a HOME that is a file). Any other failure is thrown.
 */
export function statOrUndefined(path: string, follow = true): Stats | undefined {
  try {
    return follow
      ? statSync(path, { throwIfNoEntry: false })
      : lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (errnoCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/** A folder's entry names, sorted; none when the folder is missing or the path runs through a file. */
export function folderNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw cause;
  }
}

/** Whether `path` is a regular file (links followed); see `statOrUndefined`. */
export function isRegularFile(path: string): boolean {
  return statOrUndefined(path)?.isFile() === true;
}
