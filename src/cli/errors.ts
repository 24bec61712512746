/**
 * How errors reach the user: one line on stderr, exit status 2 for usage
 * errors and 1 for failures. Stack traces only with TXCRIPT_DEBUG=1.
 */

import { describeCause, TxcriptError } from "../errors.js";
import { oneLineForTerminal } from "./sanitize.js";

/** The command line was wrong: unknown option, missing argument, bad value. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function formatError(error: unknown): string {
  if (error instanceof UsageError) return `txcript: ${oneLine(error.message)}`;
  if (error instanceof TxcriptError) return `txcript: ${oneLine(error.message)}`;
  return `txcript: internal error: ${oneLine(describeCause(error))} (TXCRIPT_DEBUG=1 shows more)`;
}

export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}

function oneLine(text: string): string {
  return oneLineForTerminal(text);
}
