/**
 * A new user's first day (issue 10), through the built binary on temporary
 * homes: copies with their own ids and lineage, a closed stdout, Ctrl-C,
 * files of the wrong kind, an empty listing, a missing working directory,
 * Codex and Claude Code metadata, undated Simple documents, aliases and
 * completion, and error lines in the user's terms.
 */

import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistant, basicSession, jsonl, SID, user } from "../claude-code/lines.js";
import { BIN, ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

const LEGACY = "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87";
const SIMPLE = join(ROOT, "examples", "simple", "fix-flaky-test.json");

/** A home holding the bundled example agy store. */
function exampleHome(): string {
  const home = tempDir("txcript-first-");
  cpSync(join(ROOT, "examples", "home"), home, { recursive: true });
  return home;
}

function inHome(home: string, args: string[], env: Record<string, string> = {}) {
  return txcript(args, { env: { HOME: home, ...env } });
}

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
const hasBash = spawnSync("bash", ["--version"], { encoding: "utf8" }).status === 0;

/** Run txcript on a pseudo-terminal (util-linux `script`), feeding `keys` after `delayMs`. */
function onTerminal(
  args: string[],
  env: Record<string, string>,
  keys: string,
  delayMs: number,
  cwd = ROOT,
): { status: number; output: string } {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`);
  // The keys arrive on script's stdin after a pause; script passes them to the terminal.
  const feeder = `sleep ${delayMs / 1000}; printf '${keys}'; sleep 2`;
  const r = spawnSync(
    "bash",
    ["-c", `(${feeder}) | script -qefc ${JSON.stringify(command.join(" "))} /dev/null`],
    {
      encoding: "utf8",
      cwd,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", TERM: "xterm", ...env },
      timeout: 30_000,
    },
  );
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

describe("1. a continued copy", () => {
  it("gets its own id, names its source, and an exact id always resolves", () => {
    const home = exampleHome();
    const r = inHome(home, ["continue", "0f4c", "--with", "claude_code", "--no-resume"]);
    expect(r.status).toBe(0);
    const copy = r.stdout.split("\n")[0] ?? "";
    expect(copy).toMatch(/^[0-9a-f-]{36}$/);
    expect(copy).not.toBe(LEGACY);

    const original = inHome(home, ["view", LEGACY]);
    expect(original.status).toBe(0);
    expect(original.stdout).toContain(`${LEGACY}  (antigravity)`);

    const view = inHome(home, ["view", copy]);
    expect(view.status).toBe(0);
    expect(view.stdout).toMatch(new RegExp(`forked +from ${LEGACY} {2}\\(antigravity\\)`));

    const list = JSON.parse(inHome(home, ["list", "--json"]).stdout);
    const listed = list.sessions.find((s: { id: string }) => s.id === copy);
    expect(listed).toMatchObject({
      harness: "claude_code",
      forked_from: LEGACY,
      forked_from_harness: "antigravity",
    });
    const source = list.sessions.find((s: { id: string }) => s.id === LEGACY);
    expect(source.forked_from).toBeNull();
  });

  it("a repeat finds its copy; a copy the user changed is never overwritten", () => {
    const home = exampleHome();
    const first = inHome(home, ["continue", "0f4c", "--with", "claude", "--no-resume"]);
    const id = first.stdout.split("\n")[0] ?? "";
    const again = inHome(home, ["continue", "0f4c", "--with", "claude", "--no-resume"]);
    expect(again.status).toBe(0);
    expect(again.stdout.split("\n")[0]).toBe(id);
    expect(again.stderr).toContain(`already holds this copy, unchanged: session ${id}`);

    // The user works in the copy: txcript must not touch it again.
    const project = join(home, ".claude", "projects", "-home-dev-my-app");
    const file = join(project, `${id}.jsonl`);
    appendFileSync(
      file,
      `${JSON.stringify({ type: "summary", summary: "mine", leafUuid: "x" })}\n`,
    );
    const worked = readFileSync(file);
    const third = inHome(home, ["continue", "0f4c", "--with", "claude", "--no-resume"]);
    expect(third.status).toBe(0);
    const next = third.stdout.split("\n")[0] ?? "";
    expect(next).not.toBe(id);
    expect(third.stderr).toContain(`an earlier copy ${id} has changed since txcript wrote it`);
    expect(readFileSync(file)).toEqual(worked);
    expect(readdirSync(project).sort()).toEqual([`${id}.jsonl`, `${next}.jsonl`].sort());
  });

  it("a copy nobody touched is brought up to date when its source grew", () => {
    const home = tempDir("txcript-first-");
    const doc = join(home, "run.json");
    const base = JSON.parse(readFileSync(SIMPLE, "utf8"));
    base.id = "run-1";
    writeFileSync(doc, JSON.stringify(base));
    const codex = join(home, "codex");
    const env = { TXCRIPT_CODEX_ROOT: codex };
    const first = inHome(home, ["continue", doc, "--with", "codex", "--no-resume"], env);
    expect(first.status).toBe(0);
    const id = first.stdout.split("\n")[0];
    base.messages.push({ role: "user", content: "And the other flaky test?" });
    writeFileSync(doc, JSON.stringify(base));
    const second = inHome(home, ["continue", doc, "--with", "codex", "--no-resume"], env);
    expect(second.status).toBe(0);
    expect(second.stdout.split("\n")[0]).toBe(id);
    expect(second.stderr).toContain("updated the copy");
    const view = inHome(home, ["view", id ?? "", "--no-pager"], env);
    expect(view.stdout).toContain("And the other flaky test?");
  });

  it("the same whole id in two stores asks for --from, and --from resolves it", () => {
    const home = exampleHome();
    // A copy an older txcript made under the source's own id.
    const project = join(home, ".claude", "projects", "-home-dev-my-app");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${LEGACY}.jsonl`), basicSession(LEGACY));
    const r = inHome(home, ["view", LEGACY]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("pick one with --from antigravity or --from claude_code");
    expect(r.stderr).not.toContain("give more of the id");
    expect(inHome(home, ["view", LEGACY, "--from", "claude"]).status).toBe(0);
  });
});

describe.skipIf(!hasBash)("2. a closed stdout", () => {
  it.each([
    ["view", (doc: string) => ["view", doc, "--no-pager"]],
    ["convert", (doc: string) => ["convert", doc, "--to", "claude_code"]],
    ["export", (doc: string) => ["export", doc]],
  ])("%s | head ends quietly", (_name, args) => {
    const dir = tempDir();
    const doc = join(dir, "big.json");
    const messages = Array.from({ length: 3000 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `line ${i} ${"x".repeat(200)}`,
    }));
    writeFileSync(doc, JSON.stringify({ id: "big", timestamp: "2026-01-01T00:00:00Z", messages }));
    const command = [process.execPath, BIN, ...args(doc)].map((a) => `'${a}'`).join(" ");
    const r = spawnSync(
      "bash",
      ["-c", `${command} 2>"${dir}/err" | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: dir } },
    );
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(r.stdout.trim()).toBe("0");
  });
});

describe.skipIf(!hasScript || !hasBash)("4. Ctrl-C", () => {
  it("at the delete prompt ends with 130, deletes nothing, and prints no internal error", () => {
    const home = exampleHome();
    const before = hashTree(home);
    const r = onTerminal(["delete", "0f4c"], { HOME: home }, "\\003", 1500);
    expect(r.output).toContain("[y/N]");
    expect(r.output).not.toContain("internal error");
    expect(r.output).toContain("not deleted");
    expect(r.status).toBe(130);
    expect(hashTree(home)).toEqual(before);
  });
});

describe("5. files of the wrong kind", () => {
  function claudeFile(dir: string): string {
    const path = join(dir, "session.jsonl");
    writeFileSync(path, basicSession());
    return path;
  }

  it("a Claude Code JSONL is detected and read, and named when given as Simple", () => {
    const dir = tempDir();
    const file = claudeFile(dir);
    const view = txcript(["view", file, "--no-pager"]);
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("Run the tests");
    const wrong = txcript(["view", file, "--as", "simple"]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe(
      `txcript: ${file}: this is a Claude Code session, not a Simple document; use --as claude_code (or leave --as out)\n`,
    );
    const convert = txcript(["convert", file, "--to", "simple"]);
    expect(convert.status).toBe(0);
    expect(JSON.parse(convert.stdout).id).toBe(SID);
    const exported = txcript(["export", file]);
    expect(exported.status).toBe(0);
    expect(JSON.parse(exported.stdout).id).toBe(SID);
  });

  it("an agy database given as a file is read, and named when given as Simple", () => {
    const dir = tempDir();
    const db = join(dir, "copy.db");
    cpSync(join(ROOT, "examples/home/.gemini/antigravity-cli/conversations", `${LEGACY}.db`), db);
    const view = txcript(["view", db, "--no-pager"]);
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("Fix the flaky login test");
    const wrong = txcript(["convert", db, "--from", "simple", "--to", "common"]);
    expect(wrong.stderr).toBe(
      `txcript: ${db}: this is an Antigravity CLI (agy) conversation database, not a Simple document; use --from antigravity (or leave --from out)\n`,
    );
  });

  it("a mistyped file name is not an unknown session id; an unknown kind says what is read", () => {
    const dir = tempDir();
    const r = txcript(["view", join(dir, "sesion.jsonl")]);
    expect(r.stderr).toBe(
      `txcript: ${join(dir, "sesion.jsonl")}: no such file (and no session id matches it)\n`,
    );
    const notes = join(dir, "notes.txt");
    writeFileSync(notes, "remember the milk\n");
    const u = txcript(["view", notes]);
    expect(u.status).toBe(1);
    expect(u.stderr).toMatch(/notes\.txt: not a session txcript recognizes .*--as\n$/);
  });
});

describe("6. an empty listing", () => {
  it("says where it looked for each harness", () => {
    const home = tempDir();
    const r = txcript(["list"], { env: { HOME: home } });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("no sessions found; looked in:");
    expect(r.stderr).toContain(`${join(home, ".claude", "projects")}  (does not exist)`);
    expect(r.stderr).toContain(`${join(home, ".gemini", "antigravity-cli")}  (does not exist)`);
    expect(r.stderr).toContain(`${join(home, ".codex")}  (does not exist)`);
  });

  it("suggests the root one level off", () => {
    const home = exampleHome();
    const gemini = join(home, ".gemini");
    const r = txcript(["list", "--from", "agy", "--antigravity-root", gemini], {
      env: { HOME: tempDir() },
    });
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`try --antigravity-root ${join(gemini, "antigravity-cli")}`);
  });
});

describe.skipIf(!hasScript || !hasBash)("7. a session whose directory is missing here", () => {
  it("is not launched elsewhere; the command to resume it is printed", () => {
    const home = exampleHome();
    const marks = tempDir();
    const r = onTerminal(
      ["continue", "0f4c", "--with", "claude_code"],
      {
        HOME: home,
        TXCRIPT_CLAUDE_CODE_RESUME_CMD: `touch ${join(marks, "launched")}`,
      },
      "",
      0,
      marks,
    );
    expect(r.status).toBe(0);
    expect(existsSync(join(marks, "launched"))).toBe(false);
    expect(r.output).toContain("not launched: the session's directory /home/dev/my app");
    expect(r.output).toContain("resume: mkdir -p '/home/dev/my app' && cd '/home/dev/my app' &&");
  });
});

describe("9. Codex metadata", () => {
  function codexHome(): { home: string; file: string } {
    const home = tempDir("codex-");
    const dir = join(home, "sessions", "2026", "08", "10");
    mkdirSync(dir, { recursive: true });
    const file = join(
      dir,
      "rollout-2026-08-10T12-00-00-019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b.jsonl",
    );
    cpSync(join(ROOT, "test/fixtures/codex/session.jsonl"), file);
    return { home, file };
  }

  it("age from the last event, not the file's mtime; the first prompt as title", () => {
    const { home, file } = codexHome();
    const now = new Date();
    utimesSync(file, now, now);
    const r = txcript(["list", "--json", "--from", "codex"], { env: { TXCRIPT_CODEX_ROOT: home } });
    const [s] = JSON.parse(r.stdout).sessions;
    expect(s.updated.startsWith("2026-08-10T12:")).toBe(true);
    expect(s.title).toBeTruthy();
    expect(s.title).not.toMatch(/^</);
  });

  it("delete leaves session_index.jsonl as Codex wrote it (append-only, never rewritten); titles are appended", () => {
    const { home } = codexHome();
    const other = '{"id":"11111111-2222-4333-8444-555555555555","thread_name":"other"}\n';
    const index = join(home, "session_index.jsonl");
    writeFileSync(
      index,
      `${other}{"id":"019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b","thread_name":"mine"}\n`,
    );
    const env = { TXCRIPT_CODEX_ROOT: home };
    const before = readFileSync(index, "utf8");
    const inode = statSync(index).ino;
    const del = txcript(["delete", "019a", "--yes"], { env });
    expect(del.status).toBe(0);
    // A running Codex may be appending: the file is neither rewritten nor replaced.
    expect(readFileSync(index, "utf8")).toBe(before);
    expect(statSync(index).ino).toBe(inode);
    const r = txcript(["continue", SIMPLE, "--with", "codex", "--no-resume"], { env });
    expect(r.status).toBe(0);
    const after = readFileSync(index, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toContain('"thread_name":"Fix the flaky login test"');
  });
});

describe("10. Claude Code tokens", () => {
  it("view counts cache reads and writes as input", () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const usage = {
      input_tokens: 12,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 13000,
      output_tokens: 5,
    };
    writeFileSync(
      file,
      jsonl([
        user(1, null, "hi"),
        assistant(2, 1, "msg_1", [{ type: "text", text: "yo" }], { usage }),
      ]),
    );
    const r = txcript(["view", file, "--no-pager"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("12 in + 13000 cache read / 5 out");
  });
});

describe("11. a Simple document without timestamps", () => {
  it("starts at the time of import, not in 1970", () => {
    const dir = tempDir();
    const doc = join(dir, "undated.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hello" }] }));
    const codex = join(dir, "codex");
    const r = txcript(["continue", doc, "--with", "codex", "--no-resume"], {
      env: { TXCRIPT_CODEX_ROOT: codex },
    });
    expect(r.status).toBe(0);
    const year = String(new Date().getUTCFullYear());
    expect(readdirSync(join(codex, "sessions"))).toEqual([year]);
    const view = txcript(["view", doc, "--no-pager"]);
    expect(view.stdout).toContain(`started  ${year}-`);
  });
});

describe("12. names users type", () => {
  it("harness aliases: agy, claude", () => {
    const home = exampleHome();
    expect(inHome(home, ["list", "--from", "agy"]).status).toBe(0);
    const r = inHome(home, ["continue", "0f4c", "--with", "claude", "--no-resume"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("wrote Claude Code session");
    const bad = inHome(home, ["list", "--from", "claud"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("antigravity (agy), simple, claude_code (claude), codex");
  });

  it("help --help, help <command> exit 0", () => {
    for (const args of [["help"], ["help", "--help"], ["help", "list"]]) {
      const r = txcript(args);
      expect(r.status, args.join(" ")).toBe(0);
    }
    expect(txcript([]).status).toBe(2);
  });

  it("completion: bash, zsh and fish only", () => {
    const r = txcript(["completion", "powershell"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
    for (const shell of ["bash", "zsh", "fish"])
      expect(txcript(["completion", shell]).status).toBe(0);
  });

  it.skipIf(!hasBash)("the bash script can be sourced twice", () => {
    const dir = tempDir();
    const script = join(dir, "c.bash");
    writeFileSync(script, txcript(["completion", "bash"]).stdout);
    const r = spawnSync("bash", ["-c", `source '${script}' && source '${script}' && echo ok`], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
  });
});

describe("13. error lines in the user's terms", () => {
  it("a write below a file names the path given, no system call or temporary name", () => {
    const dir = tempDir();
    const file = join(dir, "afile");
    writeFileSync(file, "");
    const r = txcript(["export", SIMPLE, "--out", join(file, "run.json")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `txcript: ${join(file, "run.json")}: cannot write: a part of the path is a file, not a directory\n`,
    );
    for (const target of ["antigravity", "claude_code", "codex"]) {
      const c = txcript(["continue", SIMPLE, "--with", target, "--out", join(file, "x")]);
      expect(c.status).toBe(1);
      expect(c.stderr).toMatch(/^txcript: [^\n]*a part of the path is a file, not a directory\n$/);
      expect(c.stderr).not.toMatch(/ENOTDIR|lstat|mkdir|scandir|internal error|\.tmp-/);
    }
  });

  it("a database the reader cannot open says so without SQLite's codes", () => {
    const dir = tempDir();
    const conversations = join(dir, "conversations");
    mkdirSync(conversations);
    cpSync(
      join(ROOT, "examples/home/.gemini/antigravity-cli/conversations", `${LEGACY}.db`),
      join(conversations, "z.db"),
    );
    mkdirSync(join(conversations, "z.db-wal"));
    const r = txcript(["view", "z", "--antigravity-root", dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^txcript: [^\n]*z\.db: [^\n]+\n$/);
    expect(r.stderr).not.toMatch(/SQLITE_|EISDIR|copyfile|txcript-read-/);
  });
});

const hasNpm = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;

describe.skipIf(!hasNpm)("8. install", () => {
  it("npm install -g of the checkout runs no script and warns about nothing", () => {
    const prefix = tempDir("txcript-prefix-");
    const r = spawnSync(
      "npm",
      ["install", "-g", ROOT, "--prefix", prefix, "--offline", "--no-audit", "--no-fund"],
      {
        encoding: "utf8",
        cwd: prefix,
        env: { ...process.env, npm_config_update_notifier: "false" },
      },
    );
    expect(r.stderr).not.toMatch(/npm warn/i);
    expect(r.status).toBe(0);
    const version = spawnSync(join(prefix, "bin", "txcript"), ["--version"], { encoding: "utf8" });
    expect(version.stdout).toBe(
      `${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}\n`,
    );
  });

  it("the README shows the ways that work outside the checkout", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("npm link");
    expect(readme).toContain("npm install -g .");
    expect(readme).toMatch(/npm install -g \.\/txcript-[\d.]+\.tgz/);
    expect(readme).not.toMatch(/^npx txcript /m);
  });
});
