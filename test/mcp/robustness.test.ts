/**
 * What a long-lived server meets: corrupt and hostile stores, 100 calls at
 * once, sessions that change between calls, a 2 MB message read under a
 * budget, writes only with --allow-write (always a copy), stdout carrying
 * protocol frames and nothing else, and the MCP Inspector's CLI as a
 * second, independent client.
 */

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { Message } from "../../src/common.js";
import {
  continueOutput,
  exportOutput,
  listOutput,
  readOutput,
  searchOutput,
} from "../../src/mcp/schemas.js";
import { estimateTokens } from "../../src/mcp/tokens.js";
import { addBadFiles } from "../antigravity-store/support.js";
import { realisticSession as claudeSession } from "../claude-code/session.js";
import { buildConversation, LEGACY_SESSION_ID, TOOLS_SESSION_ID } from "../support/agy-fixtures.js";
import { ROOT, txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  agyRoot,
  BIN,
  call,
  connect,
  makeHome,
  ok,
  saveAgy,
  saveCommon,
  serverEnv,
  textOf,
} from "./support.js";

const CLAUDE_ID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";

describe("a corrupt store", () => {
  it("never kills the server: bad files are skipped by list and named by read", async () => {
    const home = makeHome();
    const good = join(agyRoot(home), "conversations", `${TOOLS_SESSION_ID}.db`);
    addBadFiles(agyRoot(home), good);
    const before = hashTree(home);
    const server = await connect(home);
    try {
      const list = listOutput.parse((await call(server.client, "list_sessions")).structuredContent);
      expect(list.sessions).toHaveLength(5);
      expect(list.skipped_count).toBeGreaterThanOrEqual(10);
      const cliList = JSON.parse(txcript(["list", "--json"], { env: { HOME: home } }).stdout);
      // The same skipped files and reasons (the CLI's index may order them otherwise).
      const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
      expect([...list.skipped].sort(byPath)).toEqual([...cliList.skipped].sort(byPath));
      for (const id of ["empty", "truncated", "foreign", "malformed", "newer"]) {
        const r = await call(server.client, "read_session", { session: id });
        expect(r.isError, id).toBe(true);
        if (id === "truncated" || id === "newer") {
          const viewed = txcript(["view", id], { env: { HOME: home } });
          expect(viewed.status).toBe(1);
          expect(`${textOf(r)}\n`).toBe(viewed.stderr);
        }
        expect(textOf(r)).not.toContain("\n");
        expect(textOf(r)).toContain(`${id}.db`);
        const e = await call(server.client, "export_session", { session: id });
        expect(e.isError).toBe(true);
      }
      // Search passes over what it cannot read and says how many.
      const found = searchOutput.parse(
        (await call(server.client, "search_sessions", { query: "flaky" })).structuredContent,
      );
      expect(found.hits.length).toBeGreaterThan(0);
      // Still serving.
      const again = listOutput.parse(
        (await call(server.client, "list_sessions")).structuredContent,
      );
      expect(again.sessions).toHaveLength(5);
      expect(server.stderr()).toBe("");
    } finally {
      await server.close();
    }
    expect(hashTree(home)).toEqual(before);
  });
});

describe("the index", () => {
  async function searchWith(home: string, args: string[], env: Record<string, string>) {
    const server = await connect(home, args, { env });
    try {
      const found = searchOutput.parse(
        (await call(server.client, "search_sessions", { query: "flaky" })).structuredContent,
      );
      const list = listOutput.parse((await call(server.client, "list_sessions")).structuredContent);
      return { found, list, stderr: server.stderr() };
    } finally {
      await server.close();
    }
  }

  it("damaged, foreign or out of reach: a warning on stderr, the same answers", async () => {
    const home = makeHome();
    const cleanCache = tempDir("txcript-mcp-cache-");
    const clean = await searchWith(home, [], { TXCRIPT_CACHE: cleanCache });
    expect(clean.stderr).toBe("");
    expect(clean.found.engine).toBe("index");
    expect(clean.found.total).toBeGreaterThan(0);
    const same = (r: Awaited<ReturnType<typeof searchWith>>) => {
      expect(r.found.engine).toBe("index");
      expect(r.found.hits).toEqual(clean.found.hits);
      expect(r.list.sessions).toEqual(clean.list.sessions);
    };

    // txcript's own index (its header, with the application id) over garbage: rebuilt.
    const damaged = tempDir("txcript-mcp-cache-");
    const header = readFileSync(join(cleanCache, "index.db")).subarray(0, 100);
    writeFileSync(
      join(damaged, "index.db"),
      Buffer.concat([header, Buffer.from("and then nonsense".repeat(300))]),
    );
    const rebuilt = await searchWith(home, [], { TXCRIPT_CACHE: damaged });
    same(rebuilt);
    expect(rebuilt.stderr).toMatch(
      /^txcript mcp: warning: the index .*index\.db was damaged .*; rebuilding it$/m,
    );

    // Another program's database: left alone, the index kept in memory.
    const foreignDir = tempDir("txcript-mcp-cache-");
    const foreign = new Database(join(foreignDir, "index.db"));
    foreign.exec("CREATE TABLE theirs (x); INSERT INTO theirs VALUES (1);");
    foreign.close();
    const foreignBefore = hashTree(foreignDir);
    const bypassed = await searchWith(home, [], { TXCRIPT_CACHE: foreignDir });
    same(bypassed);
    expect(bypassed.stderr).toMatch(
      /warning: .* is not a txcript index .*reading the stores directly this time/,
    );
    expect(hashTree(foreignDir)).toEqual(foreignBefore);

    // A cache "folder" that is a file.
    const file = join(tempDir("txcript-mcp-cache-"), "not-a-dir");
    writeFileSync(file, "x");
    const unreachable = await searchWith(home, ["--cache", join(file, "sub")], {});
    same(unreachable);
    expect(unreachable.stderr).toMatch(/warning: cannot create the index folder/);

    // --no-cache: an index in memory, nothing written.
    const untouched = tempDir("txcript-mcp-cache-");
    const memory = await searchWith(home, ["--no-cache"], { TXCRIPT_CACHE: untouched });
    same(memory);
    expect(memory.stderr).toBe("");
    expect(readdirSync(untouched)).toEqual([]);

    // --cache DIR wins over TXCRIPT_CACHE, as in the CLI.
    const flagDir = tempDir("txcript-mcp-cache-");
    same(await searchWith(home, ["--cache", flagDir], { TXCRIPT_CACHE: untouched }));
    expect(readdirSync(flagDir)).toContain("index.db");
    expect(readdirSync(untouched)).toEqual([]);
  });
});

describe("load", () => {
  it("answers 100 concurrent calls, each correct", async () => {
    const home = makeHome();
    const server = await connect(home);
    try {
      const expectedRead = txcript(["view", `${TOOLS_SESSION_ID}#2-3`, "--no-pager"], {
        env: { HOME: home },
      }).stdout;
      const calls = Array.from({ length: 100 }, (_, i) => {
        switch (i % 4) {
          case 0:
            return call(server.client, "list_sessions", { limit: 3 }).then((r) => {
              expect(listOutput.parse(r.structuredContent).sessions).toHaveLength(3);
            });
          case 1:
            return call(server.client, "search_sessions", { query: "flaky" }).then((r) => {
              expect(searchOutput.parse(r.structuredContent).total).toBeGreaterThan(0);
            });
          case 2:
            return call(server.client, "read_session", { session: `${TOOLS_SESSION_ID}#2-3` }).then(
              (r) => {
                expect(readOutput.parse(r.structuredContent).text).toBe(expectedRead);
              },
            );
          default:
            return call(server.client, "export_session", { session: LEGACY_SESSION_ID }).then(
              (r) => {
                expect(exportOutput.parse(r.structuredContent).next_cursor).toBeNull();
              },
            );
        }
      });
      await Promise.all(calls);
    } finally {
      await server.close();
    }
  });
});

describe("a session that changes between calls", () => {
  it("is read again: listing, search and an open cursor all see the change", async () => {
    const home = makeHome();
    const full = claudeSession();
    const short = { meta: full.meta, body: full.body.slice(0, 10) };
    saveCommon(home, "claude_code", short);
    const server = await connect(home);
    try {
      const count = async () =>
        listOutput.parse(
          (await call(server.client, "list_sessions", { harness: "claude_code" }))
            .structuredContent,
        ).sessions[0]!.message_count;
      const shortCount = await count();
      expect(shortCount).toBeGreaterThanOrEqual(10);
      const first = readOutput.parse(
        (await call(server.client, "read_session", { session: CLAUDE_ID, max_chars: 500 }))
          .structuredContent,
      );
      expect(first.total_messages).toBe(shortCount);
      expect(first.next_cursor).not.toBeNull();
      const marker = "zebracorn";
      const grown: Message[] = [
        ...full.body,
        {
          role: "user",
          timestamp: "2026-08-10T13:00:00Z",
          content: [{ type: "text", text: `and the ${marker}` }],
        },
      ];
      saveCommon(home, "claude_code", { meta: full.meta, body: grown });
      const grownCount = await count();
      expect(grownCount).toBeGreaterThan(shortCount);
      const hits = searchOutput.parse(
        (await call(server.client, "search_sessions", { query: marker })).structuredContent,
      );
      expect(hits.hits.map((h) => h.ref)).toEqual([`${CLAUDE_ID}#${grownCount}`]);
      // The open cursor reads on by message number and says the session changed.
      let page = readOutput.parse(
        (await call(server.client, "read_session", { cursor: first.next_cursor, max_chars: 500 }))
          .structuredContent,
      );
      expect(page.changed).toBe(true);
      expect(page.total_messages).toBe(grownCount);
      while (page.next_cursor) {
        page = readOutput.parse(
          (
            await call(server.client, "read_session", {
              cursor: page.next_cursor,
              max_chars: 100_000,
            })
          ).structuredContent,
        );
      }
      expect(page.text).toContain(marker);
      // Export cursors are character offsets: a change makes them refuse, in one line.
      const e1 = exportOutput.parse(
        (await call(server.client, "export_session", { session: CLAUDE_ID, max_chars: 500 }))
          .structuredContent,
      );
      saveCommon(home, "claude_code", short);
      const e2 = await call(server.client, "export_session", { cursor: e1.next_cursor });
      expect(e2.isError).toBe(true);
      expect(textOf(e2)).toBe(
        `txcript: session ${CLAUDE_ID} changed since this cursor was issued; export it again from the start`,
      );
      // An agy conversation rewritten with more steps is listed anew too.
      const body = buildConversation({ id: TOOLS_SESSION_ID, steps: 60, seed: 7 });
      saveAgy(home, body, true);
      const agy = listOutput
        .parse(
          (await call(server.client, "list_sessions", { harness: "antigravity" }))
            .structuredContent,
        )
        .sessions.find((s) => s.id === TOOLS_SESSION_ID)!;
      const cli = JSON.parse(
        txcript(["list", "--json"], { env: { HOME: home } }).stdout,
      ).sessions.find((s: { id: string }) => s.id === TOOLS_SESSION_ID);
      expect(agy.message_count).toBe(cli.message_count);
      expect(agy.updated).toBe(cli.updated);
    } finally {
      await server.close();
    }
  });
});

describe("budgets", () => {
  it("reads a 2 MB tool output in pages within max_chars that add up to view's output", async () => {
    const home = makeHome();
    const big = "0123456789abcdef ".repeat((2 * 1024 * 1024) / 17);
    const t = claudeSession();
    const body: Message[] = [
      { role: "user", timestamp: t.meta.timestamp, content: [{ type: "text", text: "dump it" }] },
      {
        role: "assistant",
        timestamp: t.meta.timestamp,
        content: [
          { type: "tool_use", id: "toolu_big", tool: { name: "Bash", command: "cat big.log" } },
        ],
      },
      {
        role: "user",
        timestamp: t.meta.timestamp,
        content: [{ type: "tool_result", tool_use_id: "toolu_big", content: `${big}😀` }],
      },
      { role: "assistant", timestamp: t.meta.timestamp, content: [{ type: "text", text: "done" }] },
    ];
    saveCommon(home, "claude_code", { meta: t.meta, body });
    const expected = txcript(["view", CLAUDE_ID, "--no-pager"], { env: { HOME: home } }).stdout;
    expect(expected.length).toBeGreaterThan(2_000_000);
    const server = await connect(home);
    try {
      const texts: string[] = [];
      let page = readOutput.parse(
        (await call(server.client, "read_session", { session: CLAUDE_ID })).structuredContent,
      );
      // The default budget keeps a first answer small.
      expect(page.text.length).toBeLessThanOrEqual(40_000);
      texts.push(page.text);
      while (page.next_cursor) {
        page = readOutput.parse(
          (
            await call(server.client, "read_session", {
              cursor: page.next_cursor,
              max_chars: 250_000,
            })
          ).structuredContent,
        );
        expect(page.text.length).toBeLessThanOrEqual(250_000);
        expect(page.first_message).toBeGreaterThanOrEqual(3);
        texts.push(page.text);
      }
      expect(texts.length).toBeGreaterThan(8);
      expect(texts.join("")).toBe(expected);

      // Markdown by tokens: the huge message alone is cut, with markers in the text rendering.
      const md = txcript(["view", CLAUDE_ID, "--format", "markdown", "--no-pager"], {
        env: { HOME: home },
      }).stdout;
      const mdTexts: string[] = [];
      let args: Record<string, unknown> = { session: CLAUDE_ID, format: "markdown" };
      let cuts = 0;
      for (;;) {
        const r = await call(server.client, "read_session", { ...args, max_tokens: 100_000 });
        const p = readOutput.parse(r.structuredContent);
        expect(p.estimated_tokens).toBe(estimateTokens(p.text));
        expect(p.estimated_tokens).toBeLessThanOrEqual(100_000);
        if (p.cut_message !== null) {
          cuts++;
          expect(p.cut_message).toBe(2);
          expect(textOf(r)).toContain(
            "[message #2 alone exceeds the budget and is cut here: call read_session with cursor",
          );
        }
        if (p.continued_message !== null) {
          expect(p.continued_message).toBe(2);
          expect(textOf(r).startsWith("[…continuing message #2, cut on the previous page]\n")).toBe(
            true,
          );
        }
        mdTexts.push(p.text);
        if (p.next_cursor === null) break;
        args = { cursor: p.next_cursor };
      }
      expect(cuts).toBeGreaterThan(5);
      expect(mdTexts.join("")).toBe(md);
    } finally {
      await server.close();
    }
  });

  it("cuts pages between messages, in every format, by characters or tokens", async () => {
    const home = makeHome();
    const server = await connect(home);
    try {
      for (const [format, viewArgs] of [
        ["markdown", ["--format", "markdown"]],
        ["text", []],
        ["json", ["--format", "json"]],
      ] as const) {
        const expected = txcript(["view", TOOLS_SESSION_ID, ...viewArgs, "--no-pager"], {
          env: { HOME: home },
        }).stdout;
        for (const budget of [{ max_tokens: 150 }, { max_chars: 700 }]) {
          const pages: z.infer<typeof readOutput>[] = [];
          let args: Record<string, unknown> = { session: TOOLS_SESSION_ID, format };
          for (;;) {
            const p = readOutput.parse(
              (await call(server.client, "read_session", { ...args, ...budget })).structuredContent,
            );
            pages.push(p);
            if (p.next_cursor === null) break;
            args = { cursor: p.next_cursor };
          }
          expect(pages.length, `${format} ${JSON.stringify(budget)}`).toBeGreaterThan(3);
          expect(pages.map((p) => p.text).join("")).toBe(expected);
          for (const [i, p] of pages.entries()) {
            if ("max_tokens" in budget) expect(p.estimated_tokens).toBeLessThanOrEqual(150);
            else expect(p.chars).toBeLessThanOrEqual(700);
            const next = pages[i + 1];
            if (!next || p.cut_message !== null) continue;
            // The next page opens with a whole message: in Markdown, its turn heading or speaker line.
            expect(next.continued_message).toBeNull();
            if (format === "markdown" && next.first_message !== null)
              expect(next.text).toMatch(
                new RegExp(
                  `^\\n\\n(## Turn \\d+: [^\\n]*\\n\\n)?\\*\\*(User|Assistant|Tool results)\\*\\* · #${next.first_message} `,
                ),
              );
            if (next.first_message !== null && p.last_message !== null)
              expect(next.first_message).toBe(p.last_message + 1);
          }
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe("--allow-write", () => {
  it("offers continue_session, which writes a copy, never over the source or an earlier copy", async () => {
    const home = makeHome();
    const agyBefore = hashTree(agyRoot(home));
    const server = await connect(home, ["--allow-write"]);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((t) => t.name)).toContain("continue_session");
      const one = await ok(
        server.client,
        "continue_session",
        {
          session: `${TOOLS_SESSION_ID}#1-7`,
          with: "claude_code",
        },
        continueOutput,
      );
      const two = await ok(
        server.client,
        "continue_session",
        {
          session: `${TOOLS_SESSION_ID}#1-7`,
          harness: "antigravity",
          with: "claude_code",
        },
        continueOutput,
      );
      // A repeat is recognised: the same copy, left as it was.
      expect(two.id).toBe(one.id);
      expect(one.source).toEqual({ harness: "antigravity", id: TOOLS_SESSION_ID });
      // A copy the user has worked in is never overwritten: the next repeat gets its own id.
      const worked = `${readFileSync(one.path, "utf8")}{"type":"summary","summary":"mine","leafUuid":"x"}\n`;
      writeFileSync(one.path, worked);
      const three = await ok(
        server.client,
        "continue_session",
        { session: `${TOOLS_SESSION_ID}#1-7`, harness: "antigravity", with: "claude_code" },
        continueOutput,
      );
      expect(three.id).not.toBe(one.id);
      expect(readFileSync(one.path, "utf8")).toBe(worked);
      for (const c of [one, two, three]) {
        expect(c.harness).toBe("claude_code");
        expect(c.path.startsWith(join(home, ".claude", "projects"))).toBe(true);
        expect(existsSync(c.path)).toBe(true);
        expect(c.resume?.argv[0]).toBe("claude");
      }
      // The copies are sessions like any other, with the selected messages.
      const copy = readOutput.parse(
        (
          await call(server.client, "read_session", {
            session: one.id,
            harness: "claude_code",
            format: "json",
          })
        ).structuredContent,
      );
      expect(copy.total_messages).toBe(7);
      // A Simple document continues too.
      const doc = JSON.stringify({
        id: "doc-1",
        timestamp: "2026-11-01T10:00:00Z",
        cwd: "/work/x",
        messages: [
          { role: "user", content: "hello from a document" },
          { role: "assistant", content: "hi" },
        ],
      });
      const fromDoc = continueOutput.parse(
        (await call(server.client, "continue_session", { document: doc, with: "codex" }))
          .structuredContent,
      );
      expect(fromDoc.harness).toBe("codex");
      expect(fromDoc.source).toBeNull();
      const errors: [Record<string, unknown>, RegExp][] = [
        [{ document: doc }, /^txcript: continuing a document needs with: <harness>$/],
        [
          { session: TOOLS_SESSION_ID, document: doc },
          /^txcript: give either a session or a document/,
        ],
        [
          { session: TOOLS_SESSION_ID, harness: "antigravity", with: "simple" },
          /^txcript: cannot continue into Simple document: it has no session store$/,
        ],
        [{ document: "{not json", with: "codex" }, /^txcript: <document>: /],
        [
          { session: `${TOOLS_SESSION_ID}#3`, harness: "antigravity", with: "codex" },
          /would separate a tool call from its result/,
        ],
      ];
      for (const [args, message] of errors) {
        const r = await call(server.client, "continue_session", args);
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(textOf(r)).toMatch(message);
      }
      const listed = listOutput.parse(
        (await call(server.client, "list_sessions")).structuredContent,
      );
      expect(listed.sessions).toHaveLength(8);
    } finally {
      await server.close();
    }
    expect(hashTree(agyRoot(home))).toEqual(agyBefore);
  });
});

describe("stdout", () => {
  it("carries JSON-RPC frames and nothing else, whatever comes in", async () => {
    const home = makeHome();
    addBadFiles(agyRoot(home), join(agyRoot(home), "conversations", `${TOOLS_SESSION_ID}.db`));
    const child = spawn(process.execPath, [BIN, "mcp", "--allow-write"], {
      env: serverEnv(home, { TXCRIPT_DEBUG: "1" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    const frames = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      "this is not JSON",
      { jsonrpc: "2.0", id: 2, method: "no/such/method" },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "read_session", arguments: { session: "malformed" } },
      },
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "list_sessions", arguments: {} },
      },
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "search_sessions", arguments: { query: "flaky" } },
      },
      { jsonrpc: "2.0", id: 6, method: "resources/list" },
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "continue_session",
          arguments: { session: LEGACY_SESSION_ID, with: "codex" },
        },
      },
      {
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: { name: "read_session", arguments: { session: 42 } },
      },
    ];
    for (const f of frames) child.stdin.write(`${typeof f === "string" ? f : JSON.stringify(f)}\n`);
    // Hang up at once: the server still answers everything it was asked.
    child.stdin.end();
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code).toBe(0);
    const lines = out.split("\n").filter((l) => l !== "");
    const parsed = lines.map(
      (l) =>
        JSON.parse(l) as {
          jsonrpc: string;
          id?: number | null;
          error?: unknown;
          result?: { isError?: boolean };
        },
    );
    for (const p of parsed) expect(p.jsonrpc).toBe("2.0");
    // Answers may come in any order; each request gets exactly one, and the
    // frame that is not JSON a parse error with id null (JSON-RPC 2.0, section 5).
    const byId = new Map(parsed.map((p) => [p.id, p]));
    expect(parsed.map((p) => p.id ?? null).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, null]);
    expect(byId.get(null)?.error).toMatchObject({ code: -32700 });
    expect(byId.get(2)!.error).toBeDefined();
    expect(byId.get(3)!.result?.isError).toBe(true);
    expect(byId.get(4)!.result?.isError).toBeFalsy();
    expect(byId.get(7)!.result?.isError).toBeFalsy();
    expect(byId.get(8)!.result?.isError).toBe(true);
    expect(out.endsWith("\n")).toBe(true);
    expect(err).toContain("ignored a bad frame");
  });
});

describe("MCP Inspector CLI", () => {
  it("calls search_sessions through @modelcontextprotocol/inspector-cli", () => {
    const home = makeHome();
    const inspector = join(ROOT, "node_modules", "@modelcontextprotocol", "inspector-cli", "build");
    const run = (args: string[]) => {
      // build/index.js is what `cli.js --cli` spawns (one process fewer).
      // inspector-cli 1.0.3 looks for its own package.json at ../package.json
      // relative to the working directory, so it runs from its build folder.
      const r = spawnSync(
        process.execPath,
        [join(inspector, "index.js"), process.execPath, BIN, "mcp", ...args],
        {
          cwd: inspector,
          env: serverEnv(home),
          encoding: "utf8",
          timeout: 30_000,
        },
      );
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    const found = run([
      "--method",
      "tools/call",
      "--tool-name",
      "search_sessions",
      "--tool-arg",
      "query=flaky",
    ]);
    const hits = searchOutput.parse(found.structuredContent).hits;
    expect(hits.length).toBeGreaterThan(0);
    const read = run([
      "--method",
      "tools/call",
      "--tool-name",
      "read_session",
      "--tool-arg",
      `session=${hits[0]!.ref}`,
    ]);
    expect(readOutput.parse(read.structuredContent).id).toBe(hits[0]!.id);
    const listed = run(["--method", "resources/templates/list"]);
    expect(listed.resourceTemplates).toMatchObject([{ uriTemplate: "txcript://{harness}/{id}" }]);
  });
});

describe("a failure no handler caught", () => {
  it("is said in one line and stops the server (exit 1), which serves on no longer", async () => {
    const home = makeHome();
    const trigger = join(tempDir("txcript-mcp-crash-"), "now");
    // Something escapes every handler once the test says so: a throw from a timer.
    const crash = `data:text/javascript,const t=setInterval(()=>{if(process.getBuiltinModule("node:fs").existsSync(${JSON.stringify(
      trigger,
    )})){clearInterval(t);throw new Error("boom from nowhere")}},50);t.unref()`;
    const child = spawn(process.execPath, ["--import", crash, BIN, "mcp"], {
      env: serverEnv(home),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    // The server is up once it answers initialize; then the failure comes.
    const answered = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      })}\n`,
    );
    await answered;
    writeFileSync(trigger, "");
    // stdin stays open: only the failure can end the server.
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(null);
      }, 15_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, err).toBe(1);
    expect(err.trim().split("\n")).toEqual([
      "txcript mcp: stopping after an unexpected failure: internal error: boom from nowhere (TXCRIPT_DEBUG=1 shows more)",
    ]);
  }, 30_000);
});
