/**
 * A command-line bundle as V8 compiles it: the CommonJS wrapper main.ts
 * compiles a bundle in, running it, and where the build keeps the code
 * cache it ships for it. Shared by main.ts and the build
 * (scripts/code-cache.mjs), since V8 takes a code cache only for a source
 * of the same length under the same V8 flags: the two must wrap alike.
 */

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

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
export const LIST_INTERRUPT_BUDGET = `--interrupt-budget=${500_000}`;
/**
 * `source` in the CommonJS wrapper, on the bundle's first line so its line
 * numbers hold, with one more parameter: a script compiled by vm cannot
 * `import()` (Node 20 wants --experimental-vm-modules, or warns), so the
 * bundle's few dynamic imports (tinypool, an ES module; built-ins) call
 * the loader's instead (scripts/bundle.mjs rewrites them).
 */
export function bundleScript(source: string, path: string, cachedData?: Buffer): Script {
  return new Script(
    `(function (exports, require, module, __filename, __dirname, __txcriptImport) {${source}\n})`,
    { filename: path, ...(cachedData ? { cachedData } : {}) },
  );
}

/** Run a compiled bundle; false if it did not compile to the function it should. */
export function runBundleScript(
  script: Script,
  path: string,
  load: (specifier: string) => Promise<unknown>,
): boolean {
  const wrapper: unknown = script.runInThisContext();
  if (typeof wrapper !== "function") return false;
  const module = { exports: {} };
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
    load,
  );
  return true;
}

/**
 * The code cache the build made of bundle `name` (hashed `hash`) under the
 * V8 flags `flags` (besides --verify-snapshot-checksum, set while a cache
 * is read or made), in `cli` (dist/cli/): `shipped-cache/<bundle>.<hash>.
 * <node version>-<arch>[.<flags>].bin`. V8 refuses a cache made under
 * other flags or another V8, so a flag set gets its own file, and a Node
 * other than the one that built finds none.
 */
export function shippedCodeCacheFile(
  cli: string,
  name: string,
  hash: string,
  flags: readonly string[],
): string {
  const tag = flags.map((f) => `.${f.replace(/^--/, "").replace(/[^\w-]/g, "_")}`).join("");
  return join(cli, "shipped-cache", `${name}.${hash}.${process.version}-${process.arch}${tag}.bin`);
}
