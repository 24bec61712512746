// `npm run test:real`: install the real harness CLIs of test/real (once: the
// install is skipped while its node_modules was made from the same
// package.json and lockfile),
// then run the real-harness suite with its own vitest config. Nothing here or
// in the suite reaches beyond 127.0.0.1 except `npm ci` itself.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "test", "real");
const lock = join(pkg, "package-lock.json");
const stamp = join(pkg, "node_modules", ".txcript-lock-sha256");

function sh(cmd, args, cwd, { mayFail = false } = {}) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit" });
  if (r.status !== 0 && mayFail) return false;
  if (r.status !== 0) {
    process.stderr.write(`test:real: "${cmd} ${args.join(" ")}" exited with ${r.status}\n`);
    process.exit(r.status ?? 1);
  }
  return true;
}

const want = createHash("sha256")
  .update(readFileSync(join(pkg, "package.json")))
  .update(readFileSync(lock))
  .digest("hex");
const have = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
if (have === want) {
  process.stdout.write("test:real: test/real/node_modules matches its lockfile; npm ci skipped\n");
} else {
  const started = Date.now();
  // npm ci refuses a lockfile that lacks an optional platform package; the
  // registry here lacks opencode-ai's non-Linux-x64 builds, so the lockfile
  // cannot name them. `npm install --no-save` then installs from the same
  // lockfile without touching it.
  if (!sh("npm", ["ci", "--no-audit", "--no-fund"], pkg, { mayFail: true })) {
    process.stdout.write(
      "test:real: npm ci refused the lockfile; installing from it with npm install --no-save\n",
    );
    sh("npm", ["install", "--no-save", "--no-audit", "--no-fund"], pkg);
  }
  writeFileSync(stamp, `${want}\n`);
  process.stdout.write(`test:real: installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
sh(
  process.execPath,
  [vitest, "run", "--config", join(pkg, "vitest.config.ts"), ...process.argv.slice(2)],
  root,
);
