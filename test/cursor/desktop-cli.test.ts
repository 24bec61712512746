/**
 * Cursor's desktop chats through the built binary, as a user runs it:
 * list, view, query and usage over a `state.vscdb` built from the
 * documented format (untouched afterwards, its login token never shown),
 * a workspace database's aichat chat beside the global ones, a second
 * list answered from the index's stamp, and `continue --with
 * cursor` refused in one line.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import {
  AICHAT_ID,
  COMPOSER_ID,
  createDesktopDatabase,
  createWorkspaceDatabase,
  desktopPath,
  NEWER_ID,
  SECRET,
  WORKSPACE_CHAT_ID,
  workspacePath,
} from "../support/cursor-desktop.js";
import { hashTree, tempDir } from "../support/tmp.js";

function desktopHome() {
  const home = tempDir("cursor-desktop-cli-");
  createDesktopDatabase({ path: desktopPath(home), wal: true }).close();
  createWorkspaceDatabase(workspacePath(home, "0f1e2d3c4b5a69788796a5b4c3d2e1f0"), [
    {
      tabId: WORKSPACE_CHAT_ID,
      chatTitle: "Workspace panel chat",
      bubbles: [
        { type: "user", text: "Where is the basket total computed?" },
        { type: "ai", text: "In src/basket.ts." },
      ],
    },
  ]);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TXCRIPT_CACHE: join(tempDir("cursor-desktop-cache-"), "c"),
  };
  return { home, env };
}

describe("txcript with Cursor's desktop chats", () => {
  it("lists, views, queries and counts tokens of desktop chats, leaving the database untouched", () => {
    const { home, env } = desktopHome();
    const before = hashTree(join(home, ".config"));
    const list = txcript(["list", "--json", "--from", "cursor"], { env });
    expect(list.status).toBe(0);
    const doc = JSON.parse(list.stdout) as { sessions: { id: string; title?: string }[] };
    expect(doc.sessions.map((s) => s.id)).toContain(COMPOSER_ID);
    expect(doc.sessions.map((s) => s.id)).toContain(AICHAT_ID);
    expect(doc.sessions.map((s) => s.id)).not.toContain(NEWER_ID);
    expect(doc.sessions.find((s) => s.id === COMPOSER_ID)?.title).toBe("Fix the cart total");
    // A workspace database's own aichat panel chat is listed, viewed and found too.
    expect(doc.sessions.find((s) => s.id === WORKSPACE_CHAT_ID)?.title).toBe(
      "Workspace panel chat",
    );
    const ws = txcript(["view", WORKSPACE_CHAT_ID, "--no-pager"], { env });
    expect(ws.status).toBe(0);
    expect(ws.stdout).toContain("In src/basket.ts.");
    expect(txcript(["query", "basket total", "--json"], { env }).stdout).toContain(
      WORKSPACE_CHAT_ID,
    );
    // A second list finds nothing changed by the stamp and answers the same.
    const again = txcript(["list", "--json", "--from", "cursor"], { env });
    expect(JSON.parse(again.stdout)).toEqual(doc);
    const view = txcript(["view", COMPOSER_ID, "--no-pager"], { env });
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("Why does npm test fail?");
    expect(view.stdout).toContain("npm test");
    expect(view.stdout).toContain("Fixed: the tax constant was wrong.");
    const query = txcript(["query", "tax constant", "--json"], { env });
    expect(query.status).toBe(0);
    expect(query.stdout).toContain(COMPOSER_ID);
    const usage = txcript(["usage", "--by", "session", "--json", "--from", "cursor"], { env });
    expect(usage.status).toBe(0);
    expect(usage.stdout).toContain("1202");
    expect(usage.stdout).toContain("527");
    for (const out of [list, view, query, usage]) expect(out.stdout).not.toContain(SECRET);
    expect(hashTree(join(home, ".config"))).toEqual(before);
  });

  it("refuses continue --with cursor in one line naming why, a desktop chat as the source", () => {
    const { env } = desktopHome();
    const r = txcript(["continue", COMPOSER_ID, "--with", "cursor", "--no-resume"], { env });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("does not write them");
  });
});
