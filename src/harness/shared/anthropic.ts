/**
 * Readers and writers of the Anthropic-style records several harnesses keep
 * (Cline's messages and Droid's sessions whole; Amp's and Goose's thinking,
 * Cursor's images): token counts under a harness's own key names as Common
 * usage, `thinking`/`redacted_thinking`, `image` and `tool_use` both ways.
 * Pure.
 */

import {
  type Block,
  type ImageSource,
  isJsonObject,
  type Json,
  type JsonObject,
  type ThinkingBlock,
  type Tool,
  type Usage,
} from "../../common.js";
import { str } from "./fields.js";

function count(v: Json | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

/** Where a harness keeps the four token counts. */
export interface CountKeys {
  input: string;
  output: string;
  cacheRead: string;
  cacheWrite: string;
}

/** Token counts as Common usage; all zeros (or no object) read as none. */
export function countsUsage(counts: Json | undefined, keys: CountKeys): Usage | undefined {
  if (!isJsonObject(counts)) return undefined;
  const usage: Usage = {
    input_tokens: count(counts[keys.input]),
    output_tokens: count(counts[keys.output]),
  };
  const read = count(counts[keys.cacheRead]);
  const write = count(counts[keys.cacheWrite]);
  if (usage.input_tokens + usage.output_tokens + read + write === 0) return undefined;
  if (read > 0) usage.cache_read_input_tokens = read;
  if (write > 0) usage.cache_creation_input_tokens = write;
  return usage;
}

/** A `thinking` block (its signature kept when not empty) or a `redacted_thinking` one (opaque). */
export function thinkingBlock(item: JsonObject): Block {
  if (item.type === "redacted_thinking")
    return { type: "thinking", text: "", encrypted: str(item, "data") ?? "" };
  const block: Block = { type: "thinking", text: str(item, "thinking") ?? "" };
  const signature = str(item, "signature");
  if (signature) block.signature = signature;
  return block;
}

/** Common thinking as an Anthropic item: `redacted_thinking` when only opaque, else `thinking` (signature kept). */
export function thinkingItem(block: ThinkingBlock): JsonObject {
  if (block.text === "" && block.encrypted !== undefined)
    return { type: "redacted_thinking", data: block.encrypted };
  return block.signature === undefined
    ? { type: "thinking", thinking: block.text }
    : { type: "thinking", thinking: block.text, signature: block.signature };
}

/** An Anthropic image's `source` (`{type, media_type, data}`) as a Common image block. */
export function sourceImage(source: JsonObject | undefined): Block {
  return {
    type: "image",
    source: {
      type: str(source, "type") ?? "base64",
      media_type: str(source, "media_type") ?? "",
      data: str(source, "data") ?? "",
    },
  };
}

/**
 * An Anthropic image `source` that holds its data, as a Common image: the
 * media type as the harness names it (else PNG); undefined without data.
 * Amp and Cursor read theirs so.
 */
export function sourceImageWithData(
  source: JsonObject | undefined,
  mediaType: string | undefined,
): Block | undefined {
  const data = str(source, "data");
  if (data === undefined) return undefined;
  return {
    type: "image",
    source: { type: str(source, "type") ?? "base64", media_type: mediaType ?? "image/png", data },
  };
}

/** A Common image as an Anthropic `image` item (`source: {type, media_type, data}`). */
export function imageItem(source: ImageSource): JsonObject {
  return {
    type: "image",
    source: { type: source.type, media_type: source.media_type, data: source.data },
  };
}

/** A `tool_use` item as a Common block, its name and input read by the harness's own tool map. */
export function toolUseBlock(item: JsonObject, toolOf: (name: string, input: Json) => Tool): Block {
  return {
    type: "tool_use",
    id: str(item, "id") ?? "",
    tool: toolOf(str(item, "name") ?? "", item.input ?? {}),
  };
}
