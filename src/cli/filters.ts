/**
 * The session filters `list` offers, shared by every command that selects
 * a set of sessions (`list`, `export --all`): the options, and the listing
 * they select, taken from the sessions service as `list` takes it.
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import { assignDefined } from "../json.js";
import type { Listing } from "../local.js";
import type { ListRequest } from "../sessions/sessions.js";
import type { HarnessId } from "../transcript.js";
import { parseHarness, parsePositiveInt } from "./options.js";
import { withSessions } from "./sessions.js";

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

/** The sessions the filters select, newest activity first: `list`'s answer. */
export async function listSessions(command: Command, options: FilterOptions): Promise<Listing> {
  const request: ListRequest = {};
  assignDefined(request, "from", options.from);
  if (options.cwd !== undefined) request.cwd = resolve(options.cwd);
  assignDefined(request, "limit", options.limit);
  return withSessions(command, (sessions, progress) => sessions.list(request, progress));
}
