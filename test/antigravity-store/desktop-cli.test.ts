/**
 * The desktop app's conversations through the built binary and the MCP
 * server, as a user meets them: listed with their surface, live status and
 * cached titles; viewed, searched, totalled, exported and continued out of;
 * and a conversation continued into the desktop app (`--surface desktop`)
 * listed back from its lane with a summaries row, the CLI lane untouched.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, call, connect } from "../mcp/support.js";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  cacheRow,
  desktopStore,
  insert,
  LIVE_ID,
  makeCache,
  ROOT_ID,
  SUB_ID,
} from "./desktop-support.js";

function fixture() {
  const { home, desktop } = desktopStore();
  const db = makeCache(desktop);
  insert(db, cacheRow(ROOT_ID, "CASCADE_RUN_STATUS_IDLE"));
  insert(db, cacheRow(SUB_ID, "CASCADE_RUN_STATUS_IDLE"));
  insert(db, cacheRow(LIVE_ID, "CASCADE_RUN_STATUS_RUNNING"));
  db.close();
  return { home, desktop, env: { HOME: home, TXCRIPT_CACHE: join(tempDir(), "index.db") } };
}

/** A fresh desktop home per test (temporary directories go after each), and a runner on it. */
function setUp() {
  const f = fixture();
  return { f, run: (args: string[]) => txcript(args, { env: f.env }), before: hashTree(f.desktop) };
}

describe("desktop conversations through the CLI", () => {
  it("list says which surface each came from, marks the running one, and --json links the subagent", () => {
    const { f, run } = setUp();
    const r = run(["list"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^\S+ {2}antigravity\/desktop {2}/);
    expect(lines.filter((l) => l.includes("[running] "))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith(LIVE_ID.slice(0, 8)))).toContain("[running] ");

    const doc = JSON.parse(run(["list", "--json"]).stdout);
    const byId = new Map(doc.sessions.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(SUB_ID)).toMatchObject({ lane: "desktop", parent_id: ROOT_ID, running: false });
    expect(byId.get(ROOT_ID)).toMatchObject({
      lane: "desktop",
      parent_id: null,
      status: "CASCADE_RUN_STATUS_IDLE",
      running: false,
    });
    expect(byId.get(LIVE_ID)).toMatchObject({
      status: "CASCADE_RUN_STATUS_RUNNING",
      running: true,
      path: join(f.desktop, "conversations", `${LIVE_ID}.db`),
    });
  });

  it("views, searches, totals usage and exports a page of a desktop conversation", () => {
    const { f, run, before } = setUp();
    const view = run(["view", ROOT_ID, "--format", "json"]);
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    const common = JSON.parse(view.stdout);
    expect(common.meta).toMatchObject({ id: ROOT_ID, cwd: "/home/dev/app" });
    const first = common.messages.find((m: { role: string }) => m.role === "user");
    const word = String(first.content[0].text)
      .split(/\W+/)
      .find((w: string) => w.length > 4);
    expect(word).toBeDefined();

    const q = JSON.parse(run(["query", String(word), "--json"]).stdout);
    const hits: { id: string; harness: string }[] = q.hits ?? q.results ?? [];
    expect(hits.some((h) => h.id === ROOT_ID && h.harness === "antigravity")).toBe(true);

    const usage = JSON.parse(run(["usage", "--json", "--by", "session"]).stdout);
    const keys = usage.groups.map((g: { key: string }) => g.key);
    expect(keys).toContain(ROOT_ID);

    const page = run(["export", ROOT_ID, "--format", "markdown"]);
    expect(page.status).toBe(0);
    expect(page.stdout).toContain(String(word));
    expect(hashTree(f.desktop)).toEqual(before);
  });

  it("continues out of a desktop conversation into Claude Code", () => {
    const { f, run, before } = setUp();
    const out = tempDir();
    const r = run(["continue", SUB_ID, "--with", "claude_code", "--out", out]);
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0] ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(hashTree(f.desktop)).toEqual(before);
  });
});

describe("continue --with antigravity --surface desktop", () => {
  it("writes into the desktop lane with a summaries row, lists it there, and leaves the CLI lane alone", () => {
    const { home, desktop, env } = fixture();
    const doc = join(tempDir(), "doc.json");
    const simple = {
      id: "desk-doc-1",
      timestamp: "2026-11-03T08:00:00Z",
      cwd: "/srv/site",
      messages: [
        { role: "user", content: "Rename the header component" },
        { role: "assistant", content: "Renamed it to SiteHeader." },
      ],
    };
    writeFileSync(doc, JSON.stringify(simple));
    const r = txcript(
      ["continue", doc, "--with", "antigravity", "--surface", "desktop", "--no-resume"],
      {
        env,
      },
    );
    expect(r.status).toBe(0);
    const id = r.stdout.split("\n")[0] ?? "";
    expect(r.stderr).toContain(join(desktop, "conversations", `${id}.db`));
    expect(r.stderr).toMatch(/open it in the Antigravity app/);
    expect(r.stderr).not.toMatch(/no summaries row/);
    expect(r.stdout).not.toMatch(/^resume:/m);
    expect(existsSync(join(home, ".gemini", "antigravity-cli"))).toBe(false);

    const db = new Database(join(desktop, "conversation_summaries.db"), { readonly: true });
    const row = db
      .prepare("SELECT * FROM conversation_summaries WHERE conversation_id = ?")
      .get(id);
    db.close();
    expect(row).toMatchObject({
      preview: "Rename the header component",
      project_id: "outside-of-project",
      status: "CASCADE_RUN_STATUS_IDLE",
      workspace_uris: '["file:///srv/site"]',
    });

    const listed = JSON.parse(txcript(["list", "--json"], { env }).stdout);
    expect(listed.sessions.find((s: { id: string }) => s.id === id)).toMatchObject({
      lane: "desktop",
      cwd: "/srv/site",
      running: false,
    });
    const viewed = JSON.parse(txcript(["view", id, "--format", "json"], { env }).stdout);
    expect(viewed.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);

    // The CLI surface, the default, is a different copy in the CLI lane.
    const cli = txcript(["continue", doc, "--with", "antigravity", "--no-resume"], { env });
    expect(cli.status).toBe(0);
    const cliId = cli.stdout.split("\n")[0] ?? "";
    expect(cliId).not.toBe(id);
    expect(
      existsSync(join(home, ".gemini", "antigravity-cli", "conversations", `${cliId}.db`)),
    ).toBe(true);
    expect(cli.stderr).toMatch(/^no summaries row written: no summaries cache at /m);
    expect(cli.stdout).toMatch(/^resume: /m);
  });

  it("refuses --surface for another harness and an unknown surface, writing nothing", () => {
    const { home, env } = fixture();
    const before = hashTree(home);
    const doc = join(ROOT_DOC_DIR, "fix-flaky-test.json");
    const other = txcript(["continue", doc, "--with", "codex", "--surface", "desktop"], { env });
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/--surface applies to antigravity only/);
    const bad = txcript(["continue", doc, "--with", "antigravity", "--surface", "ide"], { env });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown surface "ide"/);
    expect(hashTree(home)).toEqual(before);
  });
});

const ROOT_DOC_DIR = join(ROOT, "examples", "simple");

describe("desktop conversations through MCP", () => {
  let server: Connected;
  let f: ReturnType<typeof fixture>;
  beforeAll(async () => {
    f = fixture();
    server = await connect(f.home, [], { env: { TXCRIPT_CACHE: f.env.TXCRIPT_CACHE } });
  });
  afterAll(async () => server?.close());

  it("list_sessions carries the surface, status and running; read_session reads one", async () => {
    const listed = await call(server.client, "list_sessions");
    const sessions = (listed.structuredContent as { sessions: Record<string, unknown>[] }).sessions; // checked by the client against the output schema
    const live = sessions.find((s) => s.id === LIVE_ID);
    expect(live).toMatchObject({
      lane: "desktop",
      running: true,
      status: "CASCADE_RUN_STATUS_RUNNING",
    });
    expect(sessions.find((s) => s.id === SUB_ID)).toMatchObject({ parent_id: ROOT_ID });
    const read = await call(server.client, "read_session", { session: ROOT_ID });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.content)).toContain("user");
    expect(readFileSync(join(f.desktop, "conversations", `${ROOT_ID}.db`)).length).toBeGreaterThan(
      0,
    );
  });
});
