/**
 * Loading many Claude Code sessions one after another (what the index's
 * text build does) looks in the project folders once a moment, not once a
 * session: the file-system calls it makes grow with sessions plus folders,
 * where looking in every folder for every session made sessions times
 * folders of them (2,000 sessions in 250 folders: a text build of 8.9 s of
 * CPU, 2.2 s with the listing). The listing only answers while what it
 * named is still there: a session moved to another folder, removed, or
 * copied since is still found as it now is.
 */

import fs, { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/errors.js";
import { ClaudeCodeStore } from "../../src/harness/claude-code/store.js";
import { tempDir } from "../support/tmp.js";
import { basicSession } from "./lines.js";

const FOLDERS = 40;
const SESSIONS = 60;
const sid = (i: number) => `7d1e6f2a-3b4c-4d5e-8f60-${String(i).padStart(12, "0")}`;

function store(): { root: string; store: ClaudeCodeStore; paths: string[] } {
  const root = join(tempDir("txcript-cc-many-"), "projects");
  const paths: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const dir = join(root, `-home-al-p${i % FOLDERS}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${sid(i)}.jsonl`);
    writeFileSync(path, basicSession(sid(i)));
    paths.push(path);
  }
  return { root, store: new ClaudeCodeStore({ root }), paths };
}

/** The stat, lstat and readdir calls `fn` makes (node:fs's own functions, counted through its ESM exports). */
function fsCalls(fn: () => void): number {
  const names = ["statSync", "lstatSync", "readdirSync"] as const;
  const saved = names.map((name) => fs[name]);
  let calls = 0;
  for (const name of names) {
    const real = fs[name];
    Object.defineProperty(fs, name, {
      configurable: true,
      writable: true,
      value: (...args: Parameters<typeof real>) => {
        calls++;
        return Reflect.apply(real, fs, args);
      },
    });
  }
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    names.forEach((name, i) => {
      Object.defineProperty(fs, name, { configurable: true, writable: true, value: saved[i] });
    });
    syncBuiltinESMExports();
  }
  return calls;
}

afterEach(() => {
  syncBuiltinESMExports();
});

describe("loading many Claude Code sessions", () => {
  it("looks in the project folders about once, not once a session", () => {
    const { store: s } = store();
    const calls = fsCalls(() => {
      for (let i = 0; i < SESSIONS; i++) expect(s.load(sid(i)).meta.id).toBe(sid(i));
    });
    // Each session: its own file (a stat or two, a link check); the folders: a listing.
    // Looking in every folder for every session is SESSIONS * FOLDERS = 2,400.
    expect(calls).toBeLessThan(SESSIONS * 8 + FOLDERS * 2);
  });

  it("finds a session moved to another folder, and not one removed, right after a load", () => {
    const { root, store: s, paths } = store();
    expect(s.load(sid(1)).meta.id).toBe(sid(1));
    const moved = join(root, "-home-al-elsewhere", `${sid(2)}.jsonl`);
    mkdirSync(join(root, "-home-al-elsewhere"));
    renameSync(paths[2] ?? "", moved);
    rmSync(paths[3] ?? "");
    expect(s.fingerprint(sid(2))?.files[0]?.path).toBe(moved);
    expect(s.load(sid(2)).meta.id).toBe(sid(2));
    expect(() => s.load(sid(3))).toThrow(NotFoundError);
  });

  it("finds a copy made after the listing once the file the listing named is gone", () => {
    const { root, store: s, paths } = store();
    expect(s.load(sid(4)).meta.id).toBe(sid(4));
    const copy = join(root, "-home-al-p5", `${sid(4)}.jsonl`);
    writeFileSync(copy, basicSession(sid(4)));
    rmSync(paths[4] ?? "");
    expect(s.fingerprint(sid(4))?.files[0]?.path).toBe(copy);
    expect(s.load(sid(4)).meta.id).toBe(sid(4));
  });
});
