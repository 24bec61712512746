/**
 * Opening the index: it goes through src/sqlite.ts like every other
 * database, so store reads after it need no private copies; a damaged
 * index (a table missing under the current stamp) is rebuilt; another
 * program's file at the index's path is left alone.
 */

// The other tests start with URI filenames on (vitest.config.ts); the CLI
// does not. This file must see what the CLI sees: whichever module opens
// SQLite first decides, and here that is the index.
delete process.env.SQLITE_USE_URI;

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionIndex } from "../../src/index/index.js";
import { INDEX_FILE, openIndexDb } from "../../src/index/open.js";
import { addTextFunction, SCHEMA_OBJECTS } from "../../src/index/schema.js";
import {
  createDatabase,
  observeReads,
  openForWriting,
  type ReadMode,
  readSnapshot,
} from "../../src/sqlite.js";
import { writeAgyDatabase } from "../antigravity-store/support.js";
import { buildConversation } from "../support/agy-fixtures.js";
import { tempDir } from "../support/tmp.js";

describe("the index's open", () => {
  it("leaves store reads after it without a private copy", () => {
    const dir = tempDir("txcript-open-");
    const warnings: string[] = [];
    // First SQLite open of the process: the index's, as in `list`.
    const index = openIndexDb(join(dir, "cache"), (line) => warnings.push(line));
    index.db.close();
    expect(warnings).toEqual([]);

    const store = join(dir, "store.db");
    const db = createDatabase(store);
    db.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('hello')");
    db.close();
    const seen = readSnapshot(
      store,
      (snap, mode): [string, ReadMode] => [
        snap.prepare<[], string>("SELECT x FROM t").pluck().get() ?? "",
        mode,
      ],
      { harness: "antigravity" },
    );
    expect(seen).toEqual(["hello", "shared"]);
  });

  it("lists an agy store after the index opened without copying any database", async () => {
    const home = tempDir("txcript-open-");
    const root = join(home, "agy");
    // The index opens SQLite first in this process (as in `list`), before the store is written.
    const index = SessionIndex.open({
      env: { HOME: home, TXCRIPT_ANTIGRAVITY_ROOT: root },
      cache: join(home, "cache"),
    });
    // As agy leaves them: latest steps still in the -wal beside its -shm, and at rest.
    const wal = writeAgyDatabase(root, buildConversation({ steps: 30, seed: 1 }), {
      walShare: 0.3,
    });
    const rest = writeAgyDatabase(root, buildConversation({ steps: 30, seed: 2 }));
    const seen: [string, ReadMode][] = [];
    const stop = observeReads((path, mode) => seen.push([path, mode]));
    try {
      await index.refresh({ from: "antigravity" });
      const { sessions } = index.list({ from: "antigravity" });
      expect(sessions.map((s) => s.path).sort()).toEqual([rest, wal].sort());
    } finally {
      stop();
      index.close();
    }
    expect(seen.filter(([, mode]) => mode === "private-copy")).toEqual([]);
    expect(new Map(seen)).toEqual(
      new Map([
        [wal, "shared"],
        [rest, "immutable"],
      ]),
    );
  });

  it("rebuilds an index with a table missing under the current stamp, with one warning", () => {
    const cache = tempDir("txcript-open-");
    openIndexDb(cache, () => {}).db.close();
    const path = join(cache, INDEX_FILE);
    const db = openForWriting(path, 1000);
    addTextFunction(db); // the view over chunks calls it
    db.exec("DROP TABLE entries");
    db.close();

    const warnings: string[] = [];
    const opened = openIndexDb(cache, (line) => warnings.push(line));
    const names = opened.db.prepare<[], string>("SELECT name FROM sqlite_schema").pluck().all();
    expect(opened.db.prepare("SELECT count(*) AS n FROM entries").get()).toEqual({ n: 0 });
    opened.db.close();
    expect(opened.path).toBe(path);
    for (const name of SCHEMA_OBJECTS) expect(names).toContain(name);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/damaged.*entries.*rebuilding/);
  });

  it("leaves another program's index.db and its -wal alone and reads in memory", () => {
    const cache = tempDir("txcript-open-");
    mkdirSync(cache, { recursive: true });
    const path = join(cache, INDEX_FILE);
    writeFileSync(path, "another program's index, not SQLite\n");
    writeFileSync(`${path}-wal`, "its log\n");

    const warnings: string[] = [];
    const opened = openIndexDb(cache, (line) => warnings.push(line));
    opened.db.close();
    expect(opened.path).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe("another program's index, not SQLite\n");
    expect(readFileSync(`${path}-wal`, "utf8")).toBe("its log\n");
    expect(existsSync(`${path}-shm`)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("another program");
  });
});
