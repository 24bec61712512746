/**
 * Ids that open (issue 30): Codex ids are time-based, so sessions started
 * the same minute share their first 8 characters. Every place that prints
 * an id prints one that `view` opens, and an ambiguous prefix lists the
 * candidates (harness, date, title) with the advice its door can follow.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choices } from "../../src/cli/commands/pick.js";
import { shortener, uniquePrefixWidth } from "../../src/id-forms.js";
import type { Sessions } from "../../src/sessions/sessions.js";
import type { Discovered } from "../../src/transcript.js";
import { call, connect, textOf } from "../mcp/support.js";
import { ROOT, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const FIXTURE = readFileSync(join(ROOT, "test/fixtures/codex/session.jsonl"), "utf8");
const FIXTURE_ID = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b";
/** Four sessions started within one minute: the first 13 characters agree. */
const IDS = [
  "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b",
  "019a1b2c-3d4e-7f11-8a9b-0c1d2e3f4a5b",
  "019a1b2c-3d4e-7f22-8a9b-0c1d2e3f4a5b",
  "019a1b2c-3d4e-7f33-8a9b-0c1d2e3f4a5b",
];

function codexHome(): string {
  // Shared by the whole file (tempDir's are removed after each test).
  const home = mkdtempSync(join(tmpdir(), "txcript-ids-"));
  const dir = join(home, ".codex", "sessions", "2026", "08", "10");
  mkdirSync(dir, { recursive: true });
  IDS.forEach((id, i) => {
    const text = FIXTURE.replaceAll(FIXTURE_ID, id).replace(
      "The login test is flaky",
      `Session ${i}: the login test is flaky`,
    );
    writeFileSync(join(dir, `rollout-2026-08-10T12-00-0${i}-${id}.jsonl`), text);
  });
  return home;
}

let home: string;
const run = (args: string[]) =>
  txcript(args, { env: { HOME: home, CODEX_HOME: join(home, ".codex") } });

/** The id-looking word at the start of each line (`#n` refs cut at the `#`). */
function printedIds(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => m[1] ?? "");
}

function opensEach(ids: readonly string[]) {
  expect(ids).toHaveLength(IDS.length);
  expect(new Set(ids).size).toBe(IDS.length);
  for (const id of ids) {
    expect(id.length).toBeGreaterThanOrEqual(8);
    const r = run(["view", id]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  }
}

beforeAll(() => {
  home = codexHome();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the shortening", () => {
  it("keeps each id at the shortest prefix of at least 8 that no other shares", () => {
    const short = shortener([...IDS, "7b0e2c1a-0000-4000-8000-000000000000"]);
    expect(IDS.map(short)).toEqual([
      "019a1b2c-3d4e-7f0",
      "019a1b2c-3d4e-7f1",
      "019a1b2c-3d4e-7f2",
      "019a1b2c-3d4e-7f3",
    ]);
    expect(short("7b0e2c1a-0000-4000-8000-000000000000")).toBe("7b0e2c1a");
    // An id that is a prefix of another comes back whole; one outside the set too.
    const nested = shortener(["abcdefgh", "abcdefghij"]);
    expect(nested("abcdefgh")).toBe("abcdefgh");
    expect(nested("abcdefghij")).toBe("abcdefghi");
    expect(nested("zzz")).toBe("zzz");
    expect(uniquePrefixWidth(IDS)).toBe(17);
  });
});

describe("every place that prints ids prints ones that open", () => {
  it("list", () => {
    const r = run(["list"]);
    expect(r.status).toBe(0);
    opensEach(printedIds(r.stdout, /^(\S+)\s+codex/gm));
  });

  it("query", () => {
    const r = run(["query", "flaky"]);
    expect(r.status).toBe(0);
    const refs = [...new Set(printedIds(r.stdout, /^(\S+?)(?:#\d+)?\s+codex/gm))];
    opensEach(refs);
    // A message reference opens too.
    const withOrdinal = r.stdout.match(/^(\S+#\d+)\s+codex/m)?.[1];
    expect(withOrdinal).toBeDefined();
    expect(run(["view", withOrdinal ?? ""]).status).toBe(0);
  });

  it("usage --by session", () => {
    const r = run(["usage", "--by", "session"]);
    expect(r.status).toBe(0);
    opensEach(printedIds(r.stdout, /│\s*(019a\S+)\s+codex/g));
  });

  it("the HTML index of export --all", () => {
    const out = join(tempDir("txcript-ids-out-"), "site");
    const r = run(["export", "--all", "--format", "html", "--out", out]);
    expect(r.stderr).toMatch(/^wrote 4 sessions/);
    expect(r.status).toBe(0);
    const index = readFileSync(join(out, "index.html"), "utf8");
    opensEach(printedIds(index, /<span class="ord">([^<]+)<\/span>/g));
  });

  it("the picker", async () => {
    const sessions: Discovered[] = JSON.parse(run(["list", "--json"]).stdout).sessions.map(
      (s: { id: string; harness: string; title: string }) => ({
        id: s.id,
        harness: s.harness,
        meta: { id: s.id, title: s.title },
      }),
    );
    const noIndex = { query: async () => ({ hits: [] }) } as unknown as Sessions; // only the fuzzy part is used
    const names = (await choices(noIndex, sessions, "", 200)).flatMap((c) =>
      "name" in c && typeof c.name === "string" ? [c.name] : [],
    );
    opensEach(printedIds(names.join("\n"), /^(\S+)\s+codex/gm));
  });
});

describe("an ambiguous prefix", () => {
  it("lists the candidates with harness, date and title; the CLI offers more of the id", () => {
    const r = run(["view", "019a1b2c"]);
    expect(r.status).toBe(1);
    const line = r.stderr.trimEnd();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain('"019a1b2c" matches 4 sessions');
    expect(line).toContain(
      `${IDS[1]} (codex, 2026-08-10 12:00, "Session 1: the login test is flaky`,
    );
    // All four are Codex sessions: --from would not tell them apart.
    expect(line).toMatch(/; give more of the id$/);
    expect(line).not.toContain("--from");
  });

  describe("through MCP", () => {
    let server: Awaited<ReturnType<typeof connect>>;
    beforeAll(async () => {
      server = await connect(home);
    });
    afterAll(async () => {
      await server.close();
    });

    it("says the same without --from, which MCP does not have", async () => {
      const r = await call(server.client, "read_session", { session: "019a1b2c" });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toContain(`${IDS[2]} (codex, 2026-08-10 12:00,`);
      expect(text).toMatch(/; give more of the id$/);
      expect(text).not.toContain("--from");
      // The ids MCP prints are whole, so they open.
      const listed = await call(server.client, "list_sessions", {});
      for (const id of IDS) expect(textOf(listed)).toContain(id);
    });
  });
});
