/**
 * The index's flags as the commands take them: the global `--cache DIR`
 * and `--no-cache`, the index's warnings on stderr (one line each, never a
 * failure), and what a refresh skipped. The index itself is opened by the
 * sessions service (sessions.ts).
 */

import type { Command } from "commander";
import type { Refreshed } from "../index/index.js";
import { HARNESS_LABELS } from "../transcript.js";
import { tell } from "./output.js";

export function addCacheOptions(program: Command): void {
  program
    .option(
      "--cache <dir>",
      "keep the session index in <dir> (default: $TXCRIPT_CACHE, else the user cache folder)",
    )
    .option("--no-cache", "read the stores directly; neither use nor update the index");
}

export function warn(line: string): void {
  tell(`txcript: warning: ${line}\n`);
}

/** `--cache DIR` (a folder), `--no-cache` (null), or neither (undefined). */
export function cacheFlag(command: Command): string | null | undefined {
  const value: unknown = command.optsWithGlobals().cache;
  return value === false ? null : typeof value === "string" ? value : undefined;
}

/** Stores that could not be read, then "3 files skipped; --verbose shows why" (or each reason). */
export function reportSkipped(refreshed: Refreshed, verbose: boolean | undefined): void {
  for (const u of refreshed.unreadable) {
    tell(`txcript: warning: skipped the ${HARNESS_LABELS[u.harness]} store: ${u.reason}\n`);
  }
  const n = refreshed.skipped.length;
  if (n === 0) return;
  if (verbose) {
    for (const s of refreshed.skipped) tell(`skipped ${s.path}: ${s.reason}\n`);
  } else {
    tell(`${n} file${n === 1 ? "" : "s"} skipped; --verbose shows why\n`);
  }
}
