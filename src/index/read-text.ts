/**
 * One session's searchable text and usage as the index stores them, read
 * the same way on the calling thread and on the text worker
 * (text-worker.ts), and the check that a worker's reply has that shape.
 */

import { describeCause, TxcriptError } from "../errors.js";
import type { Local } from "../local.js";
import type { HarnessId } from "../transcript.js";
import { packedBody } from "./schema.js";
import {
  type Chunk,
  chunksOf,
  messageTimes,
  type UsageRow,
  type UsageTotals,
  usageOf,
  usageRowsOf,
} from "./text.js";

/** An entry whose text is not indexed at its current fingerprint. */
export interface TextTodo {
  rowid: number;
  harness: HarnessId;
  id: string;
  fingerprint: string;
  updated_ms: number;
  /** The size of the session's files by its fingerprint: what batches are cut by. */
  bytes: number;
}

/** A chunk ready to write: its text (for FTS5), and its stored body deflated where that pays (`packedBody`). */
interface ReadChunk extends Chunk {
  packed?: Uint8Array;
}

/** What a session gives the index, or why it could not be read. */
export type TextRead =
  | { chunks: ReadChunk[]; usage: UsageTotals; rows: UsageRow[] }
  | { error: string };

/** `chunks` with their bodies deflated where that pays: on the reading thread, so the writing one only inserts. */
function packed(chunks: Chunk[]): ReadChunk[] {
  return chunks.map((c) => {
    const bytes = packedBody(c.body);
    return bytes === undefined ? c : { ...c, packed: bytes };
  });
}

export function readText(local: Local, todo: TextTodo): TextRead {
  try {
    // The transcript alone: `Local.load` also fingerprints the session for
    // its path, which the index has (and which cost a tenth of the load).
    const transcript = local.commonStore(todo.harness).load(todo.id);
    const times = messageTimes(transcript, todo.updated_ms);
    return {
      chunks: packed(chunksOf(transcript, todo.updated_ms, times)),
      usage: usageOf(transcript),
      rows: usageRowsOf(transcript, todo.updated_ms, times),
    };
  } catch (error) {
    return { error: error instanceof TxcriptError ? error.message : describeCause(error) };
  }
}

/**
 * A worker's reply for `count` sessions: one read each, with its chunks,
 * usage and rows or an error. Shallow on purpose: the reply is our own
 * worker's, through structured clone; this catches a wrong or partial
 * answer, not a forged one.
 */
export function isTextReads(value: unknown, count: number): value is TextRead[] {
  return (
    Array.isArray(value) &&
    value.length === count &&
    value.every(
      (read: unknown) =>
        typeof read === "object" &&
        read !== null &&
        (("error" in read && typeof read.error === "string") ||
          ("chunks" in read &&
            Array.isArray(read.chunks) &&
            "rows" in read &&
            Array.isArray(read.rows) &&
            "usage" in read &&
            typeof read.usage === "object")),
    )
  );
}
