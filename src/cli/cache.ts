/**
 * The index as the commands use it: the global `--cache DIR` and
 * `--no-cache` flags, opening the index with its warnings on stderr (one
 * line each, never a failure), and a refresh that draws progress.
 */

import type { Command } from "commander";
import { type Refreshed, type RefreshOptions, SessionIndex } from "../index/index.js";
import { HARNESS_LABELS, type HarnessId } from "../transcript.js";
import { Progress, tell } from "./output.js";
import { rootsFrom } from "./roots.js";

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

/** The index for this command line: `--cache`, `--no-cache`, the root flags. */
export function indexFor(command: Command): SessionIndex {
  const cache = cacheFlag(command);
  return SessionIndex.open({
    env: process.env,
    roots: rootsFrom(command),
    ...(cache !== undefined ? { cache } : {}),
    warn,
  });
}

/** Refresh with a progress line on a terminal; returns what discovery skipped. */
export async function refreshed(
  index: SessionIndex,
  options: { from?: HarnessId; text?: boolean },
): Promise<Refreshed> {
  const progress = new Progress();
  try {
    const refresh: RefreshOptions = {
      ...options,
      onProgress: (what, done, total) => progress.update(`${what}: ${done}/${total}`),
    };
    return await index.refresh(refresh);
  } finally {
    progress.done();
  }
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
