/**
 * Grok CLI through the built binary: list, view and query a Grok home
 * built from the documented format (untouched afterwards), the parent a
 * child session names, hook runs, retries and unknown kinds shown as Raw
 * records, and `continue --with grok` and `delete` refused in
 * one line saying why.
 */

import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import {
  CHILD_ID,
  copyGrokHome,
  EVERY_KIND_ID,
  grokSessionDir,
  HISTORY_ONLY_ID,
} from "../support/grok.js";
import { hashTree, tempDir } from "../support/tmp.js";

function setUp() {
  const root = copyGrokHome(tempDir("grok-cli-"));
  const env = { TXCRIPT_GROK_ROOT: root, TXCRIPT_CACHE: join(tempDir("grok-cache-"), "c") };
  return { root, env };
}

describe("txcript with Grok CLI", () => {
  it("lists, views and queries Grok sessions, leaving the files untouched", () => {
    const { root, env } = setUp();
    const before = hashTree(root);
    const list = txcript(["list", "--json", "--from", "grok"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as {
      sessions: { id: string; title?: string; harness: string }[];
    };
    expect(doc.sessions.map((s) => s.id).sort()).toEqual([
      EVERY_KIND_ID,
      HISTORY_ONLY_ID,
      CHILD_ID,
    ]);
    expect(doc.sessions.find((s) => s.id === EVERY_KIND_ID)?.title).toBe("Fix the off-by-one");
    const view = txcript(["view", EVERY_KIND_ID, "--no-pager"], { env });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("cargo test");
    expect(view.stdout).toContain("test bound ... FAILED");
    expect(view.stdout).toContain("Fixed: the bound was inclusive.");
    expect(view.stdout).toContain("hook_execution");
    expect(view.stdout).toContain("future_kind");
    const history = txcript(["view", HISTORY_ONLY_ID, "--no-pager"], { env });
    expect(history.status).toBe(0);
    expect(history.stdout).toContain("Add a README");
    // The failed retry (x.ai's own update kind) is shown as a Raw record, not dropped.
    expect(history.stdout).toContain("retry_state");
    expect(history.stdout).toContain("API error (status 404 Not Found)");
    const query = txcript(["query", "inclusive", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(EVERY_KIND_ID);
    expect(hashTree(root)).toEqual(before);
  });

  it("reads GROK_HOME when no txcript variable names the folder", () => {
    const { root } = setUp();
    const env = {
      GROK_HOME: root,
      HOME: tempDir("grok-home-"),
      TXCRIPT_CACHE: join(tempDir("grok-cache-"), "c"),
    };
    const list = txcript(["list", "--json", "--from", "grok"], { env });
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(CHILD_ID);
  });

  it("refuses continue --with grok in one line naming why", () => {
    const dir = tempDir("grok-cli-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const root = tempDir("grok-root-");
    const r = txcript(["continue", doc, "--with", "grok", "--no-resume"], {
      env: { TXCRIPT_GROK_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });

  it("refuses delete in one line, touching nothing", () => {
    const { root, env } = setUp();
    const before = hashTree(root);
    const r = txcript(["delete", EVERY_KIND_ID, "--from", "grok", "--yes"], { env });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not delete Grok CLI sessions");
    expect(hashTree(root)).toEqual(before);
  });

  it("dates a session with no summary.json by its file, the same in list, view and export", () => {
    const { root, env } = setUp();
    const dir = grokSessionDir(root, EVERY_KIND_ID);
    rmSync(join(dir, "summary.json"));
    const when = new Date("2026-03-04T05:06:07Z");
    utimesSync(join(dir, "updates.jsonl"), when, when);
    const listed = JSON.parse(txcript(["list", "--json", "--from", "grok"], { env }).stdout) as {
      sessions: { id: string; created: string }[];
    };
    const row = listed.sessions.find((s) => s.id === EVERY_KIND_ID);
    expect(row?.created).toMatch(/^2026-03-04T05:06:07(\.0+)?Z$/);
    const md = txcript(["export", EVERY_KIND_ID, "--format", "markdown"], { env });
    expect(md.status).toBe(0);
    expect(md.stdout).toContain("2026-03-04 05:06:07 UTC");
    expect(md.stdout).not.toContain("1970");
    const json = JSON.parse(txcript(["view", EVERY_KIND_ID, "--format", "json"], { env }).stdout);
    expect(json.meta.timestamp).toBe(row?.created);
  });
});
