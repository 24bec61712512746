/**
 * `txcript mcp`: the MCP server over the machine's sessions. Builds an
 * McpServer with the tools and resources; the caller connects a transport
 * (the CLI: stdio). Nothing here prints: diagnostics go to `log`.
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Env } from "../env.js";
import type { SessionsBackend } from "../sessions/backend.js";
import { Sessions } from "../sessions/sessions.js";
import type { HarnessId } from "../transcript.js";
import { registerResources } from "./resources.js";
import type { McpRedaction, ToolContext } from "./tool-context.js";
import { registerTools } from "./tools.js";

export interface McpServerOptions {
  env: Env;
  /** Root overrides per harness (the CLI's `--<harness>-root` flags). */
  roots?: Partial<Record<HarnessId, string>>;
  /** The server's working directory: relative cwd filters, continued sessions with no cwd. */
  cwd: string;
  /** Offer continue_session (writes a copy into a harness's store). */
  allowWrite?: boolean;
  /** The version reported to clients. */
  version: string;
  log?: (line: string) => void;
  /** The index's folder as the CLI's --cache/--no-cache give it: a directory, null for in memory, undefined for the default. */
  cache?: string | null;
  /** Redaction: forced for every answer (--redact) or per call; the home path, user name and patterns to use. */
  redaction?: McpRedaction;
  /** Answer from this memory (a shared archive, `--archive`) instead of the machine's index and stores. */
  backend?: SessionsBackend | undefined;
}

export interface TxcriptMcpServer {
  server: McpServer;
  /** Resolves once no tool call or resource read is in flight (before closing on end of input). */
  drain(): Promise<void>;
  /** Release the index (after drain). */
  close(): void;
}

export function createMcpServer(options: McpServerOptions): TxcriptMcpServer {
  const log = options.log ?? (() => {});
  // The sessions service the CLI uses too; a long-lived server keeps its last few loads.
  const sessions = new Sessions({
    env: options.env,
    roots: options.roots,
    cache: options.cache,
    warn: (line) => log(`warning: ${line}`),
    note: log,
    keepLoaded: 8,
    backend: options.backend,
  });
  const server = new McpServer(
    { name: "txcript", title: "txcript: coding-agent sessions", version: options.version },
    {
      capabilities: { tools: {}, resources: {}, completions: {} },
      instructions:
        "Sessions of every coding agent on this machine (Antigravity/agy, Claude Code, Codex, …). " +
        "search_sessions finds where something was discussed; read_session opens a hit's ref (<id>#<message>) a page at a time; " +
        "list_sessions lists by recency, harness, directory and time.",
    },
  );
  const ctx: ToolContext = {
    sessions,
    env: options.env,
    cwd: options.cwd,
    allowWrite: options.allowWrite === true,
    log,
    memo: {},
    pending: new Set(),
    redaction: options.redaction ?? { force: false, options: {} },
  };
  registerTools(server, ctx);
  registerResources(server, ctx);
  return {
    server,
    async drain() {
      do {
        await Promise.allSettled([...ctx.pending]);
        // Let the protocol layer hand the last answers to the transport.
        await new Promise((resolve) => setImmediate(resolve));
      } while (ctx.pending.size > 0);
    },
    close() {
      sessions.close();
    },
  };
}
