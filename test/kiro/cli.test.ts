/**
 * Kiro CLI through the built binary, as a user runs it: list, view and
 * query a `~/.kiro/sessions/cli` built from the documented format
 * (untouched afterwards), and `continue --with kiro` refused in one line
 * saying why.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { createKiroSessions, everyKindSession } from "../support/kiro.js";
import { hashTree, tempDir } from "../support/tmp.js";

const ID = "f2946a26-3735-4b08-8d05-c928010302d5";

describe("txcript with Kiro CLI", () => {
  it("lists, views and queries Kiro sessions, leaving the files untouched", () => {
    const root = tempDir("kiro-cli-");
    createKiroSessions(root, [everyKindSession()]);
    const before = hashTree(root);
    const env = { TXCRIPT_KIRO_ROOT: root, TXCRIPT_CACHE: join(tempDir("kiro-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "kiro"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => [s.id, s.title])).toEqual([[ID, "Fix the cart total"]]);
    const view = txcript(["view", ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    expect(view.stdout).not.toContain("going the wrong way");
    const query = txcript(["query", "constant", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(ID);
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses continue --with kiro in one line naming why", () => {
    const dir = tempDir("kiro-cli-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const root = tempDir("kiro-root-");
    const r = txcript(["continue", doc, "--with", "kiro", "--no-resume"], {
      env: { TXCRIPT_KIRO_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });
});
