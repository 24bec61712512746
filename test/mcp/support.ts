/**
 * MCP tests talk to the built server as clients do: `dist/cli/main.cjs mcp`
 * spawned on a temporary HOME holding real stores (agy databases written
 * by the store from the fixture builder, a Claude Code project file and a
 * Codex rollout written by their stores), through the SDK's own client.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AntigravityBody } from "../../src/harness/antigravity/body.js";
import { antigravityMeta } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { harness, openStore } from "../../src/harness/index.js";
import type { Common, HarnessId, Transcript } from "../../src/transcript.js";
import { realisticSession as claudeSession } from "../claude-code/session.js";
import { realisticSession as codexSession } from "../codex/support.js";
import {
  legacyLayoutSession,
  resumedSession120,
  toolsSession120,
} from "../support/agy-fixtures.js";
import { BIN, TEST_CACHE } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

export { BIN };

export function agyRoot(home: string): string {
  return join(home, ".gemini", "antigravity-cli");
}

export function saveAgy(home: string, body: AntigravityBody, overwrite = false): void {
  new AntigravityStore({ root: agyRoot(home), env: {} }).save(
    { meta: antigravityMeta(body), body },
    { overwrite },
  );
}

export function saveCommon(home: string, id: HarnessId, t: Transcript<Common>): string {
  const store = openStore(harness(id), { env: { HOME: home } });
  if (!store) throw new Error(`${id} has no store`);
  return store.save(t, { overwrite: true }).path;
}

/**
 * A HOME with three agy conversations, one Claude Code and one Codex
 * session: removed after the current test, or (`shared`) left to the
 * caller's afterAll to remove.
 */
export function makeHome(shared = false): string {
  const home = shared
    ? mkdtempSync(join(tmpdir(), "txcript-mcp-home-"))
    : tempDir("txcript-mcp-home-");
  saveAgy(home, toolsSession120());
  saveAgy(home, resumedSession120());
  saveAgy(home, legacyLayoutSession());
  saveCommon(home, "claude_code", claudeSession());
  saveCommon(home, "codex", codexSession());
  return home;
}

export function serverEnv(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  // The index lives outside the HOME whose tree tests hash, shared with the CLI runs (as on a machine).
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    NO_COLOR: "1",
    TXCRIPT_CACHE: TEST_CACHE,
    ...extra,
  };
}

export interface Connected {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

export async function connect(
  home: string,
  args: string[] = [],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    env: serverEnv(home, options.env),
    stderr: "pipe",
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const client = new Client({ name: "txcript-tests", version: "1.0.0" });
  await client.connect(transport);
  // Listing the tools arms the client's own check of every result against its output schema.
  await client.listTools();
  return { client, stderr: () => err, close: () => client.close() };
}

/** Call a tool; the SDK client has already checked structuredContent against the output schema. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === "text" ? first.text : "";
}

/** Call a tool that must succeed; its structured content parsed by `schema`. */
export async function ok<T>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  schema: { parse(value: unknown): T },
): Promise<T> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)}: ${textOf(r)}`);
  return schema.parse(r.structuredContent);
}
