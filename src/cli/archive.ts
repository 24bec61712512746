/**
 * The `--archive` flags the reading commands share: `--archive <url>`
 * answers from a shared PostgreSQL archive (src/archive/) instead of this
 * machine, through the same sessions service; `--machine` and `--user`
 * narrow it to one machine's or one person's sessions. The archive's code
 * (and the `pg` driver) loads only when the flag is given.
 *
 * `--archive` takes a URL or the name of an environment variable holding
 * one (`--archive TXCRIPT_ARCHIVE`): a password typed in a URL is visible
 * to other users in the process list, and on a terminal the command says so.
 */

import type { Command } from "commander";
import type { SessionsBackend } from "../sessions/backend.js";
import { UsageError } from "./errors.js";
import { tell } from "./output.js";

export function addArchiveOptions(command: Command): Command {
  return command
    .option(
      "--archive <url>",
      "answer from a shared archive: a postgres://… URL, or the name of a variable holding one (--archive TXCRIPT_ARCHIVE)",
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
  const [{ PgArchive }, address] = await Promise.all([
    import("../archive/archive.js"),
    archiveUrl(url),
  ]);
  return new PgArchive(address, { machine, user });
}

/**
 * The URL `--archive VALUE` names (a URL, or a variable holding one); on a
 * terminal, a warning when the URL typed carries its password.
 */
export async function archiveUrl(value: string): Promise<string> {
  const { archiveAddress } = await import("../archive/url.js");
  const address = archiveAddress(value, process.env);
  if (address.passwordInArguments && process.stderr.isTTY === true)
    tell(
      "txcript: warning: the archive URL's password is visible to other users in the process list; " +
        "put it in PGPASSWORD, or the URL in TXCRIPT_ARCHIVE and give --archive TXCRIPT_ARCHIVE\n",
    );
  return address.url;
}
