/**
 * Discovery on worker threads lists exactly what the calling thread alone
 * lists: the same sessions, the same skipped files with the same reasons,
 * in the same order, on a store mixed with bad files and on WAL stores
 * (at rest with their -wal and -shm, and live under a writer), and it
 * creates, changes and removes no file in the store.
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { expect, it } from "vitest";
import { AntigravityStore, PARALLEL_DISCOVERY_FROM } from "../../src/harness/antigravity/store.js";
import {
  type Candidate,
  type CandidateResult,
  type DiscoverJob,
  discoverCandidate,
} from "../../src/harness/antigravity/store-discover.js";
import { sleepSync } from "../../src/sqlite.js";
import type { Discovery } from "../../src/transcript.js";
import { runShared } from "../../src/workers.js";
import { buildConversation } from "../support/agy-fixtures.js";
import { BIN } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { addBadFiles, handBody, startChild, writeAgyDatabase } from "./support.js";

const WORKER = new URL("../../src/harness/antigravity/discover-worker.ts", import.meta.url);

/** `count` conversations, some with their latest steps in an uncheckpointed -wal beside its -shm. */
function fillStore(root: string, count: number, steps = 12): string[] {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = buildConversation({ steps, seed: 500 + i, layout: i % 2 ? "typed" : "generic" });
    if (i % 3 === 0) body.transcript = `{"n":${i}}\n`;
    paths.push(writeAgyDatabase(root, body, i % 4 === 0 ? { walShare: 0.3 } : {}));
  }
  return paths;
}

async function discover(
  root: string,
  workers: number,
): Promise<{ found: Discovery; progress: number[] }> {
  const progress: number[] = [];
  const store = new AntigravityStore({ root, busyTimeoutMs: 500, discoveryWorkers: workers });
  const found = await store.discover({ onProgress: (done) => progress.push(done) });
  return { found, progress };
}

it("lists exactly what the serial path lists on a store mixed with 13 kinds of bad file", async () => {
  const root = tempDir();
  const good = fillStore(root, 50);
  const expected = addBadFiles(root, good[0]!);
  const before = hashTree(root);

  const serial = await discover(root, 0);
  const parallel = await discover(root, 2);
  expect(serial.found.sessions.map((s) => s.path).sort()).toEqual([...good].sort());
  expect(serial.found.skipped).toHaveLength(Object.keys(expected).length);
  // Same sessions, same skipped files and reasons, same order.
  expect(parallel.found).toEqual(serial.found);
  // Progress counts each candidate once (workers report a chunk at a time), up to the total.
  expect(serial.progress).toEqual(Array.from({ length: serial.progress.length }, (_, i) => i + 1));
  expect(parallel.progress).toEqual([...parallel.progress].sort((a, b) => a - b));
  expect(parallel.progress.at(-1)).toBe(serial.progress.at(-1));
  // Nothing created beside the databases, nothing changed or removed.
  expect(hashTree(root)).toEqual(before);
});

it("gives worker-read results equal to the calling thread's, bad files and -wal included", async () => {
  const root = tempDir();
  const good = fillStore(root, 40);
  addBadFiles(root, good[0]!);
  const before = hashTree(root);
  const candidates: Candidate[] = new AntigravityStore({ root })
    .ids()
    .map((id) => ({ lane: { lane: "cli" as const, root }, name: `${id}.db` }));
  const serial = candidates.map((c) => discoverCandidate(c, 500));
  expect(serial.filter((r) => "skipped" in r).length).toBeGreaterThan(5);

  // The calling thread dawdles, so the workers read most.
  let onCaller = 0;
  const parallel = await runShared<DiscoverJob, CandidateResult, Candidate>({
    count: candidates.length,
    run: (i) => {
      onCaller++;
      sleepSync(50);
      return discoverCandidate(candidates[i]!, 500);
    },
    module: WORKER,
    data: { busyTimeoutMs: 500 },
    item: (i) => candidates[i]!,
    threads: 2,
    chunkSize: 2,
    lost: () => {
      throw new Error("no worker may be lost here");
    },
    stallMs: 60_000,
  });
  const fromWorkers = candidates.length - onCaller;
  expect(fromWorkers).toBeGreaterThan(0);
  expect(parallel).toEqual(serial);
  expect(hashTree(root)).toEqual(before);
});

it("uses workers by default only from PARALLEL_DISCOVERY_FROM conversations, listing the same either way", async () => {
  const root = tempDir();
  fillStore(root, PARALLEL_DISCOVERY_FROM + 6, 6);
  const before = hashTree(root);
  const auto = await new AntigravityStore({ root }).discover();
  expect(auto.sessions).toHaveLength(PARALLEL_DISCOVERY_FROM + 6);
  expect(auto).toEqual((await discover(root, 0)).found);
  expect(hashTree(root)).toEqual(before);
});

it("lists a live WAL store as the serial path does while another process appends steps", async () => {
  const root = tempDir();
  fillStore(root, 30);
  const live = handBody("live-0000", 0);
  const livePath = writeAgyDatabase(root, live);
  const liveFiles = (path: string) => path.startsWith(join("conversations", "live-0000.db"));
  const still = (tree: Record<string, string>) =>
    Object.fromEntries(Object.entries(tree).filter(([path]) => !liveFiles(path)));
  const before = still(hashTree(root));

  const marker = join(tempDir(), "writer-done"); // outside the store
  const FINAL = 300;
  const writer = startChild("writer.ts", [livePath, String(FINAL), marker]);
  let stderr = "";
  writer.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => writer.on("exit", (code) => done(code)));

  const counts: number[] = [];
  let rounds = 0;
  while (!existsSync(marker)) {
    const serial = (await discover(root, 0)).found;
    const parallel = (await discover(root, 2)).found;
    for (const found of [serial, parallel]) {
      expect(found.skipped).toEqual([]);
      expect(found.sessions).toHaveLength(31);
    }
    const liveSerial = serial.sessions.find((s) => s.id === live.id)!;
    const liveParallel = parallel.sessions.find((s) => s.id === live.id)!;
    counts.push(liveSerial.message_count, liveParallel.message_count);
    // The conversations at rest list identically; the live one only grows.
    const rest = (found: Discovery) => found.sessions.filter((s) => s.id !== live.id);
    expect(rest(parallel)).toEqual(rest(serial));
    expect(parallel.sessions.map((s) => s.id)).toEqual(serial.sessions.map((s) => s.id));
    rounds++;
    await new Promise((r) => setTimeout(r, 1));
  }
  expect(await exited, stderr).toBe(0);
  expect(rounds).toBeGreaterThan(2);
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  // Once the writer is done both list the whole conversation alike.
  expect((await discover(root, 2)).found).toEqual((await discover(root, 0)).found);
  expect(still(hashTree(root))).toEqual(before);
});

it("discovers on workers in a host started with --input-type=module (flags workers refuse are not passed on)", () => {
  const root = tempDir();
  const good = fillStore(root, 120, 4);
  const store = new URL("../../dist/harness/antigravity/store.js", import.meta.url).href;
  const code = `const { AntigravityStore } = await import(${JSON.stringify(store)});
    const s = new AntigravityStore({ root: ${JSON.stringify(root)}, discoveryWorkers: 1 });
    const found = await s.discover();
    process.stdout.write(String(found.sessions.length));`;
  for (const flag of [["--input-type=module"], ["--input-type", "module"]]) {
    const r = spawnSync(process.execPath, [...flag, "-e", code], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(String(good.length));
  }
});

it("the built CLI started with V8 flags lists every conversation (workers inherit the flags, none lost)", () => {
  // Node refuses V8 flags in a worker's explicit execArgv: passing the
  // host's on failed every worker, and each lost its first chunk (8
  // conversations skipped as "not read").
  const root = tempDir();
  const good = fillStore(root, PARALLEL_DISCOVERY_FROM + 6, 4).map((p) => basename(p, ".db"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: root,
    TXCRIPT_ANTIGRAVITY_ROOT: root,
    TXCRIPT_CACHE: join(tempDir(), "cache"),
  };
  for (const flags of [["--max-old-space-size=512"], ["--stack-size=900", "--no-warnings"]]) {
    const r = spawnSync(process.execPath, [...flags, BIN, "--no-cache", "list", "--json"], {
      env,
      encoding: "utf8",
    });
    expect(r.stderr, flags.join(" ")).toBe("");
    expect(r.status).toBe(0);
    const listed = JSON.parse(r.stdout) as { sessions: { id: string }[]; skipped?: unknown[] };
    expect(listed.skipped ?? []).toEqual([]);
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([...good].sort());
  }
});

it("the built CLI discovers a store big enough for workers, with and without the index", () => {
  // The bundle must still find the worker pool's own files (a bundled
  // tinypool looked for them beside the bundle and failed).
  const root = tempDir();
  const good = fillStore(root, PARALLEL_DISCOVERY_FROM + 6, 4).map((p) => basename(p, ".db"));
  const before = hashTree(root);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: root,
    TXCRIPT_ANTIGRAVITY_ROOT: root,
    TXCRIPT_CACHE: join(tempDir(), "cache"),
  };
  for (const args of [
    ["--no-cache", "list", "--json"],
    ["list", "--json"],
  ]) {
    const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: "utf8" });
    expect(r.stderr, args.join(" ")).toBe("");
    expect(r.status).toBe(0);
    const ids = (JSON.parse(r.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
    expect(ids.sort()).toEqual([...good].sort());
  }
  expect(hashTree(root)).toEqual(before);
});
