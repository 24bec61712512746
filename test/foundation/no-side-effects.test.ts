/**
 * Importing the library changes nothing in the importing process (no
 * environment writes, no threads, no listeners), and reads still work when
 * the process had opened a database before txcript did, with SQLite's URI
 * filenames off. Each case runs in a fresh Node process on the built
 * library, with SQLITE_USE_URI unset.
 */

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { hashTree, tempDir } from "../support/tmp.js";

const DIST = join(import.meta.dirname, "..", "..", "dist");
const lib = (file: string) => JSON.stringify(pathToFileURL(join(DIST, file)).href);

function node(code: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.SQLITE_USE_URI;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    encoding: "utf8",
    env,
    cwd: join(import.meta.dirname, "..", ".."),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the library import", () => {
  it("leaves the environment, the listeners and the threads as they were", () => {
    const r = node(`
      const env = JSON.stringify(process.env);
      const listeners = process.eventNames().map((n) => [n, process.listenerCount(n)]);
      const handles = process.getActiveResourcesInfo().length;
      await import(${lib("lib.js")});
      // Let the module loader's own file closes finish.
      await new Promise((r) => setTimeout(r, 100));
      // Measured before process.stdout exists (its pipe is a handle too).
      const result = JSON.stringify({
        env: JSON.stringify(process.env) === env,
        listeners: JSON.stringify(process.eventNames().map((n) => [n, process.listenerCount(n)])) === JSON.stringify(listeners),
        handles: process.getActiveResourcesInfo().slice(handles),
      });
      process.stdout.write(result);`);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ env: true, listeners: true, handles: [] });
  });

  it("reads a WAL database (at rest and with frames in its -wal) after another module opened one with URIs off", () => {
    const dir = tempDir("txcript-uri-");
    const atRest = join(dir, "rest.db");
    const live = join(dir, "live.db");
    for (const path of [atRest, live]) {
      const db = new Database(path);
      db.pragma("journal_mode = WAL");
      db.exec("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3);");
      if (path === atRest) db.close();
      else {
        db.pragma("wal_autocheckpoint = 0");
        db.exec("INSERT INTO t VALUES (4);");
        // Left open: its frames stay in the -wal while the child reads.
        process.once("exit", () => db.close());
      }
    }
    const before = hashTree(dir);
    const r = node(`
      import Database from "better-sqlite3";
      new Database(":memory:").close(); // the addon loads with URI filenames off
      const { readSnapshot } = await import(${lib("sqlite.js")});
      const count = (path) => readSnapshot(path, (db) => db.prepare("SELECT count(*) AS n FROM t").get().n, { harness: "antigravity" });
      process.stdout.write(JSON.stringify([count(${JSON.stringify(atRest)}), count(${JSON.stringify(live)})]));`);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([3, 4]);
    expect(hashTree(dir)).toEqual(before);
  });
});
