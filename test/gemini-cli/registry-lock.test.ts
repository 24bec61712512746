/**
 * projects.json is written under the lock Gemini CLI itself takes there
 * (proper-lockfile's `projects.json.lock` directory): a save waits while a
 * running CLI holds it, takes over an abandoned one, and gives up on
 * registering (never on the session) when it stays held (issue 31, item 10).
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withDirLock } from "../../src/fsx.js";
import { BIN, ROOT, TEST_CACHE, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { emptyHome } from "./support.js";

const SIMPLE = join(ROOT, "test/fixtures/common/full.simple.json");
const CWD: string = JSON.parse(readFileSync(SIMPLE, "utf8")).cwd;

function registryHome(): { root: string; registry: string; lock: string } {
  const root = emptyHome();
  const registry = join(root, "projects.json");
  writeFileSync(registry, JSON.stringify({ projects: { "/elsewhere": "elsewhere" } }, null, 2));
  return { root, registry, lock: `${registry}.lock` };
}

const projects = (registry: string): Record<string, string> =>
  JSON.parse(readFileSync(registry, "utf8")).projects;

describe("projects.json under Gemini CLI's own lock", () => {
  it("a continue waits while the CLI holds the lock, then registers the project", async () => {
    const { root, registry, lock } = registryHome();
    mkdirSync(lock); // a running Gemini CLI holds it
    const child = spawn(
      process.execPath,
      [BIN, "continue", SIMPLE, "--with", "gemini_cli", "--no-resume"],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: "/nonexistent-txcript-home",
          NO_COLOR: "1",
          TXCRIPT_CACHE: TEST_CACHE,
          TXCRIPT_GEMINI_CLI_ROOT: root,
        },
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // While it is held, the registry is not touched (the CLI may be writing it).
    const heldUntil = Date.now() + 2_000;
    while (Date.now() < heldUntil) {
      expect(Object.keys(projects(registry))).toEqual(["/elsewhere"]);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Keep the lock fresh, as its holder does, until it lets go.
    const t = Date.now() / 1000;
    utimesSync(lock, t, t);
    let released = false;
    const release = setTimeout(() => {
      released = true;
      rmdirSync(lock); // the holder lets go: proper-lockfile removes its directory
    }, 500);
    const code = await exited;
    clearTimeout(release);
    expect(released).toBe(true);
    expect(code, err).toBe(0);
    expect(projects(registry)["/elsewhere"]).toBe("elsewhere");
    expect(projects(registry)[CWD]).toMatch(/^[a-z0-9-]+$/);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it("takes over a lock abandoned for over 10 s (a killed CLI), and removes it after", () => {
    const { root, registry, lock } = registryHome();
    mkdirSync(lock);
    const old = Date.now() / 1000 - 60;
    utimesSync(lock, old, old);
    const r = txcript(["continue", SIMPLE, "--with", "gemini_cli", "--no-resume"], {
      env: { TXCRIPT_GEMINI_CLI_ROOT: root },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(projects(registry)[CWD]).toMatch(/^[a-z0-9-]+$/);
    expect(existsSync(lock)).toBe(false);
  });
});

describe("withDirLock", () => {
  it("gives up after its timeout on a lock kept fresh, leaving the holder's lock alone", () => {
    const dir = tempDir("txcript-dirlock-");
    const file = join(dir, "projects.json");
    writeFileSync(file, "{}");
    mkdirSync(`${file}.lock`);
    let ran = false;
    const got = withDirLock(
      file,
      () => {
        ran = true;
      },
      { timeoutMs: 300 },
    );
    expect(got).toBeUndefined();
    expect(ran).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it("runs under the lock and releases it, also when the work throws", () => {
    const dir = tempDir("txcript-dirlock-");
    const file = join(dir, "projects.json");
    writeFileSync(file, "{}");
    expect(withDirLock(file, () => existsSync(`${file}.lock`))).toEqual({ value: true });
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(() =>
      withDirLock(file, () => {
        throw new Error("midway");
      }),
    ).toThrow("midway");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
