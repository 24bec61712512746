/**
 * Copilot CLI through the built binary: list, view and query a
 * `~/.copilot/session-state` (untouched afterwards), and `continue --with
 * copilot` refused in one line saying why.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { COPILOT_ID, createCopilotSessions } from "../support/copilot.js";
import { hashTree, tempDir } from "../support/tmp.js";

describe("txcript with Copilot CLI", () => {
  it("lists, views and queries Copilot CLI sessions, leaving the files untouched", () => {
    const home = tempDir("copilot-home-");
    const root = join(home, ".copilot");
    createCopilotSessions(root, [COPILOT_ID]);
    const before = hashTree(root);
    const env = { HOME: home, TXCRIPT_CACHE: join(tempDir("copilot-cache-"), "c") };
    const list = txcript(["list", "--json", "--from", "copilot"], { env });
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => [s.id, s.title])).toEqual([[COPILOT_ID, "Fix the cart total"]]);
    const view = txcript(["view", COPILOT_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    const query = txcript(["query", "constant", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(COPILOT_ID);
    expect(hashTree(root)).toEqual(before);
  });

  it("refuses continue --with copilot in one line naming why", () => {
    const dir = tempDir("copilot-doc-");
    const doc = join(dir, "doc.json");
    writeFileSync(
      doc,
      JSON.stringify({ messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    );
    const root = tempDir("copilot-root-");
    const r = txcript(["continue", doc, "--with", "copilot", "--no-resume"], {
      env: { TXCRIPT_COPILOT_ROOT: root },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
    expect(hashTree(root)).toEqual({});
  });
});
