/**
 * The index behind list_sessions and search_sessions, in-process over real
 * stores in a temporary HOME: calls that arrive together all see a change
 * made before they were made (refreshes shared, never skipped), and an
 * index that fails is one warning and the scan's answer, then the index
 * again once it works.
 */

import { existsSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionIndex } from "../../src/index/index.js";
import { Catalog } from "../../src/mcp/catalog.js";
import { IndexedSessions } from "../../src/mcp/indexed.js";
import type { SearchQuery } from "../../src/mcp/search.js";
import { realisticSession as claudeSession } from "../claude_code/session.js";
import { tempDir } from "../support/tmp.js";
import { makeHome, saveCommon } from "./support.js";

const CLAUDE_ID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";

function setup() {
  const home = makeHome();
  const env = { HOME: home };
  const lines: string[] = [];
  const cache = tempDir("txcript-mcp-cache-");
  const sessions = new IndexedSessions(
    { env, cache, log: (l) => lines.push(l) },
    new Catalog({ env }),
  );
  return { home, cache, sessions, lines };
}

const query = (terms: string): SearchQuery => ({ terms, limit: 20, offset: 0 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("IndexedSessions", () => {
  it("answers calls made together after a change with the change", async () => {
    const { home, sessions, lines } = setup();
    try {
      expect((await sessions.search(query("zebracorn"))).total).toBe(0);
      const t = claudeSession();
      const body = [...t.body];
      body.push({
        role: "user",
        timestamp: t.meta.timestamp,
        content: [{ type: "text", text: "and the zebracorn too" }],
      });
      const path = saveCommon(home, "claude_code", { meta: t.meta, body });
      // A different mtime for certain, whatever the file system's clock granularity.
      utimesSync(path, new Date(), new Date(Date.now() + 5_000));
      const refresh = vi.spyOn(SessionIndex.prototype, "refresh");
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 3 === 0 ? sessions.list({}) : sessions.search(query("zebracorn")),
        ),
      );
      for (const a of answers) {
        expect(a.engine).toBe("index");
        if ("hits" in a) {
          expect(a.total).toBe(1);
          expect(a.hits[0]).toMatchObject({ id: CLAUDE_ID, message: body.length, where: "user" });
        } else expect(a.sessions).toHaveLength(5);
      }
      // Shared: the first call's refresh and one after it, not one per call.
      expect(refresh.mock.calls.length).toBeLessThanOrEqual(2);
      expect(lines).toEqual([]);
    } finally {
      sessions.close();
    }
  });

  it("falls back on the scan with one warning when the index fails, and goes back to it", async () => {
    const { sessions, lines } = setup();
    try {
      const indexed = await sessions.search(query("flaky"));
      expect(indexed.engine).toBe("index");
      const broken = vi
        .spyOn(SessionIndex.prototype, "refresh")
        .mockRejectedValue(new Error("disk I/O error"));
      const a = await sessions.search(query("flaky"));
      const b = await sessions.list({});
      expect(a.engine).toBe("scan");
      expect(b.engine).toBe("scan");
      const ids = (r: typeof a) => new Set(r.hits.map((h) => `${h.id}#${h.message}`));
      expect(ids(a)).toEqual(ids(indexed));
      expect(b.sessions).toHaveLength(5);
      expect(lines).toEqual([
        "warning: the session index failed (disk I/O error); scanning the stores instead",
      ]);
      broken.mockRestore();
      expect((await sessions.search(query("flaky"))).engine).toBe("index");
      // The request's own mistakes are not the index failing.
      await expect(sessions.search(query("-flaky"))).rejects.toThrow(/not excluded/);
      expect(lines).toHaveLength(1);
    } finally {
      sessions.close();
    }
  });

  it("keeps answering while another process holds the text lock, then searches once it is free", async () => {
    const { cache, sessions, lines } = setup();
    try {
      // A live holder (this very process) of the lock that a text refresh waits for.
      const lock = join(cache, "index.db.lock");
      writeFileSync(lock, String(process.pid));
      let searched = false;
      const search = sessions.search(query("anything")).then((r) => {
        searched = true;
        return r;
      });
      // The event loop still turns: a timer fires while the search waits.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(searched).toBe(false);
      rmSync(lock);
      const answer = await search;
      expect(answer.engine).toBe("index");
      expect(lines).toEqual([]);
      expect(existsSync(lock)).toBe(false); // taken and released again
    } finally {
      sessions.close();
    }
  });
});
