/**
 * What txcript does only on a terminal: colors (never with NO_COLOR), the
 * pager for long output, confirmation before delete, launching the resume
 * command after continue. Runs the built binary under a pseudo-terminal
 * made by util-linux `script`; skipped where that is missing.
 */

import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { shellWord } from "../../src/cli/commands/continue.js";
import { antigravityMeta } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { LEGACY_SESSION_ID, legacyLayoutSession } from "../support/agy-fixtures.js";
import { BIN, ROOT, TEST_CACHE } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;

let home: string;

beforeEach(() => {
  home = tempDir("txcript-tty-");
  const body = legacyLayoutSession();
  new AntigravityStore({ root: join(home, ".gemini", "antigravity-cli"), env: {} }).save({
    meta: antigravityMeta(body),
    body,
  });
});

/** Run txcript on a pseudo-terminal; stdout and stderr arrive merged, with CRLF line ends. */
function onTerminal(
  args: string[],
  env: Record<string, string> = {},
  input = "",
): { status: number; out: string } {
  const line = [process.execPath, BIN, ...args].map(shellWord).join(" ");
  const r = spawnSync("script", ["-qec", line, "/dev/null"], {
    input,
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", HOME: home, TERM: "xterm", TXCRIPT_CACHE: TEST_CACHE, ...env },
  });
  return { status: r.status ?? -1, out: r.stdout.replace(/\r\n/g, "\n") };
}

describe.skipIf(!hasScript)("on a terminal", () => {
  it("colors the view, and never with NO_COLOR", () => {
    const colored = onTerminal(["view", "0f4c", "--no-pager"]);
    expect(colored.status).toBe(0);
    expect(colored.out).toContain("\x1b[1mFix the flaky login test\x1b[22m");
    const plain = onTerminal(["view", "0f4c", "--no-pager"], { NO_COLOR: "1" });
    expect(plain.status).toBe(0);
    expect(plain.out).toContain("Fix the flaky login test");
    expect(plain.out).not.toContain("\x1b[");
  });

  it("pages long output through $PAGER unless --no-pager", () => {
    const pager = "sh -c 'echo PAGED-BY-TEST; wc -l'";
    const paged = onTerminal(["view", "0f4c"], { PAGER: pager });
    expect(paged.status).toBe(0);
    expect(paged.out).toContain("PAGED-BY-TEST");
    expect(paged.out).not.toContain("Fix the flaky login test");
    const direct = onTerminal(["view", "0f4c", "--no-pager"], { PAGER: pager });
    expect(direct.out).not.toContain("PAGED-BY-TEST");
    expect(direct.out).toContain("Fix the flaky login test");
    // Short output is never paged.
    const short = onTerminal(["view", `${LEGACY_SESSION_ID}#6`], { PAGER: pager });
    expect(short.out).not.toContain("PAGED-BY-TEST");
    expect(short.out).toContain("Fixed: the test now waits for readiness.");
    // A pager that quits before reading (the reader is done): no error, status 0.
    const quit = onTerminal(["view", "0f4c"], { PAGER: "true" });
    expect(quit.status).toBe(0);
    expect(quit.out).not.toMatch(/EPIPE|Error|at /);
    // A pager that cannot be started: the text goes to the terminal.
    const missing = onTerminal(["view", "0f4c"], { PAGER: "no-such-pager-here" });
    expect(missing.status).toBe(0);
    expect(missing.out).toContain("Fix the flaky login test");
  });

  it("asks before deleting, and deletes only on yes", () => {
    const db = join(home, ".gemini", "antigravity-cli", "conversations", `${LEGACY_SESSION_ID}.db`);
    const no = onTerminal(["delete", "0f4c"], {}, "n\n");
    expect(no.status).toBe(0);
    expect(no.out).toContain(
      `delete antigravity session ${LEGACY_SESSION_ID} "Fix the flaky login test"? [y/N]`,
    );
    expect(no.out).toContain("not deleted");
    expect(existsSync(db)).toBe(true);
    const yes = onTerminal(["delete", "0f4c"], {}, "y\n");
    expect(yes.status).toBe(0);
    expect(yes.out).toContain(`deleted antigravity session ${LEGACY_SESSION_ID}`);
    expect(existsSync(db)).toBe(false);
  });

  it("continue says when the harness is not installed, and launches it when it is", () => {
    // A document whose working directory exists here.
    const project = tempDir("txcript-project-");
    const doc = join(home, "doc.json");
    writeFileSync(
      doc,
      JSON.stringify({
        cwd: project,
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ],
      }),
    );
    const missing = onTerminal(["continue", doc, "--with", "codex"]);
    expect(missing.status).toBe(0);
    expect(missing.out).toContain(`resume: cd ${shellWord(project)} && codex resume `);
    expect(missing.out).toContain(
      "codex is not installed (not on PATH); run the command above once it is",
    );
    const launched = onTerminal(["continue", doc, "--with", "codex"], {
      TXCRIPT_CODEX_RESUME_CMD: "sh -c 'echo LAUNCHED:$0' {id}",
    });
    expect(launched.status).toBe(0);
    const id = /^([0-9a-f-]{36})$/m.exec(launched.out)?.[1];
    expect(id).toBeDefined();
    expect(launched.out).toContain(`LAUNCHED:${id}`);
    const notLaunched = onTerminal(["continue", doc, "--with", "codex", "--no-resume"], {
      TXCRIPT_CODEX_RESUME_CMD: "sh -c 'echo LAUNCHED:$0' {id}",
    });
    expect(notLaunched.out).toContain("resume: ");
    expect(notLaunched.out).not.toMatch(/LAUNCHED:[0-9a-f]/);
    // /home/dev/my app does not exist here: nothing is launched, and the printed
    // command creates the directory first.
    const elsewhere = onTerminal(["continue", "0f4c", "--with", "codex"], {
      TXCRIPT_CODEX_RESUME_CMD: "sh -c 'echo LAUNCHED:$0' {id}",
    });
    expect(elsewhere.status).toBe(0);
    expect(elsewhere.out).toMatch(
      /resume: mkdir -p '\/home\/dev\/my app' && cd '\/home\/dev\/my app' && sh -c /,
    );
    expect(elsewhere.out).toContain(
      "not launched: the session's directory /home/dev/my app does not exist here",
    );
    expect(elsewhere.out).not.toMatch(/LAUNCHED:[0-9a-f]/);
  });
});
