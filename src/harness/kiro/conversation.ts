/**
 * A conversation of Kiro's older engine (`ConversationState` JSON in
 * `data.sqlite3`; docs/formats/kiro.md "The SQLite engine") in Common
 * terms. Pure. `history` holds one entry per exchange, `{user, assistant,
 * request_metadata}` (or a `[user, assistant]` pair in earlier builds);
 * serde's externally tagged enums give each user content and assistant
 * message one key naming its variant (`Prompt`, `CancelledToolUses`,
 * `ToolUseResults`; `Response`, `ToolUse`). A variant this reader does not
 * know stays in the Body with no message.
 */

import { type Block, isJsonObject, type Json, type Message } from "../../common.js";
import type { Timestamp } from "../../time.js";
import type { KiroConversationBody } from "./body.js";
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
  if (model) message.model = model;
  return message;
}

/**
 * The messages: each exchange's user half (prompt, tool results) then its
 * assistant half. Only user messages record a time; an assistant message
 * takes its user's, and a user message without one the time before it.
 */
export function conversationMessages(body: KiroConversationBody, start: Timestamp): Message[] {
  const out: Message[] = [];
  const model = modelOf(body.conversation);
  let previous = start;
  for (const { user, assistant } of historyOf(body)) {
    const at = userTime(user) ?? previous;
    previous = at;
    const u = userMessage(user, at);
    if (u) out.push(u);
    const a = assistantMessage(assistant, at, model);
    if (a) out.push(a);
  }
  return out;
}
