#!/usr/bin/env node
/**
 * The `txcript` binary: it runs the command line (program.ts) from a
 * CommonJS bundle scripts/bundle.mjs makes of it beside this file
 * (txcript-list.cjs for `list`, which holds that command alone, else
 * txcript.cjs), compiled through a V8 code cache kept in txcript's cache
 * folder, so a warm command skips parsing and compiling the code it ran
 * last time, else through the one the build made (dist/cli/shipped-cache/,
 * used where this Node is the one that built). Node 20 has no compile
 * cache of its own for ES modules, hence the bundles and `vm.Script`
 * (bundle-script.ts). Without a bundle (run from source) it imports
 * program.js as it is. The package's binary is this module bundled as
 * CommonJS, dist/cli/main.cjs (scripts/bundle.mjs): an ES module entry
 * costs Node's ES module loader and its thread pool.
 *
 * The cache is only ever an optimization: it is read and written nowhere
 * under `--no-cache` and made only beside txcript's own index (never in a
 * folder txcript has not made); a missing, stale or corrupt one is compiled
 * afresh and rewritten (whole, by rename); a folder that cannot be
 * written is left alone, silently. The build's is only read: under
 * `--no-cache` too, and one V8 refuses (another Node's) or a damaged one
 * (the checksum below) is compiled afresh, as if it were not there.
 */

import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { Script } from "node:vm";
import { cacheDir, type Env } from "../env.js";
import { APPLICATION_ID } from "../index/schema.js";
import {
  bundleScript,
  LIST_INTERRUPT_BUDGET,
  runBundleScript,
  shippedCodeCacheFile,
} from "./bundle-script.js";
import { namedCommand } from "./command-word.js";

/** A bundle's last line: `//# txcript-bundle <hash of everything before it>`. */
const HASH_LINE = /\n\/\/# txcript-bundle ([0-9a-f]{16,64})\n?$/;
/** The index's file in the cache folder (src/index/open.ts; not imported, it loads SQLite). */
const INDEX_FILE = "index.db";
/** The folder under the cache folder that holds code caches. */
const CODE_CACHE_FOLDER = "code-cache";

interface Bundle {
  /** `txcript` or `txcript-list`. */
  name: string;
  path: string;
  source: string;
}

/**
 * The cache folder txcript's index uses: `--cache DIR`, else the default;
 * undefined under `--no-cache`.
 */
function cacheFolder(args: readonly string[], env: Env): string | undefined {
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "--no-cache") return undefined;
    if (a === "--cache") dir = args[i + 1];
    else if (a?.startsWith("--cache=")) dir = a.slice("--cache=".length);
  }
  return resolve(dir ?? cacheDir(env));
}

/**
 * The code cache file of `bundle` (hashed `hash`) for this Node, in the
 * cache folder. Named `<bundle>.<hash>.<node version>-<arch>.bin`: V8
 * refuses another version's cache anyway, and the name keeps two Nodes'
 * from evicting each other.
 */
function codeCacheFile(folder: string, name: string, hash: string): string {
  return join(folder, CODE_CACHE_FOLDER, `${name}.${hash}.${process.version}-${process.arch}.bin`);
}

/**
 * The cache V8 makes of `script` (the functions compiled so far), written
 * to `file` through a temporary and a rename, so no reader sees half of
 * one; the same bundle's caches from other builds are removed. Any
 * failure leaves things as they were: the cache is an optimization.
 */
function writeCodeCache(
  script: Script,
  file: string,
  name: string,
  hash: string,
  flags: readonly string[],
): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // Under the flags the next command reads it under: Node 20's V8 takes a
    // cache whatever flags were set at run time, but a V8 that checks them
    // would otherwise refuse a cold list's cache to every warm one.
    for (const flag of [...flags, "--verify-snapshot-checksum"]) setFlagsFromString(flag);
    // Only beside txcript's own index: a folder txcript has not made, or
    // one holding another program's index.db, is left as it is.
    if (!isTxcriptIndex(join(dirname(dirname(file)), "index.db"))) return;
    const data = script.createCachedData();
    try {
      mkdirSync(dirname(file));
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) return;
    }
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    for (const other of readdirSync(dirname(file)))
      if (other.startsWith(`${name}.`) && !other.startsWith(`${name}.${hash}.`))
        rmSync(join(dirname(file), other), { force: true });
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // no folder to have written it in
    }
  }
}

/** Whether `path` is a database whose header carries the index's application id. */
function isTxcriptIndex(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const header = Buffer.alloc(72);
    return readSync(fd, header, 0, 72, 0) === 72 && header.readUInt32BE(68) === APPLICATION_ID;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** How `runBundle` uses the code cache in the cache folder. */
interface CacheUse {
  /** The cache folder; undefined: none of its own (the build's is still read). */
  folder: string | undefined;
  /** Whether to compile from the cache: only when the V8 flags it is made under are set. */
  read: boolean;
  /** The V8 flags the cache is made under. */
  flags: readonly string[];
  /** The V8 flags this run compiles under: the build's cache made under them is read. */
  runFlags: readonly string[];
  /**
   * Whether to make a cache of this command when the build's served: the
   * build makes txcript.cjs's of `--help`, which lacks each command's own
   * code (`view` of an agy conversation: 499 M instructions from it, 445 M
   * from a cache of its own); the list's, of a list, is as good as a
   * list's own (warm list 453 to 467 M beside 461 to 476 M).
   */
  overShipped: boolean;
}

/** Run `bundle`; false if it did not compile to the function it should. */
function runBundle(bundle: Bundle, cache: CacheUse): boolean {
  const hash = HASH_LINE.exec(bundle.source)?.[1];
  const file = hash && cache.folder !== undefined && codeCacheFile(cache.folder, bundle.name, hash);
  const own = file && cache.read ? readOrUndefined(file) : undefined;
  // Else the build's (a first run: without it, `list` parses and compiles
  // its bundle, 210 M instructions more).
  const cachedData =
    own ??
    (hash
      ? readOrUndefined(
          shippedCodeCacheFile(dirname(bundle.path), bundle.name, hash, cache.runFlags),
        )
      : undefined);
  // V8 checks a cache's version, flags and source length, but its checksum
  // only under this flag (off in release builds): a cache with a flipped
  // byte is otherwise run (test/cli/code-cache.test.ts saw V8 stop with a
  // fatal error). Worker threads would pay for it too, so it is on only
  // while a cache is read or made.
  if (cachedData) setFlagsFromString("--verify-snapshot-checksum");
  const script = bundleScript(bundle.source, bundle.path, cachedData);
  if (cachedData) setFlagsFromString("--no-verify-snapshot-checksum");
  const compiled = cachedData === undefined || script.cachedDataRejected === true;
  // Made at exit, so it holds every function this command compiled; also
  // over the build's cache where that lacks what the command runs.
  if (hash && file && (compiled || (own === undefined && cache.overShipped)))
    process.once("exit", () => writeCodeCache(script, file, bundle.name, hash, cache.flags));
  return runBundleScript(script, bundle.path, (specifier) => import(specifier));
}

function readBundle(name: string): Bundle | undefined {
  const path = fileURLToPath(new URL(`./${name}.cjs`, import.meta.url));
  try {
    // ASCII (scripts/bundle.mjs escapes the rest): Latin-1 is a plain copy.
    return { name, path, source: readFileSync(path, "latin1") };
  } catch {
    return undefined;
  }
}

const args = process.argv.slice(2);
const isList = namedCommand(args) === "list";
const folder = cacheFolder(args, process.env);
// The budget for a list with an index to refresh (one stat), set before
// the bundle is compiled and left set. A list without one (the first, or
// under --no-cache) keeps V8's flags, and so reads only the build's cache
// made under them: the cache folder's is made under the budget.
const warm = folder !== undefined && existsSync(join(folder, INDEX_FILE));
if (isList && warm) {
  // Node's built-ins loaded after a flag is set compile from source (see
  // LIST_INTERRUPT_BUDGET): those a warm list loads (the stream modules of
  // its stdout and stderr, a file's, a pipe's or a terminal's; timers) are
  // loaded first, from Node's code cache: 10 M instructions, 20 M of its
  // main thread's (docs/architecture.md).
  process.stdout;
  process.stderr;
  const load = createRequire(import.meta.url);
  load("node:timers/promises");
  load("node:process");
  setFlagsFromString(LIST_INTERRUPT_BUDGET);
}
const bundle = (isList ? readBundle("txcript-list") : undefined) ?? readBundle("txcript");
const cache: CacheUse = {
  folder,
  read: !isList || warm,
  flags: isList ? [LIST_INTERRUPT_BUDGET] : [],
  runFlags: isList && warm ? [LIST_INTERRUPT_BUDGET] : [],
  overShipped: bundle?.name !== "txcript-list",
};
// Not awaited: scripts/bundle.mjs makes this module the CommonJS launcher
// main.cjs, which cannot await at its top level (a failed import still
// ends the process with its error, as a rejected top-level await does).
if (bundle === undefined || !runBundle(bundle, cache)) void import("./program.js");
