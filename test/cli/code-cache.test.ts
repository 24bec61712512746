/**
 * The V8 code caches dist/cli/main.cjs (main.js as CommonJS) compiles the
 * bundled command line through. The build's (dist/cli/shipped-cache/): a
 * first `list` reads it and makes none of its own; a damaged one, or one
 * V8 refuses (made under other flags, as another Node's would be), is
 * compiled past in silence. The cache folder's (<cache folder>/code-cache/),
 * which a build without caches of its own (a copy of dist/ without
 * shipped-cache/) relies on: made by the first command, then read and not
 * remade; remade whole when corrupt, truncated or another build's; made
 * only in a cache folder txcript's index has made; written by rename, so
 * two commands at once leave one whole cache; and never a reason for a
 * command to fail or say anything.
 */

import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Machine, machine, put } from "../index/support.js";
import { BIN, ROOT } from "../support/cli.js";

const ID = "1a1a1a1a-0000-4000-8000-0000000000c1";

function sample(): Machine {
  const m = machine();
  put(m, "claude_code", { id: ID, texts: ["cache the compiled code", "done"] });
  return m;
}

/** The built dist/ (the one BIN is in) and its caches. */
const DIST = dirname(dirname(BIN));
const SHIPPED = join(DIST, "cli", "shipped-cache");
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/**
 * A copy of the build, its shipped caches changed by `change` (given the
 * copy's shipped-cache folder), beside the package's manifest and
 * node_modules; its binary.
 */
function buildCopy(change: (shipped: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "txcript-build-"));
  copies.push(dir);
  cpSync(DIST, join(dir, "dist"), {
    recursive: true,
    filter: (from) => !from.endsWith(".map") && !from.endsWith(".d.ts"),
  });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  change(join(dir, "dist", "cli", "shipped-cache"));
  return join(dir, "dist", "cli", basename(BIN));
}

/** A build with no cache of its own: the cache folder's is all there is. */
const PLAIN = buildCopy((shipped) => rmSync(shipped, { recursive: true, force: true }));

function run(m: Machine, args: string[], bin = PLAIN) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...m.env },
    encoding: "utf8",
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
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

/** The shipped cache file of `bundle` for V8's own flags (`budget`: the list's interrupt budget). */
function shippedFile(dir: string, bundle: string, budget = false): string {
  const name = readdirSync(dir).find(
    (n) => n.startsWith(`${bundle}.`) && n.includes("interrupt-budget") === budget,
  );
  if (name === undefined) throw new Error(`no shipped cache of ${bundle} in ${dir}`);
  return join(dir, name);
}

describe("the build's code cache", () => {
  it("is made for each bundle, this Node's, and the list's for both its V8 flag sets", () => {
    const names = readdirSync(SHIPPED).sort();
    const node = `${process.version}-${process.arch}`.replaceAll(".", "\\.");
    expect(names).toHaveLength(3);
    expect(names[0]).toMatch(new RegExp(`^txcript-list\\.[0-9a-f]{32}\\.${node}\\.bin$`));
    expect(names[1]).toMatch(
      new RegExp(`^txcript-list\\.[0-9a-f]{32}\\.${node}\\.interrupt-budget_\\d+\\.bin$`),
    );
    expect(names[2]).toMatch(new RegExp(`^txcript\\.[0-9a-f]{32}\\.${node}\\.bin$`));
  });

  it("serves a first and a second list, which make no cache of their own", () => {
    const m = sample();
    const first = run(m, ["list", "--json"], BIN);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout).sessions).toHaveLength(1);
    // A cache V8 refused would have been compiled past and made anew here.
    expect(existsSync(join(m.cache, "index.db"))).toBe(true);
    expect(existsSync(folder(m))).toBe(false);
    expect(run(m, ["list", "--json"], BIN).stdout).toBe(first.stdout);
    expect(existsSync(folder(m))).toBe(false);
    // Another command makes its own over it: the build's holds `--help`.
    expect(run(m, ["view", ID], BIN).stdout).toContain("cache the compiled code");
    expect(readdirSync(folder(m))).toEqual([expect.stringMatching(/^txcript\./)]);
  });

  it("is compiled past when damaged or refused, and the command runs as ever", () => {
    const damages: Record<string, (dir: string) => void> = {
      flipped: (dir) =>
        each(dir, (bytes) => {
          for (let i = 0; i < 64; i++) {
            const at = Math.floor(bytes.length / 2) + i * 7;
            bytes[at] = (bytes[at] ?? 0) ^ 0x5a;
          }
          return bytes;
        }),
      truncated: (dir) => each(dir, (bytes) => bytes.subarray(0, 1000)),
      empty: (dir) => each(dir, () => Buffer.alloc(0)),
      noise: (dir) => each(dir, (bytes) => Buffer.alloc(bytes.length, 0x41)),
      // Each made under the other's V8 flags, or of the other bundle: V8
      // refuses them, as it does another Node's.
      refused: (dir) => {
        const [cold, warm, whole] = [
          shippedFile(dir, "txcript-list"),
          shippedFile(dir, "txcript-list", true),
          shippedFile(dir, "txcript"),
        ];
        const coldBytes = readFileSync(cold);
        cpSync(warm, cold);
        writeFileSync(warm, coldBytes);
        writeFileSync(whole, coldBytes);
      },
    };
    for (const [what, damage] of Object.entries(damages)) {
      const bin = buildCopy(damage);
      const fresh = sample();
      const expected = run(fresh, ["--no-cache", "list", "--json"]).stdout;
      const lists = (args: string[]) => {
        const r = run(fresh, args, bin);
        expect(r.stderr, what).toBe("");
        expect(r.status, what).toBe(0);
        expect(r.stdout, what).toBe(expected);
      };
      lists(["list", "--json"]);
      // Compiled afresh, so the cache folder's is made, as without the build's.
      expect(readdirSync(folder(fresh)), what).toHaveLength(1);
      // A warm list without it reads the build's other list cache.
      rmSync(folder(fresh), { recursive: true });
      lists(["list", "--json"]);
      expect(readdirSync(folder(fresh)), what).toHaveLength(1);
      lists(["--no-cache", "list", "--json"]);
      expect(run(fresh, ["view", ID], bin).stdout, what).toContain("cache the compiled code");
      expect(readdirSync(folder(fresh)), what).toHaveLength(2);
    }
  });
});

/** Rewrite every file in `dir` as `change` makes its bytes. */
function each(dir: string, change: (bytes: Buffer) => Buffer): void {
  for (const name of readdirSync(dir))
    writeFileSync(join(dir, name), change(readFileSync(join(dir, name))));
}

describe("the cache folder's code cache", () => {
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
        const child = spawn(process.execPath, [PLAIN, "list", "--json"], {
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
