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
import { readSummaries, writeSummaryRow } from "../../src/harness/antigravity/store-summaries.js";
import { sessionRecord } from "../../src/session-record.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  cacheRow,
  desktopBody,
  desktopStore,
  insert,
  LIVE_ID,
  makeCache,
  ROOT_ID,
  SUB_ID,
} from "./desktop-support.js";
import { writeAgyDatabase } from "./support.js";

describe("the desktop lane", () => {
  it("is found by default beside the CLI and ACP lanes, and by its override", () => {
    const lanes = antigravityLanes({ env: { HOME: "/h" }, platform: "linux" });
    expect(lanes.map((l) => [l.lane, l.root])).toEqual([
      ["cli", "/h/.gemini/antigravity-cli"],
      ["acp", "/h/.gemini/antigravity-acp"],
      ["desktop", "/h/.gemini/antigravity"],
      ["ide", "/h/.gemini/antigravity-ide"],
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
    const ide = antigravityLanes({
      env: { HOME: "/h", TXCRIPT_ANTIGRAVITY_IDE_ROOT: "/i" },
      platform: "linux",
    });
    expect(ide.find((l) => l.lane === "ide")?.root).toBe("/i");
  });

  it("reads the IDE's conversations (~/.gemini/antigravity-ide) as their own surface", async () => {
    const home = tempDir();
    const ide = join(home, ".gemini", "antigravity-ide");
    mkdirSync(join(ide, "conversations"), { recursive: true });
    writeAgyDatabase(ide, desktopBody(ROOT_ID, 1));
    const before = hashTree(ide);
    const store = new AntigravityStore({ env: { HOME: home }, platform: "linux" });
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, sessionRecord(s).lane])).toEqual([[ROOT_ID, "ide"]]);
    const loaded = store.load(ROOT_ID);
    expect(loaded.body.lane).toBe("ide");
    expect(loaded.body.steps.length).toBeGreaterThan(0);
    expect(hashTree(ide)).toEqual(before);
  });

  it("follows agy's own JETSKI_APP_DATA_DIR for the CLI lane, as a name under ~/.gemini or a path", () => {
    const cli = (env: Record<string, string>) =>
      antigravityLanes({ env: { HOME: "/h", ...env }, platform: "linux" }).find(
        (l) => l.lane === "cli",
      )?.root;
    expect(cli({ JETSKI_APP_DATA_DIR: "antigravity-cli" })).toBe("/h/.gemini/antigravity-cli");
    expect(cli({ JETSKI_APP_DATA_DIR: "/p/work" })).toBe("/p/work");
    expect(cli({ JETSKI_APP_DATA_DIR: "profiles/a", GEMINI_HOME: "/g" })).toBe("/g/profiles/a");
    expect(cli({ JETSKI_APP_DATA_DIR: "" })).toBe("/h/.gemini/antigravity-cli");
    expect(cli({ JETSKI_APP_DATA_DIR: "/p/work", TXCRIPT_ANTIGRAVITY_ROOT: "/x" })).toBe("/x");
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

    const db = makeCache(desktop, {
      extra: ["future_column"],
      drop: ["preview", "killed"],
      loose: true,
    });
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
      reason: expect.stringMatching(/20 columns, not the 19 documented \(extra future_column\)/),
    });

    const good = tempDir();
    makeCache(good).close();
    const row = cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_IDLE", { title: "Written" });
    expect(writeSummaryRow(good, row)).toEqual({ written: true });
    const back = new Database(join(good, "conversation_summaries.db"), { readonly: true });
    expect(back.prepare("SELECT * FROM conversation_summaries").all()).toEqual([row]);
    back.close();
    expect(readSummaries(good).get(LIVE_ID)).toMatchObject({ title: "Written", running: false });
    // A second write for the same id replaces the row: the conversation was just rewritten.
    expect(writeSummaryRow(good, { ...row, title: "Other" })).toEqual({ written: true });
    expect(readSummaries(good).get(LIVE_ID)?.title).toBe("Other");
    expect(readSummaries(good).size).toBe(1);
  });
});
