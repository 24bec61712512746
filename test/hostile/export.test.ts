/**
 * `export --out` (issue 11, item 4): never over an existing file unless
 * --force, and never into any harness's store, however the path gets
 * there (the session's own file, a new name inside the store, a symlink
 * from outside, a symlinked folder), --force or not.
 */

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { continueInto } from "../../src/local.js";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { commonDoc, SID, STORED, saveAs } from "./support.js";

const IDS = {
  antigravity: "7a000000-0000-4000-8000-000000000001",
  claude_code: "7c000000-0000-4000-8000-000000000002",
  codex: "7d000000-0000-4000-8000-000000000003",
} as const;

function populatedHome(): { top: string; home: string; files: Record<string, string> } {
  const top = tempDir("txcript-export-");
  const home = join(top, "home");
  mkdirSync(home);
  const files: Record<string, string> = {};
  for (const id of STORED) {
    files[id] = saveAs(commonDoc(IDS[id], id), id, { env: { HOME: home } }).path;
  }
  return { top, home, files };
}

describe("export --out", () => {
  it("refuses an existing file unless --force, and leaves it as it was", () => {
    const { top, home } = populatedHome();
    const out = join(top, "out.json");
    writeFileSync(out, "precious");
    const r = txcript(["export", IDS.codex, "--out", out], { env: { HOME: home } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`txcript: ${out}: already exists (--force replaces it)\n`);
    expect(readFileSync(out, "utf8")).toBe("precious");
    const forced = txcript(["export", IDS.codex, "--out", out, "--force"], { env: { HOME: home } });
    expect(forced.status).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8")).id).toBe(IDS.codex);
    const fresh = join(top, "fresh.json");
    expect(txcript(["export", IDS.codex, "-o", fresh], { env: { HOME: home } }).status).toBe(0);
    expect(JSON.parse(readFileSync(fresh, "utf8")).id).toBe(IDS.codex);
  });

  it("never writes into a store, whatever path leads there", () => {
    const { top, home, files } = populatedHome();
    const outside = join(top, "outside");
    mkdirSync(outside);
    const targets: string[] = [];
    for (const id of STORED) {
      const own = files[id]!;
      targets.push(own, join(dirname(own), "new.json"));
      const link = join(outside, `${id}-link.json`);
      symlinkSync(own, link);
      targets.push(link);
      const dirLink = join(outside, `${id}-dir`);
      symlinkSync(dirname(own), dirLink);
      targets.push(join(dirLink, "via-folder.json"));
    }
    const before = hashTree(top);
    // --force is the stronger case; without it, the session files themselves.
    const runs: [string, string[]][] = [
      ...targets.map((t): [string, string[]] => [t, ["--force"]]),
      ...STORED.map((id): [string, string[]] => [files[id]!, []]),
    ];
    for (const [target, force] of runs) {
      {
        const r = txcript(["export", IDS.claude_code, "--out", target, ...force], {
          env: { HOME: home },
        });
        expect(r.status, `${target} ${force}`).toBe(1);
        expect(r.stderr).toMatch(
          /^txcript: .*: is inside the .* store \(.*\); export writes documents, never into a store\n$/,
        );
      }
    }
    expect(hashTree(top)).toEqual(before);
  });

  it("also protects a store named by a --<harness>-root flag", () => {
    const top = tempDir("txcript-export-flag-");
    const root = join(top, "cc");
    const saved = continueInto(commonDoc(SID), "claude_code", { env: {}, root }).saved;
    const before = hashTree(top);
    const r = txcript(
      ["--claude-code-root", root, "export", SID, "--out", join(dirname(saved.path), "x.json")],
      {},
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is inside the Claude Code store");
    expect(hashTree(top)).toEqual(before);
  });
});
