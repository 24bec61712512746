/**
 * The session filters `list` offers, shared by every command that selects
 * a set of sessions (`list`, `export --all`): the options and the listing
 * they select, with the scan's progress line.
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import type { Listing } from "../local.js";
import type { HarnessId } from "../transcript.js";
import { localFor } from "./context.js";
import { parseHarness, parsePositiveInt } from "./options.js";
import { Progress } from "./output.js";

export interface FilterOptions {
  from?: HarnessId;
  cwd?: string;
  limit?: number;
}

/** --from, --cwd and --limit, worded as `list` words them. */
export function addListFilters(command: Command, what = "sessions"): Command {
  return command
    .option("--from <harness>", "only this harness", parseHarness)
    .option("--cwd <dir>", `only ${what} in this directory or below`)
    .option("--limit <n>", `at most n ${what}, newest first`, parsePositiveInt);
}

/** The sessions the filters select, newest activity first. */
export async function listSessions(command: Command, options: FilterOptions): Promise<Listing> {
  const local = localFor(command, options.from);
  const progress = new Progress();
  try {
    const listOpts: Parameters<typeof local.list>[0] = {
      onProgress: (h, done, total) => progress.update(`scanning ${h}: ${done}/${total}`),
    };
    if (options.cwd !== undefined) listOpts.cwd = resolve(options.cwd);
    if (options.limit !== undefined) listOpts.limit = options.limit;
    return await local.list(listOpts);
  } finally {
    progress.done();
  }
}
