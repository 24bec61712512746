/**
 * Every session as an MCP resource, `txcript://<harness>/<id>`: listed
 * (newest first), completed (harness names, id prefixes), and read as the
 * Markdown `txcript view --format markdown` prints. A resource has no
 * cursor, so a huge session is cut at RESOURCE_CHARS with a note naming
 * read_session, which pages. A server started with --redact lists and
 * reads them redacted.
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorLine, NotFoundError } from "../errors.js";
import { storedHarnesses } from "../harness/index.js";
import { defined } from "../json.js";
import { isHarnessId } from "../transcript.js";
import { markdownPage } from "./pages.js";
import {
  redacting,
  redactListed,
  sessionUri,
  shownSession,
  type ToolContext,
  tracked,
} from "./tool-context.js";

const RESOURCE_CHARS = 1_000_000;

function variable(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** The id part of a resource URI, percent-decoded; a stray `%` is a usage error naming the URI, not an internal one. */
function decodedId(raw: string, href: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFoundError(
      undefined,
      `malformed session id "${raw}" (in ${href}): a % must start an escape like %2F`,
    );
  }
}

export function registerResources(server: McpServer, ctx: ToolContext): void {
  const template = new ResourceTemplate("txcript://{harness}/{id}", {
    list: () =>
      tracked(ctx, async () => {
        try {
          const all = (await ctx.sessions.list({})).sessions;
          const shown = redacting(ctx, false) ? await redactListed(ctx, all) : all;
          return {
            resources: shown.map((s) => ({
              uri: sessionUri(s.harness, s.id),
              name: `${s.harness}/${s.id}`,
              title: s.meta.title ?? `${s.harness} session ${s.id}`,
              description: `${s.message_count} messages, last active ${s.updated}${s.meta.cwd ? `, in ${s.meta.cwd}` : ""}`,
              mimeType: "text/markdown",
            })),
          };
        } catch (error) {
          throw new McpError(ErrorCode.InternalError, errorLine(error));
        }
      }),
    complete: {
      harness: (value) =>
        storedHarnesses()
          .map((h) => h.id)
          .filter((id) => id.startsWith(value)),
      id: async (value, context) => {
        const h = context?.arguments?.harness;
        try {
          return (
            await ctx.sessions.list(h !== undefined && isHarnessId(h) ? { from: h } : {})
          ).sessions
            .map((s) => s.id)
            .filter((id) => id.startsWith(value))
            .slice(0, 100);
        } catch {
          return [];
        }
      },
    },
  });
  server.registerResource(
    "session",
    template,
    {
      title: "A coding-agent session",
      description: "A session from any harness's store, as Markdown",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      try {
        const harness = variable(variables.harness);
        const id = decodedId(variable(variables.id), uri.href);
        if (!isHarnessId(harness)) {
          throw new NotFoundError(undefined, `no harness "${harness}" (in ${uri.href})`);
        }
        const located = await ctx.sessions.resolve(id, harness);
        const loaded = await ctx.sessions.load(located);
        const shown = await shownSession(ctx, loaded, redacting(ctx, false));
        const input = {
          meta: shown.transcript.meta,
          messages: shown.transcript.body,
          harness: located.harness,
          ...defined({ path: shown.path }),
        };
        const parts = markdownPage(input, ctx.env.HOME);
        const out = [parts.head];
        let used = parts.head.length;
        let cutAt: number | undefined;
        for (let i = 0; i < input.messages.length; i++) {
          const piece = parts.message(i);
          if (used + piece.length > RESOURCE_CHARS) {
            cutAt = i;
            break;
          }
          out.push(piece);
          used += piece.length;
        }
        if (cutAt === undefined) out.push(parts.tail);
        else {
          out.push(
            `\n---\n\n*Cut at message #${cutAt + 1} of ${input.messages.length} (over ${RESOURCE_CHARS} characters): call the read_session tool with session "${located.id}#${cutAt + 1}-" for the rest.*\n`,
          );
        }
        return {
          contents: [
            {
              uri: sessionUri(located.harness, located.id),
              mimeType: "text/markdown",
              text: out.join(""),
            },
          ],
        };
      } catch (error) {
        throw new McpError(ErrorCode.InvalidParams, errorLine(error));
      }
    },
  );
}
