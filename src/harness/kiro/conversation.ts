/**
 * A conversation of Kiro's older engine (`ConversationState` JSON in
 * `data.sqlite3`; docs/formats/kiro.md "The SQLite engine") in Common
 * terms. Pure. `history` holds one entry per exchange, `{user, assistant,
 * request_metadata}` (or a `[user, assistant]` pair in earlier builds);
 * serde's externally tagged enums give each user content and assistant
 * message one key naming its variant (`Prompt`, `CancelledToolUses`,
 * `ToolUseResults`; `Response`, `ToolUse`). A variant this reader does not
 * know stays in the Body with no message. A user's `images` and an
 * assistant's `thinking` are read; `next_message` (a prompt not yet
 * answered) is read once, after the history, unless it repeats the last
 * entry's user; `transcript` (a human-readable echo of the history) is
 * read only when the history yields no message, so nothing shows twice.
 */

import { isDeepStrictEqual } from "node:util";
import {
  type Block,
  type ImageBlock,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type ThinkingBlock,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import type { Timestamp } from "../../time.js";
import type { KiroConversationBody } from "./body.js";
import { bytesToBase64 } from "./bytes.js";
import { historyOf, modelOf, text, userTime, variant } from "./conversation-meta.js";
import { toolFromKiro } from "./tools.js";

/** A `ToolUseResult` as a tool result: its `Json`/`Text` blocks, `status` `Error` an error. */
function resultOf(result: Json): Block | undefined {
  if (!isJsonObject(result)) return undefined;
  const id = text(result.tool_use_id);
  if (id === undefined) return undefined;
  const parts = Array.isArray(result.content) ? result.content : [];
  // `{"Text": s}` or `{"Json": v}` (the JSON as its text); any other block is left out.
  const content: Json[] = parts.flatMap((p): Json[] => {
    if (!isJsonObject(p)) return [];
    if (typeof p.Text === "string") return [{ type: "text", text: p.Text }];
    if ("Json" in p) return [{ type: "text", text: JSON.stringify(p.Json) }];
    return [];
  });
  const block: Block = { type: "tool_result", tool_use_id: id, content };
  if (result.status === "Error") block.is_error = true;
  return block;
}

/**
 * A user's `images` (`ImageBlock`: `format` `Gif`/`Jpeg`/`Png`/`Webp`,
 * `source` `{"Bytes": [bytes]}`) as image blocks; an image of another
 * source (`"Unknown"`) or without a format is left out.
 */
function imagesOf(user: JsonObject): ImageBlock[] {
  const images = Array.isArray(user.images) ? user.images : [];
  return images.flatMap((i): ImageBlock[] => {
    if (!isJsonObject(i)) return [];
    const format = text(i.format);
    const bytes = isJsonObject(i.source) ? i.source.Bytes : undefined;
    if (!format || !Array.isArray(bytes)) return [];
    const media_type = `image/${format.toLowerCase()}`;
    return [{ type: "image", source: { type: "base64", media_type, data: bytesToBase64(bytes) } }];
  });
}

/**
 * An assistant's `thinking` (`ReasoningContentForHistory`: `text`,
 * `signature`, `redacted_content` bytes) as a thinking block; none when
 * it holds nothing.
 */
function thinkingOf(data: JsonObject): ThinkingBlock | undefined {
  const t = data.thinking;
  if (!isJsonObject(t)) return undefined;
  const block: ThinkingBlock = { type: "thinking", text: text(t.text) ?? "" };
  assignDefined(block, "signature", text(t.signature) || undefined);
  assignDefined(block, "encrypted", bytesToBase64(t.redacted_content) || undefined);
  return block.text === "" && block.signature === undefined && block.encrypted === undefined
    ? undefined
    : block;
}

function userMessage(user: Json, at: Timestamp): Message | undefined {
  if (!isJsonObject(user)) return undefined;
  const content = variant(user.content);
  if (content === undefined) return undefined;
  const blocks: Block[] = [];
  const prompt = text(content.data.prompt);
  const results = Array.isArray(content.data.tool_use_results) ? content.data.tool_use_results : [];
  switch (content.name) {
    case "Prompt":
    case "CancelledToolUses":
    case "ToolUseResults":
      for (const r of results) {
        const block = resultOf(r);
        if (block) blocks.push(block);
      }
      if (prompt) blocks.push({ type: "text", text: prompt });
      blocks.push(...imagesOf(user));
      break;
    default:
      return undefined;
  }
  return blocks.length > 0 ? { role: "user", content: blocks, timestamp: at } : undefined;
}

function assistantMessage(
  assistant: Json,
  at: Timestamp,
  model: string | undefined,
): Message | undefined {
  const v = variant(assistant);
  if (v === undefined || (v.name !== "Response" && v.name !== "ToolUse")) return undefined;
  const blocks: Block[] = [];
  const thinking = thinkingOf(v.data);
  if (thinking) blocks.push(thinking);
  const said = text(v.data.content);
  if (said) blocks.push({ type: "text", text: said });
  const uses = v.name === "ToolUse" && Array.isArray(v.data.tool_uses) ? v.data.tool_uses : [];
  for (const use of uses) {
    if (!isJsonObject(use)) continue;
    const id = text(use.id);
    const name = text(use.orig_name) || text(use.name);
    if (id === undefined || !name) continue;
    blocks.push({
      type: "tool_use",
      id,
      tool: toolFromKiro(name, use.orig_args ?? use.args ?? {}),
    });
  }
  if (blocks.length === 0) return undefined;
  const message: Message = { role: "assistant", content: blocks, timestamp: at };
  // The model that wrote the thinking is the model of the reply.
  const thinker = isJsonObject(v.data.thinking) ? text(v.data.thinking.model_id) : undefined;
  assignDefined(message, "model", thinker || model || undefined);
  return message;
}

/**
 * `transcript` entries as messages: `> ` and a prompt (its newlines written
 * as `> \n`) a user's text, `<reply>\n[Tool uses: …]` an assistant's text;
 * other entries (errors, `[Forgot last …]` markers) are not read.
 */
function transcriptMessages(transcript: Json | undefined, at: Timestamp): Message[] {
  const entries = Array.isArray(transcript) ? transcript : [];
  return entries.flatMap((e): Message[] => {
    if (typeof e !== "string") return [];
    if (e.startsWith("> ")) {
      const said = e.slice(2).replaceAll("> \n", "\n");
      return said.trim() === ""
        ? []
        : [{ role: "user", content: [{ type: "text", text: said }], timestamp: at }];
    }
    const reply = /^([\s\S]*)\n\[Tool uses: [^\]\n]*\]$/.exec(e)?.[1];
    return reply === undefined || reply.trim() === ""
      ? []
      : [{ role: "assistant", content: [{ type: "text", text: reply }], timestamp: at }];
  });
}

/**
 * The messages: each exchange's user half (prompt, tool results) then its
 * assistant half. Only user messages record a time; an assistant message
 * takes its user's, and a user message without one the time before it.
 */
export function conversationMessages(body: KiroConversationBody, start: Timestamp): Message[] {
  let out: Message[] = [];
  const model = modelOf(body.conversation);
  const history = historyOf(body);
  let previous = start;
  for (const { user, assistant } of history) {
    const at = userTime(user) ?? previous;
    previous = at;
    const u = userMessage(user, at);
    if (u) out.push(u);
    const a = assistantMessage(assistant, at, model);
    if (a) out.push(a);
  }
  // The transcript echoes the history: read only when the history says nothing (a cleared conversation).
  if (out.length === 0) out = transcriptMessages(body.conversation.transcript, start);
  // The prompt not yet answered, once: not when it repeats the last entry's user.
  const next = body.conversation.next_message;
  if (isJsonObject(next) && !isDeepStrictEqual(next, history[history.length - 1]?.user)) {
    const u = userMessage(next, userTime(next) ?? previous);
    if (u) out.push(u);
  }
  return out;
}
