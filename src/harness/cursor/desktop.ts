/**
 * A desktop editor chat (`state.vscdb`) in Common terms. Pure. Bubbles
 * become messages in conversation order (docs/formats/cursor.md, "Desktop
 * chats"): a user bubble (type 1, or `"user"` in older builds) one user
 * message; consecutive assistant bubbles (type 2, or `"ai"`) fold into one
 * assistant message of their thinking, text and tool call, a tool call
 * closing it and its result (`toolFormerData.result`, when the call
 * completed or failed) following as a user message. Bubbles of another
 * type, and blank ones, stay in the Body only.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Usage,
} from "../../common.js";
import { assignDefined, jsonFromText } from "../../json.js";
import type { Timestamp } from "../../time.js";
import { obj, str } from "../shared/fields.js";
import { type CursorDesktopBody, desktopBubbles } from "./body.js";
import { bubbleModel, bubbleRole, bubbleText, desktopTime } from "./desktop-meta.js";
import { toolFromCursor } from "./tools.js";

/** `tokenCount` when either count is non-zero (all-zero is the serializer's default). */
function usageOf(bubble: JsonObject): Usage | undefined {
  const t = obj(bubble, "tokenCount");
  const count = (v: Json | undefined) =>
    typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0;
  const input = count(t?.inputTokens);
  const output = count(t?.outputTokens);
  return input > 0 || output > 0 ? { input_tokens: input, output_tokens: output } : undefined;
}

/** Tool arguments: `params` (JSON text, or an object), else `rawArgs`, else `{}`. */
function toolInput(tool: JsonObject): Json {
  for (const key of ["params", "rawArgs"]) {
    const v = tool[key];
    if (isJsonObject(v)) return v;
    if (typeof v === "string" && v.trim() !== "") {
      try {
        return jsonFromText(v);
      } catch {
        return v;
      }
    }
  }
  return {};
}

/** A result string as the JSON it holds (when it is non-null JSON), else the text. */
function resultOf(value: Json | undefined): Json {
  if (typeof value !== "string") return value ?? "";
  if (/^\s*[[{]/.test(value)) {
    try {
      const parsed = jsonFromText(value);
      if (parsed !== null) return parsed;
    } catch {
      return value;
    }
  }
  return value;
}

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
}

/** The messages of a desktop chat; a bubble with no time takes the one before it. */
export function desktopMessages(body: CursorDesktopBody, start: Timestamp): Message[] {
  const out: Message[] = [];
  let open: Message | undefined;
  let previous = start;
  const close = () => {
    if (open !== undefined && open.content.length > 0) out.push(open);
    open = undefined;
  };
  desktopBubbles(body).forEach((bubble, n) => {
    const at = desktopTime(bubble.createdAt ?? bubble.timestamp) ?? previous;
    previous = at;
    const role = bubbleRole(bubble);
    if (role === undefined) return;
    const text = bubbleText(bubble);
    if (role === "user") {
      close();
      if (text.trim() !== "")
        out.push({ role: "user", content: [{ type: "text", text }], timestamp: at });
      return;
    }
    const message: Message = open ?? { role: "assistant", content: [], timestamp: at };
    open = message;
    const thinking = obj(bubble, "thinking");
    const thought = str(thinking, "text") ?? "";
    if (thought.trim() !== "") {
      const block: Block = { type: "thinking", text: thought };
      const signature = str(thinking, "signature");
      if (signature) block.signature = signature;
      message.content.push(block);
    }
    if (text.trim() !== "") message.content.push({ type: "text", text });
    const model = bubbleModel(bubble);
    if (model !== undefined && message.model === undefined) message.model = model;
    const usage = addUsage(message.usage, usageOf(bubble));
    assignDefined(message, "usage", usage);
    const tool = obj(bubble, "toolFormerData");
    const name = str(tool, "name");
    if (tool === undefined || !name) return;
    const id =
      str(tool, "toolCallId") ||
      str(bubble, "bubbleId") ||
      `${str(body.composer, "composerId") ?? ""}-${n}`;
    message.content.push({
      type: "tool_use",
      id,
      tool: toolFromCursor(name, toolInput(tool), true),
    });
    close();
    const status = str(tool, "status") ?? str(obj(tool, "additionalData"), "status");
    if (status !== "completed" && status !== "success" && status !== "error") return;
    const result: Block = { type: "tool_result", tool_use_id: id, content: resultOf(tool.result) };
    if (status === "error") result.is_error = true;
    out.push({ role: "user", content: [result], timestamp: at });
  });
  close();
  return out;
}
