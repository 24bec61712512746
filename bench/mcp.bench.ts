/**
 * MCP server benchmark: `search_sessions` and `read_session` latency
 * (median and p95, warm) through a spawned `dist/cli/main.js mcp` over a
 * generated store of agy conversations, as a client sees it (stdio,
 * JSON-RPC, schema checks included). Baselines measured in the same run: an
 * MCP `ping` (the protocol's floor) and, for reading, a `txcript view` of
 * the same session as its own process (what an agent pays without MCP).
 * The first search of a fresh server (cold: every conversation loaded) is
 * reported beside the warm ones. The store is cached in .bench-data/.
 *
 *   npm run build && npx tsx bench/mcp.bench.ts [conversations] [steps] [calls]
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeAgyDatabase } from "../test/antigravity-store/support.js";
import { buildConversation, type ConversationSpec } from "../test/support/agy-fixtures.js";
import { median, report } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.js");
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
  };
  const client = new Client({ name: "txcript-bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      env,
      stderr: "inherit",
    }),
  );
  await client.listTools();
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallResult;
    if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
    return r.structuredContent!;
  };

  const listed = await tool("list_sessions", { limit: 500 });
  const sessions = (listed.sessions as { id: string }[]).map((s) => s.id);
  const cold = await timed(() => tool("search_sessions", { query: "function" }));

  const ping = await sample(calls, () => client.ping());
  // A word in every conversation, a rarer one, a phrase, and a miss.
  const queries = ["function", "checkpoint", '"test suite"', "zzyzx"];
  const search = await sample(calls, (i) =>
    tool("search_sessions", { query: queries[i % queries.length]! }),
  );
  const read = await sample(calls, (i) =>
    tool("read_session", { session: sessions[(i * 37) % sessions.length]! }),
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
  await client.close();

  const viewRuns = Math.min(calls, 10);
  const view: number[] = [];
  for (let i = 0; i < viewRuns; i++) {
    const t = performance.now();
    const r = spawnSync(
      process.execPath,
      [BIN, "view", sessions[(i * 37) % sessions.length]!, "--no-pager"],
      {
        env,
        encoding: "utf8",
        maxBuffer: 1 << 28,
      },
    );
    view.push(performance.now() - t);
    if (r.status !== 0) throw new Error(r.stderr);
  }

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const row = (name: string, v: number[]) => ({
    call: name,
    median: ms(median(v)),
    p95: ms(p95(v)),
    "× ping": (median(v) / median(ping)).toFixed(1),
  });
  report([
    row("ping (baseline)", ping),
    row("search_sessions, warm", search),
    row("read_session text, default budget", read),
    row("read_session json, 20k chars", readJson),
    row("read_session, cursor page", cursor),
    { call: "search_sessions, cold (first of a fresh server)", once: ms(cold) },
    {
      call: "txcript view, own process (baseline)",
      median: ms(median(view)),
      p95: ms(p95(view)),
      "read_session / view": (median(read) / median(view)).toFixed(3),
    },
  ]);
}

await main();
