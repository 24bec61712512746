/**
 * txcript list: every session on the machine, newest activity first,
 * served from the index (refreshed by fingerprint first, so it is never
 * stale). `--json` prints the stable schema documented in docs/cli.md.
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import { assignDefined } from "../../json.js";
import type { Listing } from "../../local.js";
import { sessionRecord } from "../../session-record.js";
import type { ListRequest } from "../../sessions/sessions.js";
import type { HarnessId } from "../../transcript.js";
import { addArchiveOptions } from "../archive.js";
import { reportSkipped } from "../cache.js";
import { finishedWhenDone, takeInterrupts } from "../interrupt.js";
import { parseHarness, parsePositiveInt, parseSince, parseUntil } from "../options.js";
import { colorEnabled, jsonChunks, tell, writeChunks } from "../output.js";
import { withSessions } from "../sessions.js";

interface ListOptions {
  from?: HarnessId;
  cwd?: string;
  since?: number;
  until?: number;
  json?: boolean;
  limit?: number;
  verbose?: boolean;
}

export function register(program: Command): void {
  addArchiveOptions(program.command("list"))
    .alias("ls")
    .description("list sessions, newest first")
    .option("--from <harness>", "only this harness", parseHarness)
    .option("--cwd <dir>", "only sessions in this directory or below")
    .option(
      "--since <when>",
      "only sessions active since: an age (3d, 12h), a date or a timestamp",
      parseSince,
    )
    .option(
      "--until <when>",
      "only sessions last active by: an age, a date (that whole day) or a timestamp",
      parseUntil,
    )
    .option("--json", "print JSON (schema: docs/cli.md)")
    .option("--limit <n>", "at most n sessions", parsePositiveInt)
    .option("-v, --verbose", "say why each skipped file was skipped")
    .action(async (options: ListOptions, command: Command) => {
      const request: ListRequest = {};
      assignDefined(request, "from", options.from);
      if (options.cwd !== undefined) request.cwd = resolve(options.cwd);
      assignDefined(request, "since", options.since);
      assignDefined(request, "until", options.until);
      assignDefined(request, "limit", options.limit);
      const listing: Listing = await withSessions(command, (sessions, progress) =>
        sessions.list(request, progress),
      );
      await takeInterrupts(); // a Ctrl-C during the scan ends it here, before any output
      if (options.json) {
        const doc = {
          version: 1,
          // Each record made as it is written: never every one at once.
          sessions: (function* () {
            for (const s of listing.sessions) yield sessionRecord(s);
          })(),
          // A store that could not be read at all is listed by its root.
          skipped: [...listing.unreadable, ...listing.skipped].map((s) => ({
            harness: s.harness,
            path: s.path,
            reason: s.reason,
          })),
        };
        writeChunks(jsonChunks(doc));
      } else {
        const tty = process.stdout.isTTY === true;
        const { renderTable } = await import("../list-table.js");
        const text = renderTable(listing.sessions, {
          color: colorEnabled(process.stdout, process.env),
          columns: tty ? process.stdout.columns || 80 : undefined,
          now: Date.now(),
        });
        if (text !== "") process.stdout.write(text);
        else if (
          listing.skipped.length > 0 ||
          listing.unreadable.length > 0 ||
          options.cwd !== undefined ||
          options.since !== undefined ||
          options.until !== undefined
        )
          tell("no sessions found\n");
        else {
          // Only an empty machine needs the stores themselves, to say where it looked.
          const [{ localFor }, { explainEmpty }] = await Promise.all([
            import("../context.js"),
            import("../looked.js"),
          ]);
          tell(`${explainEmpty(localFor(command, options.from), process.env).join("\n")}\n`);
        }
      }
      reportSkipped(listing, options.verbose);
      // Nothing runs on, but an archive's connection closing (backend.ts).
      if (command.opts().archive === undefined) finishedWhenDone();
    });
}
