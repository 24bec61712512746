/**
 * Every store's writes against a hostile file system (issue 11, items 2, 3
 * and 7): a symlink at any folder on the way to what a save writes is
 * refused before anything is created; concurrent continues of one source, in real
 * processes, give each racer a whole copy or a conflict error, never a
 * torn or invented one; temporaries a killed save left are swept by the next.
 */

import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { UnsafePathError } from "../../src/errors.js";
import { tempPath } from "../../src/fsx.js";
import { rolloutRelativePath } from "../../src/harness/codex/store.js";
import { harness, openStore } from "../../src/harness/index.js";
import { continueInto } from "../../src/local.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  commonDoc,
  runChildAsync,
  SID,
  STORED,
  type StoredId,
  saveAs,
  simpleDoc,
} from "./support.js";

/** The folders (relative to the root) a save of SID passes through, outermost first. */
const WAY: Record<StoredId, string[]> = {
  claude_code: ["-nonexistent-proj"],
  codex: (() => {
    const parts = dirname(rolloutRelativePath(SID, "2026-11-30T09:15:00Z")).split("/");
    return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
  })(),
  antigravity: [
    "conversations",
    "brain",
    `brain/${SID}`,
    `brain/${SID}/.system_generated`,
    `brain/${SID}/.system_generated/logs`,
  ],
};

/** Every file (and temporary) below `dir`, relative. */
function allFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe("symlinked folders on the way to a save", () => {
  const cases = STORED.flatMap((id) =>
    WAY[id].flatMap((folder) =>
      (["outside", "inside", "dangling"] as const).map((kind) => ({ id, folder, kind })),
    ),
  );
  it.each(cases)(
    "$id refuses $folder as a link ($kind), creating nothing",
    ({ id, folder, kind }) => {
      const top = tempDir("txcript-links-");
      const root = join(top, "root");
      const outside = join(top, "outside");
      mkdirSync(outside);
      writeFileSync(join(outside, "keep.txt"), "not the store's");
      const link = join(root, folder);
      mkdirSync(dirname(link), { recursive: true });
      const target =
        kind === "outside"
          ? outside
          : kind === "inside"
            ? join(root, "real-folder")
            : join(top, "gone");
      if (kind === "inside") mkdirSync(target);
      symlinkSync(target, link);
      const before = hashTree(top);
      expect(() => saveAs(commonDoc(), id, { env: {}, root })).toThrow(UnsafePathError);
      expect(hashTree(top)).toEqual(before);
    },
  );

  it.each(["tmp", "tmp/proj"])(
    "gemini_cli refuses %s as a link before creating any folder through it",
    (folder) => {
      const top = tempDir("txcript-links-gemini-");
      const root = join(top, "root");
      const outside = join(top, "outside");
      mkdirSync(outside);
      mkdirSync(join(root, "tmp"), { recursive: true });
      writeFileSync(
        join(root, "projects.json"),
        JSON.stringify({ projects: { "/nonexistent/proj": "proj" } }),
      );
      const link = join(root, folder);
      if (folder === "tmp") rmSync(link, { recursive: true });
      symlinkSync(outside, link);
      const before = hashTree(top);
      expect(() => saveAs(commonDoc(), "gemini_cli", { env: {}, root })).toThrow(UnsafePathError);
      expect(hashTree(top)).toEqual(before);
      expect(readdirSync(outside)).toEqual([]);
    },
  );

  it("continue --with claude_code refuses a symlinked project folder through the CLI", async () => {
    const { txcript } = await import("../support/cli.js");
    const top = tempDir("txcript-links-cli-");
    const home = join(top, "home");
    const projects = join(home, ".claude", "projects");
    mkdirSync(projects, { recursive: true });
    mkdirSync(join(top, "elsewhere"));
    symlinkSync(join(top, "elsewhere"), join(projects, "-nonexistent-proj"));
    const doc = join(top, "doc.json");
    writeFileSync(doc, simpleDoc());
    const before = hashTree(top);
    const r = txcript(["continue", doc, "--with", "claude_code", "--no-resume"], {
      env: { HOME: home },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^txcript: .*-nonexistent-proj is a symbolic link; .*\n$/);
    expect(hashTree(top)).toEqual(before);
  });
});

describe("concurrent saves of one id, in separate processes", () => {
  // Three racers per round: two with one document, one with another of the same id.
  const ROUNDS = 6;
  it.each([...STORED, "gemini_cli"] as const)(
    "%s: every racer gets a whole copy or a conflict error; nothing torn, nothing invented",
    async (id) => {
      const top = tempDir("txcript-race-");
      const docs = ["a", "a", "b"].map((tag, i) => {
        const file = join(top, `doc-${i}.json`);
        writeFileSync(file, simpleDoc(SID, tag));
        return file;
      });
      for (let round = 0; round < ROUNDS; round++) {
        const root = join(top, `root-${round}`);
        const at = String(Date.now() + 400);
        const results = await Promise.all(
          docs.map((doc) => runChildAsync("racer.ts", [id, root, doc, at])),
        );
        const lines = results.map((r) => r.stdout.trim());
        for (const r of results) expect(r.stderr).toBe("");
        // Every racer writes a copy of the same source, so they aim at one id.
        // Racers that met in the save lose with a conflict error; one that came
        // after a winner finds its copy, as a later run would: the same content
        // leaves it as it is, other content brings the untouched copy up to
        // date, and a copy it cannot tell for txcript's gets a fresh id.
        // The racers write under `--out root`: the harness's own home there.
        const h = harness(id);
        const storeRoot = h.outHome?.(root, undefined).root ?? root;
        const store = openStore(h, { root: storeRoot, env: {} })!;
        const reported = new Map<string, string[]>();
        lines.forEach((l, i) => {
          const ok = /^ok (\S+)$/.exec(l);
          if (!ok) {
            expect(l).toMatch(
              /^error ConflictError: .*(already exists|being saved by another process|already has this file name)/,
            );
            return;
          }
          const tags = reported.get(ok[1]!) ?? [];
          tags.push(["a", "a", "b"][i]!);
          reported.set(ok[1]!, tags);
        });
        const won = new Set(reported.keys());
        // Each copy is whole: exactly one racer's answer, from a racer that reported that id.
        for (const [saved, tags] of reported) {
          const text = JSON.stringify(store.load(saved).body);
          const held = ["a", "b"].filter((t) => text.includes(`Answer ${t}`));
          expect(held, lines.join("\n")).toHaveLength(1);
          expect(tags, lines.join("\n")).toContain(held[0]);
        }
        expect(won.size).toBeGreaterThan(0);
        expect(store.native.ids().sort()).toEqual([...won].sort());
        // No temporary or lock is left behind.
        expect(allFiles(root).filter((f) => /\.tmp-|\.lock$/.test(f))).toEqual([]);
      }
    },
    60_000,
  );
});

describe("temporaries of a killed save", () => {
  it.each(STORED)(
    "%s: the next save sweeps a dead writer's temporaries from where it writes",
    (id) => {
      const root = tempDir("txcript-sweep-");
      const folders = (files: string[]) => new Set(files.map((f) => dirname(join(root, f))));
      continueInto(commonDoc(), id, { env: {}, root });
      const first = folders(allFiles(root));
      // A pid that is not running (far above any pid_max), and pid 1, which is.
      const dead = 2 ** 30 + 7;
      const plant = (dir: string, pid: number) => {
        const tmp = tempPath(dir, "x.jsonl").replace(`-${process.pid}-`, `-${pid}-`);
        writeFileSync(tmp, "half a session");
        return tmp;
      };
      const planted = [...first].map((dir) => ({ dead: plant(dir, dead), live: plant(dir, 1) }));
      const before = new Set(allFiles(root));
      continueInto(commonDoc("6e56b2c3-1d4e-4f60-9bac-1d2e3f4a5b6c", "two"), id, { env: {}, root });
      const written = folders(allFiles(root).filter((f) => !before.has(f)));
      expect([...written].filter((d) => first.has(d)).length).toBeGreaterThan(0);
      for (const p of planted) {
        if (written.has(dirname(p.dead))) expect(existsSync(p.dead), p.dead).toBe(false);
        expect(existsSync(p.live), p.live).toBe(true);
      }
    },
  );
});
