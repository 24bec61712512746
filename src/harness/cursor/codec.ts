/**
 * Cursor Body <-> Common. Pure. An agent transcript's lines and a chat
 * store's JSON blobs become messages in order: `user` and `tool` records
 * user messages (a tool record's `tool-result` parts as tool results),
 * `assistant` records assistant ones; `system` records, editor-injected
 * context (`<user_info>`) and records of an unknown kind stay in the Body
 * only. fromCommon writes the chat layout (it carries times, models and
 * the session's metadata, which a transcript has no place for) and is
 * deterministic.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type ToolResultBlock,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { EPOCH, type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { imageItem, sourceImageWithData } from "../shared/anthropic.js";
import { obj, str } from "../shared/fields.js";
import { artifactText } from "../shared/results.js";
import { type CursorBody, type CursorChatBody, chatPrompts, graphTurns, roleOf } from "./body.js";
import { desktopMessages } from "./desktop.js";
import { desktopMeta } from "./desktop-meta.js";
import { blobModel, chatMeta, cursorTime, userText, wrapUserText } from "./meta.js";
import { toolFromCursor, toolToCursor } from "./tools.js";

/** A field's value, `fallback` only when the field is missing (a JSON null is kept). */
function orElse(value: Json | undefined, fallback: Json): Json {
  return value === undefined ? fallback : value;
}

/** An image part: Anthropic's `source` (`{type, media_type, data}`) or the AI SDK's `image` + `mediaType`. */
function imageOf(part: JsonObject): Block | undefined {
  const source = obj(part, "source");
  if (source !== undefined) return sourceImageWithData(source, str(source, "media_type"));
  const data = str(part, "image");
  if (data === undefined) return undefined;
  return {
    type: "image",
    source: { type: "base64", media_type: str(part, "mediaType") ?? "image/png", data },
  };
}

function thinkingOf(text: string, signature: string | undefined, data: string | undefined): Block {
  const block: Block = { type: "thinking", text };
  if (signature) block.signature = signature;
  if (data) block.encrypted = data;
  return block;
}

function textOf(text: string, user: boolean): Block | undefined {
  if (!user) return { type: "text", text };
  const said = userText(text);
  return said === undefined ? undefined : { type: "text", text: said };
}

/** One content part of either layout (their part kinds do not overlap), or undefined when not read. */
function partOf(part: Json, user: boolean, isError: boolean): Block | undefined {
  if (typeof part === "string") return textOf(part, user);
  if (!isJsonObject(part)) return undefined;
  switch (part.type) {
    case "text":
      return textOf(str(part, "text") ?? "", user);
    case "image":
      return imageOf(part);
    // The chat store's AI-SDK parts.
    case "reasoning":
      return thinkingOf(str(part, "text") ?? "", str(part, "signature"), str(part, "data"));
    case "redacted-reasoning":
      return thinkingOf("", undefined, str(part, "data"));
    case "tool-call":
      return {
        type: "tool_use",
        id: str(part, "toolCallId") ?? "",
        tool: toolFromCursor(str(part, "toolName") ?? "", orElse(part.args, {})),
      };
    case "tool-result": {
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(part, "toolCallId") ?? "",
        content: orElse(part.result, ""),
      };
      if (part.isError === true || (part.isError === undefined && isError)) block.is_error = true;
      return block;
    }
    // The transcript's Anthropic-style blocks.
    case "thinking":
      return thinkingOf(
        str(part, "thinking") ?? str(part, "text") ?? "",
        str(part, "signature"),
        undefined,
      );
    case "redacted_thinking":
      return thinkingOf("", undefined, str(part, "data"));
    case "tool_use":
      return {
        type: "tool_use",
        id: str(part, "id") ?? "",
        tool: toolFromCursor(str(part, "name") ?? "", orElse(part.input, {})),
      };
    case "tool_result": {
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(part, "tool_use_id") ?? "",
        content: orElse(part.content, ""),
      };
      if (part.is_error === true) block.is_error = true;
      return block;
    }
    default:
      return undefined;
  }
}

function blocksOf(content: Json | undefined, user: boolean, isError: boolean): Block[] {
  const parts = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return parts.flatMap((p) => partOf(p, user, isError) ?? []);
}

/** A record (transcript line or chat blob) as a message, or undefined when it adds none. */
function messageOf(record: JsonObject, content: Json | undefined, at: Timestamp) {
  const role = roleOf(record);
  if (role === undefined || role === "system") return undefined;
  const user = role === "user";
  const content_ = blocksOf(content, user, record.isError === true);
  if (content_.length === 0) return undefined;
  const message: Message = {
    role: role === "assistant" ? "assistant" : "user",
    content: content_,
    timestamp: at,
  };
  if (role === "assistant") {
    const model = blobModel(record);
    if (model) message.model = model;
  }
  return message;
}

function toCommon(t: Transcript<CursorBody>): Transcript<Common> {
  const body: Message[] = [];
  if (t.body.layout === "transcript") {
    // A transcript records no times: every message takes the session's.
    for (const line of t.body.lines) {
      const m = messageOf(line, obj(line, "message")?.content, t.meta.timestamp);
      if (m) body.push(m);
    }
    return { meta: t.meta, body };
  }
  if (t.body.layout === "desktop") {
    const meta = { ...t.meta, ...desktopMeta(t.body, t.meta.id) };
    if (meta.timestamp === EPOCH) meta.timestamp = t.meta.timestamp;
    return { meta, body: desktopMessages(t.body, meta.timestamp) };
  }
  const meta = { ...t.meta, ...chatMeta(t.body, t.meta.id) };
  let previous = meta.timestamp;
  for (const blob of t.body.messages) {
    const at = cursorTime(blob.createdAt) ?? previous;
    previous = at;
    const m = messageOf(blob, blob.content, at);
    if (m) body.push(m);
  }
  // No blob is a message (the store holds only the protobuf graph): the graph, else the prompt history.
  if (body.length === 0) body.push(...graphMessages(t.body, meta.timestamp));
  if (body.length === 0)
    for (const text of chatPrompts(t.body))
      body.push({ role: "user", content: [{ type: "text", text }], timestamp: meta.timestamp });
  return { meta, body };
}

/** One decoded graph step as a block; undefined for a marker (missing or unknown blob). */
function graphBlock(step: JsonObject, id: string): Block | undefined {
  if (typeof step.assistant === "string")
    return step.assistant === "" ? undefined : { type: "text", text: step.assistant };
  if (typeof step.thinking === "string") return { type: "thinking", text: step.thinking };
  if (typeof step.tool !== "string") return undefined;
  const callId = str(step, "tool_call_id") ?? id;
  if (step.tool === "shell" && typeof step.command === "string") {
    const workdir = str(step, "working_directory");
    return {
      type: "tool_use",
      id: callId,
      tool: { name: "Bash", command: step.command, ...(workdir ? { workdir } : {}) },
    };
  }
  const { tool: name, ...input } = step;
  return { type: "tool_use", id: callId, tool: { name: "Raw", tool_name: name, input } };
}

/** A graph shell call's result as a tool_result (stdout, then stderr); none when it has none. */
function graphResult(step: JsonObject, id: string): ToolResultBlock | undefined {
  const r = obj(step, "result");
  const status = str(r, "status");
  if (r === undefined || status === undefined) return undefined;
  const output = [str(r, "stdout"), str(r, "stderr")].filter((x) => x !== undefined && x !== "");
  const content = status === "success" || output.length > 0 ? output.join("\n") : `[${status}]`;
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: id, content };
  if (status !== "success") block.is_error = true;
  return block;
}

/**
 * The turn graph as messages (docs/formats/cursor.md "The turn graph"):
 * each agent turn's prompt, then its steps as assistant messages, a shell
 * call's result on a user message of its own between them. The graph
 * records no times: every message takes the session's.
 */
function graphMessages(body: CursorChatBody, at: Timestamp): Message[] {
  const out: Message[] = [];
  for (const [n, turn] of graphTurns(body).entries()) {
    const text = str(obj(turn, "user"), "text");
    if (text) out.push({ role: "user", content: [{ type: "text", text }], timestamp: at });
    let reply: Message | undefined;
    const steps = Array.isArray(turn.steps) ? turn.steps : [];
    for (const [k, s] of steps.entries()) {
      if (!isJsonObject(s)) continue;
      const b = graphBlock(s, `cursor-step:${n + 1}.${k + 1}`);
      if (b === undefined) continue;
      if (reply === undefined) {
        reply = { role: "assistant", content: [], timestamp: at };
        out.push(reply);
      }
      reply.content.push(b);
      const result = b.type === "tool_use" ? graphResult(s, b.id) : undefined;
      if (result !== undefined) {
        out.push({ role: "user", content: [result], timestamp: at });
        reply = undefined;
      }
    }
  }
  return out;
}

/** A Common block as a chat-store part; `names` gives a tool result its call's tool name. */
function partFor(block: Block, user: boolean, names: ReadonlyMap<string, string>): JsonObject {
  switch (block.type) {
    case "text":
      return { type: "text", text: user ? wrapUserText(block.text) : block.text };
    case "thinking": {
      const part: JsonObject = { type: "reasoning", text: block.text };
      assignDefined(part, "signature", block.signature);
      assignDefined(part, "data", block.encrypted);
      return part;
    }
    case "image":
      return imageItem(block.source);
    case "tool_use": {
      const { name, input } = toolToCursor(block.tool);
      return { type: "tool-call", toolCallId: block.id, toolName: name, args: input };
    }
    case "tool_result": {
      const part: JsonObject = {
        type: "tool-result",
        toolCallId: block.tool_use_id,
        toolName: names.get(block.tool_use_id) ?? "",
        result: block.content,
      };
      if (block.is_error === true) part.isError = true;
      return part;
    }
    case "artifact":
      return { type: "text", text: artifactText(block) };
    default:
      return block satisfies never;
  }
}

function fromCommon(t: Transcript<Common>): Transcript<CursorChatBody> {
  const names = new Map<string, string>();
  const messages = t.body.map((m): JsonObject => {
    for (const b of m.content)
      if (b.type === "tool_use") names.set(b.id, toolToCursor(b.tool).name);
    const results = m.content.some((b) => b.type === "tool_result");
    const role = m.role === "assistant" ? "assistant" : results ? "tool" : "user";
    const blob: JsonObject = {
      role,
      content: m.content.map((b) => partFor(b, role === "user", names)),
      createdAt: timestampMillis(m.timestamp),
    };
    if (m.model !== undefined) blob.providerOptions = { cursor: { modelName: m.model } };
    return blob;
  });
  const created = timestampMillis(t.meta.timestamp);
  const last = t.body.at(-1);
  const chat: JsonObject = {
    schemaVersion: 1,
    createdAtMs: created,
    updatedAtMs: last === undefined ? created : timestampMillis(last.timestamp),
    hasConversation: messages.length > 0,
  };
  const agent: JsonObject = { agentId: t.meta.id, createdAt: created };
  if (t.meta.title !== undefined) {
    chat.title = t.meta.title;
    agent.name = t.meta.title;
  }
  assignDefined(agent, "workspacePath", t.meta.cwd);
  assignDefined(agent, "lastUsedModel", t.meta.model);
  return { meta: t.meta, body: { layout: "chat", chat, agent, messages, opaque: 0 } };
}

export const cursorCodec: Codec<CursorBody> = { toCommon, fromCommon };
