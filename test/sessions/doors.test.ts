/**
 * One engine behind every door: over one store, the CLI (the built binary)
 * and the MCP server (spawned, through the SDK's client) give the same hits
 * for the same query, the same list for the same filters and time bounds
 * (a date, an age, `mo`, a timestamp), and the same copy id and lineage
 * when the same session is continued from either. Run in a time zone far
 * from UTC, where "a date" meaning local or UTC midnight would differ.
 */

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueOutput, listOutput, searchOutput } from "../../src/mcp/schemas.js";
import { type Connected, connect, makeHome, ok } from "../mcp/support.js";
import { txcript } from "../support/cli.js";

const TZ = "Pacific/Kiritimati"; // UTC+14: a day there starts 14 hours before UTC's
const CLAUDE_ID = "7d1e6f2a-3b4c-4d5e-8f60-718293a4b5c6";

let home: string;
let server: Connected;

function cli(args: string[]): string {
  const r = txcript(args, { env: { HOME: home, TZ } });
  if (r.status !== 0) throw new Error(`txcript ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

interface Row {
  harness: string;
  id: string;
  updated: string;
  forked_from: string | null;
  forked_from_harness: string | null;
}

function cliList(args: string[]): Row[] {
  const doc: { sessions: Row[] } = JSON.parse(cli(["list", "--json", ...args]));
  return doc.sessions;
}

async function mcpList(args: Record<string, unknown>): Promise<Row[]> {
  const out = await ok(server.client, "list_sessions", { limit: 500, ...args }, listOutput);
  return out.sessions;
}

const key = (r: Row) => `${r.harness}/${r.id}`;

beforeAll(async () => {
  home = makeHome(true);
  server = await connect(home, ["--allow-write"], { env: { TZ } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("the CLI and MCP, over one store", () => {
  it("give the same hits for the same query", async () => {
    for (const q of ["flaky", "test*", '"the test"', "file -flaky"]) {
      const doc: { hits: { harness: string; id: string; ordinal: number }[] } = JSON.parse(
        cli(["query", "--json", "--limit", "50", "--", q]),
      );
      const viaCli = doc.hits.map((h) => `${h.harness}/${h.id}#${h.ordinal}`);
      const found = await ok(
        server.client,
        "search_sessions",
        { query: q, limit: 50 },
        searchOutput,
      );
      const viaMcp = found.hits.map((h) => `${h.harness}/${h.id}#${h.message ?? 0}`);
      expect(viaMcp, q).toEqual(viaCli);
      if (q === "flaky") expect(viaCli.length).toBeGreaterThan(0);
    }
  });

  it("give the same list for the same filters and time bounds", /* dozens of CLI runs: a loaded machine needs more than the default minute */ {
    timeout: 240_000,
  }, async () => {
    const all = cliList([]);
    expect(all).toHaveLength(5);
    expect((await mcpList({})).map(key)).toEqual(all.map(key));
    const updated = (await mcpList({})).map((s) => s.updated);
    const bounds = new Set<string>(["30d", "100000d", "6mo", "1200mo", "1y", "12h"]);
    for (const u of updated) {
      bounds.add(u); // a timestamp: inclusive from both doors
      bounds.add(u.slice(0, 10)); // its UTC date, read as a local date by both
    }
    for (const b of bounds) {
      for (const which of ["since", "until"] as const) {
        const viaCli = cliList([`--${which}`, b]).map(key);
        const viaMcp = (await mcpList({ [which]: b })).map(key);
        expect(viaMcp, `${which} ${b}`).toEqual(viaCli);
      }
    }
    const filtered = { harness: "antigravity", cwd: "/tmp/agy-fixture", since: "100000d" };
    expect((await mcpList(filtered)).map(key)).toEqual(
      cliList(["--from", "antigravity", "--cwd", "/tmp/agy-fixture", "--since", "100000d"]).map(
        key,
      ),
    );
  });

  it("give the same copy id and lineage when continuing the same session", async () => {
    const viaCli = cli(["continue", CLAUDE_ID, "--with", "codex", "--no-resume"])
      .split("\n")
      .filter((l) => /^[0-9a-f-]{36}$/.test(l));
    expect(viaCli).toHaveLength(1);
    const viaMcp = await ok(
      server.client,
      "continue_session",
      { session: CLAUDE_ID, with: "codex" },
      continueOutput,
    );
    expect(viaMcp.id).toBe(viaCli[0]);
    const copyViaCli = cliList(["--from", "codex"]).find((s) => s.id === viaMcp.id);
    const copyViaMcp = (await mcpList({ harness: "codex" })).find((s) => s.id === viaMcp.id);
    expect(copyViaCli).toMatchObject({
      forked_from: CLAUDE_ID,
      forked_from_harness: "claude_code",
    });
    expect(copyViaMcp?.forked_from).toBe(copyViaCli?.forked_from);
    expect(copyViaMcp?.forked_from_harness).toBe(copyViaCli?.forked_from_harness);
    // Only one copy: the second door found the first door's.
    expect(cliList(["--from", "codex"]).filter((s) => s.forked_from === CLAUDE_ID)).toHaveLength(1);
  });
});
