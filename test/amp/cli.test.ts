/**
 * Amp through the built binary: list, view and query a threads folder
 * built from the documented format (untouched afterwards), and
 * `continue --with amp` refused in one line saying why.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAmpThreads, everyKindThread, THREAD_ID } from "../support/amp.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

describe("txcript with Amp", () => {
  it("lists, views, queries and totals Amp threads, leaving the files untouched", () => {
    const root = tempDir("amp-cli-");
    createAmpThreads(root, [everyKindThread()]);
    const before = hashTree(root);
    const env = { TXCRIPT_AMP_ROOT: root, TXCRIPT_CACHE: join(tempDir("amp-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "amp"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => [s.id, s.title])).toEqual([[THREAD_ID, "Fix the off-by-one"]]);
    const view = txcript(["view", THREAD_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("cargo test");
    expect(view.stdout).toContain("Fixed: the bound was inclusive.");
    const query = txcript(["query", "inclusive", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(THREAD_ID);
    const usage = txcript(["usage", "--by", "harness", "--json"], { env });
    expect(usage.status).toBe(0);
    expect(usage.stdout).toContain('"output_tokens": 130');
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses continue --with amp in one line naming why", () => {
    const dir = tempDir("amp-cli-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const root = tempDir("amp-root-");
    const r = txcript(["continue", doc, "--with", "amp", "--no-resume"], {
      env: { TXCRIPT_AMP_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });
});
