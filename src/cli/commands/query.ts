/**
 * txcript query <terms>: full-text search over every session's messages,
 * best hits first (bm25), each with a highlighted snippet, where it matched
 * and the `view <id>#<n>` that opens the spot. With no terms on a terminal
 * it opens the picker. `--json` schema: docs/cli.md.
 */

import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { InvalidRequestError } from "../../errors.js";
import { shortener } from "../../id-forms.js";
import {
  ftsExpression,
  type Hit,
  isKind,
  KINDS,
  type Kind,
  type QueryRequest,
} from "../../index/index.js";
import { assignDefined } from "../../json.js";
import { sessionRecord } from "../../session-record.js";
import { timestampMillis } from "../../time.js";
import type { HarnessId } from "../../transcript.js";
import { addArchiveOptions } from "../archive.js";
import { localDate, padEnd } from "../columns.js";
import { UsageError } from "../errors.js";
import { parseHarness, parsePositiveInt, parseSince, parseUntil } from "../options.js";
import { colorEnabled, painter } from "../output.js";
import { inlineForTerminal, oneLineForTerminal } from "../sanitize.js";
import { withSessions } from "../sessions.js";

interface QueryOptions {
  from?: HarnessId;
  cwd?: string;
  since?: number;
  until?: number;
  role?: Kind[];
  limit?: number;
  json?: boolean;
}

/** `--role user,tool`: the places a hit may be; `tool` is both tool kinds. */
export function parseRoles(value: string, previous: Kind[] = []): Kind[] {
  const out = [...previous];
  for (const part of value.split(",").map((p) => p.trim().replace(/-/g, "_"))) {
    if (part === "tool") out.push("tool_call", "tool_output");
    else if (isKind(part)) out.push(part);
    else
      throw new InvalidArgumentError(`unknown place "${part}" (one of: ${KINDS.join(", ")}, tool)`);
  }
  return out;
}

/** What `view` takes to open the hit: the message, or the session for its title and fields. */
export function viewRef(hit: Hit): string {
  return hit.ordinal > 0 ? `${hit.session.id}#${hit.ordinal}` : hit.session.id;
}

export function hitJson(hit: Hit): Record<string, unknown> {
  return {
    id: hit.session.id,
    harness: hit.session.harness,
    ordinal: hit.ordinal,
    where: hit.kind,
    timestamp: hit.timestamp,
    score: hit.score,
    snippet: hit.snippet,
    highlights: hit.highlights,
    view: viewRef(hit),
    session: sessionRecord(hit.session),
  };
}

function highlight(hit: Hit, mark: (s: string) => string): string {
  let out = "";
  let at = 0;
  for (const [start, end] of hit.highlights) {
    // Each piece made safe on its own: the highlight offsets count the snippet as stored.
    out +=
      inlineForTerminal(hit.snippet.slice(at, start)) +
      mark(inlineForTerminal(hit.snippet.slice(start, end)));
    at = end;
  }
  return out + inlineForTerminal(hit.snippet.slice(at));
}

const WHERE: Record<Kind, string> = {
  user: "user",
  assistant: "assistant",
  thinking: "thinking",
  tool_call: "tool call",
  tool_output: "tool output",
  title: "title",
  meta: "cwd/branch/model",
};

function millis(ts: string): number {
  try {
    return timestampMillis(ts);
  } catch {
    return 0;
  }
}

export function renderHits(hits: readonly Hit[], color: boolean): string {
  const paint = painter(color);
  // Ids as short as they stay apart here: Codex's are time-based, so
  // sessions started the same minute share their first 8 characters.
  const short = shortener(hits.map((h) => h.session.id));
  const refOf = (h: Hit) =>
    inlineForTerminal(h.ordinal > 0 ? `${short(h.session.id)}#${h.ordinal}` : short(h.session.id));
  const refWidth = Math.max(0, ...hits.map((h) => refOf(h).length));
  const lines: string[] = [];
  hits.forEach((hit) => {
    const title = oneLineForTerminal(hit.session.meta.title ?? "(untitled)");
    lines.push(
      `${paint.bold(padEnd(refOf(hit), refWidth))}  ${hit.session.harness}  ${paint.dim(localDate(millis(hit.timestamp)))}  ${paint.magenta(WHERE[hit.kind])}  ${paint.cyan(title)}`,
    );
    lines.push(`    ${highlight(hit, (s) => paint.yellow(paint.bold(s)))}`);
  });
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export function register(program: Command): void {
  addArchiveOptions(program.command("query"))
    .alias("search")
    .description('search every session\'s messages: words, "phrases", prefix*, -excluded')
    .argument("[terms...]", "what to find; on a terminal with none, the picker opens")
    .option("--from <harness>", "only this harness", parseHarness)
    .option("--cwd <dir>", "only sessions in this directory or below")
    .option(
      "--since <when>",
      "only sessions active since: an age (3d), a date or a timestamp",
      parseSince,
    )
    .option(
      "--until <when>",
      "only sessions last active by: an age, a date or a timestamp",
      parseUntil,
    )
    .option(
      "--role <where>",
      `only hits in: ${KINDS.join(", ")}, tool (repeat or comma-separate)`,
      parseRoles,
    )
    .option("--limit <n>", "at most n hits (default 20)", parsePositiveInt)
    .option("--json", "print JSON (schema: docs/cli.md)")
    .action(async (terms: string[], options: QueryOptions, command: Command) => {
      const text = terms.join(" ");
      if (text.trim() === "") {
        if (process.stdin.isTTY && process.stdout.isTTY && !options.json) {
          const { pick } = await import("./pick.js");
          await pick(command, options.from);
          return;
        }
        throw new UsageError('give something to search for: words, "a phrase", a prefix*');
      }
      try {
        ftsExpression(text);
      } catch (error) {
        if (error instanceof InvalidRequestError) throw new UsageError(error.detail);
        throw error;
      }
      const request: QueryRequest = { limit: options.limit ?? 20 };
      assignDefined(request, "from", options.from);
      if (options.cwd !== undefined) request.cwd = resolve(options.cwd);
      assignDefined(request, "since", options.since);
      assignDefined(request, "until", options.until);
      assignDefined(request, "kinds", options.role);
      const hits: Hit[] = await withSessions(
        command,
        async (sessions, progress) => (await sessions.query(text, request, progress)).hits,
      );
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify({ version: 1, query: text, hits: hits.map(hitJson) }, null, 2)}\n`,
        );
        return;
      }
      const out = renderHits(hits, colorEnabled(process.stdout, process.env));
      if (out !== "") process.stdout.write(out);
      else process.stderr.write(`nothing matches ${JSON.stringify(text)}\n`);
    });
}
