/**
 * Cursor desktop chats get their folder from the workspace they belong to
 * (`workspaceStorage/<hash>/workspace.json` and the workspace database's
 * `composer.composerData` list): a workspace's own aichat chat, a global
 * composer its workspace lists, a chat whose own records name a folder
 * keeping it, and multi-root, remote and malformed `workspace.json` files
 * naming none; through the library and the built CLI, files untouched.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CursorStore } from "../../src/harness/cursor/index.js";
import { folderPath } from "../../src/harness/cursor/store-workspace.js";
import { harness } from "../../src/harness/index.js";
import { txcript } from "../support/cli.js";
import {
  COMPOSER_ID,
  CREATED,
  createDesktopDatabase,
  createWorkspaceDatabase,
  DESKTOP_CWD,
  desktopPath,
  LEGACY_MAP_ID,
  LEGACY_TABS_ID,
  WORKSPACE_CHAT_ID,
  workspacePath,
  writeWorkspaceJson,
} from "../support/cursor-desktop.js";
import { hashTree, tempDir } from "../support/tmp.js";

const cursor = harness("cursor");

function machine() {
  const h = tempDir("cursor-ws-");
  createDesktopDatabase({ path: desktopPath(h) }).close();
  const env = { HOME: h, XDG_CONFIG_HOME: join(h, ".config") };
  // A folder window: its own panel chat, and two global composers it lists.
  const shop = workspacePath(h, "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  createWorkspaceDatabase(
    shop,
    [
      {
        tabId: WORKSPACE_CHAT_ID,
        chatTitle: "Workspace panel chat",
        lastSendTime: CREATED - 70_000,
        bubbles: [
          { type: "user", text: "Where is the cart?" },
          { type: "ai", text: "In src/cart.ts." },
        ],
      },
    ],
    [LEGACY_TABS_ID, COMPOSER_ID],
  );
  writeWorkspaceJson(shop, { folder: "file:///work/shop%20two" });
  // A multi-root window names no one folder; a later folder window listing the same composer loses.
  const multi = workspacePath(h, "1111");
  createWorkspaceDatabase(multi, undefined, [LEGACY_MAP_ID]);
  writeWorkspaceJson(multi, { workspace: "file:///work/all.code-workspace" });
  const later = workspacePath(h, "2222");
  createWorkspaceDatabase(later, undefined, [LEGACY_TABS_ID, LEGACY_MAP_ID]);
  writeWorkspaceJson(later, "{not json");
  return { home: h, env, store: new CursorStore({ env }) };
}

describe("Cursor workspaces: which folder a desktop chat belongs to", () => {
  it("gives a chat its workspace's folder when its own records name none", async () => {
    const { store, home } = machine();
    const before = hashTree(home);
    const found = await store.discover();
    const cwd = (id: string) => found.sessions.find((s) => s.id === id)?.meta.cwd;
    expect(cwd(WORKSPACE_CHAT_ID)).toBe("/work/shop two");
    expect(cwd(LEGACY_TABS_ID)).toBe("/work/shop two");
    // The composer's own header names its folder, which wins.
    expect(cwd(COMPOSER_ID)).toBe(DESKTOP_CWD);
    // Listed only by a multi-root window and a malformed workspace.json: no folder.
    expect(cwd(LEGACY_MAP_ID)).toBeUndefined();
    const t = cursor.codec.toCommon(store.load(LEGACY_TABS_ID));
    expect(t.meta.cwd).toBe("/work/shop two");
    // The folder travels in the text form and reads back.
    const text = cursor.text.render(store.load(WORKSPACE_CHAT_ID));
    expect(text.split("\n")[0]).toContain('"folder":"/work/shop two"');
    expect(cursor.codec.toCommon(cursor.text.parse(text)).meta.cwd).toBe("/work/shop two");
    expect(hashTree(home)).toEqual(before);
  });

  it("reads only file URIs as folders", () => {
    expect(folderPath("file:///Users/ana/code/shop")).toBe("/Users/ana/code/shop");
    expect(folderPath("vscode-remote://wsl%2Bubuntu/home/ana/shop")).toBeUndefined();
    expect(folderPath("file://host/share/x")).toBeUndefined();
    expect(folderPath("/plain/path")).toBeUndefined();
  });

  it("lists the folder through the built binary", () => {
    const { env, home } = machine();
    const before = hashTree(home);
    const r = txcript(["list", "--json", "--from", "cursor"], {
      env: { ...env, TXCRIPT_CACHE: join(tempDir("cursor-ws-cache-"), "c") },
    });
    // The one skipped file is the global database's newer composer document.
    expect(r.stderr.trim()).toBe("1 file skipped; --verbose shows why");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { sessions: { id: string; cwd?: string }[] };
    const cwd = Object.fromEntries(doc.sessions.map((s) => [s.id, s.cwd]));
    expect(cwd[LEGACY_TABS_ID]).toBe("/work/shop two");
    expect(cwd[WORKSPACE_CHAT_ID]).toBe("/work/shop two");
    const q = txcript(["list", "--json", "--from", "cursor", "--cwd", "/work/shop two"], {
      env: { ...env, TXCRIPT_CACHE: join(tempDir("cursor-ws-cache-"), "c") },
    });
    expect(q.status).toBe(0);
    const ids = (JSON.parse(q.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
    expect(ids.sort()).toEqual([LEGACY_TABS_ID, WORKSPACE_CHAT_ID].sort());
    expect(hashTree(home)).toEqual(before);
  });
});
