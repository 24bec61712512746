/**
 * What `view` and `export` share for pages: the user's home directory and
 * name (from the environment, for `~` and for --redact), redaction with
 * its count on stderr, and rendering a resolved source as Simple,
 * Markdown or HTML.
 */

import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { basename } from "node:path";
import { homeDir } from "../env.js";
import { describeCause } from "../errors.js";
import { renderSimpleChunks } from "../harness/simple.js";
import { assignDefined } from "../json.js";
import {
  type RenderInput,
  redact,
  renderHtmlChunks,
  renderMarkdownChunks,
} from "../render/index.js";
import type { Finding } from "../render/redact.js";
import { parsePatterns, type SecretPattern } from "../render/secrets.js";
import type { Common, Transcript } from "../transcript.js";
import type { Source } from "./context.js";
import { UsageError } from "./errors.js";

export const PAGE_FORMATS = ["simple", "markdown", "html"] as const;
export type PageFormat = (typeof PAGE_FORMATS)[number];

export const EXTENSIONS: Record<PageFormat, string> = {
  simple: "json",
  markdown: "md",
  html: "html",
};

export interface Identity {
  home?: string;
  user?: string;
}

/** The home directory as env.ts reads it, and $USER/$LOGNAME (else the OS's, else home's last component). */
export function identity(env: NodeJS.ProcessEnv = process.env): Identity {
  const out: Identity = {};
  let home: string | undefined;
  try {
    home = homeDir(env);
  } catch {
    home = undefined;
  }
  if (home) out.home = home;
  let user = env.USER || env.LOGNAME;
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = home ? basename(home) : undefined;
    }
  }
  if (user) out.user = user;
  return out;
}

export interface PageOptions {
  redact?: boolean;
  showPaths?: boolean;
  /** A file of the user's own patterns (also $TXCRIPT_REDACT_PATTERNS). */
  redactPatterns?: string;
  /** List what --redact would remove (kind, message, field), never the values. */
  redactDryRun?: boolean;
}

/**
 * The redaction flags made whole: --redact-dry-run implies --redact, and
 * --redact-patterns without --redact is refused rather than ignored. The
 * user's patterns come from --redact-patterns, else $TXCRIPT_REDACT_PATTERNS.
 */
export function redactionPlan(
  options: PageOptions,
  env: NodeJS.ProcessEnv = process.env,
): { redact: boolean; patterns: SecretPattern[] } {
  if (options.redactPatterns !== undefined && !options.redact && !options.redactDryRun)
    throw new UsageError("--redact-patterns needs --redact (or --redact-dry-run)");
  const redact = options.redact === true || options.redactDryRun === true;
  const file =
    options.redactPatterns ??
    (redact && env.TXCRIPT_REDACT_PATTERNS ? env.TXCRIPT_REDACT_PATTERNS : undefined);
  if (!redact || file === undefined) return { redact, patterns: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new UsageError(`${file}: cannot read the pattern file: ${describeCause(cause)}`);
  }
  try {
    return { redact, patterns: parsePatterns(text, file) };
  } catch (error) {
    // A pattern file is the user's input: a usage error (exit 2), not a failure.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The dry run's report: one line per finding, `kind<TAB>#message<TAB>field`, never the value. */
export function dryRunReport(findings: readonly Finding[], prefix = ""): string {
  return findings
    .map(
      (f) =>
        `${prefix}${f.kind}\t${f.message !== undefined ? `#${f.message}` : "meta"}\t${f.field}\n`,
    )
    .join("");
}

export interface RedactedSource {
  source: Source;
  redacted?: { count: number; byKind: Record<string, number>; findings: Finding[] };
}

/**
 * The source as every door shows it: with --redact, the transcript
 * redacted and the home path gone from the file path too (even with
 * --show-paths); otherwise unchanged.
 */
export async function redactSource(
  source: Source,
  options: PageOptions,
  who: Identity = identity(),
): Promise<RedactedSource> {
  const plan = redactionPlan(options);
  if (!plan.redact) return { source };
  const r = await redact(source.transcript, { ...who, patterns: plan.patterns });
  const out: Source = { ...source, transcript: r.transcript };
  const home = who.home?.replace(/\/+$/, "");
  if (home && out.path !== undefined && (out.path === home || out.path.startsWith(`${home}/`)))
    out.path = `~${out.path.slice(home.length)}`;
  return { source: out, redacted: { count: r.count, byKind: r.byKind, findings: r.findings } };
}

/** `redacted 3 (github 1, home 2)`, for stderr. */
export function redactionSummary(count: number, byKind: Record<string, number>): string {
  const kinds = Object.entries(byKind)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`);
  return `redacted ${count}${kinds.length ? ` (${kinds.join(", ")})` : ""}`;
}

export interface Rendered {
  /** The page in pieces, rendered a message at a time as it is written. */
  pieces: Iterable<string>;
  /** The metadata as rendered (redacted when asked). */
  meta: Transcript<Common>["meta"];
  redacted?: { count: number; byKind: Record<string, number>; findings: Finding[] };
}

/** The source (its selected range) in `format`, redacted first when asked. */
export async function renderSource(
  given: Source,
  format: PageFormat,
  options: PageOptions,
  who: Identity = identity(),
): Promise<Rendered> {
  const done = await redactSource(given, options, who);
  const source = done.source;
  const transcript: Transcript<Common> = source.transcript;
  const redacted: Rendered["redacted"] = done.redacted;
  const input: RenderInput = { transcript, start: source.start, end: source.end };
  if (source.found) input.harness = source.found.harness;
  assignDefined(input, "path", source.path);
  if (options.showPaths) input.showPaths = true;
  // A redacted page shows no home path either way; without --redact, `~` still replaces it.
  assignDefined(input, "home", who.home);
  let pieces: Iterable<string>;
  switch (format) {
    case "simple":
      pieces = renderSimpleChunks(
        source.start === 0 && source.end === transcript.body.length
          ? transcript
          : { meta: transcript.meta, body: transcript.body.slice(source.start, source.end) },
      );
      break;
    case "markdown":
      pieces = renderMarkdownChunks(input);
      break;
    case "html":
      pieces = renderHtmlChunks(input);
      break;
    default:
      return format satisfies never;
  }
  return redacted ? { pieces, meta: transcript.meta, redacted } : { pieces, meta: transcript.meta };
}
