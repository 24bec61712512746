#!/usr/bin/env node
/**
 * The `txcript` binary: it runs the command line (program.ts) from the one
 * CommonJS bundle scripts/bundle.mjs makes of it (txcript.cjs, beside this
 * file), compiled through a V8 code cache kept in txcript's cache folder,
 * so a warm command skips parsing and compiling the code it ran last time.
 * Node 20 has no compile cache of its own for ES modules, hence the bundle
 * and `vm.Script`. Without the bundle (run from source) it imports
 * program.js as it is.
 *
 * The cache is only ever an optimization: it is read and written
 * nowhere under `--no-cache`, a missing, stale or corrupt one is compiled
 * afresh and rewritten (whole, by rename), and a folder that cannot be
 * written is left alone, silently.
 */

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";
import { cacheDir, type Env } from "../env.js";

const BUNDLE = fileURLToPath(new URL("./txcript.cjs", import.meta.url));
/** The bundle's last line: `//# txcript-bundle <hash of everything before it>`. */
const HASH_LINE = /\n\/\/# txcript-bundle ([0-9a-f]{16,64})\n?$/;
/** The folder under the cache folder that holds code caches. */
const CODE_CACHE_FOLDER = "code-cache";

/**
 * The code cache file for the bundle hashed `hash`, for this Node (V8
 * refuses another version's anyway; the name keeps two from evicting each
 * other): under `--cache DIR`, else the cache folder txcript's index uses;
 * undefined under `--no-cache`.
 */
function codeCacheFile(args: readonly string[], env: Env, hash: string): string | undefined {
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "--no-cache") return undefined;
    if (a === "--cache") dir = args[i + 1];
    else if (a?.startsWith("--cache=")) dir = a.slice("--cache=".length);
  }
  const name = `${hash}-${process.version}-${process.arch}.bin`;
  return join(resolve(dir ?? cacheDir(env)), CODE_CACHE_FOLDER, name);
}

/**
 * The cache V8 makes of `script` (the functions compiled so far), written
 * to `file` through a temporary and a rename, so no reader sees half of
 * one; other bundles' caches are removed. Any failure leaves things as
 * they were: the cache is an optimization.
 */
function writeCodeCache(script: Script, file: string, hash: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    setFlagsFromString("--verify-snapshot-checksum");
    const data = script.createCachedData();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    for (const name of readdirSync(dirname(file)))
      if (!name.startsWith(hash)) rmSync(join(dirname(file), name), { force: true });
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // no folder to have written it in
    }
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Run the bundle `source`; false if it did not compile to the function it should. */
function runBundle(source: string): boolean {
  const hash = HASH_LINE.exec(source)?.[1];
  const file = hash && codeCacheFile(process.argv.slice(2), process.env, hash);
  const cachedData = file ? readOrUndefined(file) : undefined;
  // V8 checks a cache's version, flags and source length, but its checksum
  // only under this flag (off in release builds): a cache with a flipped
  // byte is otherwise run. Worker threads would pay for it too, so it is
  // on only while a cache is read or made.
  if (file) setFlagsFromString("--verify-snapshot-checksum");
  // The CommonJS wrapper, on the bundle's first line, so its line numbers
  // hold, and one more parameter: a script compiled by vm cannot `import()`
  // (Node 20 wants --experimental-vm-modules, or warns), so the bundle's
  // few dynamic imports (tinypool, an ES module; built-ins) call this
  // module's instead (scripts/bundle.mjs rewrites them).
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __txcriptImport) {${source}\n})`,
    { filename: BUNDLE, ...(cachedData ? { cachedData } : {}) },
  );
  if (file) setFlagsFromString("--no-verify-snapshot-checksum");
  // Made at exit, so it holds every function this command compiled.
  if (hash && file && (cachedData === undefined || script.cachedDataRejected === true))
    process.once("exit", () => writeCodeCache(script, file, hash));
  const wrapper: unknown = script.runInThisContext();
  if (typeof wrapper !== "function") return false;
  const module = { exports: {} };
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(BUNDLE),
    module,
    BUNDLE,
    dirname(BUNDLE),
    (specifier: string): Promise<unknown> => import(specifier),
  );
  return true;
}

const source = (() => {
  try {
    // ASCII (scripts/bundle.mjs escapes the rest): Latin-1 is a plain copy.
    return readFileSync(BUNDLE, "latin1");
  } catch {
    return undefined;
  }
})();
if (source === undefined || !runBundle(source)) await import("./program.js");
