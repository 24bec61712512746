// The real-harness suite (`npm run test:real`): the installed CLIs of
// test/real/package.json against the local model server. Not in `npm test`.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/real/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
    // The CLIs are heavy; one file at a time keeps 2 cores usable.
    fileParallelism: false,
  },
});
