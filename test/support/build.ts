/**
 * Vitest global setup: the CLI tests run the built binary (dist/), so a
 * bare `vitest` after editing src/ would test stale code. Rebuild first
 * when any source file is newer than the build (`npm test` has just built,
 * so there this costs one directory walk). And one temporary folder for the
 * whole run, removed at its end: test workers are stopped without running
 * their exit handlers, so the folders each file made under /tmp stayed
 * (about 150 a run); TMPDIR points the workers and the CLIs they start here.
 */

import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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

export default function setup(): () => void {
  const run = mkdtempSync(join(tmpdir(), "txcript-test-run-"));
  // Mode 1777, as /tmp's: tests run PostgreSQL as `postgres` and the CLI as
  // an unprivileged user, and both make their own temporaries under here.
  // Each test's own folder is still mkdtemp's 0700.
  chmodSync(run, 0o1777);
  process.env.TMPDIR = run;
  const teardown = () => rmSync(run, { recursive: true, force: true });
  rebuild();
  return teardown;
}

function rebuild(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, "dist", "cli", "main.cjs")).mtimeMs;
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
