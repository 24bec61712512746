/**
 * txcript mcp [--allow-write] [--redact]: the MCP server on stdio (src/mcp/). stdout
 * carries protocol frames only: the transport gets its own writer, and
 * anything else in the process that writes to process.stdout (a stray
 * print in a dependency, a worker thread's output) is sent to stderr.
 */

import { Writable } from "node:stream";
import type { Command } from "commander";
import { describeCause, errorLine } from "../../errors.js";
import { defined } from "../../json.js";
import { createMcpServer } from "../../mcp/server.js";
import { FrameTransport } from "../../mcp/transport.js";
import { addArchiveOptions, archiveFor } from "../archive.js";
import { cacheFlag } from "../cache.js";
import { identity, redactionPlan } from "../pages.js";
import { rootsFrom } from "../roots.js";
import { packageVersion } from "../version.js";

interface McpOptions {
  allowWrite?: boolean;
  redact?: boolean;
  redactPatterns?: string;
}

export function register(program: Command): void {
  addArchiveOptions(program.command("mcp"))
    .description("serve every session to agents over MCP (stdio)")
    .option("--allow-write", "offer continue_session, which writes copies into harness stores")
    .option(
      "--redact",
      "redact every answer (session text, snippets, titles, paths), whatever a call asks",
    )
    .option(
      "--redact-patterns <file>",
      "your own patterns, one per line, for every redaction (forced or asked by a call)",
    )
    .action(async (options: McpOptions, command: Command) => {
      // Read before serving: a bad pattern file is a usage error, not a server that half works.
      const patterns = redactionPlan({
        redact: true,
        ...defined({ redactPatterns: options.redactPatterns }),
      }).patterns;
      const log = (line: string) => process.stderr.write(`txcript mcp: ${line}\n`);
      // The transport writes through the real stdout's own write (which
      // handles pipes, files and terminals); every other caller of
      // process.stdout.write reaches stderr instead.
      const toClient = process.stdout.write.bind(process.stdout);
      const frames = new Writable({
        write(chunk: Buffer, _encoding, done) {
          toClient(chunk, (error) => done(error ?? undefined));
        },
      });
      // Each answer waiting for a slow client to read adds a drain listener.
      frames.setMaxListeners(0);
      // A client that goes away mid-answer: nothing left to serve.
      const gone = () => process.exit(0);
      frames.on("error", gone);
      process.stdout.on("error", gone);
      process.stdout.write = process.stderr.write.bind(process.stderr);
      // A bad request is answered inside its handler (the SDK turns a throw
      // into a JSON-RPC error), so what escapes every handler is a failure of
      // unknown extent: after it, no state can be trusted. It is said in one
      // line and the server stops (exit 1); the client starts a fresh one.
      const fatal = (error: unknown) => {
        log(`stopping after an unexpected failure: ${errorLine(error).replace(/^txcript: /, "")}`);
        process.exit(1);
      };
      process.on("uncaughtException", fatal);
      process.on("unhandledRejection", fatal);
      // --cache DIR / --no-cache as every command takes them; TXCRIPT_CACHE is read by the index.
      const cache = cacheFlag(command);
      const { server, drain, close } = createMcpServer({
        env: process.env,
        roots: rootsFrom(command),
        ...defined({ cache }),
        cwd: process.cwd(),
        allowWrite: options.allowWrite === true,
        redaction: { force: options.redact === true, options: { ...identity(), patterns } },
        version: packageVersion(),
        log,
        backend: await archiveFor(command),
      });
      // Oversized, unparsable and invalid frames are answered and noted in one line each; the server serves on.
      const transport = new FrameTransport(process.stdin, frames, { note: log });
      transport.onerror = (error) => log(`input: ${describeCause(error)}`);
      const closed = new Promise<void>((resolve) => {
        process.stdin.once("end", resolve);
        process.stdin.once("close", resolve);
      });
      await server.connect(transport);
      await closed;
      // Input ended: answer what was asked, then go.
      await drain();
      await server.close();
      close();
      await new Promise<void>((resolve) => frames.end(resolve));
    });
}
