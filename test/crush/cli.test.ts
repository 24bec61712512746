/**
 * Crush through the built binary and the MCP server, as a user runs them:
 * list (with lineage), view, an HTML page, query and usage over project
 * databases built from the documented format (left untouched), MCP's
 * list_sessions and read_session, and `continue --with crush` written
 * into the project's database (or refused in one line saying why).
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { call, connect, textOf } from "../mcp/support.js";
import { txcript } from "../support/cli.js";
import { createCrushProject, everyKindSessions } from "../support/crush.js";
import { hashTree, tempDir } from "../support/tmp.js";

const ID = "5f0c3a52-6a1e-4c1b-9a51-3d1f0b6c2e11";

function setup() {
  const root = tempDir("crush-cli-root-");
  const project = tempDir("crush-cli-project-");
  createCrushProject(root, project, everyKindSessions());
  const cache = tempDir("crush-cli-cache-");
  const env = { TXCRIPT_CRUSH_ROOT: root, TXCRIPT_CACHE: cache };
  const before = [hashTree(root), hashTree(project)];
  const untouched = () => expect([hashTree(root), hashTree(project)]).toEqual(before);
  return { root, project, env, untouched };
}

interface Listed {
  id: string;
  title?: string;
  cwd?: string;
  parent_id: string | null;
  lane: string | null;
}

describe("txcript with Crush", () => {
  it("lists, views, pages, queries and totals Crush sessions, leaving the databases untouched", () => {
    const { project, env, untouched } = setup();
    const list = txcript(["list", "--json", "--from", "crush"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: Listed[] };
    const byId = new Map(doc.sessions.map((s) => [s.id, s]));
    expect([...byId.keys()].sort()).toEqual([ID, `m2$$toolu_4`, `title-${ID}`].sort());
    expect(byId.get(ID)).toMatchObject({
      title: "Fix the failing test",
      cwd: project,
      parent_id: null,
    });
    expect(byId.get(`m2$$toolu_4`)).toMatchObject({ parent_id: ID, lane: "task" });
    expect(byId.get(`title-${ID}`)).toMatchObject({ parent_id: ID, lane: "title" });

    const view = txcript(["view", ID, "--no-pager"], { env });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the constant was wrong.");
    expect(view.stdout).toContain("Summary: the constant in a.ts was fixed.");

    const page = txcript(["view", ID, "--format", "html", "--no-pager"], { env });
    expect(page.status).toBe(0);
    expect(page.stdout).toMatch(/^<!doctype html>/i);
    expect(page.stdout).toContain("Fix the failing test");

    const query = txcript(["query", "constant", "--from", "crush", "--json"], { env });
    expect(query.stderr).toBe("");
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(ID);

    // Crush records tokens per session, not per turn: usage counts no Crush tokens (docs/formats/crush.md).
    const usage = txcript(["usage", "--by", "harness", "--json"], { env });
    expect(usage.status).toBe(0);
    const groups = (
      JSON.parse(usage.stdout) as {
        groups: { key: string; sessions: number; output_tokens: number }[];
      }
    ).groups;
    const group = groups.find((g) => g.key === "crush");
    expect(group?.sessions).toBeGreaterThan(0);
    expect(group?.output_tokens).toBe(0);
    untouched();
  });

  it("serves Crush sessions over MCP", async () => {
    const { env, untouched } = setup();
    const home = tempDir("crush-mcp-home-");
    const { client, close } = await connect(home, [], { env });
    try {
      const listed = await call(client, "list_sessions", { harness: "crush" });
      expect(listed.isError).toBeFalsy();
      expect(JSON.stringify(listed.structuredContent)).toContain(`title-${ID}`);
      const read = await call(client, "read_session", { session: ID, harness: "crush" });
      expect(read.isError).toBeFalsy();
      expect(textOf(read)).toContain("Fixed: the constant was wrong.");
    } finally {
      await close();
    }
    untouched();
  });

  it("continue --with crush adds the session to the project's crush.db and prints Crush's resume line", () => {
    const { root, project, env } = setup();
    const dir = tempDir("crush-cli-doc-");
    const doc = join(dir, "doc.json");
    writeFileSync(
      doc,
      JSON.stringify({
        messages: [
          { role: "user", content: "say zebra-quartz-91" },
          { role: "assistant", content: "zebra-quartz-91" },
        ],
      }),
    );
    const database = join(project, ".crush", "crush.db");
    const others = () =>
      new Database(database, { readonly: true })
        .prepare("SELECT * FROM messages WHERE session_id = ? ORDER BY rowid")
        .all(ID);
    const before = others();
    const listBefore = hashTree(root);
    const r = txcript(["continue", doc, "--with", "crush"], { env, cwd: project });
    expect(r.stderr).toContain(`wrote Crush session`);
    expect(r.status).toBe(0);
    const [id, resume] = r.stdout.split("\n");
    expect(resume).toBe(
      `resume: cd ${project} && crush --data-dir ${join(project, ".crush")} --session ${id}`,
    );
    expect(others()).toEqual(before);
    const list = txcript(["list", "--json", "--from", "crush"], { env });
    const listed: Listed[] = JSON.parse(list.stdout).sessions;
    expect(listed.find((s) => s.id === id)?.cwd).toBe(project);
    const view = txcript(["view", id ?? "", "--no-pager"], { env });
    expect(view.stdout).toContain("zebra-quartz-91");
    // Crush's project list already named the project: it is left as it was.
    expect(hashTree(root)).toEqual(listBefore);
  });

  it("refuses continue --with crush into a newer Crush's database in one line, writing nothing", () => {
    const { project, env } = setup();
    const database = join(project, ".crush", "crush.db");
    const db = new Database(database);
    db.prepare(
      "INSERT INTO goose_db_version (version_id, is_applied) VALUES (20270101000000, 1)",
    ).run();
    db.close();
    const before = hashTree(project);
    const dir = tempDir("crush-cli-doc-");
    const doc = join(dir, "doc.json");
    writeFileSync(doc, JSON.stringify({ messages: [{ role: "user", content: "hi" }] }));
    const r = txcript(["continue", doc, "--with", "crush", "--no-resume"], { env, cwd: project });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^txcript: [^\n]*20270101000000[^\n]*\n$/);
    expect(hashTree(project)).toEqual(before);
  });

  it("skips a damaged project database naming it, lists the rest, and view fails in one line", () => {
    const { root, env } = setup();
    const broken = tempDir("crush-broken-");
    const db = createCrushProject(root, broken, [
      { id: "bad-1", title: "soon broken", messages: [] },
    ]);
    writeFileSync(db, "\u0000 not sqlite ".repeat(300));
    const list = txcript(["list", "--json", "--from", "crush", "--verbose"], { env });
    expect(list.status).toBe(0);
    expect(list.stderr).toContain(db);
    expect(list.stdout).toContain(ID);
    const view = txcript(["view", "bad-1", "--from", "crush", "--no-pager"], { env });
    expect(view.status).not.toBe(0);
    expect(view.stderr.trim().split("\n")).toHaveLength(1);
  });
});
