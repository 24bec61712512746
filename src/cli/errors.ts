/**
 * How errors reach the user: one line on stderr, exit status 2 for usage
 * errors and 1 for failures. Stack traces only with TXCRIPT_DEBUG=1.
 */

import { errorLine } from "../errors.js";
import { forTerminal, oneLineForTerminal } from "./sanitize.js";

/** The command line was wrong: unknown option, missing argument, bad value. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function formatError(error: unknown): string {
  if (error instanceof UsageError) return `txcript: ${oneLineForTerminal(error.message)}`;
  // The library's one line (shared with the MCP server), made safe for a terminal.
  return forTerminal(errorLine(error, { narrow: (h) => `--from ${h}` }));
}

export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}
