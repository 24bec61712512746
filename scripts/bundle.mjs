// `npm run build`, second step: bundle the command line. tsc has compiled
// src/ into dist/ (the library, module by module); this replaces
// dist/cli/main.js with one esbuild bundle of it, split at each command's
// dynamic import, so a command loads a few files instead of about a hundred.
// Pure-JS packages go into the bundle too: resolving and reading each of
// their files was a fifth of `list`'s start. better-sqlite3 stays outside
// (a native addon), and the library in dist/ still imports every package.
// agy's discovery worker and the index's text worker are bundled beside it,
// where the bundle looks for them. `txcript serve`'s web client (web/serve/)
// is bundled for the browser into dist/cli/serve-client/, Chart.js with it:
// the server reads it from there and fetches nothing at run time.

import { rmSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli");

// Chunks of an earlier bundle would linger beside the new ones.
for (const name of await readdir(cli)) if (/^chunk-.*\.js$/.test(name)) rmSync(join(cli, name));

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

await build({
  plugins: [lazyChildProcess],
  entryPoints: {
    main: join(cli, "main.js"),
    "discover-worker": join(root, "dist", "harness", "antigravity", "discover-worker.js"),
    "text-worker": join(root, "dist", "index", "text-worker.js"),
  },
  outdir: cli,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // tinypool starts its workers from files beside its own module; pg
  // requires its optional native binding (pg-native) by name, which a
  // bundle cannot leave optional.
  external: ["better-sqlite3", "tinypool", "pg"],
  // ES builds first: jsonc-parser's CommonJS build requires its files by
  // computed names, which a bundle cannot follow.
  mainFields: ["module", "main"],
  // Bundled CommonJS packages (commander) require Node's built-ins.
  banner: {
    js: 'import { createRequire as __txcriptRequire } from "node:module"; const require = __txcriptRequire(import.meta.url);',
  },
  chunkNames: "chunk-[hash]",
  // Whitespace and syntax only (names stay, and the source map maps back):
  // Node reads and pre-parses every file a command loads, and the 35 files of
  // a warm `list` shrink from about 340 kB to 220 kB (bench/list.bench.ts).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: "warning",
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
