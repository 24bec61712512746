// `npm run build`, second step: bundle the command line. tsc has compiled
// src/ into dist/ (the library, module by module); this bundles the
// command line (dist/cli/program.js) with esbuild into one CommonJS file,
// dist/cli/txcript.cjs, and `list` alone into dist/cli/txcript-list.cjs,
// which dist/cli/main.js (src/cli/main.ts, left as tsc made it) compiles
// through a V8 code cache: Node 20 caches compiled code for
// CommonJS-shaped scripts only (`vm.Script`), and one file is one cache.
// Each command's code stays behind its dynamic import (esbuild wraps each
// module in a lazy initializer), so it is parsed but not run. A bundle's
// last line carries a hash of the rest, which keys its cache.
// Pure-JS packages go into the bundle too: resolving and reading each of
// their files was a fifth of `list`'s start. better-sqlite3 stays outside
// (a native addon), and the library in dist/ still imports every package.
// agy's discovery worker and the index's text worker are bundled beside it
// as ES modules (split into shared chunks), where the bundle looks for
// them. `txcript serve`'s web client (web/serve/) is bundled for the
// browser into dist/cli/serve-client/, Chart.js with it: the server reads
// it from there and fetches nothing at run time.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli");

// Chunks of an earlier bundle would linger beside the new ones.
for (const name of await readdir(cli))
  if (/^chunk-.*\.js(\.map)?$/.test(name)) rmSync(join(cli, name));

// commander requires node:child_process as it loads, for the subcommands
// it could run as separate programs (txcript has none): loading it, with
// the net, dgram and stream modules it pulls in, was the largest single
// module cost of a warm `list`. Its one use, `spawn`, loads it when called.
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: "commander-lazy-child-process",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(COMMANDER_CHILD_PROCESS))
        throw new Error(`${args.path}: commander no longer requires child_process as expected`);
      const lazy =
        "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(COMMANDER_CHILD_PROCESS, lazy), loader: "js" };
    });
  },
};

// Options both bundles share.
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  // tinypool starts its workers from files beside its own module; pg
  // requires its optional native binding (pg-native) by name, which a
  // bundle cannot leave optional.
  external: ["better-sqlite3", "tinypool", "pg"],
  // ES builds first: jsonc-parser's CommonJS build requires its files by
  // computed names, which a bundle cannot follow.
  mainFields: ["module", "main"],
  // Whitespace and syntax only (names stay, and the source map maps back):
  // Node reads every byte of it, and V8 pre-parses what the code cache
  // does not hold.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: "warning",
};

// `list` alone, for main.js to run when the command line names it: a
// third of the whole bundle to read, and a code cache half the size to
// load (bench/list.bench.ts's warm list: 5% less CPU). Every other
// command is left out (program.ts imports only the command named).
const onlyList = {
  name: "only-list",
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) =>
      args.path === "./commands/list.js" ? undefined : { path: args.path, namespace: "left-out" },
    );
    b.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
      contents: `export function register() { throw new Error("${args.path} is not in txcript-list.cjs"); }`,
      loader: "js",
    }));
  },
};

/**
 * The command line bundled as dist/cli/<name>.cjs, one CommonJS file, then
 * made ASCII, its imports rewritten and its hash appended (below).
 */
async function commandLine(name, plugins) {
  await build({
    ...common,
    plugins: [lazyChildProcess, ...plugins],
    entryPoints: { [name]: join(cli, "program.js") },
    outdir: cli,
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    // The modules' `import.meta.url` is the bundle's own URL (version.ts
    // reads the package two folders up, the workers sit beside it).
    define: { "import.meta.url": "__txcriptUrl" },
    banner: { js: 'const __txcriptUrl = require("node:url").pathToFileURL(__filename).href;' },
    // workers.ts's `import.meta.resolve` runs only from source (a .ts worker).
    logOverride: { "empty-import-meta": "silent" },
  });
  // ASCII only, so main.js reads it as Latin-1 into a one-byte string: a
  // character beyond made V8 decode all 3 MB of UTF-8 into a two-byte
  // string (3% of a warm list's instructions). esbuild escapes strings but
  // leaves regular expressions as written; \uXXXX means the same in both,
  // and in comments and identifiers. Then the hash main.js keys the code
  // cache by, on the last line (the source map's lines stay as esbuild
  // wrote them).
  //
  // main.js compiles it with vm, whose scripts cannot `import()` in Node
  // 20 (not without --experimental-vm-modules, or an experimental
  // warning), so each `import("x")` left in it (only packages kept outside
  // and Node's built-ins: esbuild inlines the rest) calls main.js's import
  // instead, a parameter of the wrapper it compiles the bundle in.
  const bundle = join(cli, `${name}.cjs`);
  const code = (await readFile(bundle, "utf8"))
    .replace(/(?<![.\w$])import\(("[^"\\]+")\)/g, (_, specifier) => {
      const imported = JSON.parse(specifier);
      if (!imported.startsWith("node:") && !common.external.includes(imported))
        throw new Error(
          `${name}.cjs imports ${specifier}, which is neither outside it nor built in`,
        );
      return `__txcriptImport(${specifier})`;
    })
    .replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 32);
  await writeFile(bundle, `${code}//# txcript-bundle ${hash}\n`);
}

await commandLine("txcript", []);
await commandLine("txcript-list", [onlyList]);

// The binary, dist/cli/main.cjs: main.js (src/cli/main.ts) and its few
// imports as one CommonJS file. An ES module entry starts Node's ES module
// loader, which reads its modules through libuv's thread pool (four threads
// started, twice the context switches): a warm `list` took 17 ms more CPU,
// most of it system time, from main.js than from this (docs/architecture.md).
// main.js stays, the same program as an ES module.
await build({
  ...common,
  entryPoints: { main: join(cli, "main.js") },
  outdir: cli,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // Run from source, without the bundles, it imports the modules as they are.
  external: [...common.external, "./program.js"],
  define: { "import.meta.url": "__txcriptUrl" },
  banner: { js: 'const __txcriptUrl = require("node:url").pathToFileURL(__filename).href;' },
});
chmodSync(join(cli, "main.js"), 0o755);
chmodSync(join(cli, "main.cjs"), 0o755);
await shippedCodeCaches();

/**
 * The code caches a first run reads instead of compiling its bundle
 * (dist/cli/shipped-cache/, src/cli/bundle-script.ts), each made by
 * scripts/code-cache.mjs running a representative command on
 * examples/home's stores and an empty cache folder: a cold `list` (V8's
 * flags), then a warm one (the index the first made; main.js's interrupt
 * budget), and `--help` for txcript.cjs (it loads every command). V8
 * refuses them under another Node, and main.js then compiles as without
 * them; a build whose run fails ships none (and says so).
 */
async function shippedCodeCaches() {
  const folder = join(cli, "shipped-cache");
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  const { LIST_INTERRUPT_BUDGET } = await import(join(cli, "bundle-script.js"));
  const scratch = mkdtempSync(join(tmpdir(), "txcript-code-cache-"));
  const env = {
    PATH: process.env.PATH ?? "",
    // The example home: three agy conversations, so the cache holds the
    // code that reads them (opened read-only, as any store).
    HOME: join(root, "examples", "home"),
    TXCRIPT_CACHE: join(scratch, "cache"),
    NO_COLOR: "1",
  };
  try {
    for (const [name, flags, ...args] of [
      ["txcript-list", "", "list", "--json"],
      ["txcript-list", LIST_INTERRUPT_BUDGET, "list", "--json"],
      ["txcript", "", "--help"],
    ]) {
      const r = spawnSync(
        process.execPath,
        [join(root, "scripts", "code-cache.mjs"), name, flags, ...args],
        { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
      );
      if (r.status !== 0) {
        // Only an optimization: the build goes on, and ships none.
        process.stderr.write(
          `bundle: no code cache shipped (${name} ${args.join(" ")}): ${r.stderr}\n`,
        );
        rmSync(folder, { recursive: true, force: true });
        return;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await build({
  ...common,
  entryPoints: {
    "discover-worker": join(root, "dist", "harness", "antigravity", "discover-worker.js"),
    "text-worker": join(root, "dist", "index", "text-worker.js"),
  },
  outdir: cli,
  allowOverwrite: true,
  splitting: true,
  format: "esm",
  // Bundled CommonJS packages require Node's built-ins.
  banner: {
    js: 'import { createRequire as __txcriptRequire } from "node:module"; const require = __txcriptRequire(import.meta.url);',
  },
  chunkNames: "chunk-[hash]",
});

await build({
  entryPoints: {
    app: join(root, "web", "serve", "app.ts"),
    "app-style": join(root, "web", "serve", "app.css"),
  },
  outdir: join(cli, "serve-client"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "linked",
  logLevel: "warning",
});
