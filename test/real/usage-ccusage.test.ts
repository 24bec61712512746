/**
 * The outside check of `txcript usage`: ccusage (test/real/package.json,
 * pinned) and txcript read the same generated Claude Code and Codex stores
 * and must agree on every token kind per day and per model, to the token.
 *
 * Both run with an environment built from nothing: HOME, CLAUDE_CONFIG_DIR
 * and CODEX_HOME in a temp dir, TZ=UTC (both group days by local time),
 * ccusage with --offline (its cached prices, no fetch) and every proxy
 * variable aimed at a closed port on 127.0.0.1, so nothing leaves the machine.
 *
 * Cost is compared too: txcript's shipped table and ccusage's --offline
 * table (both LiteLLM's list prices) must give the same dollars. And
 * after `continue` copies sessions between the two stores, ccusage must
 * count the same tokens (the copies carry no usage).
 *
 * Deliberate differences, not compared: ccusage's reasoningOutputTokens (txcript counts reasoning inside
 * output, as OpenAI's output_tokens does; the fixtures write none) and
 * message counts (ccusage's daily report has none).
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeClaudeStore, writeCodexStore } from "../support/usage-stores.js";
import { REPO, TXCRIPT } from "./support/cli.js";

const CCUSAGE = join(REPO, "test", "real", "node_modules", ".bin", "ccusage");

const home = mkdtempSync(join(tmpdir(), "txcript-ccusage-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const env: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  TZ: "UTC",
  CLAUDE_CONFIG_DIR: join(home, "claude"),
  CODEX_HOME: join(home, "codex"),
  TXCRIPT_CACHE: join(home, "cache"),
  // Nothing else: no store of the machine's is read.
  TXCRIPT_ANTIGRAVITY_ROOT: join(home, "none-agy"),
  TXCRIPT_GEMINI_CLI_ROOT: join(home, "none-gemini"),
  TXCRIPT_OPENCODE_ROOT: join(home, "none-opencode"),
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  ALL_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "",
  NO_COLOR: "1",
};

function run(cmd: string, args: string[]): unknown {
  const r = spawnSync(cmd, args, { env, encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

interface Kinds {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

/** day -> model -> token kinds */
type PerDayModel = Record<string, Record<string, Kinds>>;

function num(v: unknown): number {
  if (typeof v !== "number") throw new Error(`expected a number, got ${JSON.stringify(v)}`);
  return v;
}

function txcriptPerDayModel(from: string): PerDayModel {
  const doc = run(process.execPath, [
    TXCRIPT,
    "usage",
    "--from",
    from,
    "--by",
    "day",
    "--json",
  ]) as {
    groups: {
      key: string;
      models: {
        model: string;
        input_tokens: number;
        output_tokens: number;
        cache_read_input_tokens: number;
        cache_creation_input_tokens: number;
      }[];
    }[];
  };
  const out: PerDayModel = {};
  for (const g of doc.groups) {
    const day: Record<string, Kinds> = {};
    for (const m of g.models)
      day[m.model] = {
        input: m.input_tokens,
        output: m.output_tokens,
        cache_read: m.cache_read_input_tokens,
        cache_write: m.cache_creation_input_tokens,
      };
    out[g.key] = day;
  }
  return out;
}

function ccusageClaude(): PerDayModel {
  const doc = run(CCUSAGE, ["claude", "daily", "--json", "--offline", "--timezone", "UTC"]) as {
    daily: { date: string; modelBreakdowns: Record<string, unknown>[] }[];
  };
  const out: PerDayModel = {};
  for (const d of doc.daily) {
    const day: Record<string, Kinds> = {};
    for (const m of d.modelBreakdowns)
      day[String(m.modelName)] = {
        input: num(m.inputTokens),
        output: num(m.outputTokens),
        cache_read: num(m.cacheReadTokens),
        cache_write: num(m.cacheCreationTokens),
      };
    out[d.date] = day;
  }
  return out;
}

function ccusageCodex(): PerDayModel {
  const doc = run(CCUSAGE, ["codex", "daily", "--json", "--offline", "--timezone", "UTC"]) as {
    daily: { date: string; models: Record<string, Record<string, unknown>> }[];
  };
  const out: PerDayModel = {};
  for (const d of doc.daily) {
    const day: Record<string, Kinds> = {};
    for (const [name, m] of Object.entries(d.models))
      day[name] = {
        input: num(m.inputTokens),
        output: num(m.outputTokens),
        cache_read: num(m.cacheReadTokens),
        cache_write: num(m.cacheCreationTokens),
      };
    out[d.date] = day;
  }
  return out;
}

/** txcript on the same environment, for `continue` and `list`. */
function txcriptRun(args: string[]): string {
  const r = spawnSync(process.execPath, [TXCRIPT, ...args], {
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`txcript ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function firstId(from: string): string {
  const doc = JSON.parse(txcriptRun(["list", "--json", "--from", from])) as {
    sessions: { id: string }[];
  };
  const id = doc.sessions[0]?.id;
  if (id === undefined) throw new Error(`no ${from} session`);
  return id;
}

describe.skipIf(!existsSync(CCUSAGE))("txcript usage agrees with ccusage", () => {
  const claude = writeClaudeStore(join(home, "claude"), { sessions: 12, turns: 6 });
  const codex = writeCodexStore(join(home, "codex"), { sessions: 8, turns: 5 });

  it("Claude Code: every token kind per day and model (split responses counted once by both)", () => {
    const theirs = ccusageClaude();
    const ours = txcriptPerDayModel("claude_code");
    expect(ours).toEqual(theirs);
    // And both match the totals the fixture was written with.
    expect(Object.keys(ours).sort()).toEqual([...claude.byDay.keys()].sort());
  });

  it("Codex: every token kind per day and model (repeated token_count counted once by both)", () => {
    const theirs = ccusageCodex();
    const ours = txcriptPerDayModel("codex");
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours).sort()).toEqual([...codex.byDay.keys()].sort());
  });

  it("cost: txcript's shipped prices agree with ccusage --offline per day and model (Claude Code) and per day (Codex)", () => {
    const cost = (from: string) =>
      (
        JSON.parse(txcriptRun(["usage", "--from", from, "--by", "day", "--json"])) as {
          groups: {
            key: string;
            cost: number | null;
            unpriced_tokens: number;
            models: { model: string; cost: number | null }[];
          }[];
        }
      ).groups;
    const claude = run(CCUSAGE, [
      "claude",
      "daily",
      "--json",
      "--offline",
      "--timezone",
      "UTC",
    ]) as {
      daily: { date: string; modelBreakdowns: { modelName: string; cost: number }[] }[];
    };
    const ours = cost("claude_code");
    expect(ours.map((g) => g.key)).toEqual(claude.daily.map((d) => d.date));
    for (const d of claude.daily) {
      const g = ours.find((x) => x.key === d.date);
      expect(g?.unpriced_tokens).toBe(0);
      for (const m of d.modelBreakdowns) {
        const mine = g?.models.find((x) => x.model === m.modelName)?.cost;
        expect(mine, `${d.date} ${m.modelName}`).toBeCloseTo(m.cost, 9);
      }
    }
    const codex = run(CCUSAGE, ["codex", "daily", "--json", "--offline", "--timezone", "UTC"]) as {
      daily: { date: string; costUSD: number }[];
    };
    const oursCodex = cost("codex");
    expect(oursCodex.map((g) => g.key)).toEqual(codex.daily.map((d) => d.date));
    for (const d of codex.daily) {
      const g = oursCodex.find((x) => x.key === d.date);
      expect(g?.unpriced_tokens).toBe(0);
      expect(g?.cost, d.date).toBeCloseTo(d.costUSD, 9);
    }
  });

  // Last: it adds copies to both stores.
  it("ccusage counts the same tokens after a Claude Code and a Codex session are continued into each other and themselves", () => {
    const claudeBefore = ccusageClaude();
    const codexBefore = ccusageCodex();
    const claudeId = firstId("claude_code");
    const codexId = firstId("codex");
    for (const [id, from, target] of [
      [codexId, "codex", "claude_code"],
      [claudeId, "claude_code", "codex"],
      [claudeId, "claude_code", "claude_code"],
      [codexId, "codex", "codex"],
    ] as const)
      txcriptRun(["continue", id, "--from", from, "--with", target, "--no-resume"]);
    // The copies are there: 2 more sessions in each store.
    const count = (from: string) =>
      (JSON.parse(txcriptRun(["list", "--json", "--from", from])) as { sessions: unknown[] })
        .sessions.length;
    expect(count("claude_code")).toBe(12 + 2);
    expect(count("codex")).toBe(8 + 2);
    expect(ccusageClaude()).toEqual(claudeBefore);
    expect(ccusageCodex()).toEqual(codexBefore);
    expect(txcriptPerDayModel("claude_code")).toEqual(claudeBefore);
    expect(txcriptPerDayModel("codex")).toEqual(codexBefore);
  });
});
