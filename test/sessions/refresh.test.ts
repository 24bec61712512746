/**
 * The sessions service's refreshes, in-process over real stores in a
 * temporary HOME: calls that arrive together (as a long-lived door, the MCP
 * server, makes them) all see a change made before they were made
 * (refreshes shared, never skipped), and a text refresh waits for another
 * process's without blocking the event loop.
 */

import { existsSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionIndex } from "../../src/index/index.js";
import { Sessions } from "../../src/sessions/sessions.js";
import { realisticSession as claudeSession } from "../claude-code/session.js";
import { makeHome, saveCommon } from "../mcp/support.js";
import { tempDir } from "../support/tmp.js";

const CLAUDE_ID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";

function setup() {
  const home = makeHome();
  const env = { HOME: home };
  const lines: string[] = [];
  const cache = tempDir("txcript-mcp-cache-");
  const sessions = new Sessions({ env, cache, warn: (l) => lines.push(l) });
  return { home, cache, sessions, lines };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Sessions refresh", () => {
  it("answers calls made together after a change with the change", async () => {
    const { home, sessions, lines } = setup();
    try {
      expect((await sessions.query("zebracorn")).total).toBe(0);
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
          i % 3 === 0 ? sessions.list({}) : sessions.query("zebracorn"),
        ),
      );
      for (const a of answers) {
        if ("hits" in a) {
          expect(a.total).toBe(1);
          expect(a.hits[0]?.session.id).toBe(CLAUDE_ID);
          expect(a.hits[0]).toMatchObject({ ordinal: body.length, kind: "user" });
        } else expect(a.sessions).toHaveLength(5);
      }
      // Shared: the first call's refresh and one after it, not one per call.
      expect(refresh.mock.calls.length).toBeLessThanOrEqual(2);
      expect(lines).toEqual([]);
    } finally {
      sessions.close();
    }
  });

  it("keeps answering while another process holds the text lock, then searches once it is free", async () => {
    const { cache, sessions, lines } = setup();
    try {
      // A live holder (this very process) of the lock that a text refresh waits for.
      const lock = join(cache, ".index.db.lock");
      writeFileSync(lock, String(process.pid));
      let searched = false;
      const search = sessions.query("anything").then((r) => {
        searched = true;
        return r;
      });
      // The event loop still turns: a timer fires while the search waits.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(searched).toBe(false);
      rmSync(lock);
      const answer = await search;
      expect(answer.total).toBe(0);
      expect(lines).toEqual([]);
      expect(existsSync(lock)).toBe(false); // taken and released again
    } finally {
      sessions.close();
    }
  });
});

describe("Sessions refresh for a long-lived door (reuseRefreshMs, refreshBehind)", () => {
  function change(home: string) {
    // A new session beside makeHome's five.
    const t = claudeSession();
    const id = "7d1e6f2a-3b4c-4d5e-8f60-000000000001";
    const path = saveCommon(home, "claude_code", { meta: { ...t.meta, id }, body: t.body });
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
  }

  it("reuses a refresh within the window, and refreshes again after it", async () => {
    const home = makeHome();
    const sessions = new Sessions({
      env: { HOME: home },
      cache: tempDir("txcript-reuse-cache-"),
      reuseRefreshMs: 60_000,
    });
    try {
      const before = (await sessions.list({})).sessions.length;
      const refresh = vi.spyOn(SessionIndex.prototype, "refresh");
      change(home);
      // Within the window: the same answer, no refresh.
      expect((await sessions.list({})).sessions.length).toBe(before);
      expect(refresh).not.toHaveBeenCalled();
      // A search needs text the plain refresh did not index: it waits for one.
      await sessions.query("anything");
      expect(refresh).toHaveBeenCalledTimes(1);
      expect((await sessions.list({})).sessions.length).toBe(before + 1);
    } finally {
      sessions.close();
    }
  });

  it("past the window with refreshBehind, answers at once and the next call sees the change", async () => {
    const home = makeHome();
    const sessions = new Sessions({
      env: { HOME: home },
      cache: tempDir("txcript-behind-cache-"),
      reuseRefreshMs: 1,
      refreshBehind: true,
    });
    try {
      const t0 = Date.now();
      const before = (await sessions.list({})).sessions.length;
      const took = Date.now() - t0;
      change(home);
      // Past the window: a refresh is reused for four times as long as it took.
      await new Promise((r) => setTimeout(r, 5 * took + 10));
      const refresh = vi.spyOn(SessionIndex.prototype, "refresh");
      // Answered from the last refresh, one started behind it.
      expect((await sessions.list({})).sessions.length).toBe(before);
      expect(refresh).toHaveBeenCalledTimes(1);
      await refresh.mock.results[0]?.value;
      await new Promise((r) => setTimeout(r, 5));
      expect((await sessions.list({})).sessions.length).toBe(before + 1);
    } finally {
      sessions.close();
    }
  });

  it("does not reuse a refresh a delete overtook: the next list lacks the deleted session", async () => {
    const home = makeHome();
    const sessions = new Sessions({
      env: { HOME: home },
      cache: tempDir("txcript-overtaken-cache-"),
      reuseRefreshMs: 60_000,
    });
    try {
      const first = (await sessions.list({})).sessions;
      const gone = first.find((s) => s.harness === "claude_code");
      if (gone === undefined) throw new Error("no Claude Code session in the home");
      // The next refresh reads the stores, then is held until the delete is done.
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      const original = SessionIndex.prototype.refresh;
      vi.spyOn(SessionIndex.prototype, "refresh").mockImplementationOnce(async function (
        this: SessionIndex,
        ...args: Parameters<SessionIndex["refresh"]>
      ) {
        const result = await original.apply(this, args);
        await held;
        return result;
      });
      // A search needs text the list's refresh did not index: it refreshes (and is held).
      const during = sessions.query("anything");
      await new Promise((r) => setTimeout(r, 20));
      const removed = await Promise.race([
        sessions.remove({ harness: gone.harness, id: gone.id }),
        new Promise<string[]>((r) => setTimeout(() => r([]), 5_000)),
      ]);
      release();
      await during;
      expect(removed.length).toBeGreaterThan(0);
      const after = (await sessions.list({})).sessions;
      expect(after.some((s) => s.harness === gone.harness && s.id === gone.id)).toBe(false);
    } finally {
      sessions.close();
    }
  });
});
