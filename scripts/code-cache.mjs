// `npm run build`, the code caches it ships (scripts/bundle.mjs runs this
// once per cache, in a process of its own):
//
//   node scripts/code-cache.mjs <bundle name> <V8 flags, comma-separated or ""> <args...>
//
// compiles dist/cli/<bundle name>.cjs as dist/cli/main.js does
// (dist/cli/bundle-script.js), under the flags main.js compiles it under
// for such a run, runs it on <args> (a representative command, on stores
// and a cache folder the caller makes empty), and at exit writes V8's
// code cache of it, which then holds every function the command ran,
// to dist/cli/shipped-cache/ (bundle-script.js names it). A first run of
// txcript then reads it instead of compiling the bundle.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli");
const { bundleScript, runBundleScript, shippedCodeCacheFile } = await import(
  join(cli, "bundle-script.js")
);

const [name, flagList, ...args] = process.argv.slice(2);
const flags = flagList ? flagList.split(",") : [];
const path = join(cli, `${name}.cjs`);
const source = readFileSync(path, "latin1");
const hash = /\n\/\/# txcript-bundle ([0-9a-f]{16,64})\n?$/.exec(source)?.[1];
if (!hash) throw new Error(`${path} has no hash line`);

for (const flag of flags) setFlagsFromString(flag);
const script = bundleScript(source, path);
process.once("exit", () => {
  // main.js reads a cache with the checksum check on (V8 keys a cache by
  // its flags, this one among them).
  setFlagsFromString("--verify-snapshot-checksum");
  writeFileSync(shippedCodeCacheFile(cli, name, hash, flags), script.createCachedData());
});
process.argv = [process.argv[0], join(cli, "main.js"), ...args];
if (!runBundleScript(script, path, (specifier) => import(specifier)))
  throw new Error(`${path} did not compile to a function`);
