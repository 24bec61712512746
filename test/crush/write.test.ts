/**
 * Writing Crush sessions (docs/formats/crush.md, "Writing"): the database
 * txcript creates has the schema Crush's migrations leave (compared with
 * the independent restatement in test/fixtures/crush/schema.sql and the
 * migrations' triggers), a session goes into its project's listed database
 * without touching any other row, reads back as it was written, and a
 * locked, newer, older, linked or unlisted-but-damaged target is refused
 * in one line with nothing changed.
 */

import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

import type { CrushBody } from "../../src/harness/crush/body.js";
import { CrushStore } from "../../src/harness/crush/store.js";
import { harness } from "../../src/harness/index.js";
import { createDatabase, type Db, openForWriting } from "../../src/sqlite.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { shapedSessionArb } from "../cross/shaped.js";
import { CRUSH_SCHEMA, createCrushProject, everyKindSessions } from "../support/crush.js";
import { hashTree, tempDir } from "../support/tmp.js";

const crush = harness("crush");
const T0 = "2026-10-01T10:00:00Z";
const T1 = "2026-10-01T10:00:05Z";

function session(id: string, cwd: string | undefined): Transcript<CrushBody> {
  const common: Transcript<Common> = {
    meta: { id, timestamp: T0, title: "Rename the helper", ...(cwd ? { cwd } : {}) },
    body: [
      { role: "user", content: [{ type: "text", text: "rename foo to bar" }], timestamp: T0 },
      {
        role: "assistant",
        model: "gpt-5",
        stop_reason: "end_turn",
        content: [{ type: "text", text: "Renamed." }],
        timestamp: T1,
      },
    ],
  };
  return crush.codec.fromCommon(common);
}

/** Every row of every table, in rowid order: what "nothing else changed" compares. */
function dump(file: string): Record<string, unknown[]> {
  const db = openForWriting(file, 1000);
  try {
    const out: Record<string, unknown[]> = {};
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    for (const t of tables) out[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all();
    return out;
  } finally {
    db.close();
  }
}

/** A table's shape as SQLite reports it: columns, indexes, foreign keys. */
function shape(db: Db) {
  const tables = db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all();
  return Object.fromEntries(
    tables.map((t) => [
      t,
      {
        columns: db.prepare(`PRAGMA table_info("${t}")`).all(),
        indexes: db
          .prepare<[], { name: string; unique: number; origin: string }>(
            `PRAGMA index_list("${t}")`,
          )
          .all()
          .map((i) => ({
            unique: i.unique,
            origin: i.origin,
            name: i.origin === "c" ? i.name : "(auto)",
            columns: db
              .prepare<[], { name: string }>(`PRAGMA index_info("${i.name}")`)
              .all()
              .map((c) => c.name),
          }))
          .sort(
            (a, b) =>
              a.columns.join().localeCompare(b.columns.join()) || a.name.localeCompare(b.name),
          ),
        foreignKeys: db.prepare(`PRAGMA foreign_key_list("${t}")`).all(),
      },
    ]),
  );
}

function oneLine(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected a refusal");
}

describe("writing Crush sessions", () => {
  it("creates crush.db with the schema Crush's migrations leave, migrations recorded as goose does", () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const store = new CrushStore({ root });
    const saved = store.save(session("a1b2c3d4-0000-4000-8000-000000000001", project));
    expect(saved.path.startsWith(join(root, "txcript"))).toBe(true);

    const made = openForWriting(saved.path, 1000);
    const fixture = createDatabase(join(tempDir("crush-w-fixture-"), "crush.db"));
    fixture.exec(CRUSH_SCHEMA);
    try {
      expect(shape(made)).toEqual(shape(fixture));
      // The triggers of the migrations (20250424200609_initial), by name and table.
      const triggers = made
        .prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        .all();
      expect(triggers).toEqual([
        { name: "update_files_updated_at", tbl_name: "files" },
        { name: "update_messages_updated_at", tbl_name: "messages" },
        { name: "update_session_message_count_on_delete", tbl_name: "messages" },
        { name: "update_session_message_count_on_insert", tbl_name: "messages" },
        { name: "update_sessions_updated_at", tbl_name: "sessions" },
      ]);
      expect(
        made.prepare("SELECT version_id, is_applied FROM goose_db_version ORDER BY id").raw().all(),
      ).toEqual(
        [
          0, 20250424200609, 20250515105448, 20250624000000, 20250627000000, 20250810000000,
          20250812000000, 20260127000000,
        ].map((v) => [v, 1]),
      );
      expect(made.pragma("journal_mode", { simple: true })).toBe("wal");
      // The triggers work as Crush's: one more message row moves the count and stamps the session.
      made
        .prepare(
          "INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES ('x', ?, 'user', '[]', 1, 1)",
        )
        .run(saved.id);
      const row = made
        .prepare<[string], { message_count: number; updated_at: number }>(
          "SELECT message_count, updated_at FROM sessions WHERE id = ?",
        )
        .get(saved.id);
      expect(row?.message_count).toBe(3);
      expect(row?.updated_at).toBeGreaterThan(1790000000);
    } finally {
      made.close();
      fixture.close();
    }
    // Crush's project list names the new data directory, as Crush's own start would.
    const listed = JSON.parse(readFileSync(join(root, "projects.json"), "utf8"));
    expect(listed.projects).toHaveLength(1);
    expect(listed.projects[0]).toMatchObject({ path: project, data_dir: join(saved.path, "..") });
    expect(saved.files).toEqual([saved.path, join(root, "projects.json")]);
  });

  it("adds to the project's listed database, every other row and projects.json untouched", async () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const file = createCrushProject(root, project, everyKindSessions());
    const list = readFileSync(join(root, "projects.json"));
    const before = dump(file);
    const t = session("a1b2c3d4-0000-4000-8000-000000000002", project);
    const store = new CrushStore({ root });
    const saved = store.save(t);
    expect(saved.path).toBe(file);
    expect(saved.files).toEqual([file]);
    expect(readFileSync(join(root, "projects.json"))).toEqual(list);
    const after = dump(file);
    expect(after.sessions?.slice(0, before.sessions?.length)).toEqual(before.sessions);
    expect(after.messages?.slice(0, before.messages?.length)).toEqual(before.messages);
    expect(after.files).toEqual(before.files);
    expect(after.read_files).toEqual(before.read_files);
    expect(after.goose_db_version).toEqual(before.goose_db_version);
    // Read back: the rows as written, the session's times and count kept.
    const back = store.load(saved.id);
    expect(back.body).toEqual(t.body);
    const found = (await store.discover()).sessions.filter((s) => s.id === saved.id);
    expect(found).toHaveLength(1);
    expect(found[0]?.meta.cwd).toBe(project);
  });

  it("a project listed with a data directory another project shares goes into that database", () => {
    const root = tempDir("crush-w-root-");
    const first = tempDir("crush-w-project-");
    const second = tempDir("crush-w-project-");
    const file = createCrushProject(root, first, everyKindSessions());
    const list = JSON.parse(readFileSync(join(root, "projects.json"), "utf8"));
    list.projects.push({ ...list.projects[0], path: second });
    writeFileSync(join(root, "projects.json"), JSON.stringify(list, null, 2));
    const before = readFileSync(join(root, "projects.json"));
    const saved = new CrushStore({ root }).save(
      session("a1b2c3d4-0000-4000-8000-00000000000b", second),
    );
    expect(saved.path).toBe(file);
    expect(readFileSync(join(root, "projects.json"))).toEqual(before);
  });

  it("round-trips random sessions: save then load gives back the Body written", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const root = tempDir("crush-w-prop-");
        const project = tempDir("crush-w-prop-project-");
        const t = crush.codec.fromCommon({ ...common, meta: { ...common.meta, cwd: project } });
        const store = new CrushStore({ root });
        const saved = store.save(t);
        expect(store.load(saved.id).body).toEqual(t.body);
        expect(store.ids()).toEqual([saved.id]);
      }),
      { numRuns: 25 },
    );
  });

  it("writes a huge session: 5,000 rows and a 20 MB text, read back whole", () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const body: Common = [];
    for (let i = 0; i < 2500; i++) {
      body.push({ role: "user", content: [{ type: "text", text: `prompt ${i}` }], timestamp: T0 });
      body.push({
        role: "assistant",
        content: [{ type: "text", text: i === 7 ? "x".repeat(20_000_000) : `answer ${i}` }],
        timestamp: T1,
      });
    }
    const t = crush.codec.fromCommon({ meta: { id: "huge-1", timestamp: T0, cwd: project }, body });
    const store = new CrushStore({ root });
    const saved = store.save(t);
    const back = store.load(saved.id);
    expect(back.body.messages).toHaveLength(5000);
    expect(back.body).toEqual(t.body);
  });

  it("without a project: the global workspace's database, read back under the global folder", () => {
    const root = tempDir("crush-w-root-");
    const store = new CrushStore({ root });
    const saved = store.save(session("a1b2c3d4-0000-4000-8000-000000000003", undefined));
    expect(saved.path).toBe(join(root, ".crush", "crush.db"));
    expect(store.load(saved.id).meta.cwd).toBe(root);
  });

  it("ends every assistant row: a turn with no stop reason gets Crush's `unknown` finish, read back as none", () => {
    const root = tempDir("crush-w-finish-");
    const store = new CrushStore({ root });
    const id = "a1b2c3d4-0000-4000-8000-000000000009";
    const common: Transcript<Common> = {
      meta: { id, timestamp: T0 },
      body: [
        { role: "user", content: [{ type: "text", text: "go" }], timestamp: T0 },
        { role: "assistant", content: [{ type: "text", text: "half a thought" }], timestamp: T1 },
      ],
    };
    const saved = store.save(crush.codec.fromCommon(common));
    const rows = dump(saved.path).messages as {
      role: string;
      parts: string;
      finished_at: number | null;
    }[];
    const assistant = rows.find((r) => r.role === "assistant");
    const finish = JSON.parse(assistant?.parts ?? "[]").find(
      (p: { type: string }) => p.type === "finish",
    );
    expect(finish?.data.reason).toBe("unknown");
    expect(assistant?.finished_at).toBe(Date.parse(T1) / 1000);
    const back = crush.codec.toCommon(store.load(saved.id)).body;
    expect(back[1]?.role).toBe("assistant");
    expect(back[1]).not.toHaveProperty("stop_reason");
  });

  it("refuses an existing id unless overwriting; an overwrite replaces only that session", () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const file = createCrushProject(root, project, everyKindSessions());
    const store = new CrushStore({ root });
    const id = "a1b2c3d4-0000-4000-8000-000000000004";
    store.save(session(id, project));
    const before = dump(file);
    expect(oneLine(() => store.save(session(id, project)))).toContain(
      `session ${id} already exists`,
    );
    expect(dump(file)).toEqual(before);
    // A message id another session holds is refused too.
    const clash = session("a1b2c3d4-0000-4000-8000-000000000005", project);
    const taken = before.messages?.[0] as { id: string };
    clash.body.messages[0] = { ...clash.body.messages[0], id: taken.id };
    expect(oneLine(() => store.save(clash))).toContain("already exists in session");
    expect(dump(file)).toEqual(before);
    // Overwrite: the session's rows replaced, the others kept.
    const again = session(id, project);
    again.body.session.title = "Renamed again";
    store.save(again, { overwrite: true });
    const after = dump(file);
    expect(store.load(id).body).toEqual(again.body);
    const others = (rows: unknown[] | undefined) =>
      (rows ?? []).filter(
        (r) =>
          (r as { id?: string; session_id?: string }).session_id !== id &&
          (r as { id?: string }).id !== id,
      );
    expect(others(after.sessions)).toEqual(others(before.sessions));
    expect(others(after.messages)).toEqual(others(before.messages));
  });

  it("refuses a locked database in one line after the wait, writing nothing", () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const file = createCrushProject(root, project, everyKindSessions());
    const before = dump(file);
    const holder = openForWriting(file, 0);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const store = new CrushStore({ root, busyTimeoutMs: 150 });
      const message = oneLine(() =>
        store.save(session("a1b2c3d4-0000-4000-8000-000000000006", project)),
      );
      expect(message).toContain("locked");
      expect(message).toContain(file);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(dump(file)).toEqual(before);
  });

  it.each([
    [
      "a newer Crush's migration",
      "INSERT INTO goose_db_version (version_id, is_applied) VALUES (20270101000000, 1)",
      "Crush schema 20270101000000 is not one this version writes",
    ],
    [
      "a migration not yet applied",
      "DELETE FROM goose_db_version WHERE version_id = 20260127000000",
      "lacks migration 20260127000000",
    ],
    [
      "a rolled-back migration",
      "INSERT INTO goose_db_version (version_id, is_applied) VALUES (20260127000000, 0)",
      "lacks migration 20260127000000",
    ],
    ["no migration record", "DROP TABLE goose_db_version", "not a Crush database"],
    [
      "a column txcript fills missing",
      "ALTER TABLE messages DROP COLUMN provider",
      "no column provider",
    ],
  ])("refuses a database with %s, nothing changed", (_what, change, expected) => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const file = createCrushProject(root, project, everyKindSessions());
    const db = openForWriting(file, 1000);
    db.exec(change);
    db.close();
    const before = dump(file);
    const store = new CrushStore({ root });
    const t = session("a1b2c3d4-0000-4000-8000-000000000007", project);
    // A provider named, so the dropped column is one the rows fill.
    for (const m of t.body.messages) m.provider = "openai";
    expect(oneLine(() => store.save(t))).toContain(expected);
    expect(dump(file)).toEqual(before);
  });

  it("refuses a crush.db that is a symbolic link, leaving its target as it was", () => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const elsewhere = tempDir("crush-w-elsewhere-");
    const real = createCrushProject(tempDir("crush-w-other-root-"), elsewhere, everyKindSessions());
    createCrushProject(root, project, []);
    const link = join(project, ".crush", "crush.db");
    rmSync(link);
    symlinkSync(real, link);
    const before = dump(real);
    const store = new CrushStore({ root });
    expect(
      oneLine(() => store.save(session("a1b2c3d4-0000-4000-8000-000000000008", project))),
    ).toContain("symbolic link");
    expect(dump(real)).toEqual(before);
  });

  it.each([
    ["garbage", () => Buffer.from("this is not a database\n".repeat(200))],
    ["a truncated database", (file: string) => readFileSync(file).subarray(0, 1000)],
  ])("refuses a listed crush.db that is %s in one line, leaving its bytes", (_what, damage) => {
    const root = tempDir("crush-w-root-");
    const project = tempDir("crush-w-project-");
    const file = createCrushProject(root, project, everyKindSessions());
    const bytes = damage(file);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    writeFileSync(file, bytes);
    const store = new CrushStore({ root, busyTimeoutMs: 100 });
    const message = oneLine(() =>
      store.save(session("a1b2c3d4-0000-4000-8000-00000000000a", project)),
    );
    expect(message).toContain(file);
    expect(readFileSync(file)).toEqual(bytes);
  });

  it("refuses a txcript folder under the global folder that links out of it, creating nothing there", () => {
    const root = tempDir("crush-w-root-");
    const elsewhere = tempDir("crush-w-elsewhere-");
    symlinkSync(elsewhere, join(root, "txcript"));
    const before = hashTree(elsewhere);
    const store = new CrushStore({ root });
    const message = oneLine(() =>
      store.save(session("a1b2c3d4-0000-4000-8000-00000000000b", tempDir("crush-w-project-"))),
    );
    expect(message).toMatch(/link/);
    expect(hashTree(elsewhere)).toEqual(before);
  });

  it("refuses to rewrite a projects.json that is not Crush's list, creating nothing", () => {
    const root = tempDir("crush-w-root-");
    writeFileSync(join(root, "projects.json"), '{"projects": 3}');
    const before = hashTree(root);
    const store = new CrushStore({ root });
    const message = oneLine(() =>
      store.save(session("a1b2c3d4-0000-4000-8000-000000000009", tempDir("crush-w-project-"))),
    );
    expect(message).toContain("projects.json is not Crush's project list");
    expect(hashTree(root)).toEqual(before);
  });
});
