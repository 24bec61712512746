// Temporaries and locks from another machine or pid namespace (a container
// writing into the same home) are not judged by a pid this process cannot see.
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { namespaceTag, sweepTemps, tempPath, tryLock } from "../../src/fsx.js";

/** A pid that is not running here (far above any pid_max). */
const DEAD = 2 ** 30 + 7;

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "txcript-ns-"));
  mkdirSync(d, { recursive: true });
  return d;
}

/** A temporary named as a writer with `pid` under `tag` would name it. */
let planted = 0;
function plant(d: string, pid: number, tag: string, ageMs = 0): string {
  planted++;
  const path = join(d, `.s${planted}.jsonl.tmp-${pid}-${tag}0123456789ab`);
  writeFileSync(path, "half a session");
  if (ageMs > 0) {
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(path, t, t);
  }
  return path;
}

const exists = (p: string) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
};

describe("namespace tags", () => {
  it("names every temporary with this process's pid and tag", () => {
    const d = dir();
    expect(namespaceTag()).toMatch(/^[0-9a-f]{8}$/);
    expect(tempPath(d, "x.json")).toContain(`.x.json.tmp-${process.pid}-${namespaceTag()}`);
  });

  it("sweeps a dead writer's temporary of this namespace, but not another namespace's, until it is a day old", () => {
    const d = dir();
    const other = namespaceTag() === "00000000" ? "11111111" : "00000000";
    const ours = plant(d, DEAD, namespaceTag());
    const foreignFresh = plant(d, DEAD, other);
    const foreignOld = plant(d, DEAD, other, 2 * 24 * 3600 * 1000);
    sweepTemps(d);
    expect(exists(ours)).toBe(false);
    // Its pid means nothing here: the writer may be running in its container.
    expect(exists(foreignFresh)).toBe(true);
    expect(exists(foreignOld)).toBe(false);
  });

  it("does not take over a lock held under another namespace, and takes over a dead one of its own", () => {
    const d = dir();
    const other = namespaceTag() === "00000000" ? "11111111" : "00000000";
    writeFileSync(join(d, ".index.db.lock"), `${DEAD} ${other}\n`);
    const held = tryLock(d, "index.db");
    expect(held).toEqual({ heldBy: DEAD });
    writeFileSync(join(d, ".index.db.lock"), `${DEAD} ${namespaceTag()}\n`);
    const taken = tryLock(d, "index.db");
    expect("release" in taken).toBe(true);
    expect(readFileSync(join(d, ".index.db.lock"), "utf8")).toBe(
      `${process.pid} ${namespaceTag()}\n`,
    );
    if ("release" in taken) taken.release();
    expect(exists(join(d, ".index.db.lock"))).toBe(false);
  });

  it("still reads a lock an older txcript wrote (a pid alone)", () => {
    const d = dir();
    writeFileSync(join(d, ".index.db.lock"), `${DEAD}\n`);
    const taken = tryLock(d, "index.db");
    expect("release" in taken).toBe(true);
    if ("release" in taken) taken.release();
  });
});
