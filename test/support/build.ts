/**
 * Vitest global setup: the CLI tests run the built binary (dist/), so a
 * bare `vitest` after editing src/ would test stale code. Rebuild first
 * when any source file is newer than the build (`npm test` has just built,
 * so there this costs one directory walk).
 */

import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, "dist", "cli", "main.js")).mtimeMs;
  } catch {
    // not built yet
  }
  if (built >= newest(join(ROOT, "src"))) return;
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  // The second step of `npm run build`: the tests run the bundled command line users get.
  execFileSync(process.execPath, [join(ROOT, "scripts", "bundle.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
}
