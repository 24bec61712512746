/**
 * The index's text worker: a worker thread (src/workers.ts `readAhead`)
 * that reads a batch of sessions' text while the calling thread writes the
 * previous batch into the index. It only reads the stores.
 */

import type { Env } from "../env.js";
import { defined } from "../json.js";
import { Local } from "../local.js";
import type { HarnessId } from "../transcript.js";
import { readText, type TextRead, type TextTodo } from "./read-text.js";

/** One batch: the stores as the index is configured, and the sessions to read. */
export interface TextJob {
  env: Env;
  roots?: Partial<Record<HarnessId, string>>;
  todo: TextTodo[];
}

export default function readTextBatch(job: TextJob): TextRead[] {
  // A Local per batch: nothing a store learnt reading one batch outlives it.
  const local = new Local({ env: job.env, ...defined({ roots: job.roots }) });
  return job.todo.map((todo) => readText(local, todo));
}
