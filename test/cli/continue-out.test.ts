/**
 * `continue --out DIR` for every harness txcript writes: DIR is the
 * harness's own home, the copy is self-contained (the folder moved
 * elsewhere is still found through the harness's variable), the `resume:`
 * line names that variable and DIR, and nothing is written into the real
 * home. A harness that cannot be pointed elsewhere is refused in one line
 * before anything is written.
 */

import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shellWord } from "../../src/sessions/resume.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

/** A project path with a space and non-ASCII letters, as users have them. */
const CWD = "/srv/my project/café ☕";

const DOC = JSON.stringify({
  id: "out-doc-1",
  timestamp: "2026-11-30T09:15:00Z",
  cwd: CWD,
  messages: [
    { role: "user", content: "list the files, then say done" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Listing." },
        { type: "tool_use", id: "call_1", name: "Bash", input: { command: "ls -la" } },
      ],
    },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "call_1", content: "a.txt\nb.txt" }],
    },
    { role: "assistant", content: "done: zebra-quartz-91" },
  ],
});

interface Target {
  harness: string;
  /** The harness's own variable naming DIR. */
  variable: string;
  /** The program and arguments before the id (the id follows, or is joined for agy). */
  command: (id: string) => string[];
  /** Where, inside DIR, the copy's main file lies. */
  under: string;
  /** Another variable the line sets after the first (Kilo pins its database's name). */
  also?: string;
  extra?: string[];
}

const TARGETS: Target[] = [
  {
    harness: "claude_code",
    variable: "CLAUDE_CONFIG_DIR",
    command: (id) => ["claude", "--resume", id],
    under: "projects",
  },
  {
    harness: "codex",
    variable: "CODEX_HOME",
    command: (id) => ["codex", "resume", id],
    under: "sessions",
  },
  {
    harness: "gemini_cli",
    variable: "GEMINI_CLI_HOME",
    command: (id) => ["gemini", "--resume", id],
    under: ".gemini",
  },
  {
    harness: "qwen_code",
    variable: "QWEN_RUNTIME_DIR",
    command: (id) => ["qwen", "--resume", id],
    under: "projects",
  },
  {
    harness: "opencode",
    variable: "XDG_DATA_HOME",
    command: (id) => ["opencode", "--session", id],
    under: "opencode",
  },
  {
    harness: "pi",
    variable: "PI_CODING_AGENT_DIR",
    command: (id) => ["pi", "--session", id],
    under: "sessions",
  },
  {
    harness: "cline",
    variable: "CLINE_DIR",
    command: (id) => ["cline", "--id", id],
    under: "data/sessions",
  },
  {
    harness: "copilot",
    variable: "COPILOT_HOME",
    command: (id) => ["copilot", "--resume", id],
    under: "session-state",
  },
  {
    harness: "kilo",
    variable: "XDG_DATA_HOME",
    also: "KILO_DB=kilo.db",
    command: (id) => ["kilo", "--session", id],
    under: "kilo",
  },
  {
    harness: "antigravity",
    variable: "GEMINI_HOME",
    command: (id) => ["agy", `--conversation=${id}`],
    under: "antigravity-cli",
  },
];

function setUp() {
  const base = tempDir("txcript-out-");
  const home = join(base, "home");
  mkdirSync(home);
  const state = join(base, "state");
  const doc = join(base, "doc.json");
  writeFileSync(doc, DOC);
  const env = { HOME: home, TXCRIPT_STATE_DIR: state };
  return { base, home, doc, env };
}

describe("continue --out DIR", () => {
  it.each(TARGETS)(
    "$harness: a self-contained copy under DIR, resumed with $variable=DIR",
    ({ harness, variable, also, command, under }) => {
      const { base, home, doc, env } = setUp();
      const out = join(base, "copies ü", harness);
      const before = hashTree(home);
      const r = txcript(["continue", doc, "--with", harness, "--out", out], { env });
      expect(r.stderr).not.toMatch(/^txcript: /m);
      expect(r.status).toBe(0);
      const [id, resume] = r.stdout.trimEnd().split("\n");
      expect(id).toBeTruthy();
      const argv = command(id ?? "").map(shellWord);
      expect(resume).toBe(
        `resume: mkdir -p ${shellWord(CWD)} && cd ${shellWord(CWD)} && ${variable}=${shellWord(out)} ${also ? `${also} ` : ""}${argv.join(" ")}`,
      );
      // The real home is untouched; the copy is under DIR, where the line says.
      expect(hashTree(home)).toEqual(before);
      expect(existsSync(join(out, under))).toBe(true);
      expect(r.stderr).toContain(out);
      // Only Codex's copy depends on a file of DIR (its provider, from DIR/config.toml), and says so.
      expect(r.stderr.includes("DIR/config.toml")).toBe(harness === "codex");

      // Moved as a folder, the copy is found through the harness's own variable.
      const moved = join(base, "moved elsewhere", harness);
      mkdirSync(join(base, "moved elsewhere"), { recursive: true });
      renameSync(out, moved);
      const there = { ...env, [variable]: moved };
      const listed = txcript(["list", "--json", "--from", harness], { env: there });
      expect(listed.status).toBe(0);
      const ids = JSON.parse(listed.stdout).sessions.map((s: { id: string }) => s.id);
      expect(ids).toEqual([id]);
      const viewed = txcript(["view", id ?? "", "--from", harness], { env: there });
      expect(viewed.status).toBe(0);
      expect(viewed.stdout).toContain("zebra-quartz-91");
      expect(viewed.stdout).toContain("a.txt");
    },
    30_000,
  );

  it("agy --surface desktop: the copy lands in DIR/antigravity, the app's lane under GEMINI_HOME", () => {
    const { base, home, doc, env } = setUp();
    const out = join(base, "agy home");
    const r = txcript(
      ["continue", doc, "--with", "antigravity", "--surface", "desktop", "--out", out],
      { env },
    );
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0] ?? "";
    expect(readdirSync(join(out, "antigravity", "conversations"))).toEqual([`${id}.db`]);
    expect(existsSync(join(out, "antigravity-cli"))).toBe(false);
    expect(r.stderr).toContain("open it in the Antigravity app");
    expect(existsSync(join(home, ".gemini"))).toBe(false);
  });

  it.each(["amp", "cursor", "goose", "kiro", "crush", "droid", "grok"])(
    "%s: refused before anything is written, in one line",
    (harness) => {
      const { base, home, doc, env } = setUp();
      const out = join(base, "never");
      const before = hashTree(home);
      const r = txcript(["continue", doc, "--with", harness, "--out", out], { env });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^txcript: [^\n]*--out[^\n]*\n$/);
      expect(existsSync(out)).toBe(false);
      expect(hashTree(home)).toEqual(before);
    },
  );
});
