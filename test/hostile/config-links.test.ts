/**
 * Harness config files kept elsewhere and linked in (dotfile setups; issue
 * 31, item 6): `~/.gemini/projects.json` and `~/.codex/session_index.jsonl`
 * are rewritten through the link, atomically, and the linked file keeps
 * its mode; the link stays a link.
 */

import {
  chmodSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/fsx.js";
import { harness, openStore } from "../../src/harness/index.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { tempDir } from "../support/tmp.js";

const TS = "2026-07-01T10:00:00Z";

function session(id: string, title?: string): Transcript<Common> {
  return {
    meta: { id, timestamp: TS, cwd: "/work/linked-project", ...(title ? { title } : {}) },
    body: [
      { role: "user", timestamp: TS, content: [{ type: "text", text: "hello" }] },
      { role: "assistant", timestamp: TS, content: [{ type: "text", text: "hi" }] },
    ],
  };
}

/** Move `path` into a dotfiles folder with `mode` and link it back; the linked file. */
function linkOut(path: string, mode: number): string {
  const target = join(tempDir("txcript-dotfiles-"), "linked");
  renameSync(path, target);
  chmodSync(target, mode);
  symlinkSync(target, path);
  return target;
}

function expectLinkKept(path: string, target: string, mode: number): void {
  expect(lstatSync(path).isSymbolicLink()).toBe(true);
  expect(readlinkSync(path)).toBe(target);
  expect(statSync(target).mode & 0o777).toBe(mode);
}

describe("a write through a linked config file", () => {
  it("replaces the linked file, keeps its mode and leaves the link", () => {
    const dir = tempDir("txcript-link-");
    const path = join(dir, "config.json");
    writeFileSync(path, "old");
    const target = linkOut(path, 0o600);
    writeFileAtomic(path, "new", { throughLink: true });
    expectLinkKept(path, target, 0o600);
    expect(readFileSync(target, "utf8")).toBe("new");
  });

  it("Gemini CLI's projects.json gets the new project through its link", () => {
    const root = tempDir("txcript-gemini-link-");
    const registry = join(root, "projects.json");
    writeFileSync(registry, JSON.stringify({ projects: { "/elsewhere": "elsewhere" } }));
    const target = linkOut(registry, 0o640);
    const store = openStore(harness("gemini_cli"), { root, env: {} });
    if (!store) throw new Error("no Gemini CLI store");
    store.save(session("7a7a7a7a-0000-4000-8000-000000000001"));
    expectLinkKept(registry, target, 0o640);
    const projects = JSON.parse(readFileSync(target, "utf8")).projects;
    expect(Object.keys(projects).sort()).toEqual(["/elsewhere", "/work/linked-project"]);
  });

  it("Codex's session_index.jsonl, linked, is left untouched by a delete (append-only, Codex's own)", () => {
    const home = tempDir("txcript-codex-link-");
    const store = openStore(harness("codex"), { root: home, env: {} });
    if (!store) throw new Error("no Codex store");
    const id = "7b7b7b7b-0000-4000-8000-000000000002";
    store.save(session(id, "A linked title"));
    const index = join(home, "session_index.jsonl");
    const other = JSON.stringify({ id: "another", thread_name: "kept", updated_at: TS });
    writeFileSync(index, `${readFileSync(index, "utf8")}${other}\n`);
    expect(readFileSync(index, "utf8")).toContain(id);
    const target = linkOut(index, 0o600);
    const before = readFileSync(target, "utf8");
    store.native.delete(id);
    expectLinkKept(index, target, 0o600);
    expect(readFileSync(target, "utf8")).toBe(before);
  });
});
