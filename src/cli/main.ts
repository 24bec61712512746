#!/usr/bin/env node
/**
 * The `txcript` binary: it runs the command line (program.ts) from a
 * CommonJS bundle scripts/bundle.mjs makes of it beside this file
 * (txcript-list.cjs for `list`, which holds that command alone, else
 * txcript.cjs), compiled through a V8 code cache kept in txcript's cache
 * folder, so a warm command skips parsing and compiling the code it ran
 * last time. Node 20 has no compile cache of its own for ES modules, hence
 * the bundles and `vm.Script`. Without a bundle (run from source) it
 * imports program.js as it is. The package's binary is this module
 * bundled as CommonJS, dist/cli/main.cjs (scripts/bundle.mjs): an ES
 * module entry costs Node's ES module loader and its thread pool.
 *
 * The cache is only ever an optimization: it is read and written nowhere
 * under `--no-cache` and made only beside txcript's own index (never in a
 * folder txcript has not made); a missing, stale or corrupt one is compiled
 * afresh and rewritten (whole, by rename); a folder that cannot be
 * written is left alone, silently.
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
import { Script } from "node:vm";
import { cacheDir, type Env } from "../env.js";
import { APPLICATION_ID } from "../index/schema.js";
import { namedCommand } from "./command-word.js";

/** A bundle's last line: `//# txcript-bundle <hash of everything before it>`. */
const HASH_LINE = /\n\/\/# txcript-bundle ([0-9a-f]{16,64})\n?$/;
/**
 * V8's interrupt budget for `list` (its default is 67,584 bytes of
 * bytecode run): how much of a function's bytecode runs before V8 weighs
 * optimizing it. A warm list is short (1,000 agy conversations: 3,000
 * stats and 1,000 records) and TurboFan's compiles of its loops, Node's
 * `statSync` among them, cost more than they saved: 15% of its CPU. A
 * larger budget only delays optimizing: a long list (a cold one, 20,000
 * sessions) still gets it, a little later. Measured, not disabled
 * (`--max-opt` cannot be lifted once set): docs/architecture.md.
 *
 * Set only when there is an index to refresh: a V8 flag changed at run
 * time makes every Node built-in module loaded after it compile from
 * source, missing the code cache Node embeds for them (set back to its
 * default, they hit it again). A cold list loads 37 more of them
 * (tinypool's crypto, child_process, assert...) and each discovery worker
 * all of its own: 182 M instructions a worker. A cold list gains nothing
 * from the budget.
 */
const LIST_INTERRUPT_BUDGET = `--interrupt-budget=${500_000}`;
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
  /** The cache folder; undefined: no code cache. */
  folder: string | undefined;
  /** Whether to compile from the cache: only when the V8 flags it is made under are set. */
  read: boolean;
  /** The V8 flags the cache is made under. */
  flags: readonly string[];
}

/** Run `bundle`; false if it did not compile to the function it should. */
function runBundle(bundle: Bundle, cache: CacheUse): boolean {
  const hash = HASH_LINE.exec(bundle.source)?.[1];
  const file = hash && cache.folder !== undefined && codeCacheFile(cache.folder, bundle.name, hash);
  const cachedData = file && cache.read ? readOrUndefined(file) : undefined;
  // V8 checks a cache's version, flags and source length, but its checksum
  // only under this flag (off in release builds): a cache with a flipped
  // byte is otherwise run (test/cli/code-cache.test.ts saw V8 stop with a
  // fatal error). Worker threads would pay for it too, so it is on only
  // while a cache is read or made.
  if (cachedData) setFlagsFromString("--verify-snapshot-checksum");
  // The CommonJS wrapper, on the bundle's first line, so its line numbers
  // hold, and one more parameter: a script compiled by vm cannot `import()`
  // (Node 20 wants --experimental-vm-modules, or warns), so the bundle's
  // few dynamic imports (tinypool, an ES module; built-ins) call this
  // module's instead (scripts/bundle.mjs rewrites them).
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __txcriptImport) {${bundle.source}\n})`,
    { filename: bundle.path, ...(cachedData ? { cachedData } : {}) },
  );
  if (cachedData) setFlagsFromString("--no-verify-snapshot-checksum");
  // Made at exit, so it holds every function this command compiled.
  if (hash && file && (cachedData === undefined || script.cachedDataRejected === true))
    process.once("exit", () => writeCodeCache(script, file, bundle.name, hash, cache.flags));
  const wrapper: unknown = script.runInThisContext();
  if (typeof wrapper !== "function") return false;
  const module = { exports: {} };
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(bundle.path),
    module,
    bundle.path,
    dirname(bundle.path),
    (specifier: string): Promise<unknown> => import(specifier),
  );
  return true;
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
// under --no-cache) keeps V8's flags, and so compiles without the cache,
// which is made under the budget.
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
};
// Not awaited: scripts/bundle.mjs makes this module the CommonJS launcher
// main.cjs, which cannot await at its top level (a failed import still
// ends the process with its error, as a rejected top-level await does).
if (bundle === undefined || !runBundle(bundle, cache)) void import("./program.js");
