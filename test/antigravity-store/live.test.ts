/**
 * A live writer: another process appends steps to a WAL database while
 * discovery and load run. No read fails, and every snapshot is a prefix of
 * the final conversation (one transaction per read: never torn).
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { tempDir } from "../support/tmp.js";
import { comparable, handBody, startChild, writeAgyDatabase } from "./support.js";

it("reads consistent prefixes while another process appends steps in WAL mode", async () => {
  const root = tempDir();
  const body = handBody("live-0000", 0);
  const path = writeAgyDatabase(root, body);
  const marker = join(root, "writer-done");
  const FINAL = 400;
  const writer = startChild("writer.ts", [path, String(FINAL), marker]);
  let stderr = "";
  writer.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => writer.on("exit", (code) => done(code)));

  const store = new AntigravityStore({ root, busyTimeoutMs: 5000 });
  const snapshots: unknown[][] = [];
  const counts: number[] = [];
  while (!existsSync(marker)) {
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions).toHaveLength(1);
    counts.push(sessions[0]!.message_count);
    snapshots.push((comparable(store.load(body.id).body) as { steps: unknown[] }).steps);
    await new Promise((r) => setTimeout(r, 1));
  }
  expect(await exited, stderr).toBe(0);

  const final = (comparable(store.load(body.id).body) as { steps: unknown[] }).steps;
  expect(final).toHaveLength(FINAL);
  for (const steps of snapshots) expect(steps).toEqual(final.slice(0, steps.length));
  // The reads overlapped the writes: many distinct partial states were seen.
  const partial = new Set(snapshots.map((s) => s.length).filter((n) => n > 0 && n < FINAL));
  expect(partial.size).toBeGreaterThan(5);
  // Listings grew monotonically with the conversation.
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
});
