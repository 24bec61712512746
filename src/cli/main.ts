#!/usr/bin/env node
/**
 * The `txcript` binary: it runs the command line (program.ts) from a
 * CommonJS bundle scripts/bundle.mjs makes of it beside this file
 * (txcript-list.cjs for `list`, which holds that command alone, else
 * txcript.cjs), compiled through a V8 code cache kept in txcript's cache
 * folder, so a warm command skips parsing and compiling the code it ran
 * last time. Node 20 has no compile cache of its own for ES modules, hence
 * the bundles and `vm.Script`. Without a bundle (run from source) it
 * imports program.js as it is.
 *
 * The cache is only ever an optimization: it is read and written nowhere
 * under `--no-cache` and made only beside txcript's own index (never in a
 * folder txcript has not made); a missing, stale or corrupt one is compiled
 * afresh and rewritten (whole, by rename); a folder that cannot be
 * written is left alone, silently.
 */

import {
  closeSync,
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
 */
const LIST_INTERRUPT_BUDGET = 500_000;
/** The folder under the cache folder that holds code caches. */
const CODE_CACHE_FOLDER = "code-cache";

interface Bundle {
  /** `txcript` or `txcript-list`. */
  name: string;
  path: string;
  source: string;
}

/**
 * The code cache file of `bundle` (hashed `hash`) for this Node: under
 * `--cache DIR`, else the cache folder txcript's index uses; undefined
 * under `--no-cache`. Named `<bundle>.<hash>.<node version>-<arch>.bin`:
 * V8 refuses another version's cache anyway, and the name keeps two
 * Nodes' from evicting each other.
 */
function codeCacheFile(args: readonly string[], env: Env, name: string, hash: string) {
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "--no-cache") return undefined;
    if (a === "--cache") dir = args[i + 1];
    else if (a?.startsWith("--cache=")) dir = a.slice("--cache=".length);
  }
  const file = `${name}.${hash}.${process.version}-${process.arch}.bin`;
  return join(resolve(dir ?? cacheDir(env)), CODE_CACHE_FOLDER, file);
}

/**
 * The cache V8 makes of `script` (the functions compiled so far), written
 * to `file` through a temporary and a rename, so no reader sees half of
 * one; the same bundle's caches from other builds are removed. Any
 * failure leaves things as they were: the cache is an optimization.
 */
function writeCodeCache(script: Script, file: string, name: string, hash: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    setFlagsFromString("--verify-snapshot-checksum");
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

/** Run `bundle`; false if it did not compile to the function it should. */
function runBundle(bundle: Bundle): boolean {
  const hash = HASH_LINE.exec(bundle.source)?.[1];
  const file = hash && codeCacheFile(process.argv.slice(2), process.env, bundle.name, hash);
  const cachedData = file ? readOrUndefined(file) : undefined;
  // V8 checks a cache's version, flags and source length, but its checksum
  // only under this flag (off in release builds): a cache with a flipped
  // byte is otherwise run (test/cli/code-cache.test.ts saw V8 stop with a
  // fatal error). Worker threads would pay for it too, so it is on only
  // while a cache is read or made.
  if (file) setFlagsFromString("--verify-snapshot-checksum");
  // The CommonJS wrapper, on the bundle's first line, so its line numbers
  // hold, and one more parameter: a script compiled by vm cannot `import()`
  // (Node 20 wants --experimental-vm-modules, or warns), so the bundle's
  // few dynamic imports (tinypool, an ES module; built-ins) call this
  // module's instead (scripts/bundle.mjs rewrites them).
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __txcriptImport) {${bundle.source}\n})`,
    { filename: bundle.path, ...(cachedData ? { cachedData } : {}) },
  );
  if (file) setFlagsFromString("--no-verify-snapshot-checksum");
  // Made at exit, so it holds every function this command compiled.
  if (hash && file && (cachedData === undefined || script.cachedDataRejected === true))
    process.once("exit", () => writeCodeCache(script, file, bundle.name, hash));
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

const isList = namedCommand(process.argv.slice(2)) === "list";
// Set before the bundle is compiled, and left set: V8 keys a code cache by
// its flags, and the cache is made at exit.
if (isList) setFlagsFromString(`--interrupt-budget=${LIST_INTERRUPT_BUDGET}`);
const bundle = (isList ? readBundle("txcript-list") : undefined) ?? readBundle("txcript");
if (bundle === undefined || !runBundle(bundle)) await import("./program.js");
