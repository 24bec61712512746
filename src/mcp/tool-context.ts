/**
 * What every MCP tool and resource shares: the server's context (the one
 * Sessions service, the memo of the last renderings, calls in flight, the
 * redaction in force), redacting what an answer shows, and turning a tool
 * body's result or throw into an MCP answer with the CLI's one-line message.
 */

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Env } from "../env.js";
import { errorLine } from "../errors.js";
import { RangeSyntaxError } from "../range.js";
import { type RedactOptions, redact, redactTexts } from "../render/index.js";
import type { ViewParts } from "../render/text.js";
import type { LoadedAt, Sessions } from "../sessions/sessions.js";
import type { Common, Discovered, HarnessId, Transcript } from "../transcript.js";
import type { PagedDocument } from "./pages.js";

export interface ToolContext {
  /** The sessions service: every tool and resource goes through it, as every CLI command does. */
  sessions: Sessions;
  env: Env;
  /** Relative cwd filters resolve against it; continued sessions with no cwd get it. */
  cwd: string;
  allowWrite: boolean;
  /** Diagnostics (stderr in the CLI); never the protocol stream. */
  log: (line: string) => void;
  /**
   * The last message piece and the last export rendered, so paging through
   * one huge message or document renders it once (per server, not global).
   */
  memo: {
    piece?: { key: string; text: string };
    export?: { key: string; doc: PagedDocument };
    markdown?: { key: string; parts: ViewParts };
    redacted?: {
      key: string;
      shown: { transcript: Transcript<Common>; path: string | undefined; count: number | null };
    };
  };
  /** Calls in flight, so the server can answer them all before it closes. */
  pending: Set<Promise<unknown>>;
  redaction: McpRedaction;
}

export interface McpRedaction {
  /** Every answer is redacted, whatever a call asks (`txcript mcp --redact`). */
  force: boolean;
  /** What the redactor is given: the home path, the user name, the user's own patterns. */
  options: RedactOptions;
}

/** Whether this call's answer is redacted: the server's --redact, else the call's own `redact`. */
export function redacting(ctx: ToolContext, asked: boolean | undefined): boolean {
  return ctx.redaction.force || asked === true;
}

/** `path` with the home directory as `~`, as the CLI shows a redacted session's file. */
export function tildePath(ctx: ToolContext, path: string): string {
  const home = ctx.redaction.options.home?.replace(/\/+$/, "");
  return home && (path === home || path.startsWith(`${home}/`))
    ? `~${path.slice(home.length)}`
    : path;
}

/**
 * A loaded session as an answer shows it: redacted (kept for the session's
 * version, so paging a redacted read scans it once) or as it is.
 */
export async function shownSession(
  ctx: ToolContext,
  loaded: LoadedAt,
  redacted: boolean,
): Promise<{ transcript: Transcript<Common>; path: string | undefined; count: number | null }> {
  if (!redacted) return { transcript: loaded.transcript, path: loaded.path, count: null };
  const key = `${loaded.located.harness}/${loaded.located.id}/${loaded.version}`;
  const memo = ctx.memo.redacted;
  if (memo?.key === key) return memo.shown;
  const r = await redact(loaded.transcript, ctx.redaction.options);
  const shown = {
    transcript: r.transcript,
    path: loaded.path === undefined ? undefined : tildePath(ctx, loaded.path),
    count: r.count,
  };
  ctx.memo.redacted = { key, shown };
  return shown;
}

/** Listed sessions with what a listing shows of them (title, directory, branch, file) redacted. */
export async function redactListed(
  ctx: ToolContext,
  list: readonly Discovered[],
): Promise<Discovered[]> {
  const texts = list.flatMap((s) => [
    s.meta.title ?? "",
    s.meta.cwd ?? "",
    s.meta.git_branch ?? "",
    s.path,
  ]);
  const out = await redactTexts(texts, ctx.redaction.options);
  return list.map((s, i) => {
    const [title = "", cwd = "", branch = "", path = ""] = out.slice(i * 4, i * 4 + 4);
    const meta = { ...s.meta };
    if (meta.title !== undefined) meta.title = title;
    if (meta.cwd !== undefined) meta.cwd = cwd;
    if (meta.git_branch !== undefined) meta.git_branch = branch;
    return { ...s, meta, path: tildePath(ctx, path) };
  });
}

/** Run `work`, counted in `ctx.pending` until it settles. */
export function tracked<T>(ctx: ToolContext, work: () => Promise<T>): Promise<T> {
  const p = work();
  ctx.pending.add(p);
  const done = () => ctx.pending.delete(p);
  p.then(done, done);
  return p;
}

export function sessionUri(harness: HarnessId, id: string): string {
  return `txcript://${harness}/${encodeURIComponent(id)}`;
}

export type Result<S extends z.ZodType<Record<string, unknown>>> = {
  structured: z.infer<S>;
  text: string;
};

/** Run a tool body; any throw becomes a tool error with the one-line message. */
export function answer<S extends z.ZodType<Record<string, unknown>>>(
  ctx: ToolContext,
  tool: string,
  body: () => Result<S> | Promise<Result<S>>,
): Promise<CallToolResult> {
  return tracked(ctx, () => answerNow(ctx, tool, body));
}

async function answerNow<S extends z.ZodType<Record<string, unknown>>>(
  ctx: ToolContext,
  tool: string,
  body: () => Result<S> | Promise<Result<S>>,
): Promise<CallToolResult> {
  try {
    const { structured, text } = await body();
    return {
      structuredContent: structured,
      content: [{ type: "text", text }],
    };
  } catch (error) {
    const line =
      error instanceof RangeSyntaxError
        ? `txcript: ${error.message}`
        : errorLine(error, { narrow: (h) => `harness "${h}"` });
    if (ctx.env.TXCRIPT_DEBUG === "1" && error instanceof Error && error.stack) {
      ctx.log(`${tool}: ${error.stack}`);
    }
    return { isError: true, content: [{ type: "text", text: line }] };
  }
}
