/**
 * The MCP tools: list_sessions, search_sessions, read_session,
 * export_session, and continue_session (only when the server was started
 * with --allow-write). Each returns structured content checked against its
 * output schema plus a text rendering; every failure comes back as a tool
 * error carrying the CLI's one-line message, never as a crash. A call may
 * ask for redaction (`redact: true`); a server started with --redact
 * redacts every answer whatever the call says: session content, snippets,
 * titles, directories and paths all go through the CLI's redactor
 * (src/render/redact.ts).
 *
 * This file registers the tools and holds continue_session; the shared
 * context is tool-context.ts, the finding tools tools-find.ts, the reading
 * tools tools-read.ts.
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { InvalidRequestError } from "../errors.js";
import { harness as harnessOf } from "../harness/index.js";
import { parseSimple } from "../harness/simple.js";
import type { Located } from "../local.js";
import { sliceTranscript } from "../range.js";
import { resumeLine } from "../sessions/resume.js";
import type { Common, Transcript } from "../transcript.js";
import {
  continueInput,
  continueOutput,
  exportInput,
  exportOutput,
  listInput,
  listOutput,
  readInput,
  readOutput,
  searchInput,
  searchOutput,
} from "./schemas.js";
import { answer, type Result, type ToolContext } from "./tool-context.js";
import { listSessions, searchSessions } from "./tools-find.js";
import { exportSession, readSession, selection, target } from "./tools-read.js";

// ---------------------------------------------------------------------------

type ContinueArgs = z.infer<z.ZodObject<typeof continueInput>>;

async function continueSession(
  ctx: ToolContext,
  args: ContinueArgs,
): Promise<Result<typeof continueOutput>> {
  if ((args.session === undefined) === (args.document === undefined)) {
    throw new InvalidRequestError(undefined, "give either a session or a document, not both");
  }
  let transcript: Transcript<Common>;
  let source: Located | undefined;
  if (args.document !== undefined) {
    transcript = parseSimple(args.document, "<document>");
  } else {
    const t = await target(ctx, args.session, args.harness);
    const loaded = await ctx.sessions.load(t.located);
    transcript = sliceTranscript(loaded.transcript, selection(loaded, t.range));
    source = t.located;
  }
  const into = args.with ?? source?.harness;
  if (into === undefined) {
    throw new InvalidRequestError(undefined, "continuing a document needs with: <harness>");
  }
  if (args.surface !== undefined && into !== "antigravity") {
    throw new InvalidRequestError(undefined, `surface applies to antigravity only, not ${into}`);
  }
  // The source named as the CLI names it: the same copy id and lineage from either door.
  const origin = source
    ? { harness: source.harness, id: source.id }
    : { harness: "simple" as const, id: transcript.meta.id };
  const result = await ctx.sessions.continue({
    transcript,
    source: origin,
    target: into,
    defaultCwd: ctx.cwd,
    surface: args.surface,
  });
  const { saved, resume } = result;
  const command = resume ? resumeLine(resume) : undefined;
  const label = harnessOf(into).label;
  const lines = [`wrote ${label} session ${saved.id}`, `  ${saved.path}`, ...(saved.notes ?? [])];
  lines.push(
    command
      ? `resume: ${command}`
      : saved.lane === "desktop"
        ? "open it in the Antigravity app"
        : `${label} has no resume command`,
  );
  return {
    structured: {
      harness: saved.harness,
      id: saved.id,
      path: saved.path,
      files: saved.files,
      source: source ? { harness: source.harness, id: source.id } : null,
      resume: resume && command ? { argv: resume.argv, cwd: resume.cwd ?? null, command } : null,
    },
    text: `${lines.join("\n")}\n`,
  };
}

// ---------------------------------------------------------------------------

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "list_sessions",
    {
      title: "List sessions",
      description:
        "Coding-agent sessions on this machine (Antigravity/agy, Claude Code, Codex, …), newest activity first, with filters and cursor pagination.",
      inputSchema: listInput,
      outputSchema: listOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "list_sessions", () => listSessions(ctx, args)),
  );
  server.registerTool(
    "search_sessions",
    {
      title: "Search sessions",
      description:
        "Full-text search over every session's messages, thinking, tool calls and tool output. Each hit names a ref (<id>#<message>) to pass to read_session.",
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "search_sessions", () => searchSessions(ctx, args)),
  );
  server.registerTool(
    "read_session",
    {
      title: "Read a session",
      description:
        "A session (or a #range of its messages) as text, Markdown or Common JSON, at most max_chars characters and max_tokens estimated tokens per call, cut between messages; follow next_cursor for the rest.",
      inputSchema: readInput,
      outputSchema: readOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "read_session", () => readSession(ctx, args)),
  );
  server.registerTool(
    "export_session",
    {
      title: "Export a session",
      description:
        "A session (or a #range) as a Simple document (the interchange JSON txcript continues from), at most max_chars characters and max_tokens estimated tokens per call; follow next_cursor for the rest.",
      inputSchema: exportInput,
      outputSchema: exportOutput,
      annotations: READ_ONLY,
    },
    (args) => answer(ctx, "export_session", () => exportSession(ctx, args)),
  );
  if (ctx.allowWrite) {
    server.registerTool(
      "continue_session",
      {
        title: "Continue a session in a harness",
        description:
          "Write a copy of a session (or a #range, or a Simple document) into a harness's store so that harness can resume it; returns the new id and the resume command. Never changes the source, never overwrites.",
        inputSchema: continueInput,
        outputSchema: continueOutput,
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      (args) => answer(ctx, "continue_session", () => continueSession(ctx, args)),
    );
  }
}
