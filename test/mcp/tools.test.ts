/**
 * Every tool's main path through a spawned `txcript mcp`, on one shared
 * temporary HOME: results agree with the CLI (view, export, list) byte for
 * byte, every structured result fits its schema, ranges and budgets page
 * with cursors, and wrong input comes back as the CLI's one-line error.
 */

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportOutput, listOutput, readOutput, searchOutput } from "../../src/mcp/schemas.js";
import {
  LEGACY_SESSION_ID,
  RESUMED_SESSION_ID,
  TOOLS_SESSION_ID,
} from "../support/agy-fixtures.js";
import { txcript } from "../support/cli.js";
import { hashTree } from "../support/tmp.js";
import { type Connected, call, connect, makeHome, textOf } from "./support.js";

const CLAUDE_ID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";
const CODEX_ID = "5f0c9d3e-1111-4a2b-9c3d-222233334444";

let home: string;
let server: Connected;
let before: Record<string, string>;

beforeAll(async () => {
  home = makeHome(true);
  before = hashTree(home);
  server = await connect(home);
});

afterAll(async () => {
  await server.close();
  // Nothing the server did changed a store.
  expect(hashTree(home)).toEqual(before);
  rmSync(home, { recursive: true, force: true });
});

const cli = (args: string[]) => txcript(args, { env: { HOME: home } });

async function read(args: Record<string, unknown>) {
  const r = await call(server.client, "read_session", args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return readOutput.parse(r.structuredContent);
}

/** Follow next_cursor to the end; every page within the budget. */
async function readAll(args: Record<string, unknown>, budget?: number) {
  const pages = [];
  let page = await read(budget ? { ...args, max_chars: budget } : args);
  pages.push(page);
  while (page.next_cursor !== null) {
    page = await read({ cursor: page.next_cursor, ...(budget ? { max_chars: budget } : {}) });
    pages.push(page);
    expect(pages.length).toBeLessThan(10_000);
  }
  return pages;
}

describe("tools/list", () => {
  it("offers the four reading tools, each with input and output schemas", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "export_session",
      "list_sessions",
      "read_session",
      "search_sessions",
    ]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
  });
});

describe("list_sessions", () => {
  it("lists every store's sessions, newest first, as list --json does", async () => {
    const r = await call(server.client, "list_sessions");
    const out = listOutput.parse(r.structuredContent);
    const cliDoc = JSON.parse(cli(["list", "--json"]).stdout);
    expect(out.sessions.map((s) => [s.harness, s.id])).toEqual(
      cliDoc.sessions.map((s: { harness: string; id: string }) => [s.harness, s.id]),
    );
    expect(out.sessions).toHaveLength(5);
    for (const [i, s] of out.sessions.entries()) {
      const { uri, ...rest } = s;
      expect(rest).toEqual(cliDoc.sessions[i]);
      expect(uri).toBe(`txcript://${s.harness}/${s.id}`);
    }
    expect(out.next_cursor).toBeNull();
    expect(out.skipped_count).toBe(0);
    expect(textOf(r)).toContain(`${TOOLS_SESSION_ID}  antigravity`);
  });

  it("filters by harness, cwd and time, as list does", async () => {
    const only = async (args: Record<string, unknown>) =>
      listOutput
        .parse((await call(server.client, "list_sessions", args)).structuredContent)
        .sessions.map((s) => s.id)
        .sort();
    expect(await only({ harness: "claude_code" })).toEqual([CLAUDE_ID]);
    expect(await only({ harness: "codex" })).toEqual([CODEX_ID]);
    expect(await only({ cwd: "/tmp/agy-fixture" })).toEqual(
      [RESUMED_SESSION_ID, TOOLS_SESSION_ID].sort(),
    );
    expect(await only({ cwd: "/tmp/agy-fixture/project/" })).toHaveLength(2);
    expect(await only({ cwd: "/tmp/agy" })).toEqual([]);
    const all = listOutput.parse((await call(server.client, "list_sessions")).structuredContent);
    const times = all.sessions.map((s) => s.updated);
    const mid = times[2]!;
    const since = await only({ since: mid });
    const until = await only({ until: mid });
    // Both bounds inclusive, as the CLI's: the sessions at `mid` are in both.
    expect(since.length + until.length).toBe(5 + times.filter((t) => t === mid).length);
    expect(since).toContain(all.sessions[2]!.id);
    expect(until).toContain(all.sessions[2]!.id);
    expect(since).toContain(all.sessions[0]!.id);
    expect(until).toContain(all.sessions[4]!.id);
    expect(await only({ since: "2100-01-01" })).toEqual([]);
    expect(await only({ since: "100000d" })).toHaveLength(5);
    expect(await only({ since: "2000-01-01", until: "2100-01-01" })).toHaveLength(5);
  });

  it("pages with a cursor: every session once, in order", async () => {
    const all = listOutput.parse((await call(server.client, "list_sessions")).structuredContent);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const r = await call(server.client, "list_sessions", {
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      const out = listOutput.parse(r.structuredContent);
      expect(out.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...out.sessions.map((s) => s.id));
      cursor = out.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.sessions.map((s) => s.id));
  });

  it("refuses a bad time or cursor with one line", async () => {
    const bad = await call(server.client, "list_sessions", { since: "last tuesday" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^txcript: cannot read the time "last tuesday": .*$/);
    const cur = await call(server.client, "list_sessions", { cursor: "nonsense" });
    expect(cur.isError).toBe(true);
    expect(textOf(cur)).toBe('txcript: cursor "nonsense" is not a list cursor this server issued');
    const schema = await call(server.client, "list_sessions", { limit: 0 });
    expect(schema.isError).toBe(true);
    expect(textOf(schema)).toMatch(/Input validation error/);
  });
});

describe("search_sessions", () => {
  it("finds words in messages, tool calls, tool output and titles", async () => {
    const r = await call(server.client, "search_sessions", { query: "flaky" });
    const out = searchOutput.parse(r.structuredContent);
    expect(out.engine).toBe("index");
    expect(out.total).toBeGreaterThan(0);
    const sessions = new Set(out.hits.map((h) => h.id));
    expect(sessions).toEqual(new Set([LEGACY_SESSION_ID, CLAUDE_ID, CODEX_ID]));
    for (const h of out.hits) {
      const marked = h.highlights.map(([a, b]) => h.snippet.slice(a, b).toLowerCase());
      expect(marked.length).toBeGreaterThan(0);
      for (const m of marked) expect(m).toBe("flaky");
      expect(h.ref).toBe(h.message === null ? h.id : `${h.id}#${h.message}`);
    }
    expect(out.hits.some((h) => h.where === "title")).toBe(true);
    // A hit's ref opens that very message.
    const hit = out.hits.find((h) => h.message !== null && h.where === "user")!;
    const page = await read({ session: hit.ref });
    expect(page.selection).toEqual({ from: hit.message, to: hit.message });
    expect(page.text.toLowerCase()).toContain("flaky");
  });

  it("answers from the index exactly as txcript query --json does", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ query: "flaky" }, ["flaky"]],
      [{ query: "the", limit: 50 }, ["the", "--limit", "50"]],
      [
        { query: '"flaky login" -zzz', harness: "claude_code" },
        ['"flaky login" -zzz', "--from", "claude_code"],
      ],
      [{ query: "sleep", role: "tool" }, ["sleep", "--role", "tool"]],
      [{ query: "flak*", role: ["user", "title"] }, ["flak*", "--role", "user,title"]],
      [{ query: "test", cwd: "/home/al" }, ["test", "--cwd", "/home/al"]],
    ];
    for (const [args, cliArgs] of cases) {
      const expected = cli(["query", ...cliArgs, "--json"]);
      expect(expected.status, expected.stderr).toBe(0);
      const want = JSON.parse(expected.stdout).hits as {
        id: string;
        harness: string;
        ordinal: number;
        where: string;
        score: number;
        snippet: string;
        highlights: [number, number][];
        view: string;
      }[];
      const out = searchOutput.parse(
        (await call(server.client, "search_sessions", args)).structuredContent,
      );
      expect(out.engine).toBe("index");
      expect(out.hits.length, JSON.stringify(args)).toBe(want.length);
      expect(
        out.hits.map((h) => ({
          id: h.id,
          harness: h.harness,
          ordinal: h.message ?? 0,
          where: h.where,
          score: -h.score,
          snippet: h.snippet,
          highlights: h.highlights,
          view: h.ref,
        })),
      ).toEqual(
        want.map((w) => ({
          id: w.id,
          harness: w.harness,
          ordinal: w.ordinal,
          where: w.where,
          score: w.score,
          snippet: w.snippet,
          highlights: w.highlights,
          view: w.view,
        })),
      );
    }
    // The one-line refusals are query's own.
    for (const q of ["-flaky", "*"]) {
      const r = await call(server.client, "search_sessions", { query: q });
      expect(r.isError).toBe(true);
      expect(`${textOf(r)}\n`).toBe(cli(["query", "--", q]).stderr);
    }
  });

  it("matches whole words, phrases, prefixes and exclusions, and filters by role and harness", async () => {
    const ids = async (args: Record<string, unknown>) =>
      searchOutput.parse((await call(server.client, "search_sessions", args)).structuredContent)
        .hits;
    expect(await ids({ query: "flak" })).toEqual([]);
    expect((await ids({ query: "flak*" })).length).toBeGreaterThan(0);
    expect((await ids({ query: '"flaky login"' })).length).toBeGreaterThan(0);
    expect(await ids({ query: '"login flaky"' })).toEqual([]);
    const both = await ids({ query: "flaky", harness: "codex" });
    expect(new Set(both.map((h) => h.id))).toEqual(new Set([CODEX_ID]));
    const users = await ids({ query: "flaky", role: "user" });
    expect(users.length).toBeGreaterThan(0);
    for (const h of users) expect(h.role).toBe("user");
    const notCodex = await ids({ query: "flaky -gpt" });
    expect(notCodex.length).toBeGreaterThan(0);
    const sleep = await ids({ query: "sleep", harness: "antigravity" });
    expect(sleep.some((h) => h.where === "tool_call")).toBe(true);
  });

  it("pages hits with a cursor tied to its query", async () => {
    const all = searchOutput.parse(
      (await call(server.client, "search_sessions", { query: "the", limit: 200 }))
        .structuredContent,
    );
    expect(all.total).toBeGreaterThan(3);
    const got: string[] = [];
    let cursor: string | null = null;
    do {
      const out = searchOutput.parse(
        (
          await call(server.client, "search_sessions", {
            query: "the",
            limit: 3,
            ...(cursor ? { cursor } : {}),
          })
        ).structuredContent,
      );
      got.push(...out.hits.map((h) => `${h.id}#${h.message}/${h.where}`));
      cursor = out.next_cursor;
    } while (cursor);
    expect(got).toEqual(all.hits.map((h) => `${h.id}#${h.message}/${h.where}`));
    const first = searchOutput.parse(
      (await call(server.client, "search_sessions", { query: "the", limit: 1 })).structuredContent,
    );
    const other = await call(server.client, "search_sessions", {
      query: "flaky",
      cursor: first.next_cursor,
    });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toBe("txcript: this cursor belongs to a different search");
  });

  it("answers FTS-hostile and huge queries with results or one line", async () => {
    for (const query of ['"', "*", "(", ":", 'a"b*(c:d', "λόγος 日本語", "x".repeat(10_000)]) {
      const r = await call(server.client, "search_sessions", { query });
      if (r.isError)
        expect(textOf(r), query.slice(0, 20)).toMatch(
          /^txcript: (nothing to search for: give a word, a "phrase" or a prefix\*|a search needs at least one term that is not excluded with -)$/,
        );
      else searchOutput.parse(r.structuredContent);
    }
    const r = await call(server.client, "search_sessions", { query: "-flaky" });
    expect(r.isError).toBe(true);
  });
});

describe("read_session", () => {
  const PREFIX_RANGE = `${TOOLS_SESSION_ID.slice(0, 6)}#4-7`;
  for (const [format, args, refs] of [
    ["text", ["--no-pager"], [TOOLS_SESSION_ID, PREFIX_RANGE, CLAUDE_ID]],
    ["markdown", ["--format", "markdown", "--no-pager"], [PREFIX_RANGE, CODEX_ID]],
    ["json", ["--format", "json"], [CLAUDE_ID]],
  ] as const) {
    it(`reads as ${format} exactly what view prints, whole or paged`, async () => {
      for (const ref of refs) {
        const expected = cli(["view", ref, ...args]);
        expect(expected.status).toBe(0);
        const whole = await readAll({ session: ref, format });
        expect(whole).toHaveLength(1);
        expect(whole[0]!.text).toBe(expected.stdout);
        const paged = await readAll({ session: ref, format }, 500);
        expect(paged.length).toBeGreaterThan(1);
        for (const p of paged) expect(p.text.length).toBeLessThanOrEqual(500);
        expect(paged.map((p) => p.text).join("")).toBe(expected.stdout);
        for (const p of paged) expect(p.changed).toBe(false);
      }
    });
  }

  it("reports the selection and which messages a page holds", async () => {
    const page = await read({ session: `${CLAUDE_ID}#2-5`, format: "markdown" });
    expect(page).toMatchObject({
      harness: "claude_code",
      id: CLAUDE_ID,
      title: "Fix the flaky login test",
      selection: { from: 2, to: 5 },
      first_message: 2,
      last_message: 5,
      next_cursor: null,
    });
    expect(page.total_messages).toBeGreaterThan(5);
  });

  it("names unknown ids, ambiguous prefixes and bad ranges as the CLI does", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["zzz", { session: "zzz" }],
      [`${TOOLS_SESSION_ID}#99`, { session: `${TOOLS_SESSION_ID}#99` }],
      [`${TOOLS_SESSION_ID}#x`, { session: `${TOOLS_SESSION_ID}#x` }],
    ];
    for (const [ref, args] of cases) {
      const r = await call(server.client, "read_session", args);
      const viewed = cli(["view", ref]);
      expect(viewed.status).not.toBe(0);
      expect(r.isError).toBe(true);
      expect(`${textOf(r)}\n`).toBe(viewed.stderr);
    }
    // export_session and a harness-narrowed lookup say it as export and --from do.
    const ex = await call(server.client, "export_session", { session: "zzz" });
    expect(ex.isError).toBe(true);
    expect(`${textOf(ex)}\n`).toBe(cli(["export", "zzz"]).stderr);
    const narrowed = await call(server.client, "read_session", {
      session: CLAUDE_ID,
      harness: "codex",
    });
    expect(narrowed.isError).toBe(true);
    expect(`${textOf(narrowed)}\n`).toBe(cli(["view", CLAUDE_ID, "--from", "codex"]).stderr);
    // Two sessions share the prefix "5": one line listing both.
    const amb = await call(server.client, "read_session", { session: "5" });
    expect(amb.isError).toBe(true);
    expect(textOf(amb)).toMatch(/^txcript: "5" matches 2 sessions: .*give more of the id/);
    const none = await call(server.client, "read_session", {});
    expect(textOf(none)).toBe("txcript: give a session (an id or prefix) or a cursor");
  });
});

describe("export_session", () => {
  it("gives the Simple document export prints, whole or paged", async () => {
    for (const ref of [RESUMED_SESSION_ID, `${CODEX_ID}#2-9`]) {
      const expected = cli(["export", ref]);
      expect(expected.status).toBe(0);
      const whole = exportOutput.parse(
        (await call(server.client, "export_session", { session: ref })).structuredContent,
      );
      expect(whole.text).toBe(expected.stdout);
      expect(whole.total_chars).toBe(expected.stdout.length);
      let page = exportOutput.parse(
        (await call(server.client, "export_session", { session: ref, max_chars: 500 }))
          .structuredContent,
      );
      const texts = [page.text];
      while (page.next_cursor) {
        page = exportOutput.parse(
          (
            await call(server.client, "export_session", {
              cursor: page.next_cursor,
              max_chars: 500,
            })
          ).structuredContent,
        );
        expect(page.text.length).toBeLessThanOrEqual(500);
        texts.push(page.text);
      }
      expect(texts.length).toBeGreaterThan(2);
      expect(texts.join("")).toBe(expected.stdout);
    }
  });

  it("cannot write: continue_session is not offered without --allow-write", async () => {
    const r = await call(server.client, "continue_session", { session: CLAUDE_ID });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/continue_session not found/);
  });
});

describe("resources", () => {
  it("lists every session as txcript://<harness>/<id> and reads it as view --format markdown", async () => {
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["txcript://{harness}/{id}"]);
    const { resources } = await server.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [
        `txcript://antigravity/${TOOLS_SESSION_ID}`,
        `txcript://antigravity/${RESUMED_SESSION_ID}`,
        `txcript://antigravity/${LEGACY_SESSION_ID}`,
        `txcript://claude_code/${CLAUDE_ID}`,
        `txcript://codex/${CODEX_ID}`,
      ].sort(),
    );
    const got = await server.client.readResource({ uri: `txcript://codex/${CODEX_ID}` });
    const content = got.contents[0]!;
    expect(content.mimeType).toBe("text/markdown");
    expect("text" in content ? content.text : undefined).toBe(
      cli(["view", CODEX_ID, "--format", "markdown", "--no-pager"]).stdout,
    );
    await expect(
      server.client.readResource({ uri: "txcript://codex/00000000-dead" }),
    ).rejects.toThrow(/txcript: no session matches "00000000-dead" in Codex/);
    const done = await server.client.complete({
      ref: { type: "ref/resource", uri: "txcript://{harness}/{id}" },
      argument: { name: "id", value: "5d45" },
      context: { arguments: { harness: "antigravity" } },
    });
    expect(done.completion.values).toEqual([RESUMED_SESSION_ID]);
  });
});
