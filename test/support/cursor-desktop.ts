/**
 * Cursor desktop databases for tests, built from the documented format
 * (docs/formats/cursor.md "Desktop chats", from the public sources it
 * cites): a `state.vscdb` with `ItemTable` and `cursorDiskKV` (`key`,
 * `value`), `composerHeaders`, `composerData:<id>` documents and
 * `bubbleId:<id>:<bubble>` rows; the older in-document bubbles
 * (`tabs[].bubbles`, `conversationMap`) and the oldest aichat panel. No
 * Cursor binary runs here, so these are the fixtures.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonObject } from "../../src/common.js";
import { createDatabase, type Db } from "../../src/sqlite.js";

export const COMPOSER_ID = "8d1c5a3e-2b4f-4c6d-9e8f-0a1b2c3d4e5f";
export const LEGACY_TABS_ID = "1a2b3c4d-0000-4000-8000-000000000001";
export const LEGACY_MAP_ID = "1a2b3c4d-0000-4000-8000-000000000002";
export const DRAFT_ID = "1a2b3c4d-0000-4000-8000-000000000003";
export const NEWER_ID = "1a2b3c4d-0000-4000-8000-000000000004";
export const AICHAT_ID = "1a2b3c4d-0000-4000-8000-000000000005";
export const DESKTOP_CWD = "/Users/ana/code/shop";
/** A secret the editor keeps beside the chats: never read, never shown. */
export const SECRET = "eyJhbGciOi-secret-access-token";
export const CREATED = 1_790_000_000_000;

/** Where the editor keeps its global database under a home folder (Linux). */
export function desktopPath(home: string): string {
  return join(home, ".config", "Cursor", "User", "globalStorage", "state.vscdb");
}

const T = (s: number) => new Date(CREATED + s * 1000).toISOString();

/** Every bubble kind the sources show, keyed by bubble id, in conversation order. */
export function everyKindBubbles(): [string, JsonObject | string][] {
  return [
    ["b1", { _v: 3, type: 1, bubbleId: "b1", text: "Why does npm test fail?", createdAt: T(1) }],
    [
      "b2",
      {
        _v: 3,
        type: 2,
        bubbleId: "b2",
        capabilityType: 30,
        thinking: { text: "Run the tests first.", signature: "sig-1" },
        text: "",
        createdAt: T(2),
      },
    ],
    [
      "b3",
      {
        _v: 3,
        type: 2,
        bubbleId: "b3",
        text: "Running the tests.",
        modelInfo: { modelName: "claude-4-sonnet" },
        tokenCount: { inputTokens: 1200, outputTokens: 30 },
        createdAt: T(3),
      },
    ],
    [
      "b4",
      {
        _v: 3,
        type: 2,
        bubbleId: "b4",
        capabilityType: 15,
        tokenCount: { inputTokens: 2, outputTokens: 497 },
        toolFormerData: {
          tool: 15,
          name: "run_terminal_command_v2",
          toolCallId: "toolu_1",
          params: JSON.stringify({ command: "npm test", cwd: DESKTOP_CWD }),
          rawArgs: "",
          status: "completed",
          result: "1 failing: cart total",
        },
        createdAt: T(4),
      },
    ],
    [
      "b5",
      {
        _v: 3,
        type: 2,
        bubbleId: "b5",
        toolFormerData: {
          tool: 40,
          name: "read_file_v2",
          toolCallId: "toolu_2",
          params: JSON.stringify({ targetFile: "src/cart.ts" }),
          status: "error",
          result: '{"error":"file too large"}',
        },
        createdAt: T(5),
      },
    ],
    [
      "b6",
      {
        _v: 3,
        type: 2,
        bubbleId: "b6",
        toolFormerData: {
          tool: 41,
          name: "ripgrep_raw_search",
          toolCallId: "toolu_3",
          params: JSON.stringify({ pattern: "TAX" }),
          status: "started",
        },
        createdAt: T(6),
      },
    ],
    // A bubble type no source documents: kept in the Body, no message.
    ["b7", { _v: 3, type: 7, bubbleId: "b7", text: "a future kind", createdAt: T(7) }],
    // A user bubble with blank text: no message.
    ["b8", { _v: 3, type: 1, bubbleId: "b8", text: "  ", createdAt: T(8) }],
    // A row that is not JSON: left out.
    ["b9", "{not json"],
    [
      "b10",
      {
        _v: 3,
        type: 2,
        bubbleId: "b10",
        text: "Fixed: the tax constant was wrong.",
        tokenCount: { inputTokens: 0, outputTokens: 0 },
        createdAt: T(10),
      },
    ],
  ];
}

export interface DesktopFixture {
  /** The database's path (`desktopPath(home)` by default). */
  path: string;
  /** Keep `composerHeaders` out, as databases before that table have it. */
  noHeaders?: boolean;
  /** WAL mode, as the running editor keeps it. */
  wal?: boolean;
}

function kv(db: Db, key: string, value: JsonObject | string): void {
  db.prepare("INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)").run(
    key,
    typeof value === "string" ? value : JSON.stringify(value),
  );
}

/** A composer document listing `order` as its conversation. */
export function composerDoc(id: string, order: readonly string[]): JsonObject {
  return {
    _v: 17,
    composerId: id,
    name: "Fix the cart total",
    createdAt: CREATED,
    lastUpdatedAt: CREATED + 10_000,
    modelConfig: { modelName: "default" },
    fullConversationHeadersOnly: order.map((b) => ({ bubbleId: b, type: 1 })),
    workspaceIdentifier: { id: "abc", uri: { fsPath: DESKTOP_CWD } },
    blobEncryptionKey: "k-secret-1",
    speculativeSummarizationEncryptionKey: "k-secret-2",
    text: "",
  };
}

/** A database holding every layout; returns it open (close it before reading). */
export function createDesktopDatabase(fixture: DesktopFixture): Db {
  mkdirSync(dirname(fixture.path), { recursive: true });
  const db = createDatabase(fixture.path);
  if (fixture.wal) db.pragma("journal_mode = WAL");
  db.exec(
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);" +
      "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
  );
  if (!fixture.noHeaders)
    db.exec(
      "CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, value TEXT)",
    );
  const item = db.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)");
  item.run("cursorAuth/accessToken", SECRET);
  item.run(
    "workbench.panel.aichat.view.aichat.chatdata",
    JSON.stringify({
      tabs: [
        {
          tabId: AICHAT_ID,
          chatTitle: "Old panel chat",
          lastSendTime: CREATED - 50_000,
          bubbles: [
            { type: "user", text: "What is TAX?", id: "x1" },
            { type: "ai", text: "A constant in cart.ts.", id: "x2", modelType: "gpt-4" },
          ],
        },
        { tabId: "empty-tab", bubbles: [] },
      ],
    }),
  );
  const bubbles = everyKindBubbles();
  // The document lists b1..b10 and one bubble with no row; an unlisted row is a stale one.
  const order = [...bubbles.map(([b]) => b), "gone"];
  kv(db, `composerData:${COMPOSER_ID}`, composerDoc(COMPOSER_ID, order));
  for (const [b, value] of bubbles) kv(db, `bubbleId:${COMPOSER_ID}:${b}`, value);
  kv(db, `bubbleId:${COMPOSER_ID}:stale`, { type: 1, text: "stale draft", bubbleId: "stale" });
  kv(db, `checkpointId:${COMPOSER_ID}:c1`, { files: [] });
  if (!fixture.noHeaders)
    db.prepare(
      "INSERT INTO composerHeaders (composerId, workspaceId, createdAt, lastUpdatedAt, isArchived, isSubagent, recency, checkpointAt, value) VALUES (?, ?, ?, ?, 0, 0, 1, NULL, ?)",
    ).run(
      COMPOSER_ID,
      "0123456789abcdef0123456789abcdef",
      CREATED,
      CREATED + 10_000,
      JSON.stringify({
        type: "head",
        name: "Fix the cart total",
        workspaceIdentifier: { uri: { fsPath: DESKTOP_CWD } },
      }),
    );
  kv(db, `composerData:${LEGACY_TABS_ID}`, {
    composerId: LEGACY_TABS_ID,
    createdAt: CREATED - 100_000,
    modelConfig: { modelName: "gpt-4o" },
    tabs: [
      {
        bubbles: [
          { type: "user", text: "Rename cart to basket", timestamp: CREATED - 99_000 },
          { type: "ai", text: "Renamed.", timestamp: CREATED - 98_000 },
        ],
      },
    ],
  });
  kv(db, `composerData:${LEGACY_MAP_ID}`, {
    composerId: LEGACY_MAP_ID,
    createdAt: CREATED - 200_000,
    conversationMap: {
      c1: {
        bubbles: [
          { role: "human", content: "Question?" },
          { role: "bot", message: "Answer!" },
        ],
      },
    },
  });
  kv(db, `composerData:${DRAFT_ID}`, { _v: 17, composerId: DRAFT_ID, text: "half typed" });
  kv(db, `composerData:${NEWER_ID}`, { _v: 99, composerId: NEWER_ID });
  kv(db, `bubbleId:${NEWER_ID}:n1`, { _v: 9, type: 1, text: "from the future" });
  return db;
}

/** An aichat panel chat kept in a workspace's own database. */
export const WORKSPACE_CHAT_ID = "1a2b3c4d-0000-4000-8000-000000000006";

/** A workspace's database under a home folder (Linux): `workspaceStorage/<hash>/state.vscdb` [C]. */
export function workspacePath(home: string, hash: string): string {
  return join(home, ".config", "Cursor", "User", "workspaceStorage", hash, "state.vscdb");
}

/**
 * A workspace's `state.vscdb`: an `ItemTable` holding the aichat panel's
 * tabs given (none: no chat key at all), and an unrelated key.
 */
export function createWorkspaceDatabase(
  path: string,
  tabs?: JsonObject[],
  composers?: readonly string[],
): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = createDatabase(path);
  db.exec("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);");
  const item = db.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)");
  item.run("workbench.explorer.treeViewState", "{}");
  if (tabs !== undefined)
    item.run("workbench.panel.aichat.view.aichat.chatdata", JSON.stringify({ tabs }));
  // The workspace's composer list: heads only, no message bodies [TalkReplay, cursor-efficiency].
  if (composers !== undefined)
    item.run(
      "composer.composerData",
      JSON.stringify({
        allComposers: composers.map((composerId, i) => ({
          type: "head",
          composerId,
          name: `composer ${i}`,
          createdAt: CREATED - i * 1000,
          lastUpdatedAt: CREATED,
          unifiedMode: "agent",
          isArchived: false,
          isDraft: false,
        })),
        selectedComposerIds: composers.slice(0, 1),
      }),
    );
  db.close();
}

/** `workspace.json` beside a workspace's database: which folder (or multi-root file) the window is. */
export function writeWorkspaceJson(dbPath: string, value: JsonObject | string): void {
  writeFileSync(
    join(dirname(dbPath), "workspace.json"),
    typeof value === "string" ? value : JSON.stringify(value),
  );
}
