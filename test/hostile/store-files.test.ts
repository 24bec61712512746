/**
 * Hostile files inside a store (issue 31, items 2 and 7), through the
 * built CLI: a session file that is a symlink to a file outside the store
 * is neither listed, viewed nor deleted (reads and deletes agree), and
 * file names that are not session ids (a newline, a control character,
 * `.jsonl`, `..jsonl`) are skipped, never listed as sessions.
 */

import { copyFileSync, mkdirSync, readdirSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { harness, openStore } from "../../src/harness/index.js";
import { realisticSession } from "../claude-code/session.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

function claudeHome(): { home: string; path: string; id: string } {
  const home = tempDir("txcript-links-home-");
  const store = openStore(harness("claude_code"), { env: { HOME: home } });
  if (!store) throw new Error("no Claude Code store");
  const saved = store.save(realisticSession(), { overwrite: true });
  return { home, path: saved.path, id: saved.id };
}

function listJson(home: string) {
  const r = txcript(["list", "--json", "--no-cache"], { env: { HOME: home } });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as {
    sessions: { id: string }[];
    skipped: { path: string; reason: string }[];
  };
}

describe("a session file linked to a file outside the store", () => {
  it("is skipped by list and refused by view and delete alike", () => {
    const { home, path, id } = claudeHome();
    const elsewhere = join(tempDir("txcript-links-outside-"), "secret.jsonl");
    renameSync(path, elsewhere);
    symlinkSync(elsewhere, path);
    const before = hashTree(dirname(elsewhere));
    const list = listJson(home);
    expect(list.sessions.map((s) => s.id)).not.toContain(id);
    expect(list.skipped.find((s) => s.path === path)?.reason).toMatch(/outside the store/);
    const view = txcript(["view", id, "--no-cache"], { env: { HOME: home } });
    expect(view.status).toBe(1);
    expect(view.stdout).toBe("");
    expect(view.stderr.trim().split("\n")).toHaveLength(1);
    const del = txcript(["delete", id, "--yes", "--no-cache"], { env: { HOME: home } });
    expect(del.status).toBe(1);
    expect(hashTree(dirname(elsewhere))).toEqual(before);
  });

  it("a link to a file inside the store is still read", () => {
    const { home, path, id } = claudeHome();
    const inside = join(home, ".claude", "projects", "keep.data");
    renameSync(path, inside);
    symlinkSync(inside, path);
    expect(listJson(home).sessions.map((s) => s.id)).toContain(id);
    expect(txcript(["view", id, "--no-cache"], { env: { HOME: home } }).status).toBe(0);
  });
});

describe("file names that are not session ids", () => {
  it("are skipped, not listed", () => {
    const { home, path, id } = claudeHome();
    const dir = dirname(path);
    const names = ["a\nb.jsonl", "c\u0007d.jsonl", ".jsonl", "..jsonl"];
    for (const name of names) copyFileSync(path, join(dir, name));
    mkdirSync(join(dir, "sub"), { recursive: true });
    expect(readdirSync(dir)).toHaveLength(6);
    const list = listJson(home);
    expect(list.sessions.map((s) => s.id)).toEqual([id]);
    for (const name of names) {
      expect(list.skipped.find((s) => s.path === join(dir, name))?.reason).toMatch(
        /not a session id/,
      );
    }
    const table = txcript(["list", "--no-cache"], { env: { HOME: home, COLUMNS: "200" } });
    expect(table.status).toBe(0);
    // One row for the one session: the newline in a skipped name splits nothing.
    expect(table.stdout.trim().split("\n")).toHaveLength(1);
  });
});
