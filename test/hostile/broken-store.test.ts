/**
 * One broken store (issue 11, item 8): a HOME that is a file, or a store
 * folder that is a file, costs only that store's sessions: `list` lists the
 * others and warns naming the file, ids resolve in the others, and a write
 * into the broken store fails in one line naming the file, never an
 * internal error.
 */

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TxcriptError } from "../../src/errors.js";
import { continueInto, Local } from "../../src/local.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { commonDoc, SID, STORED, saveAs, simpleDoc } from "./support.js";

/** Folders (relative to HOME) a store reads or writes; each made a file in turn. */
const BREAKS = [
  ".claude",
  ".claude/projects",
  ".codex",
  ".codex/sessions",
  ".gemini",
  ".gemini/antigravity-cli",
];
const HEALTHY = {
  antigravity: "8a000000-0000-4000-8000-000000000001",
  claude_code: "8c000000-0000-4000-8000-000000000002",
  codex: "8d000000-0000-4000-8000-000000000003",
} as const;

/** A home with one session per store, then `broken` replaced by a file. */
function homeWith(broken: string): string {
  const home = join(tempDir("txcript-broken-"), "home");
  mkdirSync(home);
  for (const id of STORED) saveAs(commonDoc(HEALTHY[id], id), id, { env: { HOME: home } });
  rmSync(join(home, broken), { recursive: true, force: true });
  writeFileSync(join(home, broken), "not a folder");
  return home;
}

describe("a store folder that is a file", () => {
  it.each(BREAKS)(
    "%s: the other stores list and resolve; writes into it name the file",
    async (broken) => {
      const home = homeWith(broken);
      const local = new Local({ env: { HOME: home } });
      const listing = await local.list();
      const listed = new Set(listing.sessions.map((s) => s.id));
      // The store that lives under `broken` loses its sessions, no other does.
      const lost = STORED.filter((id) => !listed.has(HEALTHY[id]));
      expect(lost.length).toBeLessThanOrEqual(1);
      for (const u of listing.unreadable) expect(u.reason).toContain(home);
      for (const id of STORED) {
        if (lost.includes(id)) continue;
        expect(local.resolve(HEALTHY[id])).toEqual({ harness: id, id: HEALTHY[id] });
      }
      for (const id of STORED) {
        try {
          continueInto(commonDoc(SID, "new"), id, { env: { HOME: home } });
        } catch (error) {
          expect(error).toBeInstanceOf(TxcriptError);
          expect((error as Error).message).toContain(join(home, broken));
        }
      }
    },
  );

  it("HOME a file: list warns and exits 0; continue and view fail in one named line", () => {
    const top = tempDir("txcript-home-file-");
    const home = join(top, "home");
    writeFileSync(home, "a file");
    const env = { HOME: home };
    const list = txcript(["list"], { env });
    expect(list.status).toBe(0);
    for (const line of list.stderr.trimEnd().split("\n")) {
      expect(line).toMatch(
        /^(no sessions found|txcript: warning: skipped the .* store: .*\/home\/.*)$/,
      );
    }
    const doc = join(top, "doc.json");
    writeFileSync(doc, simpleDoc());
    for (const id of STORED) {
      const r = txcript(["continue", doc, "--with", id, "--no-resume"], { env });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^txcript: ${home}/[^\\n]*: [^\\n]*\\n$`));
      expect(r.stderr).not.toContain("internal error");
    }
    const view = txcript(["view", "8c00"], { env });
    expect(view.status).toBe(1);
    expect(view.stderr).not.toContain("internal error");
  });
});
