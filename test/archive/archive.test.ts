/**
 * The shared archive against a real PostgreSQL server (a throwaway cluster,
 * test/support/postgres.ts): two machines pushing at once, reading from
 * either, usage that adds up, idempotent and resumable pushes, updates,
 * one-line failures that write nothing, and content levels and redaction
 * checked by reading the server's tables.
 */

import { type ChildProcess, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shellWord } from "../../src/sessions/resume.js";
import { BIN } from "../support/cli.js";
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

/** The address `txcript serve` prints, the one line on its stdout. */
function address(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(line.trim());
    });
    child.once("exit", () => reject(new Error("serve exited before printing its URL")));
  });
}

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

// Each test drives the CLI against a live PostgreSQL many times: on a loaded machine (a
// run at load 26 timed two out) that takes more than the default minute.
vi.setConfig({ testTimeout: 240_000 });

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
    expect(sql(name, "SELECT max(version) FROM txcript.migrations")).toBe("4");
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

  it("reads the URL from a variable named by --archive, keeping it out of the arguments", () => {
    const byUrl = JSON.parse(run(a, ["list", "--json", "--archive", url]).stdout).sessions;
    const r = run(a, ["list", "--json", "--archive", "TXCRIPT_ARCHIVE"], { TXCRIPT_ARCHIVE: url });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).sessions).toEqual(byUrl);
    const unset = run(a, ["list", "--archive", "TEAM_ARCHIVE"]);
    expect(unset.status).not.toBe(0);
    expect(unset.stderr.trim().split("\n")).toHaveLength(1);
    expect(unset.stderr).toContain("TEAM_ARCHIVE is not set");
  });

  it("shows a colleague's session", () => {
    const r = run(a, ["view", "--archive", url, mb.id]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(mb.prompt);
  });

  it("exports a colleague's session as Markdown and Simple JSON", () => {
    const md = run(a, ["export", "--archive", url, mb.id, "--format", "markdown"]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain(mb.prompt);
    const simple = run(a, ["export", "--archive", url, mb.id]);
    expect(simple.status).toBe(0);
    expect(simple.stdout).toContain(mb.prompt);
    expect(JSON.parse(simple.stdout)).toBeTypeOf("object");
  });

  it("continues a colleague's session here", () => {
    const r = run(a, ["continue", "--archive", url, mb.id, "--with", "codex", "--no-resume"]);
    expect(r.stderr).toContain("wrote Codex session");
    expect(r.status).toBe(0);
    const local = JSON.parse(run(a, ["list", "--json", "--from", "codex"]).stdout).sessions;
    const copy = local.find((s: { forked_from: string | null }) => s.forked_from === mb.id);
    expect(copy).toBeDefined();
    const shown = run(a, ["view", copy.id]);
    expect(shown.stdout).toContain(mb.prompt);
    // Pushed, the copy counts no token twice: the archive still sums the machines.
    expect(run(a, ["archive", "push", "--archive", url]).stderr).toMatch(/pushed 1 session /);
    const remote = usageTotal(b, ["--archive", url]);
    expect(remote.input_tokens).toBe(usageTotal(a).input_tokens + usageTotal(b).input_tokens);
    expect(remote.messages).toBe(usageTotal(a).messages + usageTotal(b).messages);
  });

  it("serves the archive over MCP", async () => {
    const { connect, call, textOf } = await import("../mcp/support.js");
    const server = await connect(a.dir, ["--archive", url], { env: a.env });
    try {
      const found = await call(server.client, "search_sessions", { query: mb.prompt });
      expect(found.isError).toBeFalsy();
      expect(textOf(found)).toContain(mb.id);
      const read = await call(server.client, "read_session", { session: mb.id });
      expect(textOf(read)).toContain(mb.prompt);
    } finally {
      await server.close();
    }
  });

  it("serves the archive in the web app: both machines listed, a colleague's words found and shown", async () => {
    // The CLI's answers first: a synchronous run between two fetches stalls
    // this process's event loop, and a kept-alive socket the server closed
    // meanwhile would be reused ("other side closed"), as seen under load.
    const cli = JSON.parse(run(a, ["list", "--json", "--archive", url]).stdout).sessions;
    const byCli = JSON.parse(run(a, ["query", "--json", "--archive", url, mb.prompt]).stdout).hits;
    const served = start(a, ["serve", "--port", "0", "--archive", url]);
    try {
      const base = await address(served.child);
      const get = async (path: string) => {
        const r = await fetch(new URL(path, base));
        expect(r.status, path).toBe(200);
        return r;
      };
      const list = await (await get("/api/sessions?limit=500")).json();
      // The same sessions as `list --archive` (the CLI's door to the same archive).
      expect(list.total).toBe(cli.length);
      expect(cli.length).toBeGreaterThanOrEqual(13);
      const ids = list.sessions.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([ma.id, mb.id]));
      const search = await (await get(`/api/search?q=${encodeURIComponent(mb.prompt)}`)).json();
      const found = search.hits.map((h: { id: string }) => h.id);
      expect(found).toContain(mb.id);
      expect(found).toEqual(byCli.map((h: { id: string }) => h.id));
      const hit = list.sessions.find((s: { id: string }) => s.id === mb.id);
      const page = await (await get(`/s/${hit.harness}/${mb.id}`)).text();
      expect(page).toContain(mb.prompt);
    } finally {
      served.child.kill("SIGTERM");
      await served.done;
    }
  }, 60_000);

  it("serves the archive with --allow-write: continue offered, delete neither offered nor done", async () => {
    const served = start(a, ["serve", "--port", "0", "--allow-write", "--archive", url]);
    try {
      const printed = new URL(await address(served.child));
      const token = printed.searchParams.get("token") ?? "";
      expect(token).not.toBe("");
      const base = printed.origin;
      const hit = JSON.parse(run(a, ["list", "--json", "--archive", url]).stdout).sessions.find(
        (s: { id: string }) => s.id === mb.id,
      );
      const before = sql(name, "SELECT count(*) FROM txcript.sessions");
      const page = await (await fetch(`${base}/s/${hit.harness}/${mb.id}`)).text();
      expect(page).toContain('id="continue"');
      expect(page).not.toContain('id="delete"');
      expect(page).not.toContain("Delete");
      const r = await fetch(`${base}/api/sessions/${hit.harness}/${mb.id}/delete`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, Origin: base },
      });
      expect(r.status).toBe(405);
      const body = await r.json();
      expect(body.error).toContain("not deleted from here");
      expect(body.error.split("\n")).toHaveLength(1);
      expect(sql(name, "SELECT count(*) FROM txcript.sessions")).toBe(before);
      expect(sql(name, `SELECT count(*) FROM txcript.sessions WHERE id = '${mb.id}'`)).toBe("1");
    } finally {
      served.child.kill("SIGTERM");
      await served.done;
    }
  }, 60_000);

  it("a second push changes no row", () => {
    const snapshot = () =>
      sql(
        name,
        `SELECT (SELECT string_agg(sid || ':' || xmin, ',' ORDER BY sid) FROM txcript.sessions),
                (SELECT count(*) || ':' || max(xmin::text) FROM txcript.chunks),
                (SELECT count(*) || ':' || max(xmin::text) FROM txcript.usage)`,
      );
    const before = snapshot();
    const r = run(b, ["archive", "push", "--archive", url]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/pushed 0 sessions .*\(6 unchanged/);
    expect(snapshot()).toBe(before);
  });
});

/** Every text the archive holds for its sessions: transcripts, listings, chunks and their vectors. */
function everything(name: string): string {
  return sql(
    name,
    `SELECT coalesce(string_agg(coalesce(transcript, '') || discovered::text || coalesce(title, '') || coalesce(cwd, ''), ''), '') FROM txcript.sessions
     UNION ALL SELECT coalesce(string_agg(body || tsv::text, ''), '') FROM txcript.chunks`,
  );
}

describe("content levels and redaction", () => {
  let c: Home;
  let m: Marks;
  beforeAll(() => {
    c = home("levels");
    m = markedSession(c, "charlie", "33333333-3333-4333-8333-333333333333");
  });

  it("sends no tool output and no secret by default", () => {
    const { name, url } = database();
    const r = run(c, ["archive", "push", "--archive", url]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("transcripts without tool output");
    expect(r.stderr).toMatch(/redacted \([1-9]\d* replaced\)/);
    const all = everything(name);
    expect(all).toContain(m.prompt);
    expect(all).not.toContain(m.toolOutput);
    expect(all).not.toContain(m.secret);
    expect(all).not.toContain(c.dir);
    expect(sql(name, "SELECT count(*) FROM txcript.chunks WHERE kind = 'tool_output'")).toBe("0");
  });

  it("sends only usage and metadata at --content metadata", () => {
    const { name, url } = database();
    const r = run(c, ["archive", "push", "--archive", url, "--content", "metadata"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("no messages");
    const all = everything(name);
    expect(all).not.toContain(m.prompt);
    expect(all).not.toContain(m.toolOutput);
    expect(all).not.toContain(m.secret);
    expect(sql(name, "SELECT count(*) FROM txcript.chunks")).toBe("0");
    expect(sql(name, "SELECT count(*) FROM txcript.sessions WHERE transcript IS NOT NULL")).toBe(
      "0",
    );
    expect(sql(name, "SELECT sum(output) FROM txcript.usage")).toBe("7");
    const v = run(c, ["view", "--archive", url, m.id]);
    expect(v.status).toBe(1);
    expect(v.stderr.trim().split("\n")).toHaveLength(1);
    expect(v.stderr).toContain("metadata only");
  });

  it("sends tool output at --content full, still redacted", () => {
    const { name, url } = database();
    expect(run(c, ["archive", "push", "--archive", url, "--content", "full"]).status).toBe(0);
    const all = everything(name);
    expect(all).toContain(m.toolOutput);
    expect(all).not.toContain(m.secret);
    const q = run(c, ["query", "--json", "--archive", url, m.toolOutput]);
    expect(JSON.parse(q.stdout).hits).toHaveLength(1);
  });

  it("sends the secret only when told --no-redact, and says so", () => {
    const { name, url } = database();
    const r = run(c, ["archive", "push", "--archive", url, "--content", "full", "--no-redact"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("NOT redacted");
    expect(everything(name)).toContain(m.secret);
  });
});

/** Every session's key, version and row counts: equal for two archives holding the same. */
function shape(db: string): string {
  return sql(
    db,
    `SELECT s.harness, s.id, s.version,
       (SELECT count(*) FROM txcript.chunks c WHERE c.sid = s.sid),
       (SELECT count(*) FROM txcript.usage u WHERE u.sid = s.sid)
     FROM txcript.sessions s ORDER BY s.harness, s.id`,
  );
}

describe("updates, interruptions and failures", () => {
  it("updates a session changed here and keeps one deleted here", () => {
    const h = home("changer");
    const { name, url } = database();
    markedSession(h, "delta", "44444444-4444-4444-8444-444444444444");
    markedSession(h, "gone", "55555555-5555-4555-8555-555555555555");
    expect(run(h, ["archive", "push", "--archive", url]).status).toBe(0);
    markedSession(h, "echo", "44444444-4444-4444-8444-444444444444");
    expect(run(h, ["delete", "--yes", "55555555-5555-4555-8555-555555555555"]).status).toBe(0);
    const r = run(h, ["archive", "push", "--archive", url]);
    expect(r.stderr).toMatch(/pushed 1 session .*\(0 unchanged/);
    const hits = (word: string) =>
      JSON.parse(run(h, ["query", "--json", "--archive", url, word]).stdout).hits.length;
    expect(hits("echoprompt")).toBe(1);
    expect(hits("deltaprompt")).toBe(0);
    expect(hits("goneprompt")).toBe(1);
    expect(sql(name, "SELECT count(*) FROM txcript.sessions")).toBe("2");
  });

  it("prunes, when asked, this machine's sessions deleted here, and no other machine's", () => {
    const h = home("pruner");
    const other = home("keeper");
    const { name, url } = database();
    const kept = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
    const gone = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
    markedSession(h, "kilo", kept);
    markedSession(h, "lima", gone);
    // The same id on another machine: not this machine's to prune.
    markedSession(other, "mike", gone);
    expect(run(h, ["archive", "push", "--archive", url]).status).toBe(0);
    expect(run(other, ["archive", "push", "--archive", url]).status).toBe(0);
    expect(run(h, ["delete", "--yes", gone]).status).toBe(0);
    const rows = () =>
      sql(name, "SELECT machine || ' ' || id FROM txcript.sessions ORDER BY machine, id");
    const all = `keeper ${gone}\npruner ${kept}\npruner ${gone}`;
    // Without --prune a session deleted here stays.
    expect(run(h, ["archive", "push", "--archive", url]).status).toBe(0);
    expect(rows()).toBe(all);
    const pruned = run(h, ["archive", "push", "--archive", url, "--prune"]);
    expect(pruned.status).toBe(0);
    expect(pruned.stderr).toContain("pruned 1 session deleted here");
    expect(rows()).toBe(`keeper ${gone}\npruner ${kept}`);
    // Its chunks and usage rows went with it; the other machine's are whole.
    expect(sql(name, "SELECT count(*) FROM txcript.chunks WHERE body LIKE '%limaprompt%'")).toBe(
      "0",
    );
    const hits = (word: string) =>
      JSON.parse(run(h, ["query", "--json", "--archive", url, word]).stdout).hits.length;
    expect(hits("mikeprompt")).toBe(1);
    expect(hits("kiloprompt")).toBe(1);
    const json = JSON.parse(
      run(h, ["archive", "push", "--archive", url, "--prune", "--json"]).stdout,
    );
    expect(json).toMatchObject({ pruned: 0, sent: 0, unchanged: 1 });
    expect(rows()).toBe(`keeper ${gone}\npruner ${kept}`);
  });

  it("a push killed with SIGKILL and run again leaves every session exactly once", async () => {
    const h = home("killed");
    fill(h, { agy: 200, seed: 9 });
    // The local index first, so the kill lands in the push itself.
    expect(run(h, ["usage", "--json"]).status).toBe(0);
    const ref = database();
    expect(run(h, ["archive", "push", "--archive", ref.url]).status).toBe(0);
    const { name, url } = database();
    const { child, done } = start(h, ["archive", "push", "--archive", url]);
    let seen = 0;
    for (let i = 0; i < 2000 && seen === 0; i++) {
      try {
        seen = Number(sql(name, "SELECT count(*) FROM txcript.sessions"));
      } catch {
        // the schema is not there yet
      }
    }
    child.kill("SIGKILL");
    await done;
    const atKill = Number(sql(name, "SELECT count(*) FROM txcript.sessions"));
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(200);
    const again = run(h, ["archive", "push", "--archive", url]);
    expect(again.status).toBe(0);
    expect(shape(name)).toBe(shape(ref.name));
    expect(shape(name).split("\n")).toHaveLength(200);

    // On a terminal (util-linux `script`), the push draws its progress and warns once that the
    // password typed in the URL shows in the process list; the password itself never shows.
    if (spawnSync("script", ["--version"]).status !== 0) return;
    const third = database();
    const line = [process.execPath, BIN, "archive", "push", "--archive", third.url]
      .map(shellWord)
      .join(" ");
    const tty = spawnSync("script", ["-qec", line, "/dev/null"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", TERM: "xterm", NO_COLOR: "1", ...h.env },
      timeout: 150_000,
    });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/pushing: \d+\/200/);
    expect(tty.stdout).toMatch(/pushed 200 sessions/);
    expect(tty.stdout).toMatch(/password is visible to other users in the process list/);
    expect(tty.stdout).not.toContain(pg.password);
    expect(shape(third.name)).toBe(shape(ref.name));
  }, 300_000);

  it("a push cut by a server restart fails in one line, and the next push completes it", async () => {
    const h = home("restarted");
    fill(h, { agy: 200, seed: 11 });
    expect(run(h, ["usage", "--json"]).status).toBe(0);
    const ref = database();
    expect(run(h, ["archive", "push", "--archive", ref.url]).status).toBe(0);
    const { name, url } = database();
    const { done } = start(h, ["archive", "push", "--archive", url]);
    let seen = 0;
    for (let i = 0; i < 2000 && seen === 0; i++) {
      try {
        seen = Number(sql(name, "SELECT count(*) FROM txcript.sessions"));
      } catch {
        // the schema is not there yet
      }
    }
    pg.restart();
    const cut = await done;
    expect(cut.status).toBe(1);
    expect(cut.stderr.trim().split("\n")).toHaveLength(1);
    expect(cut.stderr).toMatch(/^txcript: postgres:\/\/txcript_admin:\*\*\*@/);
    const atCut = Number(sql(name, "SELECT count(*) FROM txcript.sessions"));
    expect(atCut).toBeLessThan(200);
    expect(run(h, ["archive", "push", "--archive", url]).status).toBe(0);
    expect(shape(name)).toBe(shape(ref.name));
  }, 180_000);

  it("says in one line what is wrong with the archive, its password hidden", () => {
    const h = home("oops");
    markedSession(h, "foxtrot", "66666666-6666-4666-8666-666666666666");
    const { name, url } = database();
    const oneLine = (r: { status: number; stderr: string; stdout: string }, pattern: RegExp) => {
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toContain(pg.password);
      expect(r.stderr).not.toContain("Wr0ng-Pa55");
      expect(r.stderr).not.toMatch(/\s+at /);
    };
    const wrong = pg.url(name, pg.user, "Wr0ng-Pa55");
    oneLine(run(h, ["archive", "push", "--archive", wrong]), /refused the user name or password/);
    oneLine(run(h, ["list", "--archive", wrong]), /refused the user name or password/);
    oneLine(
      run(h, ["archive", "push", "--archive", `postgres://u:Wr0ng-Pa55@127.0.0.1:1/x`]),
      /connection refused/,
    );
    oneLine(run(h, ["archive", "push", "--archive", pg.url("nosuchdb")]), /no such database/);
    // A host that does not resolve, and TLS asked of a server without it (the setting reaches the client).
    oneLine(
      run(h, ["archive", "push", "--archive", "postgres://u:Wr0ng-Pa55@no-such-host.invalid/x"]),
      /no-such-host\.invalid/,
    );
    oneLine(run(h, ["list", "--archive", `${pg.url(name)}?sslmode=require`]), /SSL|TLS/i);
    const scheme = run(h, ["archive", "push", "--archive", "http://u:Wr0ng-Pa55@example.org/x"]);
    expect(scheme.stderr.trim().split("\n")).toHaveLength(1);
    expect(scheme.stderr).toContain("postgres://");
    expect(scheme.stderr).not.toContain("Wr0ng-Pa55");
    expect(sql(name, "SELECT count(*) FROM pg_namespace WHERE nspname = 'txcript'")).toBe("0");

    // A newer schema: refused, nothing written.
    expect(run(h, ["archive", "push", "--archive", url]).status).toBe(0);
    // The password out of the URL (and so out of the process list): PGPASSWORD.
    const bare = `postgres://${pg.user}@${pg.host}:${pg.port}/${name}`;
    const listed = run(h, ["list", "--json", "--archive", bare], { PGPASSWORD: pg.password });
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).sessions).toHaveLength(1);
    sql(name, "INSERT INTO txcript.migrations (version) VALUES (99)");
    markedSession(h, "golf", "66666666-6666-4666-8666-666666666666");
    const before = sql(name, "SELECT string_agg(sid || ':' || xmin, ',') FROM txcript.sessions");
    oneLine(run(h, ["archive", "push", "--archive", url]), /version 99, newer than this txcript's/);
    oneLine(run(h, ["list", "--archive", url]), /version 99, newer/);
    expect(sql(name, "SELECT string_agg(sid || ':' || xmin, ',') FROM txcript.sessions")).toBe(
      before,
    );

    // A schema named txcript that txcript did not make.
    const foreign = database();
    sql(foreign.name, "CREATE SCHEMA txcript; CREATE TABLE txcript.sessions (x integer)");
    oneLine(run(h, ["archive", "push", "--archive", foreign.url]), /did not make/);
    expect(sql(foreign.name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'txcript'")).toBe(
      "1",
    );
  });
});

/** The roles docs/archive.md tells an administrator to create, word for word. */
const ROLES_SQL = `
CREATE ROLE txcript_pusher NOLOGIN;
CREATE ROLE txcript_reader NOLOGIN;
GRANT USAGE ON SCHEMA txcript TO txcript_pusher, txcript_reader;
GRANT SELECT ON txcript.migrations TO txcript_pusher, txcript_reader;
GRANT SELECT, INSERT, UPDATE, DELETE ON txcript.sessions, txcript.chunks, txcript.usage TO txcript_pusher;
GRANT SELECT ON txcript.sessions, txcript.chunks, txcript.usage TO txcript_reader;
`;

/**
 * An archive with the roles of docs/archive.md: alice and bob push (one
 * session each), carol reads; the login roles are made once per cluster.
 */
let rolesMade = false;
function roleArchive() {
  const { name, url } = database();
  const admin = home("admin");
  expect(run(admin, ["archive", "push", "--archive", url]).status).toBe(0);
  if (!rolesMade) {
    sql(name, ROLES_SQL);
    sql(
      name,
      `CREATE ROLE alice LOGIN PASSWORD 'alice-pw' IN ROLE txcript_pusher;
       CREATE ROLE bob LOGIN PASSWORD 'bob-pw' IN ROLE txcript_pusher;
       CREATE ROLE carol LOGIN PASSWORD 'carol-pw' IN ROLE txcript_reader;
       CREATE ROLE dave LOGIN PASSWORD 'dave-pw';`,
    );
    rolesMade = true;
  } else {
    // Roles are the cluster's: a second database needs only the grants.
    sql(name, ROLES_SQL.replace(/^CREATE ROLE .*$/gm, ""));
  }
  const as = (user: string) => pg.url(name, user, `${user}-pw`);
  const a = home("alice-box");
  const b = home("bob-box");
  const ma = markedSession(a, "hotel", "77777777-7777-4777-8777-777777777777");
  const mb = markedSession(b, "india", "88888888-8888-4888-8888-888888888888");
  expect(run(a, ["archive", "push", "--archive", as("alice")]).stderr).toMatch(/pushed 1 session/);
  expect(run(b, ["archive", "push", "--archive", as("bob")]).stderr).toMatch(/pushed 1 session/);
  return { name, url, as, a, b, ma, mb };
}

/** The plans PostgreSQL logs (auto_explain) for `statement` and the statements it runs, as `role`. */
async function plansAs(
  dbName: string,
  role: string,
  setup: string[],
  statement: string,
  params: unknown[],
): Promise<string> {
  const { default: Pg } = await import("pg");
  const client = new Pg.Client({ connectionString: pg.url(dbName) });
  const logged: string[] = [];
  client.on("notice", (n) => logged.push(n.message ?? ""));
  await client.connect();
  try {
    // As the superuser: load auto_explain, then become the role (session_user too).
    for (const q of [
      "LOAD 'auto_explain'",
      "SET auto_explain.log_min_duration = 0",
      "SET auto_explain.log_nested_statements = on",
      "SET client_min_messages = log",
      ...setup,
      `SET SESSION AUTHORIZATION ${role}`,
    ])
      await client.query(q);
    await client.query(statement, params);
    return logged.join("\n");
  } finally {
    await client.end();
  }
}

describe("least-privilege roles (row-level security)", () => {
  it("lets a pusher read only its own sessions, and a reader read all", () => {
    const { as, a, b, ma, mb } = roleArchive();
    const ids = (h: Home, user: string) =>
      JSON.parse(run(h, ["list", "--json", "--archive", as(user)]).stdout).sessions.map(
        (x: { id: string }) => x.id,
      );
    expect(ids(a, "alice")).toEqual([ma.id]);
    expect(ids(b, "bob")).toEqual([mb.id]);
    const hits = (user: string, word: string) =>
      JSON.parse(run(a, ["query", "--json", "--archive", as(user), word]).stdout).hits.length;
    expect(hits("alice", mb.prompt)).toBe(0);
    expect(hits("carol", mb.prompt)).toBe(1);
    expect(hits("carol", ma.prompt)).toBe(1);
    const v = run(a, ["view", "--archive", as("alice"), mb.id]);
    expect(v.status).toBe(1);
    expect(v.stderr).toContain("no session in the archive");
    // A reader cannot push.
    const c = home("carol-box");
    markedSession(c, "juliet", "99999999-9999-4999-8999-999999999999");
    const r = run(c, ["archive", "push", "--archive", as("carol")]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("permission denied");
    expect(r.stderr).not.toContain("carol-pw");
  });
  it("searches through the search function for every role: the GIN index, and only what the policies let it see", async () => {
    const { name, url, as, a, ma, mb } = roleArchive();
    const ids = (user: string, word: string, extra: string[] = []) =>
      JSON.parse(
        run(a, ["query", "--json", "--archive", as(user), word, ...extra]).stdout,
      ).hits.map((x: { id: string }) => x.id);
    // Each pusher finds its own session and not the other's; the reader finds both; the owner too.
    expect(ids("alice", ma.prompt)).toEqual([ma.id]);
    expect(ids("alice", mb.prompt)).toEqual([]);
    expect(ids("bob", ma.prompt)).toEqual([]);
    expect(ids("bob", mb.prompt)).toEqual([mb.id]);
    expect(ids("carol", ma.prompt)).toEqual([ma.id]);
    expect(ids("carol", mb.prompt)).toEqual([mb.id]);
    expect(ids("carol", mb.prompt, ["--machine", "alice-box"])).toEqual([]);
    expect(ids("carol", mb.prompt, ["--machine", "bob-box"])).toEqual([mb.id]);
    const owner = JSON.parse(run(a, ["query", "--json", "--archive", url, mb.prompt]).stdout);
    expect(owner.hits.map((x: { id: string }) => x.id)).toEqual([mb.id]);
    // A login role in neither group: refused, as reading the tables would be.
    const dave = run(a, ["query", "--archive", as("dave"), mb.prompt]);
    expect(dave.status).toBe(1);
    expect(dave.stderr.trim().split("\n")).toHaveLength(1);
    expect(dave.stderr).toContain("permission denied");
    // Called directly by a pusher, the function still answers only its own rows, whatever the arguments.
    const { default: Pg } = await import("pg");
    const alice = new Pg.Client({ connectionString: as("alice") });
    await alice.connect();
    try {
      const direct = await alice.query(
        "SELECT count(*)::int AS n FROM txcript.search(phraseto_tsquery('simple', $1), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 100, 0)",
        [mb.prompt],
      );
      expect(direct.rows[0]?.n).toBe(0);
      const counted = await alice.query(
        "SELECT txcript.search_count(phraseto_tsquery('simple', $1), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::int AS n",
        [ma.prompt],
      );
      expect(counted.rows[0]?.n).toBe(1);
    } finally {
      await alice.end();
    }

    // The plans. The tables are tiny, so the planner would scan them whatever it may use:
    // with sequential scans off, it shows what it is allowed to use.
    const off = ["SET enable_seqscan = off"];
    const match = "c.tsv @@ phraseto_tsquery('simple', $1)";
    // Under the policies, a reader's match cannot use the GIN index (@@ is not leakproof)...
    const direct = await plansAs(
      name,
      "carol",
      off,
      `SELECT count(*) FROM txcript.chunks c WHERE ${match}`,
      [mb.prompt],
    );
    expect(direct).toMatch(/ on chunks c/);
    expect(direct).not.toMatch(/Index Scan on chunks_tsv/);
    // ...through the search function it does, for the count and for the page.
    for (const fn of [
      "SELECT txcript.search_count(phraseto_tsquery('simple', $1), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
      "SELECT * FROM txcript.search(phraseto_tsquery('simple', $1), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 20, 0)",
    ]) {
      const plans = await plansAs(name, "carol", off, fn, [mb.prompt]);
      expect(plans).toMatch(/Bitmap Index Scan on chunks_tsv/);
      expect(plans).not.toMatch(/Seq Scan on chunks/);
    }
  });
});
