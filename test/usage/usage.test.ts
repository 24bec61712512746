/**
 * `txcript usage` through the built binary over real temporary stores
 * with known totals: each harness's counting rules (Claude Code's split
 * responses once, Codex's repeated token_count once, agy's gen_metadata
 * rows not added to the steps' usage, Gemini CLI and OpenCode), every
 * grouping, --since/--until on message times, cost from the shipped and a
 * supplied price table (blank for an unknown model), bad inputs, the JSON
 * schema, and a warm run agreeing with a cold one and with --no-cache.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { hashTree, tempDir } from "../support/tmp.js";
import {
  type Expected,
  emptyExpected,
  type Tally,
  writeAgyStore,
  writeClaudeStore,
  writeCodexStore,
  writeSavedStore,
} from "../support/usage-stores.js";

interface Home {
  dir: string;
  env: Record<string, string>;
}

function home(): Home {
  const dir = tempDir("txcript-usage-");
  return {
    dir,
    env: {
      HOME: dir,
      TZ: "UTC",
      TXCRIPT_CACHE: join(dir, "cache"),
      TXCRIPT_CLAUDE_CODE_ROOT: join(dir, "claude", "projects"),
      TXCRIPT_CODEX_ROOT: join(dir, "codex"),
      TXCRIPT_ANTIGRAVITY_ROOT: join(dir, "agy"),
      TXCRIPT_GEMINI_CLI_ROOT: join(dir, "gemini"),
      TXCRIPT_OPENCODE_ROOT: join(dir, "opencode"),
    },
  };
}

function usage(h: Home, args: string[], env: Record<string, string> = {}) {
  const r = txcript(["usage", ...args], { env: { ...h.env, ...env } });
  return r;
}

interface Row {
  key: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  total_tokens: number;
  messages: number;
  sessions: number;
  cost: number | null;
  unpriced_tokens: number;
  models: ({ model: string | null } & Omit<Row, "key" | "sessions" | "models">)[];
}

function json(h: Home, args: string[]): { groups: Row[]; totals: Row } & Record<string, unknown> {
  const r = usage(h, [...args, "--json"]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

const tally = (r: Row | Tally): Tally => ({
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  cache_read_input_tokens: r.cache_read_input_tokens,
  cache_creation_input_tokens: r.cache_creation_input_tokens,
  messages: r.messages,
});

function byKey(rows: Row[]): Record<string, Tally> {
  return Object.fromEntries(rows.map((r) => [String(r.key), tally(r)]));
}

function expectedByKey(map: Map<string, Tally>): Record<string, Tally> {
  return Object.fromEntries([...map].map(([k, v]) => [k, tally(v)]));
}

function agree(h: Home, from: string, e: Expected): void {
  const days = json(h, ["--from", from, "--by", "day"]);
  expect(byKey(days.groups)).toEqual(expectedByKey(e.byDay));
  expect(tally(days.totals)).toEqual(tally(e.total));
  const models = json(h, ["--from", from, "--by", "model"]);
  expect(byKey(models.groups)).toEqual(expectedByKey(e.byModel));
}

describe("usage counts each harness's tokens once", () => {
  it("Claude Code: a response split over three lines with its usage on each counts once", () => {
    const h = home();
    const e = writeClaudeStore(join(h.dir, "claude"), { sessions: 4, turns: 5 });
    agree(h, "claude_code", e);
  });

  it("Codex: every token_count written twice counts once; per-response usage, cache read split out", () => {
    const h = home();
    const e = writeCodexStore(join(h.dir, "codex"), { sessions: 3, turns: 4 });
    agree(h, "codex", e);
  });

  it("agy: the steps' metadata usage only; gen_metadata's per-generation and conversation rows add nothing", () => {
    const h = home();
    const e = writeAgyStore(join(h.dir, "agy"), { sessions: 3, turns: 4 });
    agree(h, "antigravity", e);
  });

  it("Gemini CLI and OpenCode: each answer's tokens", () => {
    const h = home();
    const g = writeSavedStore("gemini_cli", join(h.dir, "gemini"), {
      sessions: 2,
      turns: 3,
      model: "gemini-2.5-pro",
    });
    agree(h, "gemini_cli", g);
    const o = writeSavedStore("opencode", join(h.dir, "opencode"), {
      sessions: 2,
      turns: 3,
      model: "claude-sonnet-4-5",
    });
    agree(h, "opencode", o);
  });
});

describe("usage reports", () => {
  function everything(h: Home): Expected {
    const all = emptyExpected();
    writeClaudeStore(join(h.dir, "claude"), { sessions: 3, turns: 3 }, all);
    writeCodexStore(join(h.dir, "codex"), { sessions: 2, turns: 3 }, all);
    writeAgyStore(join(h.dir, "agy"), { sessions: 2, turns: 2 }, all);
    return all;
  }

  it("groups by every key with the same totals, cold, warm and --no-cache, leaving the stores alone", () => {
    const h = home();
    const all = everything(h);
    const before = hashTree(h.dir.replace(/$/, "/claude"));
    const cold = usage(h, ["--json"]);
    const warm = usage(h, ["--json"]);
    expect(warm.stdout).toBe(cold.stdout);
    const direct = txcript(["--no-cache", "usage", "--json"], { env: h.env });
    expect(direct.stdout).toBe(cold.stdout);
    expect(hashTree(join(h.dir, "claude"))).toEqual(before);
    for (const by of ["day", "week", "month", "model", "harness", "session", "cwd"]) {
      const doc = json(h, ["--by", by]);
      expect(doc.by).toBe(by);
      expect(tally(doc.totals)).toEqual(tally(all.total));
      const sum = doc.groups.reduce((a, g) => a + g.total_tokens, 0);
      expect(sum).toBe(doc.totals.total_tokens);
    }
    const harnesses = json(h, ["--by", "harness"]);
    expect(harnesses.groups.map((g) => g.key).sort()).toEqual([
      "antigravity",
      "claude_code",
      "codex",
    ]);
    const sessions = json(h, ["--by", "session"]);
    expect(sessions.groups).toHaveLength(7);
    expect(sessions.totals.sessions).toBe(7);
    const weeks = json(h, ["--by", "week"]);
    // 2026-03-01 is a Sunday: its week began on Monday 2026-02-23.
    expect(weeks.groups[0]?.key).toBe("2026-02-23");
    const months = json(h, ["--by", "month"]);
    expect(months.groups.map((g) => g.key)).toEqual(["2026-03"]);
  });

  it("--since and --until select messages by their own time", () => {
    const h = home();
    const e = writeClaudeStore(join(h.dir, "claude"), { sessions: 4, turns: 5 });
    const doc = json(h, ["--since", "2026-03-02", "--until", "2026-03-03"]);
    const want = [...e.byDay].filter(([d]) => d >= "2026-03-02" && d <= "2026-03-03");
    expect(byKey(doc.groups)).toEqual(expectedByKey(new Map(want)));
    expect(doc.since).toBe("2026-03-02T00:00:00Z");
  });

  it("prices known models from the shipped table and leaves unknown ones blank", () => {
    const h = home();
    writeClaudeStore(join(h.dir, "claude"), { sessions: 1, turns: 2 });
    writeAgyStore(join(h.dir, "agy"), { sessions: 1, turns: 1 });
    const doc = json(h, ["--by", "model"]);
    const sonnet = doc.groups.find((g) => g.key === "claude-sonnet-4-5-20250929");
    expect(sonnet).toBeDefined();
    const s = sonnet as Row;
    const want =
      (s.input_tokens * 3 +
        s.output_tokens * 15 +
        s.cache_read_input_tokens * 0.3 +
        s.cache_creation_input_tokens * 3.75) /
      1e6;
    expect(s.cost).toBeCloseTo(want, 9);
    const agy = doc.groups.find((g) => g.key === "gemini-3.8-flash") as Row;
    expect(agy.cost).toBeNull();
    expect(agy.unpriced_tokens).toBe(agy.total_tokens);
    expect(doc.totals.unpriced_tokens).toBe(agy.total_tokens);
    expect(doc.totals.cost).toBeCloseTo(
      doc.groups.reduce((a, g) => a + (g.cost ?? 0), 0),
      9,
    );
    const table = usage(h, ["--by", "model"]);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/claude-sonnet-4-5-20250929.*\$\d+\.\d\d/);
    expect(table.stdout).toMatch(/gemini-3\.8-flash[^$\n]*\n/);
    expect(table.stdout).toMatch(/Total/);
    expect(table.stdout).toMatch(
      /^\* cost leaves out [\d,]+ tokens with no known price: gemini-3\.8-flash \([\d,]+\)$/m,
    );
  });

  it("--prices reads LiteLLM's model prices over the shipped table; a bad file is a one-line error naming it", () => {
    const h = home();
    writeAgyStore(join(h.dir, "agy"), { sessions: 1, turns: 1 });
    const good = join(h.dir, "prices.json");
    writeFileSync(
      good,
      JSON.stringify({
        sample_spec: { input_cost_per_token: 0, litellm_provider: "one of …" },
        "gemini-3.8-flash": {
          input_cost_per_token: 1e-6,
          output_cost_per_token: 2e-6,
          cache_read_input_token_cost: 5e-7,
          cache_creation_input_token_cost: 1e-6,
          litellm_provider: "gemini",
          mode: "chat",
        },
      }),
    );
    const before = json(h, []);
    expect(before.totals.cost).toBeNull();
    const doc = json(h, ["--prices", good]);
    const t = doc.totals;
    expect(t.unpriced_tokens).toBe(0);
    expect(t.cost).toBeCloseTo(
      (t.input_tokens +
        2 * t.output_tokens +
        0.5 * t.cache_read_input_tokens +
        t.cache_creation_input_tokens) /
        1e6,
      12,
    );
    expect((doc.prices as { file: string }).file).toBe(good);
    const cases: [string, RegExp][] = [
      ["{not json", /not JSON/],
      ["[1]", /not LiteLLM model prices/],
      [JSON.stringify({ x: { input_cost_per_token: -1 } }), /x\.input_cost_per_token/],
    ];
    for (const [text, why] of cases) {
      const bad = join(h.dir, "bad.json");
      writeFileSync(bad, text);
      const r = usage(h, ["--prices", bad]);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(bad);
      expect(r.stderr).toMatch(why);
    }
    const missing = usage(h, ["--prices", join(h.dir, "nope.json")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("nope.json");
  });

  it("hostile counts: huge, negative, fractional and non-numeric tokens and a truncated line neither crash nor count", () => {
    const h = home();
    const dir = join(h.dir, "claude", "projects", "-w");
    mkdirSync(dir, { recursive: true });
    const id = "0badc0de-0000-4000-8000-000000000001";
    const line = (i: number, usage: unknown) =>
      JSON.stringify({
        type: "assistant",
        uuid: `0badc0de-0000-4000-8000-${String(i + 2).padStart(12, "0")}`,
        parentUuid: null,
        sessionId: id,
        timestamp: "2026-03-01T10:00:00.000Z",
        cwd: "/w",
        message: {
          id: `msg_${i}`,
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [{ type: "text", text: "x" }],
          usage,
        },
      });
    const lines = [
      JSON.stringify({
        type: "user",
        uuid: "0badc0de-0000-4000-8000-000000000001",
        parentUuid: null,
        sessionId: id,
        timestamp: "2026-03-01T10:00:00.000Z",
        cwd: "/w",
        message: { role: "user", content: "go" },
      }),
    ];
    // 2,000 responses at the largest safe count overflow a 64-bit sum.
    for (let i = 0; i < 2000; i++)
      lines.push(line(i, { input_tokens: Number.MAX_SAFE_INTEGER, output_tokens: 1 }));
    lines.push(line(3000, { input_tokens: -5, output_tokens: 1.5 }));
    lines.push(line(3001, { input_tokens: "12", output_tokens: null }));
    lines.push(line(3002, "lots").slice(0, 40));
    writeFileSync(join(dir, `${id}.jsonl`), `${lines.join("\n")}\n`);
    const doc = json(h, []);
    expect(doc.totals.output_tokens).toBe(2000);
    expect(doc.totals.input_tokens).toBeGreaterThan(1e19);
    expect(Number.isFinite(doc.totals.cost)).toBe(true);
  });

  it("bad options are usage errors", () => {
    const h = home();
    for (const args of [
      ["--since", "yesterday-ish"],
      ["--by", "year"],
      ["--from", "vim"],
    ]) {
      const r = usage(h, args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^txcript: /);
    }
  });

  it("an empty machine says so; --json has the documented shape", () => {
    const h = home();
    const r = usage(h, []);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("no usage found");
    const doc = json(h, []);
    expect(Object.keys(doc).sort()).toEqual(
      [
        "version",
        "by",
        "since",
        "until",
        "time_zone",
        "prices",
        "groups",
        "totals",
        "unread_sessions",
        "skipped",
      ].sort(),
    );
    expect(doc.version).toBe(1);
    expect(doc.time_zone).toBe("UTC");
    expect(doc.groups).toEqual([]);
    expect(doc.totals).toMatchObject({ total_tokens: 0, messages: 0, cost: null, sessions: 0 });
  });
});
