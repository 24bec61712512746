/**
 * txcript archive push: send this machine's new and changed sessions to a
 * shared PostgreSQL archive (src/archive/push.ts), cut to a content level
 * and redacted first, and say what was sent. Reading the archive is the
 * other commands' `--archive` flag (../archive.ts).
 */

import { hostname } from "node:os";
import { type Command, InvalidArgumentError, Option } from "commander";
import { CONTENT_LEVELS, type ContentLevel, isContentLevel } from "../../archive/content.js";
import { archiveUrl } from "../archive.js";
import { UsageError } from "../errors.js";
import { tell } from "../output.js";
import { identity, redactionPlan } from "../pages.js";
import { withSessions } from "../sessions.js";

interface PushOptions {
  archive?: string;
  content: ContentLevel;
  redact: boolean;
  machine?: string;
  user?: string;
  json?: boolean;
  prune?: boolean;
}

const WHAT: Record<ContentLevel, string> = {
  full: "transcripts with tool output, and their searchable text",
  "no-tool-output": "transcripts without tool output, and their searchable text",
  metadata: "titles, directories, times and token usage only; no messages",
};

function parseLevel(value: string): ContentLevel {
  if (!isContentLevel(value))
    throw new InvalidArgumentError(`expected one of ${CONTENT_LEVELS.join(", ")}`);
  return value;
}

/** $TXCRIPT_ARCHIVE itself: a URL, never the name of another variable. */
async function checkedUrl(url: string): Promise<string> {
  const { checkArchiveUrl } = await import("../../archive/url.js");
  return checkArchiveUrl(url);
}

/** Sessions per transaction: $TXCRIPT_ARCHIVE_BATCH (a tuning knob; the bench sets 1 for its baseline). */
function batchSize(): number | undefined {
  const n = Number(process.env.TXCRIPT_ARCHIVE_BATCH);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function register(program: Command): void {
  const archive = program
    .command("archive")
    .description("a shared archive of every machine's sessions on PostgreSQL (docs/archive.md)");
  archive
    .command("push")
    .description("send this machine's new and changed sessions to the archive")
    .option(
      "--archive <url>",
      "the archive: postgres://user@host/db, or a variable holding it (default: $TXCRIPT_ARCHIVE)",
    )
    .addOption(
      new Option("--content <level>", "what to send: full, no-tool-output or metadata")
        .argParser(parseLevel)
        .default("no-tool-output"),
    )
    .option("--no-redact", "send text as it is (default: secrets, e-mails, home path removed)")
    .option(
      "--machine <name>",
      "this machine's name in the archive (default: $TXCRIPT_MACHINE, else the host name)",
    )
    .option("--user <name>", "your name in the archive (default: $USER)")
    .option(
      "--prune",
      "also remove from the archive this machine's sessions deleted here (default: kept)",
    )
    .option("--json", "print what was sent as JSON")
    .action(async (options: PushOptions, command: Command) => {
      const given = options.archive ?? process.env.TXCRIPT_ARCHIVE;
      if (given === undefined || given === "")
        throw new UsageError("archive push needs --archive postgres://… (or $TXCRIPT_ARCHIVE)");
      const [url, { push }, { openPool }] = await Promise.all([
        options.archive === undefined ? checkedUrl(given) : archiveUrl(given),
        import("../../archive/push.js"),
        import("../../archive/connect.js"),
      ]);
      const who = identity();
      const machine = options.machine ?? (process.env.TXCRIPT_MACHINE || hostname());
      const user = options.user ?? who.user ?? "unknown";
      const plan = redactionPlan({ redact: options.redact });
      const pool = openPool(url);
      try {
        const pushed = await withSessions(
          command,
          (sessions, progress) =>
            push(sessions, {
              url,
              pool,
              machine,
              user,
              content: options.content,
              redaction: options.redact ? { ...who, patterns: plan.patterns } : undefined,
              prune: options.prune === true,
              batch: batchSize(),
              onProgress: (done, total) => progress.onProgress?.("pushing", done, total),
            }),
          "local",
        );
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ version: 1, ...pushed }, null, 2)}\n`);
        } else {
          const { redactUrl } = await import("../../archive/url.js");
          tell(
            `pushed ${pushed.sent} session${pushed.sent === 1 ? "" : "s"} to ${redactUrl(url)} ` +
              `(${pushed.unchanged} unchanged, ${pushed.failed.length} unreadable) as machine ${machine}, user ${user}\n` +
              `sent: ${WHAT[pushed.content]}, ${megabytes(pushed.bytes)}; ` +
              (pushed.redacted
                ? `redacted (${pushed.redactions} replaced)\n`
                : "NOT redacted (--no-redact)\n") +
              (options.prune
                ? `pruned ${pushed.pruned} session${pushed.pruned === 1 ? "" : "s"} deleted here\n`
                : ""),
          );
        }
        for (const f of pushed.failed)
          tell(`txcript: warning: not pushed ${f.harness} ${f.id}: ${f.reason}\n`);
        if (pushed.failed.length > 0) process.exitCode = 1;
      } finally {
        await pool.end().catch(() => undefined);
      }
    });
}
