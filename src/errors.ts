/**
 * The error hierarchy. Every error carries the harness it concerns (or
 * `common`), a one-line detail, the file or id it is about, and the cause.
 * Only `src/cli/` turns these into messages and exit codes.
 */

import { basename, dirname } from "node:path";
import { TEMP_NAME } from "./temp-name.js";
import type { TextForm } from "./transcript.js";

export interface ErrorContext {
  /** The file (or `<stdin>`) the error is about. */
  file?: string | undefined;
  /** A JSON path or row/column locator inside the file: `messages[3].content[1]`. */
  at?: string | undefined;
  cause?: unknown;
}

export class TxcriptError extends Error {
  readonly harness: TextForm | undefined;
  readonly detail: string;
  readonly file: string | undefined;
  readonly at: string | undefined;

  constructor(harness: TextForm | undefined, detail: string, context: ErrorContext = {}) {
    const where = [context.file, context.at].filter((s) => s !== undefined && s !== "").join(": ");
    super(where ? `${where}: ${detail}` : detail, { cause: context.cause });
    this.name = new.target.name;
    this.harness = harness;
    this.detail = detail;
    this.file = context.file;
    this.at = context.at;
  }
}

/** A document, text form or record is malformed. */
export class ParseError extends TxcriptError {}

/** No session with that id (or prefix). */
export class NotFoundError extends TxcriptError {}

/** An id prefix matches more than one session. */
export class AmbiguousIdError extends TxcriptError {
  /** One line per candidate: its whole id, harness, start date and title. */
  readonly candidates: readonly string[];
  /**
   * The harnesses the candidates are in, when more than one: a door that can
   * narrow a lookup to one harness (the CLI's `--from`, the MCP `harness`
   * argument) says so in its own words (see {@link errorLine}).
   */
  readonly harnesses: readonly string[];
  /** The whole id is in several stores: only naming the harness tells them apart. */
  readonly sameId: boolean;
  constructor(
    harness: TextForm | undefined,
    detail: string,
    candidates: readonly string[],
    context: ErrorContext & { harnesses?: readonly string[]; sameId?: boolean } = {},
  ) {
    super(harness, detail, context);
    this.candidates = candidates;
    this.harnesses = context.harnesses ?? [];
    this.sameId = context.sameId ?? false;
  }
}

/** An id or path that would escape the store, or is not a plain path component. */
export class UnsafePathError extends TxcriptError {}

/** The target already holds the session and overwriting was not asked for. */
export class ConflictError extends TxcriptError {}

/** Well-formed input this version cannot handle (a newer schema, an encrypted file). */
export class UnsupportedError extends TxcriptError {}

/** The store could not be read or written (I/O, SQLite, permissions, busy). */
export class StoreError extends TxcriptError {}

/** A request that cannot be satisfied as asked (a range that splits a tool pair, …). */
export class InvalidRequestError extends TxcriptError {}

/** What the door an error goes out of offers its user. */
export interface Door {
  /** How this door narrows a lookup to one harness (`--from codex`), when it can. */
  narrow?: (harness: string) => string;
}

/**
 * An ambiguous id's line with the advice this door can follow: more of the
 * id always works for a prefix; naming the harness only when the candidates
 * are in more than one, and only in the words this door has for it.
 */
function ambiguity(error: AmbiguousIdError, door: Door): string {
  const narrow = door.narrow;
  const byHarness =
    narrow !== undefined && error.harnesses.length > 1
      ? error.harnesses.map((h) => narrow(h)).join(" or ")
      : undefined;
  if (error.sameId)
    return `${error.message}; ${byHarness ? `pick one with ${byHarness}` : "they are the same id in different harnesses"}`;
  return `${error.message}; give more of the id${byHarness ? ` or ${byHarness}` : ""}`;
}

/**
 * System errors in the user's terms. Node's own messages name the system
 * call and the path it was given, which may be a temporary file the user
 * never heard of; the error's `file` names the path they gave instead.
 */
const SYSTEM_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is a file, not a directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EEXIST: "already exists",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EROFS: "the file system is read-only",
  EBUSY: "busy (in use by another process)",
  EMFILE: "too many open files",
  ENFILE: "too many open files",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many levels of symbolic links",
  EXDEV: "cannot move across file systems",
  EIO: "input/output error",
  ENOTEMPTY: "the directory is not empty",
  EINVAL: "invalid argument",
};

/** The plain phrase for a system error code (`ENOTDIR`), if it is one. */
export function systemErrorText(code: string | undefined): string | undefined {
  return code === undefined ? undefined : SYSTEM_ERRORS[code];
}

/** The `code` of a system error (`ENOENT`, `EACCES`, …), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** A short, human-readable description of any thrown value. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = errnoCode(cause);
    const plain = systemErrorText(code);
    if (plain !== undefined && "syscall" in cause && typeof cause.syscall === "string")
      return plain;
    return code && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}

/** `text` on one line: newlines and the space around them become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * The one line txcript reports for a thrown value, wherever it reports it
 * (the CLI on stderr, the MCP server as a tool error):
 * `txcript: <file or id>: <problem>`. Anything but a TxcriptError is a bug
 * and says so.
 */
export function errorLine(error: unknown, door: Door = {}): string {
  if (error instanceof AmbiguousIdError) return `txcript: ${oneLine(ambiguity(error, door))}`;
  if (error instanceof TxcriptError) return `txcript: ${oneLine(error.message)}`;
  // A system error that escaped a store: an I/O failure, said plainly, about
  // the path the user knows (a temporary file's folder, not the file).
  if (error instanceof Error) {
    const sys: NodeJS.ErrnoException = error;
    const plain = systemErrorText(sys.code);
    if (plain !== undefined && typeof sys.syscall === "string") {
      const path = sys.path && TEMP_NAME.test(basename(sys.path)) ? dirname(sys.path) : sys.path;
      return `txcript: ${path ? `${oneLine(path)}: ` : ""}${plain}`;
    }
  }
  return `txcript: internal error: ${oneLine(describeCause(error))} (TXCRIPT_DEBUG=1 shows more)`;
}

/** The shared archive (PostgreSQL) could not be reached, read or written; its URL is always redacted. */
export class ArchiveError extends TxcriptError {}
