/**
 * What load, save and the roots answer when things go wrong: a clear error
 * of the right class naming the file and the problem, never a crash or a
 * partial write. Locked databases are retried, then reported.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  NotFoundError,
  ParseError,
  StoreError,
  TxcriptError,
  UnsupportedError,
} from "../../src/errors.js";
import { emptyBody } from "../../src/harness/antigravity/body.js";
import { AntigravityStore, antigravityLanes } from "../../src/harness/antigravity/store.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { comparable, handBody, SPEC_SCHEMA, startChild, T0, writeAgyDatabase } from "./support.js";

function thrown(fn: () => unknown): TxcriptError {
  try {
    fn();
  } catch (error) {
    if (error instanceof TxcriptError) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("load errors", () => {
  it("names both lanes when no conversation has the id", () => {
    const gemini = tempDir();
    const store = new AntigravityStore({ env: { HOME: "/nowhere", GEMINI_HOME: gemini } });
    const error = thrown(() => store.load("missing"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain(join(gemini, "antigravity-cli", "conversations"));
    expect(error.message).toContain(join(gemini, "antigravity-acp", "conversations"));
  });

  it("calls a lone .pb an unsupported pre-1.0.4 conversation", () => {
    const root = tempDir();
    mkdirSync(join(root, "conversations"));
    writeFileSync(join(root, "conversations", "old.pb"), Buffer.from([1, 2, 3]));
    const error = thrown(() => new AntigravityStore({ root }).load("old"));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.file).toBe(join(root, "conversations", "old.pb"));
  });

  it("refuses a newer format (user_version 2), naming the file and both versions", () => {
    const root = tempDir();
    const path = writeAgyDatabase(root, handBody("newer", 2), { userVersion: 2 });
    const error = thrown(() => new AntigravityStore({ root }).load("newer"));
    expect(error).toBeInstanceOf(UnsupportedError);
    expect(error.file).toBe(path);
    expect(error.detail).toMatch(/user_version 2 .*\(1\)/);
  });

  it.each([
    ["empty", (p: string) => writeFileSync(p, ""), /^empty file$/],
    [
      "not SQLite",
      (p: string) => writeFileSync(p, '{"json": true}'.repeat(20)),
      /^not a SQLite database$/,
    ],
    [
      "corrupt",
      (p: string) => {
        const db = new Database(p);
        db.exec(SPEC_SCHEMA);
        db.close();
        const bytes = readFileSync(p);
        bytes.fill(0x5a, 100, 4096);
        writeFileSync(p, bytes);
      },
      /malformed database/,
    ],
    [
      "a blob where an integer belongs",
      (p: string) => {
        const db = new Database(p);
        db.exec(SPEC_SCHEMA);
        db.prepare("INSERT INTO steps (idx, status) VALUES (4, x'00')").run();
        db.close();
      },
      /^steps row 1: status holds a blob, expected a number$/,
    ],
  ])("answers a %s database with a ParseError naming it", (_what, make, pattern) => {
    const root = tempDir();
    mkdirSync(join(root, "conversations"));
    const path = join(root, "conversations", "bad.db");
    make(path);
    const before = hashTree(root);
    const error = thrown(() => new AntigravityStore({ root }).load("bad"));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.file).toBe(path);
    expect(error.detail).toMatch(pattern);
    expect(hashTree(root)).toEqual(before);
  });

  it("reads an older layout missing optional tables and columns with their schema defaults", () => {
    const root = tempDir();
    mkdirSync(join(root, "conversations"));
    const db = new Database(join(root, "conversations", "old-layout.db"));
    db.exec(
      "CREATE TABLE steps(idx integer PRIMARY KEY, step_type integer, status integer, step_payload blob); INSERT INTO steps VALUES (0, 14, 3, x'0810')",
    );
    db.close();
    const body = new AntigravityStore({ root }).load("old-layout").body;
    expect(body.steps).toEqual([
      {
        idx: 0,
        step_type: 14,
        status: 3,
        has_subtrajectory: false,
        metadata: null,
        error_details: null,
        permissions: null,
        task_details: null,
        render_info: null,
        step_payload: Buffer.from([0x08, 0x10]),
        step_format: 0,
      },
    ]);
    expect(body.trajectory_meta).toEqual([]);
  });

  it("carries a large conversation whole: a 24 MB step and 5,000 small ones", () => {
    const store = new AntigravityStore({ root: tempDir() });
    const body = handBody("large", 5000, 9);
    const huge = new Uint8Array(24 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
    body.steps[17]!.step_payload = huge;
    store.save({ meta: { id: "large", timestamp: T0 }, body });
    const loaded = store.load("large").body;
    expect(loaded.steps).toHaveLength(5000);
    expect(Buffer.compare(Buffer.from(loaded.steps[17]!.step_payload!), Buffer.from(huge))).toBe(0);
    expect(comparable({ ...loaded, steps: loaded.steps.slice(0, 10) })).toEqual(
      comparable({ ...body, steps: body.steps.slice(0, 10) }),
    );
  });
});

describe("locked databases", () => {
  /** A rollback-journal database: an exclusive lock there blocks readers too. */
  function lockable(root: string): string {
    const path = join(root, "conversations", "locked.db");
    mkdirSync(join(root, "conversations"));
    const db = new Database(path);
    db.exec(SPEC_SCHEMA);
    db.prepare("INSERT INTO steps (idx, step_type) VALUES (0, 14)").run();
    db.close();
    return path;
  }

  it("reports a database still locked after the timeout as a StoreError naming it", async () => {
    const root = tempDir();
    const path = lockable(root);
    const holder = new Database(path);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const store = new AntigravityStore({ root, busyTimeoutMs: 150 });
      const error = thrown(() => store.load("locked"));
      expect(error).toBeInstanceOf(StoreError);
      expect(error.file).toBe(path);
      expect(error.detail).toMatch(/locked by another process/);
      expect((await await store.discover()).skipped.map((s) => s.reason)).toEqual([
        expect.stringMatching(/locked by another process/),
      ]);
    } finally {
      holder.exec("COMMIT");
      holder.close();
    }
  });

  it("waits for a lock another process releases in time", async () => {
    const root = tempDir();
    lockable(root);
    const locker = startChild("locker.ts", [join(root, "conversations", "locked.db"), "400"]);
    await new Promise<void>((ready) => locker.stdout.on("data", () => ready()));
    const loaded = new AntigravityStore({ root, busyTimeoutMs: 10_000 }).load("locked");
    expect(loaded.body.steps).toHaveLength(1);
    await new Promise((r) => locker.on("exit", r));
  });

  it("refuses to overwrite a conversation another connection is reading, leaving it whole", () => {
    const root = tempDir();
    const store = new AntigravityStore({ root, busyTimeoutMs: 150 });
    const old = handBody("in-use", 3, 1);
    writeAgyDatabase(root, old, { leaveWal: true });
    const reader = new Database(join(root, "conversations", "in-use.db"), { readonly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM steps").get(); // holds a snapshot: no checkpoint can finish
    try {
      const error = thrown(() =>
        store.save(
          { meta: { id: "in-use", timestamp: T0 }, body: handBody("in-use", 9, 2) },
          {
            overwrite: true,
          },
        ),
      );
      expect(error).toBeInstanceOf(StoreError);
      expect(error.detail).toMatch(/in use/);
    } finally {
      reader.exec("COMMIT");
      reader.close();
    }
    expect(comparable(store.load("in-use").body)).toEqual(comparable(old));
  });
});

describe("roots", () => {
  const lanes = (
    env: Record<string, string>,
    extra: { root?: string; platform?: NodeJS.Platform } = {},
  ) => antigravityLanes({ env, ...extra });

  it("defaults to ~/.gemini/antigravity-cli, ~/.gemini/antigravity-acp, the desktop app's ~/.gemini/antigravity and the IDE's ~/.gemini/antigravity-ide", () => {
    expect(lanes({ HOME: "/home/ada" }, { platform: "linux" })).toEqual([
      { lane: "cli", root: "/home/ada/.gemini/antigravity-cli" },
      { lane: "acp", root: "/home/ada/.gemini/antigravity-acp" },
      { lane: "desktop", root: "/home/ada/.gemini/antigravity" },
      { lane: "ide", root: "/home/ada/.gemini/antigravity-ide" },
    ]);
  });

  it("takes the home from USERPROFILE on Windows", () => {
    const [cli] = lanes({ USERPROFILE: "/users/ada", HOME: "/elsewhere" }, { platform: "win32" });
    expect(cli?.root).toBe(resolve("/users/ada", ".gemini", "antigravity-cli"));
  });

  it("relocates every lane with GEMINI_HOME", () => {
    expect(lanes({ HOME: "/home/ada", GEMINI_HOME: "/data/gemini" })).toEqual([
      { lane: "cli", root: "/data/gemini/antigravity-cli" },
      { lane: "acp", root: "/data/gemini/antigravity-acp" },
      { lane: "desktop", root: "/data/gemini/antigravity" },
      { lane: "ide", root: "/data/gemini/antigravity-ide" },
    ]);
  });

  it("moves the ACP lane alone with TXCRIPT_ANTIGRAVITY_ACP_ROOT", () => {
    expect(lanes({ HOME: "/home/ada", TXCRIPT_ANTIGRAVITY_ACP_ROOT: "/acp" })).toEqual([
      { lane: "cli", root: "/home/ada/.gemini/antigravity-cli" },
      { lane: "acp", root: "/acp" },
      { lane: "desktop", root: "/home/ada/.gemini/antigravity" },
      { lane: "ide", root: "/home/ada/.gemini/antigravity-ide" },
    ]);
  });

  it("moves the desktop lane alone with TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT, and adds it to an explicit root", () => {
    expect(lanes({ HOME: "/home/ada", TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT: "/desk" })).toEqual([
      { lane: "cli", root: "/home/ada/.gemini/antigravity-cli" },
      { lane: "acp", root: "/home/ada/.gemini/antigravity-acp" },
      { lane: "desktop", root: "/desk" },
      { lane: "ide", root: "/home/ada/.gemini/antigravity-ide" },
    ]);
    expect(lanes({ TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT: "/desk" }, { root: "/r" })).toEqual([
      { lane: "cli", root: "/r" },
      { lane: "desktop", root: "/desk" },
    ]);
  });

  it("takes an explicit root (TXCRIPT_ANTIGRAVITY_ROOT, or the option, which wins) as that root alone", () => {
    const env = { HOME: "/home/ada", GEMINI_HOME: "/g", TXCRIPT_ANTIGRAVITY_ROOT: "/from-env" };
    expect(lanes(env)).toEqual([{ lane: "cli", root: "/from-env" }]);
    expect(lanes(env, { root: "/from-option" })).toEqual([{ lane: "cli", root: "/from-option" }]);
    expect(lanes({ ...env, TXCRIPT_ANTIGRAVITY_ACP_ROOT: "/acp" }, { root: "/r" })).toEqual([
      { lane: "cli", root: "/r" },
      { lane: "acp", root: "/acp" },
    ]);
  });

  it("treats empty variables as unset", () => {
    expect(lanes({ HOME: "/home/ada", GEMINI_HOME: "", TXCRIPT_ANTIGRAVITY_ROOT: "" })[0]).toEqual({
      lane: "cli",
      root: "/home/ada/.gemini/antigravity-cli",
    });
  });

  it("saves into the CLI lane and lists it, through the environment alone", async () => {
    const gemini = tempDir();
    const store = new AntigravityStore({ env: { HOME: "/nowhere", GEMINI_HOME: gemini } });
    const saved = store.save({
      meta: { id: "env-root", timestamp: T0 },
      body: emptyBody("env-root"),
    });
    expect(saved.path).toBe(join(gemini, "antigravity-cli", "conversations", "env-root.db"));
    expect((await await store.discover()).sessions.map((s) => s.id)).toEqual(["env-root"]);
    expect(store.roots).toEqual([
      join(gemini, "antigravity-cli"),
      join(gemini, "antigravity-acp"),
      join(gemini, "antigravity"),
      join(gemini, "antigravity-ide"),
    ]);
  });
});
