/**
 * Copilot CLI through the built binary: list, view and query a
 * `~/.copilot/session-state` (untouched afterwards), and `continue --with
 * copilot --out DIR` writing a session folder (events.jsonl, workspace.yaml
 * with a hostile title) that lists back, with `COPILOT_HOME=DIR` in its
 * resume line.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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

  it("continues a document into Copilot CLI: a new session folder and its resume line", () => {
    const dir = tempDir("copilot-doc-");
    const doc = join(dir, "doc.json");
    const title = 'a "hostile": title # with\nnewline';
    writeFileSync(
      doc,
      JSON.stringify({
        title,
        cwd: "/work/p",
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      }),
    );
    const out = tempDir("copilot-out-");
    const r = txcript(["continue", doc, "--with", "copilot", "--out", out, "--no-resume"], {
      env: { TXCRIPT_CACHE: join(tempDir("copilot-cache-"), "c") },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`COPILOT_HOME=${out}`);
    expect(r.stdout).toContain("copilot --resume");
    const ids = readdirSync(join(out, "session-state"));
    expect(ids).toHaveLength(1);
    const folder = join(out, "session-state", ids[0] ?? "");
    expect(readdirSync(folder).sort()).toEqual(["events.jsonl", "workspace.yaml"]);
    const first = JSON.parse(
      readFileSync(join(folder, "events.jsonl"), "utf8").split("\n")[0] ?? "",
    );
    expect(first.data.copilotVersion).toBe("1.0.102");
    const list = txcript(["list", "--json", "--from", "copilot"], {
      env: { COPILOT_HOME: out, TXCRIPT_CACHE: join(tempDir("copilot-cache-"), "c") },
    });
    const listed = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(listed.sessions.map((s) => s.title)).toEqual([title]);
  });
});
