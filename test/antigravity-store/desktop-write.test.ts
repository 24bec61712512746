/**
 * Writing for the desktop app: a conversation fromCommon writes for the
 * `desktop` surface carries the app's source and project id, lands in the
 * desktop lane, and gets a summaries row only in a table with exactly the
 * documented columns (checked row by row); otherwise one note says why not.
 * The CLI surface is unchanged, and gets the same row under the same rule.
 */

import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { antigravityMeta, fromCommon } from "../../src/harness/antigravity/codec.js";
import { CortexTrajectoryMetadata } from "../../src/harness/antigravity/schema.js";
import { mainBlob } from "../../src/harness/antigravity/summary.js";
import { SUMMARY_COLUMNS } from "../../src/harness/antigravity/summary-row.js";
import { harness, openStore } from "../../src/harness/index.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { tempDir } from "../support/tmp.js";
import { makeCache } from "./desktop-support.js";

const ID = "0d0d0d0d-1111-4222-8333-444444444444";

function conversation(): Transcript<Common> {
  return {
    meta: {
      id: ID,
      timestamp: "2026-11-02T09:00:00Z",
      cwd: "/home/dev/my app",
      title: "Port the parser",
    },
    body: [
      {
        role: "user",
        timestamp: "2026-11-02T09:00:01Z",
        content: [{ type: "text", text: "Port the parser to Rust" }],
      },
      {
        role: "assistant",
        timestamp: "2026-11-02T09:00:05Z",
        content: [{ type: "text", text: "Starting with the lexer." }],
      },
      {
        role: "user",
        timestamp: "2026-11-02T09:01:00.250Z",
        content: [{ type: "text", text: "Keep the tests" }],
      },
      {
        role: "assistant",
        timestamp: "2026-11-02T09:01:09Z",
        content: [{ type: "text", text: "They stay." }],
      },
    ],
  };
}

function homeWith(lane: "antigravity" | "antigravity-cli") {
  const home = tempDir();
  const root = join(home, ".gemini", lane);
  mkdirSync(join(root, "conversations"), { recursive: true });
  return { home, root, env: { HOME: home } };
}

function rowsOf(root: string): Record<string, unknown>[] {
  const db = new Database(join(root, "conversation_summaries.db"), { readonly: true });
  try {
    return db.prepare("SELECT * FROM conversation_summaries").all() as Record<string, unknown>[]; // rows are plain objects
  } finally {
    db.close();
  }
}

describe("fromCommon for a surface", () => {
  it("writes the desktop app's source and project id, and the CLI's by default", () => {
    const desktop = fromCommon(conversation(), { surface: "desktop" }).body;
    expect(desktop.lane).toBe("desktop");
    expect(desktop.trajectory_meta[0]?.source).toBe(1);
    expect(
      mainBlob(desktop.trajectory_metadata_blob).string(CortexTrajectoryMetadata.project),
    ).toBe("outside-of-project");
    const cli = fromCommon(conversation()).body;
    expect(cli.lane).toBeUndefined();
    expect(cli.trajectory_meta[0]?.source).toBe(17);
    expect(mainBlob(cli.trajectory_metadata_blob).string(CortexTrajectoryMetadata.project)).toBe(
      "default-cli-project",
    );
    // Only the surface differs: the steps are the same bytes.
    expect(desktop.steps).toEqual(cli.steps);
    expect(() => fromCommon(conversation(), { surface: "ide" })).toThrow(/unknown surface "ide"/);
  });
});

describe("saving for the desktop app", () => {
  it("writes into ~/.gemini/antigravity with a summaries row, read back row by row", () => {
    const { root, env } = homeWith("antigravity");
    makeCache(root).close();
    const store = openStore(harness("antigravity"), { env });
    if (!store) throw new Error("antigravity has a store");
    const saved = store.save(conversation(), { surface: "desktop" });
    expect(saved.path).toBe(join(root, "conversations", `${ID}.db`));
    expect(saved.lane).toBe("desktop");
    expect(saved.notes).toBeUndefined();
    expect(existsSync(join(root, "brain", ID))).toBe(true);

    const rows = rowsOf(root);
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? {};
    expect(Object.keys(row)).toEqual([...SUMMARY_COLUMNS]);
    expect(row).toEqual({
      conversation_id: ID,
      title: "Port the parser",
      preview: "Port the parser to Rust",
      step_count: 4,
      last_modified_time: "2026-11-02 09:01:09+00:00",
      workspace_uris: '["file:///home/dev/my%20app"]',
      status: "CASCADE_RUN_STATUS_IDLE",
      source: "",
      project_id: "outside-of-project",
      agent_name: "",
      parent_conversation_id: "",
      nesting_depth: 0,
      battle_id: "",
      winning_conversation_id: "",
      not_fully_idle: 0,
      killed: 0,
      last_user_input_time: "2026-11-02 09:01:00.250+00:00",
      last_user_input_step_index: 2,
      app_data_dir: "antigravity",
    });

    // Read back by txcript: the same conversation, from the desktop lane.
    const loaded = harness("antigravity").store?.({ env }).load(ID);
    expect(loaded?.body.lane).toBe("desktop");
    expect(loaded?.body.trajectory_meta[0]?.source).toBe(1);
    const back = store.load(ID);
    expect(back.meta).toMatchObject({ id: ID, cwd: "/home/dev/my app", title: "Port the parser" });
    expect(back.body.map((m) => m.content)).toEqual(conversation().body.map((m) => m.content));
    expect(antigravityMeta(loaded?.body ?? fromCommon(conversation()).body).id).toBe(ID);
  });

  it("lists it from the desktop lane, idle", async () => {
    const { root, env } = homeWith("antigravity");
    makeCache(root).close();
    const store = openStore(harness("antigravity"), { env });
    store?.save(conversation(), { surface: "desktop" });
    const { sessions } = (await store?.native.discover()) ?? { sessions: [] };
    expect(sessions.map((s) => [s.id, s.lane, s.status, s.running])).toEqual([
      [ID, "desktop", "CASCADE_RUN_STATUS_IDLE", undefined],
    ]);
  });

  it("replaces its own row when the copy is written again", () => {
    const { root, env } = homeWith("antigravity");
    makeCache(root).close();
    const store = openStore(harness("antigravity"), { env });
    store?.save(conversation(), { surface: "desktop" });
    const longer = conversation();
    longer.body.push({
      role: "user",
      timestamp: "2026-11-02T09:05:00Z",
      content: [{ type: "text", text: "And the docs" }],
    });
    store?.save(longer, { surface: "desktop", overwrite: true });
    const rows = rowsOf(root);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ step_count: 5, last_user_input_step_index: 4 });
  });

  it.each([
    ["missing", (_root: string) => {}, /no summaries cache at .*conversation_summaries\.db/],
    [
      "newer (raw_summary, group_id)",
      (root: string) => makeCache(root, { extra: ["raw_summary", "group_id"] }).close(),
      /21 columns, not the 19 documented \(extra raw_summary, group_id\)/,
    ],
    [
      "older (no app_data_dir)",
      (root: string) => makeCache(root, { drop: ["app_data_dir"] }).close(),
      /18 columns, not the 19 documented \(missing app_data_dir\)/,
    ],
    [
      "not a table",
      (root: string) => {
        const db = new Database(join(root, "conversation_summaries.db"));
        db.exec("CREATE TABLE other (x)");
        db.close();
      },
      /has no conversation_summaries table/,
    ],
    [
      "a link",
      (root: string) => {
        const elsewhere = tempDir();
        makeCache(elsewhere).close();
        symlinkSync(
          join(elsewhere, "conversation_summaries.db"),
          join(root, "conversation_summaries.db"),
        );
      },
      /no summaries cache at/,
    ],
  ])(
    "skips the row with one note when the cache is %s, and still writes the conversation",
    (_what, make, reason) => {
      const { root, env } = homeWith("antigravity");
      make(root);
      const had = existsSync(join(root, "conversation_summaries.db"));
      const saved = openStore(harness("antigravity"), { env })?.save(conversation(), {
        surface: "desktop",
      });
      expect(saved?.notes).toHaveLength(1);
      expect(saved?.notes?.[0]).toMatch(/^no summaries row written: /);
      expect(saved?.notes?.[0]).toMatch(reason);
      expect(existsSync(join(root, "conversations", `${ID}.db`))).toBe(true);
      // Never made by txcript: a missing cache stays missing.
      expect(existsSync(join(root, "conversation_summaries.db"))).toBe(had);
    },
  );

  it("waits for the app's write lock, then says the cache stayed locked", () => {
    const { root, env } = homeWith("antigravity");
    makeCache(root).close();
    const app = new Database(join(root, "conversation_summaries.db"));
    app.exec("BEGIN IMMEDIATE");
    try {
      const store = harness("antigravity").store?.({ env, busyTimeoutMs: 50 } as never); // AntigravityStoreOptions' busy timeout, kept short for the test
      const body = fromCommon(conversation(), { surface: "desktop" });
      const saved = store?.save(body);
      expect(saved?.notes?.[0]).toMatch(/stayed locked/);
    } finally {
      app.exec("ROLLBACK");
      app.close();
    }
    expect(rowsOf(root)).toEqual([]);
  });
});

describe("saving for the CLI", () => {
  it("writes into antigravity-cli with the CLI's row values when its cache has the documented columns", () => {
    const { root, env } = homeWith("antigravity-cli");
    makeCache(root).close();
    const saved = openStore(harness("antigravity"), { env })?.save(conversation());
    expect(saved?.path).toBe(join(root, "conversations", `${ID}.db`));
    expect(saved?.lane).toBe("cli");
    expect(rowsOf(root)[0]).toMatchObject({
      conversation_id: ID,
      source: "antigravity-cli",
      project_id: "default-cli-project",
      app_data_dir: "antigravity-cli",
      status: "CASCADE_RUN_STATUS_IDLE",
    });
  });
});
