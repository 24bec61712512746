/**
 * Upgrading the archive's schema with data in it, against a real PostgreSQL
 * server: an archive made at each older version (its migrations only) and
 * filled with the rows a push writes (sessions, chunks, usage, one of them
 * pushed by another role), then upgraded by the next push, must hold the
 * same rows as an archive pushed at the current version, and answer the
 * same. Two pushes that upgrade at once: both wait for the migrations'
 * lock, one migrates, the other finds it done.
 */

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPool, withClient } from "../../src/archive/connect.js";
import { ARCHIVE_LOCK_KEY, migrate } from "../../src/archive/schema.js";
import { type Cluster, startPostgres } from "../support/postgres.js";
import {
  fill,
  type Home,
  home,
  type Marks,
  markedSession,
  removeHomes,
  run,
  start,
} from "./support.js";

/** The schema version this txcript writes (the number of migrations). */
const CURRENT = 4;

let cluster: Cluster;
let db = 0;
let h: Home;
let marks: Marks;
/** The reference archive: the same store pushed at the current version. */
let ref: string;

function database(): string {
  const name = `up${++db}`;
  cluster.psql(`CREATE DATABASE ${name}`);
  return name;
}

/** Run SQL (several statements, no parameters) as the superuser; the first column of the last result's rows. */
async function exec(name: string, text: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: cluster.url(name) });
  await client.connect();
  try {
    const result = await client.query({ text, rowMode: "array" });
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last?.rows ?? []).map((r: unknown[]) => String(r[0]));
  } finally {
    await client.end();
  }
}

/**
 * Everything the archive holds for its sessions, row by row, in an order
 * that does not depend on how the rows were written.
 */
function dump(name: string, where = "TRUE"): string {
  return cluster.psql(
    `SELECT s.sid, s.machine, s.os_user, s.pushed_by, s.harness, s.id, s.version, s.content,
       s.redacted, s.updated_ms, s.cwd, s.title, s.discovered::text, md5(coalesce(s.transcript, '')),
       (SELECT string_agg(concat_ws('/', c.ordinal, c.kind, c.at, md5(c.body), md5(c.tsv::text), c.pushed_by),
                          ',' ORDER BY c.ordinal, c.kind, md5(c.body))
          FROM txcript.chunks c WHERE c.sid = s.sid),
       (SELECT string_agg(concat_ws('/', u.at, u.model, u.input, u.output, u.cache_read, u.cache_write, u.messages, u.pushed_by),
                          ',' ORDER BY u.at, u.model, u.input, u.output)
          FROM txcript.usage u WHERE u.sid = s.sid)
     FROM txcript.sessions s WHERE ${where} ORDER BY s.sid`,
    name,
  );
}

/** Make `name` an archive at schema `version` (its first migrations only). */
async function createAt(name: string, version: number): Promise<void> {
  const url = cluster.url(name);
  const pool = openPool(url);
  try {
    await withClient(pool, url, "migrate", (client) => migrate(client, version));
  } finally {
    await pool.end();
  }
  expect(cluster.psql("SELECT max(version) FROM txcript.migrations", name)).toBe(String(version));
}

/**
 * INSERT statements for every row of the reference archive, in the columns
 * schema `version` has: chunks and usage carry their pushing role from
 * migration 3 on.
 */
async function rowsFor(version: number): Promise<string> {
  const tagged = version >= 3;
  const [sessions = "", chunks = "", usage = ""] = await Promise.all([
    exec(
      ref,
      `SELECT string_agg(format(
         'INSERT INTO txcript.sessions (sid, machine, os_user, pushed_by, harness, id, version, content, redacted, updated_ms, cwd, title, discovered, transcript, pushed_at) OVERRIDING SYSTEM VALUE VALUES (%s, %L, %L, %L, %L, %L, %L, %L, %L, %s, %L, %L, %L, %L, %L);',
         sid, machine, os_user, pushed_by, harness, id, version, content, redacted, updated_ms, cwd, title, discovered, transcript, pushed_at), E'\\n' ORDER BY sid)
       FROM txcript.sessions`,
    ),
    exec(
      ref,
      `SELECT string_agg(format(
         'INSERT INTO txcript.chunks (sid, ordinal, kind, at, body, tsv${tagged ? ", pushed_by" : ""}) VALUES (%s, %s, %L, %s, %L, %L${tagged ? ", %L" : ""});',
         sid, ordinal, kind, at, body, tsv${tagged ? ", pushed_by" : ""}), E'\\n')
       FROM txcript.chunks`,
    ),
    exec(
      ref,
      `SELECT string_agg(format(
         'INSERT INTO txcript.usage (sid, at, model, input, output, cache_read, cache_write, messages${tagged ? ", pushed_by" : ""}) VALUES (%s, %s, %L, %s, %s, %s, %s, %s${tagged ? ", %L" : ""});',
         sid, at, model, input, output, cache_read, cache_write, messages${tagged ? ", pushed_by" : ""}), E'\\n')
       FROM txcript.usage`,
    ),
  ]).then((parts) => parts.map((p) => p[0] ?? ""));
  return `${sessions}\n${chunks}\n${usage}\nSELECT setval(pg_get_serial_sequence('txcript.sessions', 'sid'), (SELECT max(sid) FROM txcript.sessions));`;
}

/** An archive at `version` holding the reference archive's rows. */
async function oldArchive(version: number): Promise<string> {
  const name = database();
  await createAt(name, version);
  await exec(name, await rowsFor(version));
  expect(cluster.psql("SELECT count(*) FROM txcript.sessions", name)).toBe(
    cluster.psql("SELECT count(*) FROM txcript.sessions", ref),
  );
  return name;
}

interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  messages: number;
}

/** The token counts `usage` totals (the cost, a float sum, can differ in its last digit by order). */
function usageTotals(args: string[]): UsageTotals {
  const r = run(h, ["usage", "--json", ...args]);
  expect(r.status).toBe(0);
  const { input_tokens, output_tokens, messages }: UsageTotals = JSON.parse(r.stdout).totals;
  return { input_tokens, output_tokens, messages };
}

beforeAll(async () => {
  cluster = startPostgres();
  h = home("upgrader");
  fill(h, { agy: 3, claude: 2, codex: 1, seed: 21 });
  marks = markedSession(h, "oscar", "12121212-1212-4121-8121-121212121212");
  ref = database();
  const pushed = run(h, ["archive", "push", "--archive", cluster.url(ref)]);
  expect(pushed.status).toBe(0);
  // One session as another role pushed it: migration 3 must carry that role to its chunks and usage.
  const sid = cluster.psql(`SELECT sid FROM txcript.sessions WHERE id = '${marks.id}'`, ref);
  cluster.psql(
    `UPDATE txcript.sessions SET pushed_by = 'alice' WHERE sid = ${sid};
     UPDATE txcript.chunks SET pushed_by = 'alice' WHERE sid = ${sid};
     UPDATE txcript.usage SET pushed_by = 'alice' WHERE sid = ${sid};`,
    ref,
  );
  expect(Number(cluster.psql("SELECT count(*) FROM txcript.chunks", ref))).toBeGreaterThan(10);
  expect(Number(cluster.psql("SELECT count(*) FROM txcript.usage", ref))).toBeGreaterThan(3);
}, 180_000);

afterAll(() => {
  removeHomes();
  cluster?.stop();
});

describe("upgrading an archive with data in it", () => {
  for (const version of [1, 2, 3]) {
    it(`from schema version ${version} to ${CURRENT}, every row intact`, async () => {
      const name = await oldArchive(version);
      const url = cluster.url(name);
      // An older archive is not read until a push upgrades it.
      const refused = run(h, ["list", "--archive", url]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`version ${version}, older than this txcript's`);
      const pushed = run(h, ["archive", "push", "--archive", url]);
      expect(pushed.stderr).toMatch(/pushed 0 sessions .*unchanged/);
      expect(pushed.status).toBe(0);
      expect(
        cluster.psql(
          "SELECT string_agg(version::text, ',' ORDER BY version) FROM txcript.migrations",
          name,
        ),
      ).toBe("1,2,3,4");
      expect(dump(name)).toBe(dump(ref));
      // The other role's session: its chunks and usage rows carry that role (migration 3's fill).
      expect(
        cluster.psql(
          `SELECT string_agg(DISTINCT c.pushed_by, ',') || ' ' || string_agg(DISTINCT u.pushed_by, ',')
           FROM txcript.sessions s JOIN txcript.chunks c USING (sid) JOIN txcript.usage u USING (sid)
           WHERE s.id = '${marks.id}'`,
          name,
        ),
      ).toBe("alice alice");
      // And it answers as the current archive does.
      const hits = JSON.parse(
        run(h, ["query", "--json", "--archive", url, marks.prompt]).stdout,
      ).hits;
      expect(hits.map((x: { id: string }) => x.id)).toEqual([marks.id]);
      expect(usageTotals(["--archive", url])).toEqual(usageTotals([]));
    }, 120_000);
  }

  it("two pushes upgrading at once: one takes the lock and migrates, the other waits and finds it done", async () => {
    const name = await oldArchive(1);
    const url = cluster.url(name);
    const other = home("second");
    fill(other, { agy: 2, seed: 31 });
    // Hold the migrations' lock, so both pushes are seen waiting for it.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT pg_advisory_xact_lock($1)", [ARCHIVE_LOCK_KEY]);
    const a = start(h, ["archive", "push", "--archive", url]);
    const b = start(other, ["archive", "push", "--archive", url]);
    try {
      const waiting = () =>
        Number(
          cluster.psql(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
            name,
          ),
        );
      const deadline = Date.now() + 60_000;
      while (waiting() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(waiting()).toBe(2);
      // Nothing migrated while they wait.
      expect(cluster.psql("SELECT max(version) FROM txcript.migrations", name)).toBe("1");
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.stderr).toMatch(/pushed 0 sessions .*unchanged/);
    expect(rb.stderr).toMatch(/pushed 2 sessions /);
    expect([ra.status, rb.status]).toEqual([0, 0]);
    // Each migration once; the first machine's rows as they were; the second's added.
    expect(
      cluster.psql(
        "SELECT string_agg(version::text, ',' ORDER BY version) FROM txcript.migrations",
        name,
      ),
    ).toBe("1,2,3,4");
    expect(dump(name, "s.machine = 'upgrader'")).toBe(dump(ref));
    expect(
      cluster.psql("SELECT count(*) FROM txcript.sessions WHERE machine = 'second'", name),
    ).toBe("2");
  }, 120_000);
});
