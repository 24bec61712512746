/**
 * Sources agy left behind where SQLite cannot write: a read-only directory
 * (with and without the -shm, with and without a -wal), and a -wal whose
 * -shm is missing. Every one loads, with the rows still in the -wal, and
 * nothing is created or changed. Running as root, the reads run in a child
 * process as `nobody`, since root ignores directory permissions.
 */

import { chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { toolsSession120 } from "../support/agy-fixtures.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { comparable, runChild, runChildAs, writeAgyDatabase } from "./support.js";

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const locked: string[] = [];

afterEach(() => {
  for (const dir of locked.splice(0)) chmodSync(dir, 0o755);
});

function readOnly(...dirs: string[]): void {
  for (const dir of dirs) {
    chmodSync(dir, 0o555);
    locked.push(dir);
  }
}

/**
 * Discover and load in another process, as a user who cannot write the
 * directory; undefined (with the reason printed) when, as root, no place
 * `nobody` can reach exists to run the child from.
 */
function readElsewhere(root: string, id: string) {
  let r: { status: number | null; stdout: string; stderr: string };
  if (asRoot) {
    const staged = runChildAs("read.ts", [root, id], NOBODY, NOBODY);
    if ("unreachable" in staged) {
      console.warn(`skipped the read as nobody: ${staged.unreachable}`);
      return undefined;
    }
    r = staged;
  } else r = runChild("read.ts", [root, id]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { sessions: string[]; skipped: unknown[]; body: unknown };
}

describe.skipIf(process.platform === "win32")("read-only sources", () => {
  it.each([
    ["with its -wal and -shm", "keep"],
    ["with its -wal but no -shm", "drop-shm"],
    ["checkpointed, no -wal at all", "checkpointed"],
  ] as const)(
    "a read-only directory holding a WAL database %s loads whole, and nothing is created",
    (_name, kind) => {
      const root = tempDir();
      chmodSync(root, 0o755);
      const body = toolsSession120();
      const path = writeAgyDatabase(root, body, { leaveWal: kind !== "checkpointed" });
      if (kind === "drop-shm") rmSync(`${path}-shm`);
      const before = hashTree(root);
      readOnly(join(root, "conversations"), root);

      const seen = readElsewhere(root, body.id);
      if (seen === undefined) return;
      expect(seen.skipped).toEqual([]);
      expect(seen.sessions).toEqual([body.id]);
      expect(seen.body).toEqual(comparable(body));
      expect(hashTree(root)).toEqual(before);
    },
  );

  it("a writable directory whose -wal lost its -shm loads whole, and no -shm appears", () => {
    const root = tempDir();
    const body = toolsSession120();
    const path = writeAgyDatabase(root, body, { leaveWal: true });
    rmSync(`${path}-shm`);
    const before = hashTree(root);
    const loaded = new AntigravityStore({ root }).load(body.id);
    expect(comparable(loaded.body)).toEqual(comparable(body));
    expect(hashTree(root)).toEqual(before);
  });
});
