/**
 * The older-layout readers through the MCP server (the same Sessions
 * service as the CLI): a Cursor desktop chat and a Kiro CLI older-engine
 * conversation are listed and read page by page, the stores untouched and
 * the editor's login token never in an answer.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listOutput, readOutput } from "../../src/mcp/schemas.js";
import { call, connect, textOf } from "../mcp/support.js";
import {
  COMPOSER_ID,
  createDesktopDatabase,
  desktopPath,
  SECRET,
} from "../support/cursor-desktop.js";
import { CONV_ID, createKiroDatabase, kiroDatabasePath } from "../support/kiro-conversations.js";
import { hashTree, tempDir } from "../support/tmp.js";

describe("older layouts through MCP", () => {
  it("lists and reads a Cursor desktop chat and a Kiro conversation", async () => {
    const home = tempDir("older-mcp-");
    createDesktopDatabase({ path: desktopPath(home) }).close();
    createKiroDatabase(kiroDatabasePath(home)).close();
    const before = hashTree(home);
    const server = await connect(home, [], {
      env: {
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_DATA_HOME: join(home, ".local", "share"),
        TXCRIPT_CACHE: join(tempDir("older-mcp-cache-"), "c"),
      },
    });
    try {
      const list = await call(server.client, "list_sessions", { limit: 50 });
      expect(list.isError, textOf(list)).toBeFalsy();
      const ids = listOutput.parse(list.structuredContent).sessions.map((s) => s.id);
      expect(ids).toContain(COMPOSER_ID);
      expect(ids).toContain(CONV_ID);
      for (const [id, said] of [
        [COMPOSER_ID, "Fixed: the tax constant was wrong."],
        [CONV_ID, "Fixed the type of n."],
      ] as const) {
        const r = await call(server.client, "read_session", { session: id });
        expect(r.isError, textOf(r)).toBeFalsy();
        const page = readOutput.parse(r.structuredContent);
        const text = JSON.stringify(page);
        expect(text).toContain(said);
        expect(text).not.toContain(SECRET);
      }
    } finally {
      await server.close();
    }
    expect(hashTree(home)).toEqual(before);
  });
});
