/**
 * Reading a document named on the command line: a file, or `-` for stdin,
 * as bytes (decoded by its parser: a line-based form a line at a time).
 */

import { readFileSync } from "node:fs";
import { describeCause, errnoCode, TxcriptError } from "../errors.js";

export interface Input {
  bytes: Uint8Array;
  /** What errors call it: the path, or `<stdin>`. */
  origin: string;
}

export function readInput(path: string): Input {
  const origin = path === "-" ? "<stdin>" : path;
  try {
    const bytes = readFileSync(path === "-" ? 0 : path);
    return { bytes, origin };
  } catch (cause) {
    const code = errnoCode(cause);
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : describeCause(cause);
    throw new TxcriptError(undefined, `cannot read: ${why}`, { file: origin, cause });
  }
}
