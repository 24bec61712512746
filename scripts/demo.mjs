// The demo: run the built CLI on the bundled examples, as a user would.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "dist", "cli", "main.js");

function run(args) {
  process.stdout.write(`\n$ txcript ${args.join(" ")}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], { stdio: "inherit", cwd: root });
  if (r.status !== 0) {
    process.stderr.write(`demo: "txcript ${args.join(" ")}" exited with ${r.status}\n`);
    process.exit(1);
  }
}

run(["convert", "examples/simple/fix-flaky-test.json", "--from", "simple", "--to", "common"]);
