/**
 * Save and load on real files: load → save → load gives an identical Body
 * (every row, every column, every blob byte, the brain logs), for hand-made
 * rows, the agy 1.2.0 sample replicas, the 1.0.x layout and generated
 * conversations; the saved database has exactly agy's schema.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AntigravityBody, StepRow } from "../../src/harness/antigravity/body.js";
import { emptyBody } from "../../src/harness/antigravity/body.js";
import { antigravityCodec } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { listingRows, summarize } from "../../src/harness/antigravity/summary.js";
import { compareTimestamps } from "../../src/time.js";
import type { Transcript } from "../../src/transcript.js";
import {
  buildConversation,
  legacyLayoutSession,
  parentReferenceRow,
  RESUMED_SESSION_ID,
  resumedSession120,
  TOOLS_SESSION_ID,
  toolsSession120,
} from "../support/agy-fixtures.js";
import { tempDir } from "../support/tmp.js";
import { comparable, handBody, SPEC_SCHEMA, T0, writeAgyDatabase } from "./support.js";

const transcriptOf = (body: AntigravityBody): Transcript<AntigravityBody> => ({
  meta: { id: body.id, timestamp: T0 },
  body,
});

function roundTrip(body: AntigravityBody): { store: AntigravityStore; loaded: AntigravityBody } {
  const store = new AntigravityStore({ root: tempDir() });
  store.save(transcriptOf(body));
  const loaded = store.load(body.id).body;
  expect(comparable(loaded)).toEqual(comparable(body));
  // And once more from what was loaded: the store's own output is stable.
  store.save({ meta: { id: body.id, timestamp: T0 }, body: loaded }, { overwrite: true });
  expect(comparable(store.load(body.id).body)).toEqual(comparable(body));
  return { store, loaded };
}

const fixtures: [string, () => AntigravityBody][] = [
  ["agy 1.2.0 tools sample replica", toolsSession120],
  ["agy 1.2.0 resumed sample replica", resumedSession120],
  ["agy 1.0.x typed-step layout", legacyLayoutSession],
  ["generated, 1.2.0 layout", () => buildConversation({ steps: 120, seed: 7 })],
  [
    "generated, 1.0.x layout",
    () => buildConversation({ steps: 120, seed: 8, layout: "typed", checkpointTitle: "Done" }),
  ],
];

describe("save then load", () => {
  it.each(fixtures)("returns the identical Body: %s", (_name, make) => {
    roundTrip(make());
  });

  it("returns the identical Body for hand-made rows of arbitrary bytes in every table", () => {
    roundTrip(handBody("0a1b2c3d-0000-4000-8000-000000000001", 60, 3));
  });

  it("returns the identical Body for arbitrary rows (property)", () => {
    const blob = fc.option(fc.uint8Array({ maxLength: 64 }), { nil: null });
    const step = fc.record({
      step_type: fc.integer({ min: 0, max: 200 }),
      status: fc.integer({ min: 0, max: 12 }),
      has_subtrajectory: fc.boolean(),
      metadata: blob,
      error_details: blob,
      permissions: blob,
      task_details: blob,
      render_info: blob,
      step_payload: blob,
      step_format: fc.integer({ min: -2, max: 5 }),
    });
    const arbitraryBody = fc
      .record({
        idxs: fc.uniqueArray(fc.integer({ min: -5, max: 100_000 }), { maxLength: 25 }),
        steps: fc.array(step, { minLength: 25, maxLength: 25 }),
        cascade: fc.option(fc.string(), { nil: null }),
        type: fc.option(fc.integer(), { nil: null }),
        main: blob,
        text: fc.option(fc.string({ unit: "grapheme" }), { nil: undefined }),
      })
      .map(({ idxs, steps, cascade, type, main, text }) => {
        const body = emptyBody("prop");
        body.trajectory_meta.push({
          trajectory_id: "t",
          cascade_id: cascade,
          trajectory_type: type,
          source: null,
        });
        body.steps = idxs.sort((a, b) => a - b).map((idx, i): StepRow => ({ idx, ...steps[i]! }));
        body.trajectory_metadata_blob.push({ id: "main", data: main });
        if (text !== undefined) body.transcript_full = text;
        return body;
      });
    const store = new AntigravityStore({ root: tempDir() });
    fc.assert(
      fc.property(arbitraryBody, (body) => {
        store.save(transcriptOf(body), { overwrite: true });
        expect(comparable(store.load("prop").body)).toEqual(comparable(body));
      }),
      { numRuns: 40 },
    );
  });

  it("keeps tables a later agy added, with exact integers, reals, text, blobs and NULLs", () => {
    const body = handBody("extra-tables", 3);
    body.extra_tables.push(
      {
        name: "future_things",
        sql: "CREATE TABLE future_things(k integer PRIMARY KEY, v any, note text)",
        columns: ["k", "v", "note"],
        rows: [
          [1n, 9007199254740993n, "beyond 2^53"],
          [2n, 2.5, null],
          [3n, new Uint8Array([0, 255, 7]), "blob"],
          [4n, null, "ünïcode ✓"],
        ],
      },
      { name: "empty one", sql: 'CREATE TABLE "empty one"(x)', columns: ["x"], rows: [] },
    );
    roundTrip(body);
  });

  it("writes the brain mirror logs verbatim and creates brain/<id>/ even without them", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    const tools = toolsSession120();
    const saved = store.save(transcriptOf(tools));
    const logs = join(root, "brain", TOOLS_SESSION_ID, ".system_generated", "logs");
    expect(readFileSync(join(logs, "transcript.jsonl"), "utf8")).toBe(tools.transcript);
    expect(readFileSync(join(logs, "transcript_full.jsonl"), "utf8")).toBe(tools.transcript_full);
    expect(saved.path).toBe(join(root, "conversations", `${TOOLS_SESSION_ID}.db`));
    expect(saved.files).toContain(join(root, "brain", TOOLS_SESSION_ID));

    const bare = handBody("no-logs", 2);
    store.save(transcriptOf(bare));
    expect(existsSync(join(root, "brain", "no-logs", ".system_generated", "logs"))).toBe(true);
    expect(readdirSync(join(root, "brain", "no-logs", ".system_generated", "logs"))).toEqual([]);
  });

  it("leaves exactly the database in conversations/: no -wal, -shm or temporary file", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    store.save(transcriptOf(resumedSession120()));
    store.save(transcriptOf(resumedSession120()), { overwrite: true });
    expect(readdirSync(join(root, "conversations"))).toEqual([`${RESUMED_SESSION_ID}.db`]);
  });
});

describe("the saved database", () => {
  const describeSchema = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      const tables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[];
      return {
        user_version: db.pragma("user_version", { simple: true }),
        tables: Object.fromEntries(
          tables.map((t) => [t, db.prepare(`SELECT * FROM pragma_table_info(?)`).all(t)]),
        ),
        indexes: db
          .prepare(
            "SELECT name, tbl_name, (SELECT group_concat(name) FROM pragma_index_info(s.name)) AS cols FROM sqlite_schema s WHERE type = 'index' ORDER BY name",
          )
          .all(),
      };
    } finally {
      db.close();
    }
  };

  it("has agy's schema exactly: tables, column types, defaults, primary keys, indexes, user_version 1", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    const saved = store.save(transcriptOf(toolsSession120()));
    const reference = join(root, "reference.db");
    const ref = new Database(reference);
    ref.exec(SPEC_SCHEMA);
    ref.close();
    const ours = describeSchema(saved.path);
    expect(ours).toEqual(describeSchema(reference));
    expect(ours.user_version).toBe(1);
    expect(Object.keys(ours.tables)).toHaveLength(7);
  });

  it("is a WAL database, as agy's are", () => {
    const store = new AntigravityStore({ root: tempDir() });
    const saved = store.save(transcriptOf(handBody("wal", 2)));
    const header = readFileSync(saved.path).subarray(18, 20);
    expect([...header]).toEqual([2, 2]); // file format read/write versions 2 = WAL
  });

  it('defaults a missing id column of trajectory_metadata_blob to "main", as agy\'s schema says', () => {
    const store = new AntigravityStore({ root: tempDir() });
    const saved = store.save(transcriptOf(emptyBody("defaults")));
    const db = new Database(saved.path);
    db.prepare("INSERT INTO trajectory_metadata_blob (data) VALUES (x'01')").run();
    db.prepare("INSERT INTO steps (idx) VALUES (100)").run();
    expect(
      db.prepare("SELECT id FROM trajectory_metadata_blob WHERE data = x'01'").pluck().get(),
    ).toBe("main");
    expect(
      db
        .prepare(
          "SELECT step_type, status, has_subtrajectory, step_format FROM steps WHERE idx = 100",
        )
        .get(),
    ).toEqual({
      step_type: 0,
      status: 0,
      has_subtrajectory: 0,
      step_format: 0,
    });
    db.close();
  });
});

describe("reading what agy wrote", () => {
  it("loads a database whose latest steps are still in an uncheckpointed -wal, then saves it back identically", () => {
    const root = tempDir();
    const body = toolsSession120();
    const path = writeAgyDatabase(root, body, { leaveWal: true });
    expect(readFileSync(`${path}-wal`).length).toBeGreaterThan(0);
    const store = new AntigravityStore({ root });
    const loaded = store.load(body.id);
    expect(comparable(loaded.body)).toEqual(comparable(body));
    const copy = new AntigravityStore({ root: tempDir() });
    copy.save(loaded);
    expect(comparable(copy.load(body.id).body)).toEqual(comparable(body));
  });

  it("gives the loaded transcript the listing's metadata", () => {
    const root = tempDir();
    const body = legacyLayoutSession();
    writeAgyDatabase(root, body);
    const store = new AntigravityStore({ root });
    expect(store.load(body.id).meta).toEqual(summarize(listingRows(body)).meta);
  });
});

describe("discovery of saved conversations", () => {
  it("reports what a listing needs, agreeing with the loaded transcript", async () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    const bodies = fixtures.map(([, make]) => make());
    for (const body of bodies) store.save(transcriptOf(body));
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => s.id).sort()).toEqual(bodies.map((b) => b.id).sort());
    for (const found of sessions) {
      const loaded = store.load(found.id);
      const common = antigravityCodec.toCommon(loaded);
      expect(found.meta).toEqual(loaded.meta);
      expect(found.path).toBe(join(root, "conversations", `${found.id}.db`));
      expect(found.lane).toBe("cli");
      // The SQL estimate is exact on realistic conversations of both layouts.
      expect(found.message_count, found.id).toBe(common.body.length);
      // Last activity: the last step, at or after the last message.
      expect(
        compareTimestamps(found.updated, common.body.at(-1)!.timestamp),
      ).toBeGreaterThanOrEqual(0);
      expect(compareTimestamps(found.updated, found.meta.timestamp)).toBeGreaterThan(0);
    }
  });

  it("names the parent of a subagent and the origin of a fork", async () => {
    const root = tempDir();
    const store = new AntigravityStore({ root });
    const fork = buildConversation({ steps: 10, seed: 21 });
    fork.parent_references.push(
      parentReferenceRow(0, { type: 2, conversationId: TOOLS_SESSION_ID, step: 4 }),
    );
    const sub = buildConversation({ steps: 10, seed: 22 });
    sub.parent_references.push(
      parentReferenceRow(0, { type: 6, conversationId: RESUMED_SESSION_ID, step: 2 }),
    );
    store.save(transcriptOf(fork));
    store.save(transcriptOf(sub));
    const byId = new Map((await await store.discover()).sessions.map((s) => [s.id, s]));
    expect(byId.get(fork.id)?.forked_from).toBe(TOOLS_SESSION_ID);
    expect(byId.get(fork.id)?.parent_id).toBeUndefined();
    expect(byId.get(sub.id)?.parent_id).toBe(RESUMED_SESSION_ID);
  });
});
