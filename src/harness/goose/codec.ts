/**
 * Goose Body <-> Common. Pure. Each Goose message becomes one Common
 * message: text, image, thinking, tool requests (`toolRequest`,
 * `frontendToolRequest`) and tool responses map to their blocks; the
 * UI-only kinds (`toolConfirmationRequest`, `actionRequired`,
 * `systemNotification`, `jsonRenderSpec`, the pre-1.14
 * `conversationCompacted`) and kinds this version does not know stay in
 * the Body and are left out of Common. fromCommon is deterministic.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
} from "../../common.js";
import { type Timestamp, timestampToEpoch } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { thinkingBlock } from "../shared/anthropic.js";
import { base64Image, obj, str } from "../shared/fields.js";
import { contentKind, contentOf, type GooseBody } from "./body.js";
import { gooseMeta, gooseTime } from "./meta.js";
import { toolFromGoose, toolToGoose } from "./tools.js";

/** A tool response's output: its text items joined when all are text, else the items. */
function toolOutput(value: Json | undefined): { content: Json; isError: boolean } {
  // Legacy sessions stored the content list itself as the value.
  const result = isJsonObject(value) ? value : { content: value ?? [] };
  const items = Array.isArray(result.content) ? result.content : [];
  const isError = result.isError === true;
  if (items.every((i) => isJsonObject(i) && i.type === "text" && typeof i.text === "string")) {
    // Goose marks copies meant for the user alone with `audience: ["user"]`.
    const forModel = items.filter((i) => {
      const audience = isJsonObject(i) ? obj(i, "annotations")?.audience : undefined;
      return !Array.isArray(audience) || audience.includes("assistant");
    });
    return {
      content: forModel.map((i) => (isJsonObject(i) ? (str(i, "text") ?? "") : "")).join("\n"),
      isError,
    };
  }
  return { content: items, isError };
}

function toolCallBlock(item: JsonObject): Block {
  const id = str(item, "id") ?? "";
  const call = obj(item, "toolCall");
  const value = obj(call, "value");
  if (str(call, "status") === "success" && value !== undefined) {
    return {
      type: "tool_use",
      id,
      // A missing `arguments` is Goose's `None`: no arguments, read as `{}`.
      tool: toolFromGoose(
        str(value, "name") ?? "",
        value.arguments === undefined ? {} : value.arguments,
      ),
    };
  }
  // A call the model made but Goose could not parse: kept, under no tool's name.
  return {
    type: "tool_use",
    id,
    tool: { name: "Raw", tool_name: "invalid_tool_call", input: call ?? null },
  };
}

function blockOf(item: Json): Block | undefined {
  const kind = contentKind(item);
  if (kind === undefined || !isJsonObject(item)) return undefined;
  switch (kind) {
    case "text":
      return { type: "text", text: str(item, "text") ?? "" };
    case "image":
      return base64Image(item, "mimeType");
    case "thinking":
      return thinkingBlock(item);
    case "redactedThinking":
      return { type: "thinking", text: "", encrypted: str(item, "data") ?? "" };
    case "toolRequest":
    case "frontendToolRequest":
      return toolCallBlock(item);
    case "toolResponse": {
      const result = obj(item, "toolResult");
      const ok = str(result, "status") === "success";
      const { content, isError } = ok
        ? toolOutput(result?.value)
        : { content: str(result, "error") ?? "", isError: true };
      const block: Block = { type: "tool_result", tool_use_id: str(item, "id") ?? "", content };
      if (isError) block.is_error = true;
      return block;
    }
    case "jsonRenderSpec":
    case "toolConfirmationRequest":
    case "actionRequired":
    case "systemNotification":
    case "conversationCompacted":
      return undefined;
    default:
      return kind satisfies never;
  }
}

function toCommon(t: Transcript<GooseBody>): Transcript<Common> {
  const meta = gooseMeta(t.body.session, t.meta.id, t.body.messages);
  let previous = meta.timestamp;
  const body: Message[] = [];
  for (const m of t.body.messages) {
    const role = m.role;
    if (role !== "user" && role !== "assistant") continue;
    const content = contentOf(m).flatMap((i) => blockOf(i) ?? []);
    const timestamp = gooseTime(m.created) ?? previous;
    previous = timestamp;
    if (content.length === 0) continue;
    const message: Message = { role, content, timestamp };
    if (role === "assistant" && meta.model) message.model = meta.model;
    body.push(message);
  }
  return { meta: { ...t.meta, ...meta }, body };
}

function seconds(ts: Timestamp): number {
  return timestampToEpoch(ts).seconds;
}

function itemOf(block: Block): JsonObject {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return block.text === "" && block.encrypted !== undefined
        ? { type: "redactedThinking", data: block.encrypted }
        : { type: "thinking", thinking: block.text, signature: block.signature ?? "" };
    case "image":
      return { type: "image", data: block.source.data, mimeType: block.source.media_type };
    case "tool_use":
      return {
        type: "toolRequest",
        id: block.id,
        toolCall: { status: "success", value: toolToGoose(block.tool) },
      };
    case "tool_result": {
      const text =
        typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      return {
        type: "toolResponse",
        id: block.tool_use_id,
        toolResult: {
          status: "success",
          value: { content: [{ type: "text", text }], isError: block.is_error === true },
        },
      };
    }
    case "artifact": {
      const s = block.artifact.source;
      const text =
        s.type === "text" ? s.text : s.type === "path" ? s.path : `[${block.artifact.name}]`;
      return { type: "text", text };
    }
    default:
      return block satisfies never;
  }
}

function fromCommon(t: Transcript<Common>): Transcript<GooseBody> {
  const last = t.body.at(-1)?.timestamp ?? t.meta.timestamp;
  const session: JsonObject = {
    id: t.meta.id,
    name: t.meta.title ?? "",
    working_dir: t.meta.cwd ?? "",
    created_at: t.meta.timestamp,
    updated_at: last,
    extension_data: {},
    message_count: t.body.length,
  };
  if (t.meta.model !== undefined) session.model_config = { model_name: t.meta.model };
  const messages = t.body.map(
    (m): JsonObject => ({
      role: m.role,
      created: seconds(m.timestamp),
      content: m.content.map(itemOf),
      metadata: { userVisible: true, agentVisible: true },
    }),
  );
  return { meta: t.meta, body: { session, messages } };
}

export const gooseCodec: Codec<GooseBody> = { toCommon, fromCommon };
