/**
 * txcript list: every session on the machine, newest activity first.
 * `--json` prints the stable schema documented in docs/cli.md.
 */

import { homedir } from "node:os";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Listing } from "../../local.js";
import { timestampMillis } from "../../time.js";
import type { Discovered, HarnessId } from "../../transcript.js";
import { harnessLabel, localFor } from "../context.js";
import { takeInterrupts } from "../interrupt.js";
import { explainEmpty } from "../looked.js";
import { parseHarness, parsePositiveInt } from "../options.js";
import { colorEnabled, Progress, painter, tell } from "../output.js";
import { forTerminal } from "../sanitize.js";

interface ListOptions {
  from?: HarnessId;
  cwd?: string;
  json?: boolean;
  limit?: number;
  verbose?: boolean;
}

/** `42s`, `5m`, `3h`, `12d`, `8mo`, `2y`. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  if (s < 86400 * 60) return `${Math.floor(s / 86400)}d`;
  if (s < 86400 * 730) return `${Math.floor(s / (86400 * 30))}mo`;
  return `${Math.floor(s / (86400 * 365))}y`;
}

function tildify(path: string): string {
  const home = homedir();
  return home && (path === home || path.startsWith(`${home}/`))
    ? `~${path.slice(home.length)}`
    : path;
}

/** The `--json` record of one session (schema version 1, docs/cli.md). */
export function sessionJson(s: Discovered): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: s.id,
    harness: s.harness,
    created: s.meta.timestamp,
    updated: s.updated,
    message_count: s.message_count,
    title: s.meta.title ?? null,
    cwd: s.meta.cwd ?? null,
    git_branch: s.meta.git_branch ?? null,
    model: s.meta.model ?? null,
    path: s.path,
    lane: s.lane ?? null,
    parent_id: s.parent_id ?? null,
    forked_from: s.forked_from ?? null,
    forked_from_harness: s.forked_from_harness ?? null,
  };
  return out;
}

export function register(program: Command): void {
  program
    .command("list")
    .alias("ls")
    .description("list sessions, newest first")
    .option("--from <harness>", "only this harness", parseHarness)
    .option("--cwd <dir>", "only sessions in this directory or below")
    .option("--json", "print JSON (schema: docs/cli.md)")
    .option("--limit <n>", "at most n sessions", parsePositiveInt)
    .option("-v, --verbose", "say why each skipped file was skipped")
    .action(async (options: ListOptions, command: Command) => {
      const local = localFor(command, options.from);
      const progress = new Progress();
      let listing: Listing;
      try {
        const listOpts: Parameters<typeof local.list>[0] = {
          onProgress: (h, done, total) => progress.update(`scanning ${h}: ${done}/${total}`),
        };
        if (options.cwd !== undefined) listOpts.cwd = resolve(options.cwd);
        if (options.limit !== undefined) listOpts.limit = options.limit;
        listing = await local.list(listOpts);
      } finally {
        progress.done();
      }
      await takeInterrupts(); // a Ctrl-C during the scan ends it here, before any output
      if (options.json) {
        const doc = {
          version: 1,
          sessions: listing.sessions.map(sessionJson),
          // A store that could not be read at all is listed by its root.
          skipped: [...listing.unreadable, ...listing.skipped].map((s) => ({
            harness: s.harness,
            path: s.path,
            reason: s.reason,
          })),
        };
        process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      } else {
        const paint = painter(colorEnabled(process.stdout, process.env));
        const now = Date.now();
        const width = Math.max(...listing.sessions.map((s) => s.harness.length), 0);
        const cwdOf = (s: Discovered) => (s.meta.cwd ? tildify(s.meta.cwd) : "-");
        // Align titles unless one long cwd would push every title far right.
        const cwdWidth = Math.min(40, Math.max(...listing.sessions.map((s) => cwdOf(s).length), 0));
        // Ids as short as they stay unique here (at least 8 characters): OpenCode's
        // all begin `ses_` and a timestamp, so 8 would name several at once.
        const idWidth = uniquePrefixWidth(listing.sessions.map((s) => s.id));
        const lines = listing.sessions.map((s) => {
          const when = age(now - timestampMillis(s.updated)).padStart(4);
          const count = `${s.message_count} msg${s.message_count === 1 ? "" : "s"}`.padStart(9);
          const title = forTerminal((s.meta.title ?? "(untitled)").replace(/\s+/g, " "));
          return `${paint.bold(s.id.slice(0, idWidth).padEnd(idWidth))}  ${s.harness.padEnd(width)}  ${paint.dim(when)}  ${count}  ${paint.cyan(cwdOf(s).padEnd(cwdWidth))}  ${title}`;
        });
        if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
        else if (
          listing.skipped.length > 0 ||
          listing.unreadable.length > 0 ||
          options.cwd !== undefined
        )
          tell("no sessions found\n");
        else tell(`${explainEmpty(local, process.env).join("\n")}\n`);
      }
      for (const u of listing.unreadable) {
        tell(`txcript: warning: skipped the ${harnessLabel(u.harness)} store: ${u.reason}\n`);
      }
      const n = listing.skipped.length;
      if (n > 0) {
        if (options.verbose) {
          for (const s of listing.skipped) tell(`skipped ${s.path}: ${s.reason}\n`);
        } else {
          tell(`${n} file${n === 1 ? "" : "s"} skipped; --verbose shows why\n`);
        }
      }
    });
}

/** The shortest prefix length, 8 or more, at which every distinct id differs from the others. */
export function uniquePrefixWidth(ids: readonly string[]): number {
  const distinct = [...new Set(ids)].sort();
  let width = 8;
  for (let i = 1; i < distinct.length; i++) {
    const a = distinct[i - 1] as string;
    const b = distinct[i] as string;
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    width = Math.max(width, Math.min(common + 1, Math.max(a.length, b.length)));
  }
  return width;
}
