import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Tests never see the real home: whatever falls back to it (txcript's copy
// ledger, caches, a store's default root) lands in a folder made for this run.
const home = mkdtempSync(join(tmpdir(), "txcript-test-home-"));
process.on("exit", () => rmSync(home, { recursive: true, force: true }));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Run on their own: the installed harness CLIs (`npm run test:real`) and
    // Chromium-driven tests (`npm run test:browser`).
    exclude: [...configDefaults.exclude, "test/real/**", "test/browser/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most tests wait on child processes (the built CLI, SIGKILL rounds), so
    // more forks than cores pays: on 2 cores, 3 forks took the suite from
    // 223 s to 155 s of wall time (vitest's default is cores - 1).
    maxWorkers: 3,
    // CLI tests run dist/: rebuild it when src/ is newer.
    globalSetup: ["test/support/build.ts"],
    // Test helpers open databases before txcript does; with URI filenames on
    // from the start, reads take the same paths as in the CLI (where txcript
    // opens first). src/sqlite.ts sets this only around its own opens.
    env: { SQLITE_USE_URI: "1", HOME: home },
  },
});
