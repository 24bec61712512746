/**
 * The V8 code cache dist/cli/main.cjs (main.js as CommonJS) keeps of the bundled command line
 * (<cache folder>/code-cache/): made by the first command, then read and
 * not remade; remade whole when corrupt, truncated or another build's;
 * made only in a cache folder txcript's index has made;
 * written by rename, so two commands at once leave one whole cache; and
 * never a reason for a command to fail or say anything.
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Machine, machine, put } from "../index/support.js";
import { BIN, txcript } from "../support/cli.js";

const ID = "1a1a1a1a-0000-4000-8000-0000000000c1";

function sample(): Machine {
  const m = machine();
  put(m, "claude_code", { id: ID, texts: ["cache the compiled code", "done"] });
  return m;
}

function run(m: Machine, args: string[]) {
  return txcript(args, { env: m.env });
}

function folder(m: Machine): string {
  return join(m.cache, "code-cache");
}

/** The one cache file; the test fails if there is not exactly one file. */
function theCache(m: Machine): string {
  const names = readdirSync(folder(m));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^txcript-list\.[0-9a-f]{32}\.v\d+\.\d+\.\d+-[a-z0-9]+\.bin$/);
  return join(folder(m), names[0] ?? "");
}

/** A command lists as ever, says nothing on stderr, and leaves a cache the next one reads as it is. */
function listsAndKeeps(m: Machine, expected: string): void {
  const r = run(m, ["list", "--json"]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(expected);
  const file = theCache(m);
  const made = statSync(file).ino;
  expect(run(m, ["list", "--json"]).stdout).toBe(expected);
  // Rewritten by rename means a new inode: the cache was accepted as it was.
  expect(statSync(theCache(m)).ino).toBe(made);
}

describe("the code cache", () => {
  it("is made by the first command, then read and not remade", () => {
    const m = sample();
    const first = run(m, ["list", "--json"]);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout).sessions).toHaveLength(1);
    listsAndKeeps(m, first.stdout);
    // Other commands run from the same cache.
    const view = run(m, ["view", ID]);
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("cache the compiled code");
  });

  it("is remade whole when corrupt or truncated, and the command runs as ever", () => {
    const m = sample();
    const expected = run(m, ["list", "--json"]).stdout;
    const good = readFileSync(theCache(m));
    const flipped = Buffer.from(good);
    for (let i = 0; i < 64; i++) {
      const at = Math.floor(flipped.length / 2) + i * 7;
      flipped[at] = (flipped[at] ?? 0) ^ 0x5a;
    }
    const damaged = {
      flipped,
      truncated: good.subarray(0, Math.floor(good.length / 2)),
      empty: Buffer.alloc(0),
      noise: Buffer.alloc(good.length, 0x41),
    };
    for (const [what, bytes] of Object.entries(damaged)) {
      writeFileSync(theCache(m), bytes);
      listsAndKeeps(m, expected);
      expect(readFileSync(theCache(m)).equals(bytes), what).toBe(false);
    }
  });

  it("replaces the same bundle's cache from another build, and keeps the other bundle's", () => {
    const m = sample();
    mkdirSync(folder(m), { recursive: true });
    const key = `${"0".repeat(32)}.${process.version}-${process.arch}.bin`;
    writeFileSync(join(folder(m), `txcript-list.${key}`), "an older build's");
    const r = run(m, ["list", "--json"]);
    expect(r.status).toBe(0);
    listsAndKeeps(m, r.stdout);
    // Any other command runs the whole bundle, cached beside the list's.
    expect(run(m, ["view", ID]).status).toBe(0);
    const names = readdirSync(folder(m)).sort();
    expect(names).toHaveLength(2);
    expect(names[1]).toMatch(/^txcript\.[0-9a-f]{32}\./);
    expect(run(m, ["list", "--json"]).stdout).toBe(r.stdout);
    expect(readdirSync(folder(m)).sort()).toEqual(names);
  });

  it("follows --cache and is neither read nor written under --no-cache", () => {
    const m = sample();
    const elsewhere = join(m.home, "elsewhere");
    expect(run(m, ["--cache", elsewhere, "list"]).status).toBe(0);
    expect(readdirSync(join(elsewhere, "code-cache"))).toHaveLength(1);
    expect(run(m, ["--no-cache", "list", "--json"]).status).toBe(0);
    expect(existsSync(m.cache)).toBe(false);
    // Nor does it make a cache folder txcript's index has not made.
    expect(run(m, ["--version"]).status).toBe(0);
    expect(run(m, ["list", "--help"]).status).toBe(0);
    expect(run(m, ["view", "--help"]).status).toBe(0);
    expect(existsSync(m.cache)).toBe(false);
  });

  it("writes nothing, and says nothing, where it cannot be written", () => {
    const m = sample();
    const expected = run(m, ["--no-cache", "list", "--json"]).stdout;
    // A file where the cache's folder would go.
    mkdirSync(m.cache, { recursive: true });
    writeFileSync(folder(m), "not a folder");
    for (let i = 0; i < 2; i++) {
      const r = run(m, ["list", "--json"]);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(expected);
    }
    expect(readFileSync(folder(m), "utf8")).toBe("not a folder");
    expect(readdirSync(m.cache).filter((n) => n.includes(".tmp"))).toEqual([]);

    // A folder holding another program's index.db is not txcript's to write in.
    const theirs = sample();
    mkdirSync(theirs.cache, { recursive: true });
    writeFileSync(join(theirs.cache, "index.db"), "another program's file");
    const r = run(theirs, ["list", "--json"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).sessions).toHaveLength(1);
    expect(readdirSync(theirs.cache)).toEqual(["index.db"]);
  });

  it("two commands at once leave one whole cache and no temporary", async () => {
    const m = sample();
    const expected = run(m, ["--no-cache", "list", "--json"]).stdout;
    const once = () =>
      new Promise<string>((done, fail) => {
        const child = spawn(process.execPath, [BIN, "list", "--json"], {
          env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...m.env },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
        });
        child.on("error", fail);
        child.on("close", () => done(out));
      });
    const outs = await Promise.all([once(), once(), once()]);
    for (const out of outs) expect(out).toBe(expected);
    listsAndKeeps(m, expected);
  });
});
