import { defineConfig } from "vitest/config";

// The browser suite: `npm run test:browser` (Debian's /usr/bin/chromium via playwright-core).
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
  },
});
