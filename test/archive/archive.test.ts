/**
 * The shared archive against a real PostgreSQL server (a throwaway cluster,
 * test/support/postgres.ts): two machines pushing at once, reading from
 * either, usage that adds up, idempotent and resumable pushes, updates,
 * one-line failures that write nothing, and content levels and redaction
 * checked by reading the server's tables.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let pg: Cluster;
let db = 0;

/** A fresh database on the cluster, and its URL. */
function database(): { name: string; url: string } {
  const name = `arch${++db}`;
  pg.psql(`CREATE DATABASE ${name}`);
  return { name, url: pg.url(name) };
}

function sql(name: string, text: string): string {
  return pg.psql(text, name);
}

beforeAll(() => {
  pg = startPostgres();
}, 120_000);

afterAll(() => {
  removeHomes();
  pg?.stop();
});

interface UsageDoc {
  totals: { input_tokens: number; output_tokens: number; messages: number };
}

function usageTotal(h: Home, extra: string[] = []): UsageDoc["totals"] {
  const r = run(h, ["usage", "--json", ...extra]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const doc: UsageDoc = JSON.parse(r.stdout);
  return doc.totals;
}

describe("two machines", () => {
  let a: Home;
  let b: Home;
  let ma: Marks;
  let mb: Marks;
  let url: string;
  let name: string;

  beforeAll(async () => {
    a = home("laptop");
    b = home("devbox");
    fill(a, { agy: 4, claude: 2, seed: 1 });
    fill(b, { agy: 3, codex: 2, seed: 5 });
    ma = markedSession(a, "alpha", "11111111-1111-4111-8111-111111111111");
    mb = markedSession(b, "bravo", "22222222-2222-4222-8222-222222222222");
    ({ url, name } = database());
    // Both first pushes at once: the schema is created once, under the lock.
    const [ra, rb] = await Promise.all([
      start(a, ["archive", "push", "--archive", url]).done,
      start(b, ["archive", "push", "--archive", url]).done,
    ]);
    expect(ra.stderr).toMatch(/pushed 7 sessions .* as machine laptop/);
    expect(rb.stderr).toMatch(/pushed 6 sessions .* as machine devbox/);
    expect([ra.status, rb.status]).toEqual([0, 0]);
  }, 120_000);

  it("keeps every session once, with its machine and user", () => {
    expect(
      sql(name, "SELECT machine, os_user, count(*) FROM txcript.sessions GROUP BY 1, 2 ORDER BY 1"),
    ).toBe("devbox|user-devbox|6\nlaptop|user-laptop|7");
    expect(sql(name, "SELECT max(version) FROM txcript.migrations")).toBe("1");
  });

  it("finds both machines' sessions from either", () => {
    for (const h of [a, b]) {
      const one = run(h, ["query", "--json", "--archive", url, ma.prompt]);
      expect(one.status).toBe(0);
      expect(JSON.parse(one.stdout).hits.map((x: { id: string }) => x.id)).toEqual([ma.id]);
      const two = run(h, ["query", "--json", "--archive", url, mb.prompt]);
      expect(JSON.parse(two.stdout).hits.map((x: { id: string }) => x.id)).toEqual([mb.id]);
    }
  });

  it("lists by machine and user", () => {
    const all = JSON.parse(run(a, ["list", "--json", "--archive", url]).stdout);
    expect(all.sessions).toHaveLength(13);
    const laptop = JSON.parse(
      run(b, ["list", "--json", "--archive", url, "--machine", "laptop"]).stdout,
    );
    expect(laptop.sessions).toHaveLength(7);
    const dev = JSON.parse(
      run(b, ["list", "--json", "--archive", url, "--user", "user-devbox"]).stdout,
    );
    expect(dev.sessions).toHaveLength(6);
    expect(dev.sessions.map((s: { id: string }) => s.id)).toContain(mb.id);
  });

  it("totals usage as the sum of each machine's local usage", () => {
    const la = usageTotal(a);
    const lb = usageTotal(b);
    const remote = usageTotal(a, ["--archive", url]);
    expect(remote.input_tokens).toBe(la.input_tokens + lb.input_tokens);
    expect(remote.output_tokens).toBe(la.output_tokens + lb.output_tokens);
    expect(remote.messages).toBe(la.messages + lb.messages);
    expect(la.input_tokens).toBeGreaterThan(0);
  });

  it("shows a colleague's session", () => {
    const r = run(a, ["view", "--archive", url, mb.id]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(mb.prompt);
  });

  it("a second push changes no row", () => {
    const snapshot = () =>
      sql(
        name,
        `SELECT (SELECT string_agg(sid || ':' || xmin, ',' ORDER BY sid) FROM txcript.sessions),
                (SELECT count(*) || ':' || max(xmin::text) FROM txcript.chunks),
                (SELECT count(*) || ':' || max(xmin::text) FROM txcript.usage)`,
      );
    const before = snapshot();
    const r = run(a, ["archive", "push", "--archive", url]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/pushed 0 sessions .*\(7 unchanged/);
    expect(snapshot()).toBe(before);
  });
});
