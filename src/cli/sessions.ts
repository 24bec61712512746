/**
 * The sessions service as the command line configures it: roots from the
 * `--<harness>-root` flags (roots.ts), the index from `--cache` and
 * `--no-cache` (cache.ts), warnings on stderr, and a progress line for its
 * refreshes. Imports no harness: `list`, `query` and `usage` over an
 * unchanged machine load no parser or codec.
 */

import type { Command } from "commander";
import type { SessionsBackend } from "../sessions/backend.js";
import { type Progressed, Sessions } from "../sessions/sessions.js";
import { archiveFor } from "./archive.js";
import { cacheFlag, warn } from "./cache.js";
import { Progress } from "./output.js";
import { rootsFrom } from "./roots.js";

/** The sessions service for this command line: its roots and its index (`--cache`, `--no-cache`). */
export function sessionsFor(
  command: Command,
  backend?: SessionsBackend,
  progress?: Progress,
): Sessions {
  return new Sessions({
    env: process.env,
    roots: rootsFrom(command),
    cache: cacheFlag(command),
    warn,
    // A long first build says what it is doing, on a terminal or not (as
    // `git clone` says "Cloning into…"); the redrawn progress is a terminal's only.
    note: (line) => (progress ?? new Progress()).note(`txcript: ${line}`),
    backend,
  });
}

/** Run `work` with a refresh's progress drawn on a terminal, and the service closed after. */
export async function withSessions<T>(
  command: Command,
  work: (sessions: Sessions, progress: Progressed) => Promise<T>,
  /** `local`: this machine's sessions even when the command names an archive (`archive push`). */
  reading: "flags" | "local" = "flags",
): Promise<T> {
  const progress = new Progress();
  const sessions = sessionsFor(
    command,
    reading === "local" ? undefined : await archiveFor(command),
    progress,
  );
  try {
    return await work(sessions, {
      onProgress: (what, done, total) => progress.update(`${what}: ${done}/${total}`),
    });
  } finally {
    progress.done();
    sessions.close();
  }
}
