/**
 * Droid through the built binary, as a user runs it: list, view, query and
 * usage over a `~/.factory/sessions` the real Droid wrote (left untouched),
 * `continue --with droid` writing a copy where `droid --resume <id>` run in
 * the session's directory finds it, and `--out` refused in one line.
 */

import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "droid");
const ID = "5a44a94e-3eb4-4e37-9ebd-a4065fe28125";

function home(): { home: string; root: string; env: Record<string, string> } {
  const home = tempDir("droid-home-");
  const root = join(home, ".factory", "sessions");
  const dir = join(root, "-tmp-dx-r4-project");
  mkdirSync(dir, { recursive: true });
  for (const f of [`${ID}.jsonl`, `${ID}.settings.json`])
    copyFileSync(join(FIXTURES, f), join(dir, f));
  writeFileSync(join(dir, "torn.jsonl"), '{"type":"session_st');
  return { home, root, env: { HOME: home, TXCRIPT_CACHE: join(tempDir("droid-cache-"), "c") } };
}

describe("txcript with Droid", () => {
  it("lists, views, queries and totals Droid sessions, leaving the files untouched", () => {
    const { root, env } = home();
    const before = hashTree(root);
    const list = txcript(["list", "--json", "--from", "droid"], { env });
    expect(list.status, list.stderr).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => [s.id, s.title])).toEqual([[ID, "Set up the notes project"]]);
    const view = txcript(["view", ID.slice(0, 8), "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("cat missing.txt");
    expect(view.stdout).not.toContain("system-reminder");
    const query = txcript(["query", "milk", "--json"], { env });
    expect(query.stdout).toContain(ID);
    const usage = txcript(["usage", "--json", "--by", "model"], { env });
    expect(usage.status).toBe(0);
    expect(usage.stdout).toContain("custom:Mock-0");
    expect(usage.stdout).toContain("120");
    expect(hashTree(root)).toEqual(before);
  });

  it("continues a session into Droid, in its cwd's folder, and refuses --out in one line", () => {
    const { home: h, root, env } = home();
    const r = txcript(["continue", ID, "--with", "droid", "--no-resume"], { env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("droid --resume");
    const files = Object.keys(hashTree(root)).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(3);
    const out = join(h, "never");
    const before = hashTree(root);
    const refused = txcript(["continue", ID, "--with", "droid", "--out", out], { env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^txcript: [^\n]*FACTORY_HOME_OVERRIDE[^\n]*--out[^\n]*\n$/);
    expect(existsSync(out)).toBe(false);
    expect(hashTree(root)).toEqual(before);
  });
});
