/**
 * The first query or usage on a machine builds the text index: it says so
 * in one stderr line (on a terminal or not, as `git clone` says "Cloning
 * into…"), never on stdout, once; a small build and a warm one say
 * nothing. The progress line is drawn on a terminal only, and a note
 * clears it first. Built binary; the terminal is util-linux `script`.
 */

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { shellWord } from "../../src/cli/commands/continue.js";
import { Progress } from "../../src/cli/output.js";
import { BIN, ROOT, txcript } from "../support/cli.js";
import { type Machine, machine, put } from "./support.js";

/** More sessions than a text build notes from (NOTE_FROM in src/index/session-index.ts). */
const MANY = 220;
const RARE = "quokkaferret";

function many(): Machine {
  const m = machine();
  for (let i = 0; i < MANY; i++)
    put(m, "claude_code", {
      id: `5e5e5e5e-0000-4000-8000-${String(i).padStart(12, "0")}`,
      start: i * 60,
      texts: [`session ${i} asks about the parser${i === 7 ? ` ${RARE}` : ""}`, "answered"],
    });
  return m;
}

const NOTE =
  /^txcript: indexing the text of 220 sessions for search and usage, once: later runs reuse the index \(.+index\.db\)$/;

describe("the first text build says what it is doing", () => {
  let m: Machine;
  beforeAll(() => {
    m = many();
  });

  it("query --json: one note on stderr, JSON alone on stdout, and no note the second time", () => {
    const first = txcript(["query", RARE, "--json"], { env: m.env });
    expect(first.status).toBe(0);
    const hits = JSON.parse(first.stdout) as { hits: { id: string }[] };
    expect(hits.hits.map((h) => h.id)).toEqual(["5e5e5e5e-0000-4000-8000-000000000007"]);
    const lines = first.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(NOTE);
    // Not a terminal: no progress drawing on stderr.
    expect(first.stderr).not.toContain("\r");

    const again = txcript(["usage", "--json"], { env: m.env });
    expect(again.status).toBe(0);
    expect(again.stderr).toBe("");
    JSON.parse(again.stdout);
  });

  it("a small first build says nothing", () => {
    const small = machine();
    put(small, "codex", {
      id: "6f6f6f6f-0000-4000-8000-000000000001",
      texts: ["one session", "one answer"],
    });
    const r = txcript(["usage", "--json"], { env: small.env });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
  });
});

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("on a terminal", () => {
  it("the note shows on the terminal's stderr while stdout (a file) holds only the JSON", () => {
    const m2 = many();
    const out = join(m2.home, "out.json");
    const line = `${[process.execPath, BIN, "usage", "--by", "day", "--json"].map(shellWord).join(" ")} > ${shellWord(out)}`;
    const r = spawnSync("script", ["-qec", line, "/dev/null"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", TERM: "xterm", ...m2.env, NO_COLOR: "1" },
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const screen = r.stdout.replace(/\r\n/g, "\n");
    expect(screen).toMatch(/txcript: indexing the text of 220 sessions/);
    const json = readFileSync(out, "utf8");
    expect(json).not.toContain("indexing");
    expect(json).not.toContain("\x1b");
    const parsed = JSON.parse(json) as { totals?: unknown };
    expect(parsed).toBeTypeOf("object");
  });
});

/** txcript on a pseudo-terminal, stdout to a file: the terminal shows stderr alone. */
function onTerminal(m: Machine, args: string[], env: Record<string, string> = {}) {
  const out = join(m.home, "out.txt");
  const line = `${[process.execPath, BIN, ...args].map(shellWord).join(" ")} > ${shellWord(out)}`;
  const r = spawnSync("script", ["-qec", line, "/dev/null"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: "/usr/bin:/bin", TERM: "xterm", ...m.env, NO_COLOR: "1", ...env },
    timeout: 60_000,
  });
  return { status: r.status, screen: r.stdout, out: readFileSync(out, "utf8") };
}

describe.skipIf(!hasScript)("progress on a terminal (drawn from the first update here)", () => {
  // TXCRIPT_PROGRESS_AFTER_MS=0: the line is drawn at once, so the test does
  // not depend on how long the build takes on this machine.
  const now = { TXCRIPT_PROGRESS_AFTER_MS: "0" };

  it("a cold list draws its scan, and clears it before exiting; stdout holds the JSON alone", () => {
    const m2 = many();
    const r = onTerminal(m2, ["list", "--json"], now);
    expect(r.status).toBe(0);
    expect(r.screen).toContain("\r\x1b[Kscanning claude_code: ");
    expect(r.screen).toMatch(/scanning claude_code: \d+\/220/);
    expect(r.screen.endsWith("\r\x1b[K")).toBe(true);
    expect(r.out).not.toContain("scanning");
    expect((JSON.parse(r.out) as { sessions: unknown[] }).sessions).toHaveLength(MANY);
  });

  it("the first query draws the text build's progress after its note; a warm one draws nothing", () => {
    const m2 = many();
    expect(txcript(["list"], { env: m2.env }).status).toBe(0); // the rows, so the text build is what is drawn
    const r = onTerminal(m2, ["query", RARE, "--json"], now);
    expect(r.status).toBe(0);
    const screen = r.screen;
    expect(screen).toMatch(/txcript: indexing the text of 220 sessions/);
    expect(screen).toContain("\r\x1b[Kindexing text: ");
    expect(screen).toMatch(/indexing text: \d+\/220/);
    expect(screen.indexOf("indexing text:")).toBeGreaterThan(screen.indexOf("txcript: indexing"));
    expect(JSON.parse(r.out)).toHaveProperty("hits");
    const warm = onTerminal(m2, ["query", RARE, "--json"], now);
    expect(warm.status).toBe(0);
    expect(warm.screen).not.toContain("indexing");
  });

  it("a refresh shorter than TXCRIPT_PROGRESS_AFTER_MS draws nothing", () => {
    const m2 = many();
    const r = onTerminal(m2, ["list", "--json"], { TXCRIPT_PROGRESS_AFTER_MS: "3600000" });
    expect(r.status).toBe(0);
    expect(r.screen).not.toContain("scanning");
    expect(r.screen).not.toContain("\x1b[K");
  });
});

/** A stream double: what was written, and whether it says it is a terminal. */
function stream(isTTY: boolean) {
  const s = {
    isTTY,
    text: "",
    write(chunk: string | Uint8Array): boolean {
      s.text += String(chunk);
      return true;
    },
  };
  return s;
}

describe("Progress", () => {
  it("draws on a terminal, and a note clears the drawn line and stays", () => {
    const tty = stream(true);
    const p = new Progress(tty, 0);
    p.update("indexing text: 32/220");
    expect(tty.text).toBe("\r\x1b[Kindexing text: 32/220");
    p.note("txcript: indexing the text of 220 sessions");
    expect(tty.text.endsWith("\r\x1b[Ktxcript: indexing the text of 220 sessions\n")).toBe(true);
    p.done();
    // The note ended the line: nothing left to clear.
    expect(tty.text.endsWith("sessions\n")).toBe(true);
  });

  it("off a terminal: no progress drawing, the note alone", () => {
    const file = stream(false);
    const p = new Progress(file, 0);
    p.update("indexing text: 32/220");
    p.note("txcript: indexing the text of 220 sessions");
    p.done();
    expect(file.text).toBe("txcript: indexing the text of 220 sessions\n");
  });
});
