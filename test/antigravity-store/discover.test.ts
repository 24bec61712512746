/**
 * Discovery over a real store: 50 conversations among many kinds of bad
 * file, each bad file reported with its reason and none aborting the scan;
 * the source tree is byte-identical afterwards; both lanes are read.
 */

import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { buildConversation, mainBlobData } from "../support/agy-fixtures.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { addBadFiles, writeAgyDatabase } from "./support.js";

describe("discover", () => {
  it("lists 50 conversations and reports each of 13 kinds of bad file with its reason", async () => {
    const root = tempDir();
    const good: string[] = [];
    for (let i = 0; i < 50; i++) {
      const body = buildConversation({
        steps: 12,
        seed: 100 + i,
        layout: i % 2 ? "typed" : "generic",
      });
      good.push(writeAgyDatabase(root, body, { leaveWal: i % 5 === 0 }));
    }
    // Files that are no conversation and no problem: sidecars, a fork's .pb copy, our temporaries.
    const dir = join(root, "conversations");
    const forkCopy = good[1]!.replace(/\.db$/, ".pb");
    writeFileSync(forkCopy, "opaque");
    writeFileSync(join(dir, ".x.db.tmp-999999-abcdef"), "left by a crash");
    writeFileSync(join(dir, "README"), "not ours");
    const expected = addBadFiles(root, good[0]!);
    const before = hashTree(root);

    const progress: [number, number][] = [];
    const store = new AntigravityStore({ root, busyTimeoutMs: 500 });
    const { sessions, skipped } = await store.discover({
      onProgress: (d, t) => progress.push([d, t]),
    });

    expect(sessions.map((s) => s.path).sort()).toEqual([...good].sort());
    const reasons = Object.fromEntries(
      skipped.map((s) => [s.path.slice(dir.length + 1), s.reason]),
    );
    expect(Object.keys(reasons).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, pattern] of Object.entries(expected))
      expect(reasons[name], name).toMatch(pattern);
    // Progress counts every candidate database once, in order.
    expect(progress.map(([d]) => d)).toEqual(progress.map((_, i) => i + 1));
    expect(new Set(progress.map(([, t]) => t))).toEqual(new Set([progress.length]));
    // Reading created, changed and removed nothing.
    expect(hashTree(root)).toEqual(before);
  });

  it("leaves every source file byte-identical through discover and load, -wal and -shm included", async () => {
    const root = tempDir();
    const bodies = [1, 2, 3].map((seed) => buildConversation({ steps: 30, seed }));
    for (const body of bodies) writeAgyDatabase(root, body, { leaveWal: true });
    writeAgyDatabase(root, buildConversation({ steps: 30, seed: 4 })); // checkpointed, no sidecars
    const before = hashTree(root);
    const store = new AntigravityStore({ root });
    const { sessions } = await store.discover();
    expect(sessions).toHaveLength(4);
    for (const s of sessions) store.load(s.id);
    for (const s of sessions) store.fingerprint(s.id);
    expect(hashTree(root)).toEqual(before);
  });

  it("finds nothing, and fails on nothing, where the store does not exist", async () => {
    const store = new AntigravityStore({ root: join(tempDir(), "missing") });
    expect(await store.discover()).toEqual({ sessions: [], skipped: [] });
    expect(store.fingerprint("anything")).toBeUndefined();
  });

  it("reads the ACP lane, with the cwd from its <id>.meta sidecar", async () => {
    const gemini = tempDir();
    const cliBody = buildConversation({ steps: 8, seed: 31 });
    writeAgyDatabase(join(gemini, "antigravity-cli"), cliBody);
    const acpBody = buildConversation({ steps: 8, seed: 32 });
    acpBody.trajectory_metadata_blob = [{ id: "main", data: mainBlobData({}) }]; // no workspace
    const acpRoot = join(gemini, "antigravity-acp");
    writeAgyDatabase(acpRoot, acpBody);
    const sidecar = JSON.stringify({ cwd: "/work/acp project" });
    writeFileSync(join(acpRoot, "conversations", `${acpBody.id}.meta`), sidecar);

    const store = new AntigravityStore({ env: { HOME: "/nonexistent", GEMINI_HOME: gemini } });
    const byId = new Map((await await store.discover()).sessions.map((s) => [s.id, s]));
    expect(byId.get(cliBody.id)?.lane).toBe("cli");
    expect(byId.get(cliBody.id)?.meta.cwd).toBe("/home/dev/project");
    const acp = byId.get(acpBody.id);
    expect(acp?.lane).toBe("acp");
    expect(acp?.meta.cwd).toBe("/work/acp project");
    expect(acp?.fingerprint.files.map((f) => f.path)).toContain(
      join(acpRoot, "conversations", `${acpBody.id}.meta`),
    );

    const loaded = store.load(acpBody.id);
    expect(loaded.body.lane).toBe("acp");
    expect(loaded.body.acp_meta).toBe(sidecar);
    expect(loaded.meta.cwd).toBe("/work/acp project");
    expect(store.load(cliBody.id).body.lane).toBeUndefined();
  });

  it("fingerprints the database, its -wal and the mirror logs, and the fingerprint moves when a step lands", async () => {
    const root = tempDir();
    const body = buildConversation({ steps: 10, seed: 41 });
    body.transcript = "{}\n";
    const path = writeAgyDatabase(root, body, { leaveWal: true });
    const store = new AntigravityStore({ root });
    const first = store.fingerprint(body.id)!;
    expect(first.files.map((f) => f.path)).toEqual([
      path,
      `${path}-wal`,
      join(root, "brain", body.id, ".system_generated", "logs", "transcript.jsonl"),
    ]);
    expect(store.fingerprint(body.id)).toEqual(first); // reading changes nothing
    expect((await await store.discover()).sessions[0]!.fingerprint).toEqual(first);

    const db = new Database(path);
    db.pragma("wal_autocheckpoint = 0");
    db.prepare("INSERT INTO steps (idx, step_type, status) VALUES (999, 23, 3)").run();
    const held = `${path}.x`;
    for (const suffix of ["", "-wal", "-shm"]) copyFileSync(path + suffix, held + suffix);
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) copyFileSync(held + suffix, path + suffix);
    const second = store.fingerprint(body.id)!;
    expect(second).not.toEqual(first);
    expect(second.files.find((f) => f.path === `${path}-wal`)!.size).toBeGreaterThan(
      first.files.find((f) => f.path === `${path}-wal`)!.size,
    );
  });
  it("lists a database missing a column of agy's as one that has it (the named select fails, SELECT * reads it)", async () => {
    const root = tempDir();
    const spec = { steps: 40, seed: 7, checkpointTitle: "Named columns" };
    const full = writeAgyDatabase(root, buildConversation(spec));
    const store = new AntigravityStore({ root });
    const [before] = (await store.discover()).sessions;
    // Another layout: render_info gone from steps, and an extra column agy never made.
    const db = new Database(full);
    db.exec("ALTER TABLE steps DROP COLUMN render_info; ALTER TABLE steps ADD COLUMN extra blob");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const [after] = (await store.discover()).sessions;
    expect(before?.meta.title).toBe("Named columns");
    expect(after && { ...after, fingerprint: null }).toEqual(
      before && { ...before, fingerprint: null },
    );
  });
});
