/**
 * MCP server benchmark: `search_sessions` and `read_session` latency
 * (median and p95, warm) through a spawned `dist/cli/main.js mcp` over a
 * generated store of agy conversations, as a client sees it (stdio,
 * JSON-RPC, schema checks included). Baselines measured in the same run:
 * - an MCP `ping` (the protocol's floor);
 * - for search, the same queries through a second server with no
 *   persistent index (`--no-cache`: the one engine, its index in memory,
 *   built by the server's first search), and `txcript query --json` of
 *   each as its own process on the same warm index (what an agent pays
 *   without MCP);
 * - for reading, a `txcript view` of the same session as its own process.
 * Each server's first search is reported beside the warm ones. The store
 * and its index are cached in .bench-data/.
 *
 *   npm run build && npx tsx bench/mcp.bench.ts [conversations] [steps] [calls]
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { estimateTokens } from "../src/mcp/tokens.js";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { median, report } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const [count = 1000, steps = 40, calls = 40] = process.argv.slice(2).map(Number);

/** A generated store written the way agy writes it (not through txcript's save). */
function generate(): string {
  const base = join(ROOT, ".bench-data", "mcp", `agy-${count}x${steps}`);
  if (existsSync(join(base, "complete"))) return base;
  rmSync(base, { recursive: true, force: true });
  mkdirSync(join(base, "conversations"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const spec: ConversationSpec = {
      steps,
      seed: i + 1,
      layout: i % 4 === 0 ? "typed" : "generic",
    };
    if (i % 2) spec.modelName = "gemini-3.8-flash";
    if (i % 3 === 0) spec.checkpointTitle = `Task ${i}`;
    writeAgyDatabase(base, buildConversation(spec));
  }
  writeFileSync(join(base, "complete"), "");
  return base;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function sample(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(() => fn(i)));
  return out;
}

interface CallResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

type Tool = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function serve(
  env: Record<string, string>,
  flags: string[] = [],
): Promise<{ client: Client; tool: Tool; close: () => Promise<void> }> {
  const client = new Client({ name: "txcript-bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...flags, "mcp"],
      env,
      stderr: "inherit",
    }),
  );
  await client.listTools();
  const tool: Tool = async (name, args) => {
    const r = (await client.callTool({ name, arguments: args })) as CallResult;
    if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
    return r.structuredContent!;
  };
  return { client, tool, close: () => client.close() };
}

async function main(): Promise<void> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  const t0 = performance.now();
  const root = generate();
  process.stdout.write(
    `store: ${count} agy conversations of ${steps} steps (${((performance.now() - t0) / 1000).toFixed(1)} s to find or generate)\n`,
  );
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: join(ROOT, ".bench-data", "mcp", "empty-home"),
    TXCRIPT_ANTIGRAVITY_ROOT: root,
    TXCRIPT_CACHE: join(ROOT, ".bench-data", "mcp", `cache-${count}x${steps}`),
  };
  // A word in every conversation, a rarer one, a phrase, and a miss.
  const queries = ["function", "checkpoint", '"test suite"', "zzyzx"];

  // The index, built (or brought up to date) by the CLI first, so every figure below is warm.
  const build = performance.now();
  const built = spawnSync(process.execPath, [BIN, "query", "function", "--json"], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (built.status !== 0) throw new Error(built.stderr);
  process.stdout.write(
    `index ready: ${((performance.now() - build) / 1000).toFixed(1)} s (first run builds it)\n`,
  );

  const indexed = await serve(env);
  const tool = indexed.tool;
  const listed = await tool("list_sessions", { limit: 500 });
  const sessions = (listed.sessions as { id: string }[]).map((s) => s.id);
  const cold = await timed(() => tool("search_sessions", { query: "function" }));
  const ping = await sample(calls, () => indexed.client.ping());
  const search = await sample(calls, (i) =>
    tool("search_sessions", { query: queries[i % queries.length]! }),
  );
  const list = await sample(calls, () => tool("list_sessions", { limit: 50 }));
  const read = await sample(calls, (i) =>
    tool("read_session", { session: sessions[(i * 37) % sessions.length]! }),
  );
  const readMd = await sample(calls, (i) =>
    tool("read_session", {
      session: sessions[(i * 41) % sessions.length]!,
      format: "markdown",
      max_tokens: 5_000,
    }),
  );
  const readJson = await sample(calls, (i) =>
    tool("read_session", {
      session: sessions[(i * 53) % sessions.length]!,
      format: "json",
      max_chars: 20_000,
    }),
  );
  // A second page: the cursor path.
  const firstPages = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      tool("read_session", { session: sessions[(i * 11) % sessions.length]!, max_chars: 2_000 }),
    ),
  );
  const cursor = await sample(calls, (i) =>
    tool("read_session", { cursor: firstPages[i]!.next_cursor, max_chars: 2_000 }),
  );
  // How the estimate compares with the characters of what was read (chars per estimated token).
  const page = (await tool("read_session", { session: sessions[0]!, max_chars: 1_000_000 }))
    .text as string;
  await indexed.close();

  // Baseline: no persistent index, the same queries, warm (its first search indexes every conversation in memory).
  const uncached = await serve(env, ["--no-cache"]);
  const scanCold = await timed(() => uncached.tool("search_sessions", { query: "function" }));
  const scanSearch = await sample(calls, (i) =>
    uncached.tool("search_sessions", { query: queries[i % queries.length]! }),
  );
  const scanList = await sample(calls, () => uncached.tool("list_sessions", { limit: 50 }));
  await uncached.close();

  const processRuns = Math.min(calls, 12);
  const run = (args: string[]) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], {
      env,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return performance.now() - t;
  };
  const query: number[] = [];
  const view: number[] = [];
  for (let i = 0; i < processRuns; i++) {
    query.push(run(["query", queries[i % queries.length]!, "--json"]));
    view.push(run(["view", sessions[(i * 37) % sessions.length]!, "--no-pager"]));
  }

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = (name: string, v: number[], extra: Record<string, string> = {}) => ({
    call: name,
    median: ms(median(v)),
    p95: ms(p95(v)),
    "× ping": (median(v) / median(ping)).toFixed(1),
    ...extra,
  });
  const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(3);
  report([
    row("ping (baseline)", ping),
    row("search_sessions, index, warm", search, {
      "index / no cache": ratio(search, scanSearch),
      "index / query process": ratio(search, query),
    }),
    row("search_sessions, --no-cache (baseline), warm", scanSearch),
    row("txcript query --json, own process (baseline)", query),
    row("list_sessions 50, index, warm", list, { "index / no cache": ratio(list, scanList) }),
    row("list_sessions 50, --no-cache (baseline), warm", scanList),
    row("read_session text, default budget", read, {
      "read_session / view": ratio(read, view),
    }),
    row("read_session markdown, 5k tokens", readMd),
    row("read_session json, 20k chars", readJson),
    row("read_session, cursor page", cursor),
    row("txcript view, own process (baseline)", view),
    { call: "search_sessions, first call of a fresh server: index", once: ms(cold) },
    { call: "search_sessions, first call of a fresh server: --no-cache", once: ms(scanCold) },
    {
      call: "token estimate of a whole session's text",
      chars: page.length,
      estimated_tokens: estimateTokens(page),
      "chars / estimated token": (page.length / estimateTokens(page)).toFixed(2),
    },
  ]);
}

await main();
