/**
 * What `view` and `export` share for pages: the user's home directory and
 * name (from the environment, for `~` and for --redact), redaction with
 * its count on stderr, and rendering a resolved source as Simple,
 * Markdown or HTML.
 */

import { userInfo } from "node:os";
import { basename } from "node:path";
import { homeDir } from "../env.js";
import { renderSimple } from "../harness/simple.js";
import { type RenderInput, redact, renderHtml, renderMarkdown } from "../render/index.js";
import type { Common, Transcript } from "../transcript.js";
import type { Source } from "./context.js";

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
}

/** `redacted 3 (github 1, home 2)`, for stderr. */
export function redactionSummary(count: number, byKind: Record<string, number>): string {
  const kinds = Object.entries(byKind)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`);
  return `redacted ${count}${kinds.length ? ` (${kinds.join(", ")})` : ""}`;
}

export interface Rendered {
  text: string;
  /** The metadata as rendered (redacted when asked). */
  meta: Transcript<Common>["meta"];
  redacted?: { count: number; byKind: Record<string, number> };
}

/** The source (its selected range) in `format`, redacted first when asked. */
export async function renderSource(
  source: Source,
  format: PageFormat,
  options: PageOptions,
  who: Identity = identity(),
): Promise<Rendered> {
  let transcript: Transcript<Common> = source.transcript;
  let redacted: Rendered["redacted"];
  if (options.redact) {
    const r = await redact(transcript, who);
    transcript = r.transcript;
    redacted = { count: r.count, byKind: r.byKind };
  }
  const input: RenderInput = { transcript, start: source.start, end: source.end };
  if (source.found) input.harness = source.found.harness;
  if (source.path !== undefined) input.path = source.path;
  if (options.showPaths) input.showPaths = true;
  // A redacted page shows no home path either way; without --redact, `~` still replaces it.
  if (who.home !== undefined) input.home = who.home;
  let text: string;
  switch (format) {
    case "simple":
      text = renderSimple(
        source.start === 0 && source.end === transcript.body.length
          ? transcript
          : { meta: transcript.meta, body: transcript.body.slice(source.start, source.end) },
      );
      break;
    case "markdown":
      text = renderMarkdown(input);
      break;
    case "html":
      text = renderHtml(input);
      break;
    default:
      return format satisfies never;
  }
  return redacted ? { text, meta: transcript.meta, redacted } : { text, meta: transcript.meta };
}
