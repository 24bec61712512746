/**
 * Grok's `/rewind` in `updates.jsonl` (docs/formats/grok.md "Rewinds").
 * Pure. The log is append-only: a rewind appends an x.ai update
 * `{"sessionUpdate": "rewind_marker", "target_prompt_index": n}`, and
 * whoever replays the log drops what came after prompt `n` began. Prompts
 * are counted as Grok counts them: a run of user message chunks is one
 * prompt (a chunk whose `_meta.promptIndex` differs from the run's opens
 * another); once any chunk carries a `promptIndex`, only chunks with one
 * count; chunks marked `_meta.hostTurn` and x.ai updates count for nothing.
 * A target past the prompts seen keeps everything. The markers themselves
 * are consumed.
 */

import type { JsonObject } from "../../common.js";
import { obj, str } from "../shared/fields.js";
import { updateOf } from "./body.js";

const XAI_METHOD = "_x.ai/session/update";
const REWIND_MARKER = "rewind_marker";

type Step = { rewind: number } | { user: number | undefined } | "other";

function stepOf(line: JsonObject): Step {
  const update = updateOf(line);
  const kind = str(update, "sessionUpdate");
  const xai = line.method === XAI_METHOD;
  if (xai && kind === REWIND_MARKER) {
    const target = update?.target_prompt_index;
    if (typeof target === "number" && Number.isInteger(target) && target >= 0)
      return { rewind: target };
    return "other";
  }
  const meta = obj(update, "_meta");
  if (!xai && kind === "user_message_chunk" && meta?.hostTurn !== true) {
    const pi = meta?.promptIndex;
    return { user: typeof pi === "number" && Number.isInteger(pi) && pi >= 0 ? pi : undefined };
  }
  return "other";
}

/** The lines in effect after every rewind marker is applied (markers left out). */
export function liveUpdates(lines: readonly JsonObject[]): JsonObject[] {
  if (!lines.some((l) => str(updateOf(l), "sessionUpdate") === REWIND_MARKER)) return [...lines];
  const out: JsonObject[] = [];
  const starts: number[] = [];
  let marked = false;
  let inUser = false;
  let runIndex: number | undefined;
  for (const line of lines) {
    const step = stepOf(line);
    if (step === "other") {
      inUser = false;
      runIndex = undefined;
    } else if ("rewind" in step) {
      out.length = starts[step.rewind] ?? out.length;
      starts.length = Math.min(starts.length, step.rewind);
      inUser = false;
      runIndex = undefined;
      continue;
    } else {
      const pi = step.user;
      if (pi !== undefined) marked = true;
      const opens = !inUser || ((marked || pi !== undefined) && pi !== runIndex);
      if (opens) {
        runIndex = pi;
        if (!marked || pi !== undefined) starts.push(out.length);
      }
      inUser = true;
    }
    out.push(line);
  }
  return out;
}
