/**
 * The OpenCode store on real databases: read-only reads (nothing created
 * beside the database, a live WAL read as it stands), locked databases, a
 * concurrent writer process while txcript reads and writes, SIGKILL during
 * a save, schema drift, conflicts, delete of exactly one session, the
 * project a session is filed under. `PRAGMA integrity_check` after each.
 */

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  NotFoundError,
  StoreError,
  TxcriptError,
  UnsafePathError,
  UnsupportedError,
} from "../../src/errors.js";
import { OpenCodeStore, openCodeCodec } from "../../src/harness/opencode/index.js";
import {
  copyOpenCodeFixture,
  createOpenCodeDatabase,
  OPENCODE_SCHEMA,
} from "../support/opencode.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { counts, exited, integrity, session, startChild, waitFor } from "./support.js";

const TOOLS = "ses_dc5706968ffewv6oHAOSJ6GSwm";
const PARENT = "ses_dc56fe836ffeIJ31c7z1gwwo2w";
const CHILD = "ses_dc56fd013ffe0MUtTm4WSV0b8Q";

function thrown(f: () => unknown): TxcriptError {
  try {
    f();
  } catch (e) {
    if (e instanceof TxcriptError) return e;
    throw e;
  }
  throw new Error("did not throw");
}

const ok = { integrity: "ok", foreignKeys: [] };

function fresh(schema?: string) {
  const root = tempDir("txcript-opencode-");
  const path = createOpenCodeDatabase(root, schema);
  return { root, path, store: new OpenCodeStore({ root, env: {}, busyTimeoutMs: 2000 }) };
}

const save = (store: OpenCodeStore, id: string, turns = 3) =>
  store.save(openCodeCodec.fromCommon(session(id, turns)));

describe("reading", async () => {
  it("reads a live WAL database as it stands, creating and changing nothing", async () => {
    const { root, path, store } = fresh();
    const saved = save(store, "first");
    // A writer that keeps its connection open: frames wait in the -wal, uncheckpointed.
    const writer = new Database(path);
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec("BEGIN IMMEDIATE");
    writer.prepare("UPDATE session SET title = 'renamed live' WHERE id = ?").run(saved.id);
    writer.exec("COMMIT");
    try {
      expect(existsSync(`${path}-wal`)).toBe(true);
      // The -shm is the live connections' shared memory, where readers set read marks.
      const files = () => {
        const { "opencode.db-shm": _, ...rest } = hashTree(root);
        return rest;
      };
      const before = files();
      const found = (await store.discover()).sessions;
      expect(found.map((s) => s.meta.title)).toEqual(["renamed live"]);
      expect(openCodeCodec.toCommon(store.load(saved.id)).body).toHaveLength(12);
      expect(files()).toEqual(before);
      expect(readdirSync(root).sort()).toEqual([
        "opencode.db",
        "opencode.db-shm",
        "opencode.db-wal",
      ]);
    } finally {
      writer.close();
    }
  });

  it("creates no -wal or -shm beside a WAL database at rest", async () => {
    const { root, store } = fresh();
    save(store, "at-rest");
    const names = () => readdirSync(root).sort();
    const before = names();
    expect(before).toEqual(["opencode.db"]);
    await store.discover();
    store.load(store.ids()[0]!);
    expect(names()).toEqual(before);
  });

  it("refuses unsafe ids everywhere and names a missing session", async () => {
    const { store } = fresh();
    for (const id of ["../x", "a/b", "", "nul\u0000"]) {
      expect(() => store.load(id)).toThrow(UnsafePathError);
      expect(() => store.delete(id)).toThrow(UnsafePathError);
      expect(store.fingerprint(id)).toBeUndefined();
    }
    expect(() => store.load("ses_missing")).toThrow(NotFoundError);
    expect(() => store.delete("ses_missing")).toThrow(NotFoundError);
  });

  it("names a file that is not a database, and one with no OpenCode tables", async () => {
    const root = tempDir();
    writeFileSync(join(root, "opencode.db"), "not sqlite at all, just text");
    const store = new OpenCodeStore({ root, env: {} });
    expect((await store.discover()).skipped).toEqual([
      { path: join(root, "opencode.db"), reason: "not a SQLite database" },
    ]);
    expect(store.ids()).toEqual([]);
    const foreign = tempDir();
    const db = new Database(join(foreign, "opencode.db"));
    db.exec("CREATE TABLE notes (x)");
    db.close();
    const skipped = (await new OpenCodeStore({ root: foreign, env: {} }).discover()).skipped;
    expect(skipped[0]!.reason).toMatch(/no session, message, part table/);
  });
});

describe("locks", async () => {
  it("reports a database locked past the timeout, naming it, for reads and writes alike", async () => {
    const root = tempDir();
    const path = copyOpenCodeFixture(root); // rollback journal: an exclusive lock stops readers
    const holder = new Database(path);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const store = new OpenCodeStore({ root, env: {}, busyTimeoutMs: 150 });
      const read = thrown(() => store.load(TOOLS));
      expect(read).toBeInstanceOf(StoreError);
      expect(read.file).toBe(path);
      expect(read.detail).toMatch(/locked by another process/);
      const write = thrown(() => save(store, "blocked"));
      expect(write).toBeInstanceOf(StoreError);
      expect(write.detail).toMatch(/locked by another process/);
      expect((await store.discover()).skipped.map((s) => s.reason)).toEqual([
        expect.stringMatching(/locked by another process/),
      ]);
    } finally {
      holder.exec("COMMIT");
      holder.close();
    }
    expect(counts(path).session).toBe(7);
    expect(integrity(path)).toEqual(ok);
  });

  it("waits for a lock another process releases in time, then writes", async () => {
    const { root, path } = fresh();
    const locker = startChild("locker.ts", [path, "250"]);
    await waitFor(locker, /locked/);
    const store = new OpenCodeStore({ root, env: {}, busyTimeoutMs: 10_000 });
    const saved = save(store, "after-lock");
    await exited(locker);
    expect(store.ids()).toEqual([saved.id]);
    expect(integrity(path)).toEqual(ok);
  });
});

describe("a running OpenCode writing at the same time", async () => {
  it("reads consistent snapshots and saves whole sessions while another process writes", async () => {
    const { root, path } = fresh();
    const writer = startChild("writer.ts", [path, "800"]);
    const report = waitFor(writer, /wrote (\d+) (\d+) (\d+)/);
    await waitFor(writer, /started/);
    const store = new OpenCodeStore({ root, env: {}, busyTimeoutMs: 10_000 });
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      mine.push(save(store, `concurrent-${i}`, 4).id);
      const listed = await store.discover();
      expect(listed.skipped).toEqual([]);
      // Every live session seen is whole as of its snapshot: its count is what load reads.
      for (const s of listed.sessions.slice(0, 5)) {
        expect(s.message_count).toBeGreaterThanOrEqual(0);
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    const [, sessions, messages, parts] = (await report).map(Number) as number[];
    await exited(writer);
    expect(integrity(path)).toEqual(ok);
    for (const id of mine) {
      expect(openCodeCodec.toCommon(store.load(id))).toEqual(
        openCodeCodec.toCommon(
          openCodeCodec.fromCommon(session(`concurrent-${mine.indexOf(id)}`, 4)),
        ),
      );
    }
    const all = counts(path);
    expect(all.session).toBe(sessions! + mine.length);
    const native = openCodeCodec.fromCommon(session("size", 4)).body.messages;
    expect(all.message).toBe(messages! + mine.length * native.length);
    expect(all.part).toBe(parts! + mine.length * native.reduce((n, m) => n + m.parts.length, 0));
  }, 30_000);
});

describe("SIGKILL during a save", async () => {
  it("leaves every session whole or absent, and the database intact, across kills", async () => {
    const expected = (() => {
      const native = openCodeCodec.fromCommon(session("crash-0", 40, 2000)).body;
      return {
        messages: native.messages.length,
        parts: native.messages.reduce((n, m) => n + m.parts.length, 0),
      };
    })();
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 4; trial++) {
      const { root, path } = fresh();
      const child = startChild("saver.ts", [root, "40"]);
      const ready = Number((await waitFor(child, /ready (\d+)/))[1]);
      await new Promise((r) => setTimeout(r, rand() * ready * 3));
      child.kill("SIGKILL");
      await exited(child);
      expect(integrity(path)).toEqual(ok);
      const store = new OpenCodeStore({ root, env: {} });
      const ids = store.ids();
      expect(ids.length).toBeGreaterThanOrEqual(1);
      for (const id of ids) {
        const c = counts(path, id);
        expect(c.message).toBe(expected.messages);
        expect(c.part).toBe(expected.parts);
      }
      // And the store still writes after the kill.
      save(store, "after-kill");
      expect(integrity(path)).toEqual(ok);
    }
  }, 60_000);
});

describe("writing", async () => {
  it("inserts the session, its project and nothing else, in OpenCode's id order", async () => {
    const { path, store } = fresh();
    const saved = save(store, "one", 2);
    const db = new Database(path, { readonly: true });
    const messages = db
      .prepare("SELECT id FROM message WHERE session_id = ? ORDER BY time_created, id")
      .pluck()
      .all(saved.id) as string[];
    const byId = [...messages].sort();
    expect(messages).toEqual(byId);
    const parts = db.prepare("SELECT id FROM part ORDER BY rowid").pluck().all() as string[];
    expect(parts).toEqual([...parts].sort());
    expect(db.prepare("SELECT id, worktree FROM project").all()).toEqual([
      { id: "global", worktree: "/" },
    ]);
    db.close();
    // Results fold into their calls: three OpenCode messages a turn.
    expect(counts(path)).toMatchObject({ session: 1, message: 6, event: 0 });
    expect(integrity(path)).toEqual(ok);
  });

  it("refuses an existing session id and a message id another session owns, changing nothing", async () => {
    const { path, store } = fresh();
    const native = openCodeCodec.fromCommon(session("dup", 2));
    store.save(native);
    const before = counts(path);
    expect(thrown(() => store.save(native))).toBeInstanceOf(ConflictError);
    // Another session claiming one of its message ids.
    const other = openCodeCodec.fromCommon(session("other", 2));
    const taken = native.body.messages[0]!.row.id as string;
    other.body.messages[0]!.row.id = taken;
    for (const p of other.body.messages[0]!.parts) p.message_id = taken;
    const e = thrown(() => store.save(other));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.detail).toMatch(/already exists in another session/);
    expect(counts(path)).toEqual(before);
    expect(integrity(path)).toEqual(ok);
  });

  it.each([
    [
      "an unknown required column",
      OPENCODE_SCHEMA.replace(
        "`data` text NOT NULL,\n          CONSTRAINT `fk_part",
        "`data` text NOT NULL,\n          `weight` integer NOT NULL,\n          CONSTRAINT `fk_part",
      ),
      /part\.weight is required/,
    ],
    [
      "a missing table",
      OPENCODE_SCHEMA.replace(/CREATE TABLE `part` \([\s\S]*?\);\n/, "").replace(
        /^CREATE INDEX `part_[^\n]*\n/gm,
        "",
      ),
      /no part table/,
    ],
    [
      "a column txcript fills that is gone",
      OPENCODE_SCHEMA.replace("`slug` text NOT NULL,\n", ""),
      /session table has no column slug/,
    ],
  ])("refuses schema drift (%s), writing nothing", (_, schema, message) => {
    expect(schema).not.toBe(OPENCODE_SCHEMA);
    const { path, store } = fresh(schema);
    const before = hashTree(join(path, ".."));
    const e = thrown(() => save(store, "drift"));
    expect(e).toBeInstanceOf(UnsupportedError);
    expect(e.detail).toMatch(message);
    expect(e.file).toBe(path);
    expect(hashTree(join(path, ".."))).toEqual(before);
  });

  it("accepts a new nullable or defaulted column", async () => {
    const schema = OPENCODE_SCHEMA.replace(
      "`data` text NOT NULL,\n          CONSTRAINT `fk_part",
      "`data` text NOT NULL,\n          `weight` integer DEFAULT 1 NOT NULL,\n          `note` text,\n          CONSTRAINT `fk_part",
    );
    const { store } = fresh(schema);
    const saved = save(store, "defaults");
    expect(openCodeCodec.toCommon(store.load(saved.id)).body).toHaveLength(12);
  });

  it("creates OpenCode's own first database where it never ran", async () => {
    const root = join(tempDir(), "share", "opencode");
    const store = new OpenCodeStore({ root, env: {} });
    const saved = save(store, "nowhere");
    expect(readdirSync(root)).toEqual(["opencode.db"]);
    expect(openCodeCodec.toCommon(store.load(saved.id)).body).toHaveLength(12);
    const db = new Database(join(root, "opencode.db"), { readonly: true });
    try {
      // Statement for statement the schema the real OpenCode 1.18.33 made (the fixture's dump).
      const made = db
        .prepare<[], string>("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        .pluck()
        .all();
      // (The dump is in .schema's order and spelling: compare the statements as a set.)
      const dumped = OPENCODE_SCHEMA.replace("IF NOT EXISTS ", "")
        .split(/;\n/)
        .map((s) => s.trim().replace(/;$/, ""))
        .filter((s) => s !== "");
      expect([...made].sort()).toEqual([...dumped].sort());
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      const done = db.prepare<[], string>("SELECT id FROM migration ORDER BY id").pluck().all();
      expect(done).toHaveLength(38);
      expect(done.at(-1)).toBe("20260622202450_simplify_session_input");
      expect(integrity(join(root, "opencode.db"))).toEqual(ok);
    } finally {
      db.close();
    }
  });

  it("refuses where OpenCode's pre-SQLite storage/ waits to be migrated", async () => {
    const root = tempDir();
    mkdirSync(join(root, "storage", "session"), { recursive: true });
    const before = hashTree(root);
    const store = new OpenCodeStore({ root, env: {} });
    const e = thrown(() => save(store, "legacy"));
    expect(e).toBeInstanceOf(StoreError);
    expect(e.detail).toMatch(/run OpenCode once so that it moves it into opencode.db/);
    expect(hashTree(root)).toEqual(before);
  });

  it("files a session under its git repository's project, as OpenCode would", async () => {
    const { path, store } = fresh();
    const repo = tempDir("txcript-repo-");
    mkdirSync(join(repo, ".git"));
    writeFileSync(join(repo, ".git", "opencode"), "c0ffee0000000000000000000000000000000000\n");
    mkdirSync(join(repo, "src"));
    const saved = store.save(
      openCodeCodec.fromCommon(session("in-repo", 1, 10, join(repo, "src"))),
    );
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT project_id FROM session WHERE id = ?").pluck().get(saved.id)).toBe(
      "c0ffee0000000000000000000000000000000000",
    );
    expect(db.prepare("SELECT id, worktree, vcs FROM project").all()).toEqual([
      { id: "c0ffee0000000000000000000000000000000000", worktree: repo, vcs: "git" },
    ]);
    db.close();
    // A second session there reuses the project row.
    store.save(openCodeCodec.fromCommon(session("in-repo-2", 1, 10, repo)));
    expect(counts(path).project).toBe(1);
  });
});

describe("delete", async () => {
  it("removes exactly that session's rows (messages, parts, events), in one transaction", async () => {
    const root = tempDir();
    const path = copyOpenCodeFixture(root);
    const before = counts(path);
    const mine = counts(path, TOOLS);
    expect(mine.message).toBe(10);
    expect(mine.event).toBeGreaterThan(0);
    const store = new OpenCodeStore({ root, env: {} });
    expect(store.delete(TOOLS)).toEqual([path]);
    const after = counts(path);
    expect(counts(path, TOOLS)).toEqual({
      project: 0,
      session: 0,
      message: 0,
      part: 0,
      event: 0,
      event_sequence: 0,
    });
    for (const t of Object.keys(before)) {
      expect(after[t], t).toBe(before[t]! - (mine[t] ?? 0));
    }
    expect(store.ids()).not.toContain(TOOLS);
    expect(integrity(path)).toEqual(ok);
    // The parent of a subagent can go; the subagent's own session stays.
    store.delete(PARENT);
    expect(store.ids()).toContain(CHILD);
    expect(openCodeCodec.toCommon(store.load(CHILD)).body).toHaveLength(2);
    expect(integrity(path)).toEqual(ok);
  });
});
