/**
 * Cursor's desktop chats (`state.vscdb`) read from databases built from the
 * documented format (docs/formats/cursor.md "Desktop chats"): every bubble
 * kind, the older in-document bubbles and the aichat panel, a newer
 * document version named, drafts left out, secrets never read, a live WAL
 * database, the index's stamp, hostile and truncated files in one line,
 * the text form, and the aichat chats of per-workspace databases. The
 * CLI half is in desktop-cli.test.ts.
 */

import { mkdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CursorStore } from "../../src/harness/cursor/index.js";
import { CursorProbe } from "../../src/harness/cursor/probe.js";
import { harness } from "../../src/harness/index.js";
import { sampleOf } from "../../src/sniff.js";
import { openForWriting } from "../../src/sqlite.js";
import { timestampFromMillis } from "../../src/time.js";
import { CHAT_ID, createCursorChat } from "../support/cursor.js";
import {
  AICHAT_ID,
  COMPOSER_ID,
  CREATED,
  createDesktopDatabase,
  createWorkspaceDatabase,
  DESKTOP_CWD,
  DRAFT_ID,
  desktopPath,
  LEGACY_MAP_ID,
  LEGACY_TABS_ID,
  NEWER_ID,
  SECRET,
  WORKSPACE_CHAT_ID,
  workspacePath,
} from "../support/cursor-desktop.js";
import { hashTree, tempDir } from "../support/tmp.js";

const cursor = harness("cursor");

function home(options: { wal?: boolean; noHeaders?: boolean } = {}) {
  const h = tempDir("cursor-desktop-");
  const path = desktopPath(h);
  createDesktopDatabase({ path, ...options }).close();
  const env = { HOME: h, XDG_CONFIG_HOME: join(h, ".config") };
  return { home: h, path, env, store: new CursorStore({ env }) };
}

const at = (s: number) => timestampFromMillis(CREATED + s * 1000);

describe("Cursor desktop chats (state.vscdb)", () => {
  it("lists every chat layout with the shared database as its path, and names the newer one", async () => {
    const { path, store, home: h } = home();
    const before = hashTree(h);
    const found = await store.discover();
    expect(found.sessions.map((s) => s.id).sort()).toEqual(
      [AICHAT_ID, COMPOSER_ID, LEGACY_MAP_ID, LEGACY_TABS_ID].sort(),
    );
    expect(found.sessions.every((s) => s.path === path)).toBe(true);
    const main = found.sessions.find((s) => s.id === COMPOSER_ID);
    expect(main?.meta).toEqual({
      id: COMPOSER_ID,
      timestamp: timestampFromMillis(CREATED),
      title: "Fix the cart total",
      cwd: DESKTOP_CWD,
    });
    expect(main?.updated).toBe(timestampFromMillis(CREATED + 10_000));
    // Bubble keys, counted without reading a bubble: 10 listed rows and a stale one.
    expect(main?.message_count).toBe(11);
    expect(main?.fingerprint).toEqual({
      files: [{ path, mtime_ms: CREATED + 10_000, size: 11 }],
    });
    expect(found.sessions.map((s) => s.id)).not.toContain(DRAFT_ID);
    expect(found.skipped).toEqual([
      {
        path,
        reason:
          "1 Cursor desktop chat(s) have composerData _v 99, newer than the 17 this version reads",
      },
    ]);
    expect(store.ids()).toEqual(
      [AICHAT_ID, COMPOSER_ID, LEGACY_MAP_ID, LEGACY_TABS_ID, NEWER_ID].sort(),
    );
    expect(() => store.load(NEWER_ID)).toThrow(/composerData _v 99 is newer than the 17/);
    expect(hashTree(h)).toEqual(before);
  });

  it("reads every bubble kind: prompts, thinking, text, tool calls and results, models, tokens", () => {
    const { store } = home();
    const t = store.load(COMPOSER_ID);
    expect(t.body.layout).toBe("desktop");
    const c = cursor.codec.toCommon(t);
    expect(c.meta).toMatchObject({
      id: COMPOSER_ID,
      title: "Fix the cart total",
      cwd: DESKTOP_CWD,
    });
    // "default" is the model picker's placeholder; the bubble's model is the session's.
    expect(c.meta.model).toBe("claude-4-sonnet");
    expect(c.body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "Why does npm test fail?" }],
        timestamp: at(1),
      },
      {
        role: "assistant",
        timestamp: at(2),
        model: "claude-4-sonnet",
        usage: { input_tokens: 1202, output_tokens: 527 },
        content: [
          { type: "thinking", text: "Run the tests first.", signature: "sig-1" },
          { type: "text", text: "Running the tests." },
          {
            type: "tool_use",
            id: "toolu_1",
            tool: { name: "Bash", command: "npm test", workdir: DESKTOP_CWD },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(4),
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "1 failing: cart total" },
        ],
      },
      {
        role: "assistant",
        timestamp: at(5),
        content: [
          { type: "tool_use", id: "toolu_2", tool: { name: "Read", file_path: "src/cart.ts" } },
        ],
      },
      {
        role: "user",
        timestamp: at(5),
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: { error: "file too large" },
            is_error: true,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(6),
        content: [
          {
            type: "tool_use",
            id: "toolu_3",
            tool: { name: "Raw", tool_name: "ripgrep_raw_search", input: { pattern: "TAX" } },
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(10),
        content: [{ type: "text", text: "Fixed: the tax constant was wrong." }],
      },
    ]);
    // The unknown bubble kind stays in the Body; the stale, missing and broken rows do not.
    const body = t.body.layout === "desktop" ? t.body : undefined;
    expect(body?.bubbles.map((b) => b.bubbleId)).toEqual([
      "b1",
      "b2",
      "b3",
      "b4",
      "b5",
      "b6",
      "b7",
      "b8",
      "b10",
    ]);
    // Secrets are not kept: no encryption key, no login token.
    const text = JSON.stringify(t);
    expect(text).not.toContain("k-secret");
    expect(text).not.toContain(SECRET);
  });

  it("reads the older in-document bubbles and the aichat panel's tabs", () => {
    const { store } = home({ noHeaders: true });
    const tabs = cursor.codec.toCommon(store.load(LEGACY_TABS_ID));
    expect(tabs.meta.model).toBe("gpt-4o");
    expect(tabs.body.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "Rename cart to basket" }]],
      ["assistant", [{ type: "text", text: "Renamed." }]],
    ]);
    expect(tabs.body[1]?.timestamp).toBe(timestampFromMillis(CREATED - 98_000));
    const map = cursor.codec.toCommon(store.load(LEGACY_MAP_ID));
    expect(map.body.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "Question?" }]],
      ["assistant", [{ type: "text", text: "Answer!" }]],
    ]);
    const panel = cursor.codec.toCommon(store.load(AICHAT_ID));
    expect(panel.meta).toMatchObject({
      id: AICHAT_ID,
      title: "Old panel chat",
      timestamp: timestampFromMillis(CREATED - 50_000),
    });
    expect(panel.body.map((m) => m.content)).toEqual([
      [{ type: "text", text: "What is TAX?" }],
      [{ type: "text", text: "A constant in cart.ts." }],
    ]);
    // Without composerHeaders, the document gives the title and time.
    const main = cursor.codec.toCommon(store.load(COMPOSER_ID));
    expect(main.meta).toMatchObject({ title: "Fix the cart total", cwd: DESKTOP_CWD });
  });

  it("reads the aichat chats of each workspace's own database; an id once, the global one's first", async () => {
    const { home: h, path, store } = home();
    const ws = workspacePath(h, "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
    createWorkspaceDatabase(ws, [
      {
        tabId: WORKSPACE_CHAT_ID,
        chatTitle: "Workspace panel chat",
        lastSendTime: CREATED - 70_000,
        bubbles: [
          { type: "user", text: "Where is the cart?", id: "w1" },
          { type: "ai", text: "In src/cart.ts.", id: "w2" },
        ],
      },
      // The global database holds this id too: its chat is the one listed.
      { tabId: AICHAT_ID, bubbles: [{ type: "user", text: "shadowed copy" }] },
    ]);
    // A workspace with no chat key, and one whose database is damaged.
    createWorkspaceDatabase(workspacePath(h, "1111"));
    const damaged = workspacePath(h, "2222");
    mkdirSync(dirname(damaged), { recursive: true });
    writeFileSync(damaged, "not a database at all, just text");
    const before = hashTree(h);
    const found = await store.discover();
    const ids = found.sessions.map((x) => x.id);
    expect(ids.filter((id) => id === AICHAT_ID)).toHaveLength(1);
    expect(found.sessions.find((x) => x.id === AICHAT_ID)?.path).toBe(path);
    const listed = found.sessions.find((x) => x.id === WORKSPACE_CHAT_ID);
    expect(listed).toMatchObject({ path: ws, message_count: 2 });
    // The global database's one skipped line is its newer document; the damaged workspace has its own.
    expect(found.skipped.map((x) => x.path)).toEqual([path, damaged]);
    expect(found.skipped[1]?.reason).not.toContain("\n");
    const t = cursor.codec.toCommon(store.load(WORKSPACE_CHAT_ID));
    expect(t.meta).toMatchObject({
      id: WORKSPACE_CHAT_ID,
      title: "Workspace panel chat",
      timestamp: timestampFromMillis(CREATED - 70_000),
    });
    expect(t.body.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "Where is the cart?" }]],
      ["assistant", [{ type: "text", text: "In src/cart.ts." }]],
    ]);
    expect(cursor.codec.toCommon(store.load(AICHAT_ID)).body[0]?.content).toEqual([
      { type: "text", text: "What is TAX?" },
    ]);
    expect(store.ids()).toContain(WORKSPACE_CHAT_ID);
    expect(store.fingerprint(WORKSPACE_CHAT_ID)?.files[0]?.path).toBe(ws);
    // The probe's stamp follows a workspace database.
    const probe = new CursorProbe({ env: { HOME: h, XDG_CONFIG_HOME: join(h, ".config") } });
    const stamp = probe.stamp?.();
    createWorkspaceDatabase(workspacePath(h, "3333"), []);
    expect(probe.stamp?.()).not.toBe(stamp);
    // TXCRIPT_CURSOR_DESKTOP_DB names one database: no workspace is looked for.
    const only = new CursorStore({ env: { HOME: h, TXCRIPT_CURSOR_DESKTOP_DB: path } });
    expect(only.ids()).not.toContain(WORKSPACE_CHAT_ID);
    rmSync(dirname(workspacePath(h, "3333")), { recursive: true });
    expect(hashTree(h)).toEqual(before);
  });

  it("reads a live WAL database, committed rows the editor has not checkpointed included", async () => {
    const { path, store } = home({ wal: true });
    const writer = openForWriting(path, 1000);
    try {
      writer.pragma("wal_autocheckpoint = 0");
      writer
        .prepare("UPDATE composerHeaders SET lastUpdatedAt = ? WHERE composerId = ?")
        .run(CREATED + 20_000, COMPOSER_ID);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      const found = await store.discover();
      expect(found.sessions.find((s) => s.id === COMPOSER_ID)?.updated).toBe(
        timestampFromMillis(CREATED + 20_000),
      );
      expect(cursor.codec.toCommon(store.load(COMPOSER_ID)).body).toHaveLength(7);
    } finally {
      writer.close();
    }
  });

  it("stamps the store instead of scanning it when the database exists, and the stamp follows it", () => {
    const { path, env, store } = home();
    const probe = new CursorProbe({ env });
    expect(probe.scan).toBeUndefined();
    expect(store.scan).toBeUndefined();
    const stamp = probe.stamp?.();
    expect(stamp).toBeDefined();
    expect(stamp).toBe(store.stamp?.());
    expect(probe.stamp?.()).toBe(stamp);
    const db = openForWriting(path, 1000);
    db.prepare("INSERT INTO cursorDiskKV (key, value) VALUES ('bubbleId:x:y', '{}')").run();
    db.close();
    expect(probe.stamp?.()).not.toBe(stamp);
    // No database: every session has its own files, and the probe scans.
    const bare = tempDir("cursor-desktop-none-");
    expect(new CursorProbe({ env: { HOME: bare } }).scan).toBeDefined();
    expect(new CursorProbe({ env: { HOME: bare } }).stamp).toBeUndefined();
  });

  it("lists the agent CLI's sessions beside the desktop's, an id both hold read from the CLI", async () => {
    const { env, home: h } = home();
    createCursorChat(join(h, ".cursor"), { id: CHAT_ID });
    createCursorChat(join(h, ".cursor"), { id: COMPOSER_ID, cwd: "/elsewhere" });
    const store = new CursorStore({ env });
    const found = await store.discover();
    const ids = found.sessions.map((s) => s.id);
    expect(ids.filter((i) => i === COMPOSER_ID)).toHaveLength(1);
    expect(ids).toContain(CHAT_ID);
    expect(store.load(COMPOSER_ID).body.layout).toBe("chat");
  });

  it("names a damaged, truncated or foreign database in one line and lists the CLI's sessions", async () => {
    for (const damage of ["text", "truncate", "foreign"] as const) {
      const { path, env, home: h } = home();
      if (damage === "text") writeFileSync(path, "not a database at all\n");
      if (damage === "truncate") truncateSync(path, 1000);
      if (damage === "foreign") {
        writeFileSync(path, "");
        const db = openForWriting(path, 1000);
        db.exec("CREATE TABLE other (x)");
        db.close();
      }
      createCursorChat(join(h, ".cursor"), { id: CHAT_ID });
      const store = new CursorStore({ env });
      const found = await store.discover();
      expect(
        found.sessions.map((s) => s.id),
        damage,
      ).toEqual([CHAT_ID]);
      expect(found.skipped, damage).toHaveLength(1);
      expect(found.skipped[0]?.path, damage).toBe(path);
      expect(found.skipped[0]?.reason.split("\n"), damage).toHaveLength(1);
      if (damage === "foreign")
        expect(found.skipped[0]?.reason).toContain("not a Cursor state database");
      expect(store.ids(), damage).toEqual([CHAT_ID]);
    }
  });

  it("refuses a hostile id without touching the database, and a missing one as not found", () => {
    const { store } = home();
    expect(() => store.load("../../etc/passwd")).toThrow(/unsafe id/);
    expect(() => store.load("no-such-chat")).toThrow(/no Cursor session no-such-chat/);
    expect(store.fingerprint("no-such-chat")).toBeUndefined();
  });

  it("renders a desktop chat as text that parses back to the same Body and is detected", () => {
    const { store } = home();
    const t = store.load(COMPOSER_ID);
    const text = cursor.text.render(t);
    expect(text.split("\n")[0]).toMatch(/^\{"cursor_desktop":\{/);
    const back = cursor.text.parse(text, "x.jsonl");
    expect(back.body).toEqual(t.body);
    expect(cursor.codec.toCommon(back).body).toEqual(cursor.codec.toCommon(t).body);
    expect(cursor.text.detect?.(sampleOf(Buffer.from(text)))).toBe("text");
  });

  it("never crashes on arbitrary bubbles and documents: a Transcript or a one-line error", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.jsonValue(), { maxLength: 6 }),
        fc.array(fc.constantFrom(1, 2, "user", "ai", 3), { maxLength: 6 }),
        (composer, values, types) => {
          const bubbles = values.map((v, i) => ({
            type: types[i % Math.max(types.length, 1)] ?? 2,
            text: v,
            thinking: v,
            toolFormerData: { name: "read_file_v2", params: v, status: "completed", result: v },
            tokenCount: { inputTokens: v, outputTokens: 3 },
            createdAt: v,
            modelInfo: v,
          }));
          const header = { cursor_desktop: { source: "composer", composer, header: {} } };
          const text = [header, ...bubbles].map((v) => JSON.stringify(v)).join("\n");
          try {
            const c = cursor.codec.toCommon(cursor.text.parse(text, "x.jsonl"));
            expect(c.body.length).toBeLessThanOrEqual(bubbles.length * 2);
          } catch (e) {
            expect(e).toBeInstanceOf(Error);
            expect(String((e as Error).message)).not.toContain("\n");
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
