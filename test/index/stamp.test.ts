/**
 * Stores without scan() whose sessions share one file (OpenCode's
 * database): the index re-discovers them only when the store's stamp
 * changes, sees every change made through the database (a new session, a
 * deleted one, a write still in the -wal), and falls back on discovering
 * the whole store when legacy session files are present. The Gemini CLI,
 * where several files may hold one id, is stamped over all its files: any
 * change re-discovers it whole, no change spares the re-read.
 */

import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GeminiCliStore } from "../../src/harness/gemini-cli/index.js";
import { OpenCodeStore, openCodeCodec } from "../../src/harness/opencode/index.js";
import { SessionIndex } from "../../src/index/index.js";
import { session } from "../opencode/support.js";
import { createOpenCodeDatabase } from "../support/opencode.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { machine, put } from "./support.js";

afterEach(() => {
  vi.restoreAllMocks();
});

function setup() {
  const root = tempDir("txcript-stamp-");
  const store = join(root, "opencode");
  mkdirSync(store);
  const db = createOpenCodeDatabase(store);
  const index = SessionIndex.open({
    env: {},
    roots: { opencode: store },
    cache: join(root, "cache"),
  });
  const writer = new OpenCodeStore({ root: store, env: {}, busyTimeoutMs: 2000 });
  const save = (id: string) => writer.save(openCodeCodec.fromCommon(session(id, 2))).id;
  const listed = async () => {
    await index.refresh({ from: "opencode" });
    return index
      .list({ from: "opencode" })
      .sessions.map((s) => s.id)
      .sort();
  };
  return { store, db, index, save, listed };
}

describe("a stamped store", () => {
  it("is discovered again only when its database changes, and every change shows", async () => {
    const { store, index, save, listed } = setup();
    try {
      const first = save("first");
      const discover = vi.spyOn(OpenCodeStore.prototype, "discover");
      expect(await listed()).toEqual([first]);
      expect(discover).toHaveBeenCalledTimes(1);
      const before = hashTree(store);
      expect(await listed()).toEqual([first]);
      expect(await listed()).toEqual([first]);
      expect(discover).toHaveBeenCalledTimes(1); // unchanged: no discovery
      expect(hashTree(store)).toEqual(before);

      const second = save("second");
      expect(await listed()).toEqual([first, second].sort());
      expect(discover).toHaveBeenCalledTimes(2);

      new OpenCodeStore({ root: store, env: {} }).delete(first);
      expect(await listed()).toEqual([second]);
      expect(discover).toHaveBeenCalledTimes(3);
    } finally {
      index.close();
    }
  });

  it("sees a write that is still in the -wal (a live OpenCode holding its connection)", async () => {
    const { db, index, save, listed } = setup();
    try {
      const first = save("first");
      expect(await listed()).toEqual([first]);
      const live = new Database(db);
      try {
        live.pragma("journal_mode = WAL");
        live.pragma("wal_autocheckpoint = 0");
        // As OpenCode does: a change bumps the session's time_updated.
        live
          .prepare("UPDATE session SET title = ?, time_updated = time_updated + 1000 WHERE id = ?")
          .run("renamed live", first);
        await index.refresh({ from: "opencode" });
        expect(index.list({ from: "opencode" }).sessions[0]?.meta.title).toBe("renamed live");
      } finally {
        live.close();
      }
    } finally {
      index.close();
    }
  });

  it("gives no stamp, and is discovered every time, when legacy session files are present", async () => {
    const { store, index, save, listed } = setup();
    try {
      const first = save("first");
      mkdirSync(join(store, "storage", "session", "global"), { recursive: true });
      writeFileSync(join(store, "storage", "session", "global", "README"), "not a session\n");
      expect(new OpenCodeStore({ root: store, env: {} }).stamp()).toBeUndefined();
      const discover = vi.spyOn(OpenCodeStore.prototype, "discover");
      await listed();
      expect(await listed()).toEqual([first]);
      expect(discover).toHaveBeenCalledTimes(2);
    } finally {
      index.close();
    }
  });
});

describe("the Gemini CLI store", () => {
  it("is read again only when one of its files changes, and every change shows", async () => {
    const m = machine();
    const index = SessionIndex.open({ env: {}, roots: m.roots, cache: m.cache });
    const listed = async () => {
      await index.refresh({ from: "gemini_cli" });
      return index
        .list({ from: "gemini_cli" })
        .sessions.map((s) => [s.id, s.message_count] as const)
        .sort();
    };
    try {
      const a = "1a1a1a1a-0000-4000-8000-000000000001";
      const b = "1b1b1b1b-0000-4000-8000-000000000002";
      const first = put(m, "gemini_cli", { id: a, texts: ["one", "two"] });
      const discover = vi.spyOn(GeminiCliStore.prototype, "discover");
      expect(await listed()).toEqual([[a, 2]]);
      expect(await listed()).toEqual([[a, 2]]);
      expect(discover).toHaveBeenCalledTimes(1);

      put(m, "gemini_cli", { id: b, texts: ["three", "four"], start: 100 });
      expect(await listed()).toEqual([
        [a, 2],
        [b, 2],
      ]);
      expect(discover).toHaveBeenCalledTimes(2);

      // Rewritten in place with more messages (the same size would still change its times).
      put(m, "gemini_cli", { id: a, texts: ["one", "two", "five", "six"] });
      utimesSync(first.path, new Date(), new Date(Date.now() + 5_000));
      expect(await listed()).toEqual([
        [a, 4],
        [b, 2],
      ]);

      rmSync(first.path);
      expect(await listed()).toEqual([[b, 2]]);
      expect(discover).toHaveBeenCalledTimes(4);

      // A stray file that is not a session name changes nothing discovery reads.
      appendFileSync(`${first.path}.notes`, "x");
      expect(await listed()).toEqual([[b, 2]]);
      expect(discover).toHaveBeenCalledTimes(4);
    } finally {
      index.close();
    }
  });
});
