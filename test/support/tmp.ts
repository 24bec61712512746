/**
 * Real temporary directories, and hashes of whole trees to prove that a
 * command left its source byte-identical.
 */

import { createHash } from "node:crypto";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];

/** A fresh temporary directory, removed after the current test. */
export function tempDir(prefix = "txcript-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** path -> sha256 (files) or "dir" / "link:<target>", for every entry below `root`. */
export function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = relative(root, path);
      const st = lstatSync(path);
      if (st.isSymbolicLink()) out[rel] = `link:${readlinkSync(path)}`;
      else if (st.isDirectory()) {
        out[rel] = "dir";
        walk(path);
      } else out[rel] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(root);
  return out;
}
