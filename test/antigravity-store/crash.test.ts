/**
 * A saving process killed with SIGKILL at random points, 50 times: the
 * target is always the whole old or the whole new conversation, never a
 * partial one, and the next save leaves no stray file behind.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { tempDir } from "../support/tmp.js";
import { CRASH_ID, comparable, crashBodies, prng, startChild } from "./support.js";

const TRIALS = 50;
const PARALLEL = 2;

/** Start a saver, let it run for a random part of a few saves, SIGKILL it. */
async function killMidSave(root: string, rand: () => number): Promise<void> {
  const child = startChild("saver.ts", [root]);
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  const ready = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", () => reject(new Error(`saver exited before it was ready: ${err}`)));
  });
  await new Promise((r) => setTimeout(r, rand() * ready * 3));
  const exited = new Promise((r) => child.on("exit", r));
  child.kill("SIGKILL");
  await exited;
}

it(`leaves the old or the new conversation, whole, across ${TRIALS} SIGKILLs mid-save`, async () => {
  const [a, b] = crashBodies();
  const versions = [comparable(a), comparable(b)];
  const logs = (root: string) => join(root, "brain", CRASH_ID, ".system_generated", "logs");
  const rand = prng(2026);
  const outcomes = new Set<number>();

  const trial = async () => {
    const root = tempDir();
    await killMidSave(root, rand);
    const store = new AntigravityStore({ root });
    const loaded = comparable(store.load(CRASH_ID).body) as { transcript?: string };
    // The database is one of the two versions, whole (the logs may belong to the other).
    const { transcript: _t, transcript_full: _f, ...db } = loaded as Record<string, unknown>;
    const which = versions.findIndex((v) => {
      const { transcript: _vt, transcript_full: _vf, ...vdb } = v as Record<string, unknown>;
      return JSON.stringify(vdb) === JSON.stringify(db);
    });
    expect(which, "the database is neither version").not.toBe(-1);
    outcomes.add(which);
    for (const [name, key] of [
      ["transcript.jsonl", "transcript"],
      ["transcript_full.jsonl", "transcript_full"],
    ] as const) {
      const text = readFileSync(join(logs(root), name), "utf8");
      expect([a[key], b[key]], `${name} is partial`).toContain(text);
    }
    // The next save sweeps whatever the killed one left.
    store.save(
      { meta: { id: CRASH_ID, timestamp: "2026-09-10T09:00:00Z" }, body: a },
      { overwrite: true },
    );
    expect(readdirSync(join(root, "conversations"))).toEqual([`${CRASH_ID}.db`]);
    expect(readdirSync(logs(root)).sort()).toEqual(["transcript.jsonl", "transcript_full.jsonl"]);
    expect(comparable(store.load(CRASH_ID).body)).toEqual(versions[0]);
  };

  for (let done = 0; done < TRIALS; done += PARALLEL) {
    await Promise.all(Array.from({ length: Math.min(PARALLEL, TRIALS - done) }, trial));
  }
  // Kills landed at different points: both versions were seen as the survivor.
  expect(outcomes).toEqual(new Set([0, 1]));
}, 240_000);
