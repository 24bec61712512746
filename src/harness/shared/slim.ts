/**
 * Common messages that hold no more memory than their content: what a
 * reader of a huge session of short messages (pi, Gemini CLI, Qwen Code)
 * builds a million of. Pure. Measured on a bench session of one-block
 * messages (docs/architecture.md, "Memory"): a message grown field by field
 * in a push-grown block array took about 410 bytes, one built here about
 * 200.
 */

import type { Block, Message, StopReason, Usage } from "../../common.js";
import { exactArray } from "../../json.js";

/** What an assistant message may carry besides its blocks and time. */
export interface AssistantExtras {
  model?: string | undefined;
  stop_reason?: StopReason | undefined;
  usage?: Usage | undefined;
}

/**
 * An assistant message with its optional fields in the object itself: a
 * field added to a finished literal costs a property array of its own
 * (40 bytes). Absent fields are left out, as before; the key order is
 * role, content, timestamp, model, stop_reason, usage.
 */
export function assistantMessage(
  content: Block[],
  timestamp: string,
  { model, stop_reason, usage }: AssistantExtras,
): Message {
  const role = "assistant";
  if (model !== undefined) {
    if (stop_reason !== undefined)
      return usage !== undefined
        ? { role, content, timestamp, model, stop_reason, usage }
        : { role, content, timestamp, model, stop_reason };
    return usage !== undefined
      ? { role, content, timestamp, model, usage }
      : { role, content, timestamp, model };
  }
  if (stop_reason !== undefined)
    return usage !== undefined
      ? { role, content, timestamp, stop_reason, usage }
      : { role, content, timestamp, stop_reason };
  return usage !== undefined ? { role, content, timestamp, usage } : { role, content, timestamp };
}

/**
 * Blocks as a message holds them: a one-block list as a literal, any other
 * as an exact copy. A list grown by `push` (or made by `flatMap`) keeps room
 * for some 16 more (about 130 bytes).
 */
export function blockList(blocks: Block[]): Block[] {
  const [only] = blocks;
  return blocks.length === 1 && only !== undefined ? [only] : exactArray(blocks);
}

/**
 * The last string given, given back for an equal one: a model name or a
 * time that repeats from message to message is then held once, not once a
 * message (a 13-character model name costs 32 bytes a copy).
 */
export class Repeats {
  private last: string | undefined;

  same(value: string): string {
    if (value === this.last) return this.last;
    this.last = value;
    return value;
  }

  /** The same for a value that may be absent. */
  maybe(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.same(value);
  }
}
