/**
 * How errors reach the user: one line on stderr, exit status 2 for usage
 * errors and 1 for failures. Stack traces only with TXCRIPT_DEBUG=1.
 */

import { basename, dirname } from "node:path";
import { describeCause, systemErrorText, TxcriptError } from "../errors.js";
import { TEMP_NAME } from "../fsx.js";
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
  // A system error that escaped a store: an I/O failure, said plainly, about
  // the path the user knows (a temporary file's folder, not the file).
  const sys = error as NodeJS.ErrnoException;
  const plain = systemErrorText(sys?.code);
  if (plain !== undefined && typeof sys.syscall === "string") {
    const path = sys.path && TEMP_NAME.test(basename(sys.path)) ? dirname(sys.path) : sys.path;
    return `txcript: ${path ? `${oneLine(path)}: ` : ""}${plain}`;
  }
  return `txcript: internal error: ${oneLine(describeCause(error))} (TXCRIPT_DEBUG=1 shows more)`;
}

export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError ? 2 : 1;
}

function oneLine(text: string): string {
  return oneLineForTerminal(text);
}
