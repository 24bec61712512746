/**
 * The desktop app's lane (`~/.gemini/antigravity`) and the summaries cache
 * (`conversation_summaries.db`), from the documented facts: source 1, a
 * project id other than the CLI's, a subagent whose main blob names its root
 * conversation, a live conversation with a `-wal`, and a cache with each
 * status; the cache missing, locked, with extra or missing columns.
 */

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { antigravityLanes } from "../../src/harness/antigravity/paths.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import {
  readSummaries,
  SUMMARY_COLUMNS,
  type SummaryRow,
  writeSummaryRow,
} from "../../src/harness/antigravity/store-summaries.js";
import { sessionRecord } from "../../src/sessionRecord.js";
import { buildConversation, mainBlobData } from "../support/agy-fixtures.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { writeAgyDatabase } from "./support.js";

const ROOT_ID = "11111111-2222-4333-8444-555555555555";
const SUB_ID = "66666666-7777-4888-8999-aaaaaaaaaaaa";
const LIVE_ID = "bbbbbbbb-cccc-4ddd-8eee-ffffffffffff";

/** A conversation as the desktop app writes it: source 1, its own project id. */
function desktopBody(id: string, seed: number, root?: string) {
  const body = buildConversation({ id, steps: 8, seed });
  for (const row of body.trajectory_meta) row.source = 1;
  body.trajectory_metadata_blob = [
    {
      id: "main",
      data: mainBlobData({
        cwd: "/home/dev/app",
        createdAt: "2026-11-01T10:00:00Z",
        conversationId: root ?? id,
        project: "outside-of-project",
      }),
    },
  ];
  return body;
}

/** The documented table, with `extra` columns appended or `drop` ones left out. */
function makeCache(dir: string, options: { extra?: string[]; drop?: string[] } = {}) {
  const db = new Database(join(dir, "conversation_summaries.db"));
  const cols = [
    ...SUMMARY_COLUMNS.filter((c) => !options.drop?.includes(c)),
    ...(options.extra ?? []),
  ];
  db.exec(
    `CREATE TABLE conversation_summaries (${cols.map((c) => (c === "conversation_id" ? `${c} text PRIMARY KEY` : `${c}`)).join(",")})`,
  );
  return db;
}

function cacheRow(id: string, status: string, extra: Partial<SummaryRow> = {}): SummaryRow {
  return {
    conversation_id: id,
    title: "",
    preview: "",
    step_count: 8,
    last_modified_time: "2026-11-01 10:00:00+00:00",
    workspace_uris: '["file:///home/dev/app"]',
    status,
    source: "antigravity",
    project_id: "outside-of-project",
    agent_name: "",
    parent_conversation_id: "",
    nesting_depth: 0,
    battle_id: "",
    winning_conversation_id: "",
    not_fully_idle: 0,
    killed: 0,
    last_user_input_time: "2026-11-01 10:00:00+00:00",
    last_user_input_step_index: 0,
    app_data_dir: "antigravity",
    ...extra,
  };
}

function insert(db: Database.Database, row: Record<string, string | number>) {
  const cols = Object.keys(row);
  db.prepare(
    `INSERT INTO conversation_summaries (${cols.join(",")}) VALUES (${cols.map(() => "?").join(",")})`,
  ).run(Object.values(row));
}

function desktopStore() {
  const home = tempDir();
  const desktop = join(home, ".gemini", "antigravity");
  mkdirSync(join(desktop, "conversations"), { recursive: true });
  writeAgyDatabase(desktop, desktopBody(ROOT_ID, 1));
  writeAgyDatabase(desktop, desktopBody(SUB_ID, 2, ROOT_ID));
  writeAgyDatabase(desktop, desktopBody(LIVE_ID, 3), { leaveWal: true });
  return { home, desktop, env: { HOME: home } };
}

describe("the desktop lane", () => {
  it("is found by default beside the CLI and ACP lanes, and by its override", () => {
    const lanes = antigravityLanes({ env: { HOME: "/h" }, platform: "linux" });
    expect(lanes.map((l) => [l.lane, l.root])).toEqual([
      ["cli", "/h/.gemini/antigravity-cli"],
      ["acp", "/h/.gemini/antigravity-acp"],
      ["desktop", "/h/.gemini/antigravity"],
    ]);
    const over = antigravityLanes({
      env: { HOME: "/h", TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT: "/d" },
      platform: "linux",
    });
    expect(over.find((l) => l.lane === "desktop")?.root).toBe("/d");
    const explicit = antigravityLanes({
      root: "/r",
      env: { TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT: "/d" },
    });
    expect(explicit.map((l) => l.lane)).toEqual(["cli", "desktop"]);
  });

  it("lists desktop conversations with their surface, links a subagent to its root, and loads them", async () => {
    const { desktop, env } = desktopStore();
    const before = hashTree(desktop);
    const store = new AntigravityStore({ env, platform: "linux" });
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect([...byId.keys()].sort()).toEqual([ROOT_ID, SUB_ID, LIVE_ID].sort());
    for (const s of sessions) expect(sessionRecord(s).lane).toBe("desktop");
    expect(byId.get(SUB_ID)?.parent_id).toBe(ROOT_ID);
    expect(byId.get(ROOT_ID)?.parent_id).toBeUndefined();
    expect(byId.get(ROOT_ID)?.meta.cwd).toBe("/home/dev/app");
    const loaded = store.load(LIVE_ID);
    expect(loaded.body.lane).toBe("desktop");
    expect(loaded.body.steps.length).toBe(desktopBody(LIVE_ID, 3).steps.length);
    expect(hashTree(desktop)).toEqual(before);
  });
});

describe("the summaries cache", () => {
  it("marks the running conversation, fills in a missing title, and reads each status", async () => {
    const { desktop, env } = desktopStore();
    const db = makeCache(desktop);
    insert(db, cacheRow(ROOT_ID, "CASCADE_RUN_STATUS_IDLE", { title: "Cached title" }));
    insert(db, cacheRow(SUB_ID, "CASCADE_RUN_STATUS_IDLE", { not_fully_idle: 1 }));
    insert(db, cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_RUNNING", { preview: "live preview" }));
    insert(db, cacheRow("not-on-disk", "CASCADE_RUN_STATUS_RUNNING", { killed: 1 }));
    insert(db, cacheRow("errored", "CASCADE_RUN_STATUS_ERROR"));
    insert(db, cacheRow("unloaded", "CASCADE_RUN_STATUS_UNLOADED", { not_fully_idle: 1 }));
    db.close();
    const cache = readSummaries(desktop);
    expect(cache.get(ROOT_ID)?.running).toBe(false);
    expect(cache.get(SUB_ID)?.running).toBe(true);
    expect(cache.get(LIVE_ID)?.running).toBe(true);
    expect(cache.get("not-on-disk")?.running).toBe(false);
    expect(cache.get("errored")).toEqual({ running: false, status: "CASCADE_RUN_STATUS_ERROR" });
    expect(cache.get("unloaded")?.running).toBe(false);

    const store = new AntigravityStore({ env, platform: "linux" });
    const { sessions } = await store.discover();
    // The directory is the list of record: a row with no database lists nothing.
    expect(sessions.map((s) => s.id).sort()).toEqual([ROOT_ID, SUB_ID, LIVE_ID].sort());
    const rec = new Map(sessions.map((s) => [s.id, sessionRecord(s)]));
    expect(rec.get(LIVE_ID)).toMatchObject({ running: true, status: "CASCADE_RUN_STATUS_RUNNING" });
    expect(rec.get(ROOT_ID)).toMatchObject({ running: false, status: "CASCADE_RUN_STATUS_IDLE" });
    // The conversation's own files name a title, so the cache's does not replace it.
    expect(rec.get(ROOT_ID)?.title).not.toBe("Cached title");
  });

  it("is tolerated missing, locked, corrupt, with extra or missing columns", async () => {
    const { desktop } = desktopStore();
    expect(readSummaries(desktop).size).toBe(0); // missing

    const db = makeCache(desktop, { extra: ["future_column"], drop: ["preview", "killed"] });
    insert(db, {
      conversation_id: LIVE_ID,
      status: "CASCADE_RUN_STATUS_RUNNING",
      future_column: 1,
    });
    db.close();
    expect(readSummaries(desktop).get(LIVE_ID)).toEqual({
      running: true,
      status: "CASCADE_RUN_STATUS_RUNNING",
    });

    const locker = new Database(join(desktop, "conversation_summaries.db"));
    locker.exec("BEGIN EXCLUSIVE");
    expect(readSummaries(desktop, 50).size).toBe(0); // locked: nothing, no error
    locker.exec("ROLLBACK");
    locker.close();

    const none = tempDir();
    const bad = new Database(join(none, "conversation_summaries.db"));
    bad.exec("CREATE TABLE other (x)");
    bad.close();
    expect(readSummaries(none).size).toBe(0); // no such table
  });

  it("writes a row only into a table with exactly the documented columns", () => {
    const dir = tempDir();
    expect(writeSummaryRow(dir, cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_IDLE"))).toMatchObject({
      written: false,
      reason: expect.stringMatching(/no summaries cache/),
    });
    expect(existsSync(join(dir, "conversation_summaries.db"))).toBe(false);

    makeCache(dir, { extra: ["future_column"] }).close();
    expect(writeSummaryRow(dir, cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_IDLE"))).toMatchObject({
      written: false,
      reason: expect.stringMatching(/20 columns, not the 19 documented/),
    });

    const good = tempDir();
    makeCache(good).close();
    const row = cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_IDLE", { title: "Written" });
    expect(writeSummaryRow(good, row)).toEqual({ written: true });
    const back = new Database(join(good, "conversation_summaries.db"), { readonly: true });
    expect(back.prepare("SELECT * FROM conversation_summaries").all()).toEqual([row]);
    back.close();
    expect(readSummaries(good).get(LIVE_ID)).toMatchObject({ title: "Written", running: false });
    // A second write for the same id changes nothing.
    expect(writeSummaryRow(good, { ...row, title: "Other" })).toMatchObject({ written: false });
  });
});
