/**
 * The `--archive` flags the reading commands share: `--archive <url>`
 * answers from a shared PostgreSQL archive (src/archive/) instead of this
 * machine, through the same sessions service; `--machine` and `--user`
 * narrow it to one machine's or one person's sessions. The archive's code
 * (and the `pg` driver) loads only when the flag is given.
 */

import type { Command } from "commander";
import type { SessionsBackend } from "../sessions/backend.js";
import { UsageError } from "./errors.js";

export function addArchiveOptions(command: Command): Command {
  return command
    .option(
      "--archive <url>",
      'answer from a shared archive (postgres://…; e.g. --archive "$TXCRIPT_ARCHIVE")',
    )
    .option("--machine <name>", "with --archive: only sessions pushed from this machine")
    .option("--user <name>", "with --archive: only sessions of this user");
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The archive the command's flags name, opened lazily; undefined without `--archive`. */
export async function archiveFor(command: Command): Promise<SessionsBackend | undefined> {
  const options = command.opts();
  const url = text(options.archive);
  const machine = text(options.machine);
  const user = text(options.user);
  if (url === undefined) {
    if (machine !== undefined || user !== undefined)
      throw new UsageError("--machine and --user need --archive");
    return undefined;
  }
  const [{ PgArchive }, { checkArchiveUrl }] = await Promise.all([
    import("../archive/archive.js"),
    import("../archive/url.js"),
  ]);
  return new PgArchive(checkArchiveUrl(url), { machine, user });
}
