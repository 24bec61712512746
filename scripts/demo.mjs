// `npm run demo`: the built CLI on the bundled example home (examples/home),
// as a user would run it: list the agy conversations, view them, and carry
// one over to Claude Code and Codex in a scratch directory.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "dist", "cli", "main.cjs");
const scratch = mkdtempSync(join(tmpdir(), "txcript-demo-"));

// Only the bundled home: no variable may point txcript at real stores.
// The index and the copy ledger go to the scratch folder, never into the checkout.
const env = {
  ...process.env,
  HOME: join(root, "examples", "home"),
  USERPROFILE: join(root, "examples", "home"),
  XDG_CACHE_HOME: join(scratch, "cache"),
  XDG_STATE_HOME: join(scratch, "state"),
  LOCALAPPDATA: join(scratch, "local"),
};
for (const key of Object.keys(env)) {
  if (/^(GEMINI_HOME|CLAUDE_CONFIG_DIR|CODEX_HOME)$|^TXCRIPT_/.test(key)) delete env[key];
}

/** Run txcript as a user would; returns what it printed on stdout (also shown). */
function run(args) {
  process.stdout.write(`\n$ txcript ${args.join(" ")}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], {
    stdio: ["inherit", "pipe", "inherit"],
    cwd: root,
    env,
    encoding: "utf8",
  });
  process.stdout.write(r.stdout ?? "");
  if (r.status !== 0) {
    process.stderr.write(`demo: "txcript ${args.join(" ")}" exited with ${r.status}\n`);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  }
  return r.stdout ?? "";
}

try {
  run(["list"]);
  run(["view", "0f4c7a2e", "--no-pager"]);
  run(["view", "8c1f2e4a#1-3", "--no-pager"]);
  run(["view", "5d458282", "--no-pager"]);
  run(["continue", "0f4c7a2e", "--with", "claude_code", "--out", join(scratch, "claude")]);
  run(["continue", "0f4c7a2e", "--with", "codex", "--out", join(scratch, "codex")]);
  run(["list", "--from", "codex", "--codex-root", join(scratch, "codex")]);
  // A Simple document any agent can emit, written into agy's own format.
  const wrote = run([
    "continue",
    "examples/simple/fix-flaky-test.json",
    "--with",
    "antigravity",
    "--out",
    join(scratch, "agy"),
  ]);
  // A copy has its own id: the one continue printed on a line of its own.
  const copy = wrote.split("\n").find((l) => /^[0-9a-f]{8}-[0-9a-f-]{27}$/.test(l));
  // `--out DIR` is agy's GEMINI_HOME, so the copy is in DIR/antigravity-cli.
  run([
    "view",
    copy,
    "--from",
    "antigravity",
    "--antigravity-root",
    join(scratch, "agy", "antigravity-cli"),
    "--no-pager",
  ]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
