/**
 * MCP and `serve` memory under a bounded load (issue 33 goal 6): the
 * server's resident set (VmRSS of the child, from /proc) after a warm-up,
 * after 100 requests and after 1,000, over a generated home of Claude Code
 * sessions. The load cycles through what clients ask: MCP list_sessions,
 * search_sessions, read_session and export_session (first page); serve's
 * list page, search, session page and Simple download. Steady means the
 * figure after 1,000 is near the one after 100 (the ratio is printed).
 * Baseline in the same run: the same server's RSS right after it started.
 *
 *   npm run build && npx tsx bench/steady.bench.ts [sessions] [requests]
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN } from "../test/support/cli.js";
import { claudeProject, claudeSession, PLANTED, startServe } from "../test/support/serve.js";
import { mb, report } from "./util.js";

const count = Number(process.argv[2] ?? 200);
const total = Number(process.argv[3] ?? 1000);
const checkpoints = [100, total];

function rss(pid: number | null | undefined): number {
  if (pid === null || pid === undefined) return Number.NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

const home = mkdtempSync(join(tmpdir(), "txcript-steady-bench-"));
const project = claudeProject(home);
mkdirSync(project, { recursive: true });
const sid = (i: number) => `5e4d3c2b-0000-4000-8000-${String(i).padStart(12, "0")}`;
for (let i = 0; i < count; i++) {
  const word = i % 10 === 0 ? PLANTED : "ordinary";
  writeFileSync(
    join(project, `${sid(i)}.jsonl`),
    claudeSession(
      sid(i),
      `Task ${i}: look at module ${i} ${"context ".repeat(200)}`,
      `Done with ${word} module ${i}.`,
    ),
  );
}

type Row = Record<string, string | number>;

/** Run `request(i)` `total` times, noting the RSS at the start and at each checkpoint. */
async function load(
  name: string,
  pid: () => number | null | undefined,
  request: (i: number) => Promise<void>,
): Promise<Row> {
  // Warm-up: every kind of request once, so caches and lazy imports are filled.
  for (let i = 0; i < 8; i++) await request(i);
  const start = rss(pid());
  const row: Row = { server: name, "after warm-up": mb(start) };
  const at: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    await request(i);
    if (checkpoints.includes(i + 1)) {
      const now = rss(pid());
      at.push(now);
      row[`after ${i + 1}`] = mb(now);
    }
  }
  row["ms/request"] = ((performance.now() - t0) / total).toFixed(1);
  const [a, b] = at;
  if (a !== undefined && b !== undefined) row[`${total}/100`] = (b / a).toFixed(2);
  return row;
}

const rows: Row[] = [];
const cache = mkdtempSync(join(tmpdir(), "txcript-steady-cache-"));

// MCP over stdio, as a client sees it.
{
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1", TXCRIPT_CACHE: cache },
    stderr: "inherit",
  });
  const client = new Client({ name: "txcript-steady", version: "1" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 200)}`);
  };
  rows.push(
    await load(
      "mcp",
      () => transport.pid,
      async (i) => {
        const session = sid((i * 37) % count);
        switch (i % 4) {
          case 0:
            return call("list_sessions", { limit: 50 });
          case 1:
            return call("search_sessions", { query: i % 8 === 1 ? PLANTED : "module" });
          case 2:
            return call("read_session", { session });
          default:
            return call("export_session", { session });
        }
      },
    ),
  );
  await client.close();
}

// serve over HTTP.
{
  const served = await startServe(home);
  const get = async (path: string) => {
    const r = await fetch(`${served.base}${path}`);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  };
  rows.push(
    await load(
      "serve",
      () => served.child.pid,
      async (i) => {
        const session = sid((i * 37) % count);
        switch (i % 4) {
          case 0:
            return get("api/sessions?limit=100");
          case 1:
            return get(`api/search?q=${i % 8 === 1 ? PLANTED : "module"}&limit=50`);
          case 2:
            return get(`s/claude_code/${session}`);
          default:
            return get(`s/claude_code/${session}/download?format=simple`);
        }
      },
    ),
  );
  await served.stop();
}

rmSync(cache, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
process.stdout.write(`${count} Claude Code sessions, ${total} requests each\n`);
report(rows);
