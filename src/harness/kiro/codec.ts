/**
 * Kiro CLI Body <-> Common. Pure. The log is replayed the way Kiro's
 * `LogEntry::apply` replays it, with two differences a reader of the
 * record wants: `Prompt` and `ToolResults` add user messages and
 * `AssistantMessage` an assistant one; `ResetTo` returns to the messages
 * before entry `target_index` and `CancelledPrompt` drops a trailing user
 * message, as in Kiro; but `Clear` and `Compaction` (which change what the
 * model sees next, not what was said) keep the earlier messages, and
 * neither the compaction summary nor its snapshot joins Common. Entries and
 * blocks of a kind this version does not know stay in the Body only.
 * fromCommon is deterministic.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
} from "../../common.js";
import { stableUuid } from "../../ids.js";
import { EPOCH, type Timestamp, timestampToEpoch } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { agentMessages } from "./agent.js";
import { agentMeta, payloadOf, timeOf } from "./agent-meta.js";
import { blockKind, entryKind, type KiroBody, list, obj, str } from "./body.js";
import { base64ToBytes, bytesToBase64 } from "./bytes.js";
import { conversationMessages } from "./conversation.js";
import { conversationMeta } from "./conversation-meta.js";
import { kiroMeta, kiroTime } from "./meta.js";
import { toolFromKiro, toolToKiro } from "./tools.js";

function imageOf(data: JsonObject | undefined): Block {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: `image/${str(data, "format") ?? "png"}`,
      data: bytesToBase64(obj(data, "source")?.data),
    },
  };
}

/** A tool result's content: its text joined when all items are text, else the items. */
function resultContent(items: Json[]): Json {
  const texts = items.map((i) =>
    isJsonObject(i) && i.kind === "text" ? str(i, "data") : undefined,
  );
  if (texts.every((t): t is string => t !== undefined)) return texts.join("\n");
  return items;
}

function blockOf(item: Json): Block | undefined {
  const kind = blockKind(item);
  if (kind === undefined || !isJsonObject(item)) return undefined;
  const data = obj(item, "data");
  switch (kind) {
    case "text":
      return { type: "text", text: str(item, "data") ?? "" };
    case "image":
      return imageOf(data);
    case "thinking": {
      const block: Block = { type: "thinking", text: str(data, "text") ?? "" };
      const signature = str(data, "signature");
      if (signature) block.signature = signature;
      const redacted = bytesToBase64(data?.redactedContent);
      if (redacted !== "") block.encrypted = redacted;
      return block;
    }
    case "toolUse":
      return {
        type: "tool_use",
        id: str(data, "toolUseId") ?? "",
        tool: toolFromKiro(str(data, "name") ?? "", data?.input ?? null),
      };
    case "toolResult": {
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(data, "toolUseId") ?? "",
        content: resultContent(list(data, "content")),
      };
      if (str(data, "status") === "error") block.is_error = true;
      return block;
    }
    default:
      return kind satisfies never;
  }
}

/** An immutable list of messages, newest first: each entry's state shares the one before. */
type History = { message: Message; before: History } | undefined;

function toCommon(t: Transcript<KiroBody>): Transcript<Common> {
  if (t.body.layout === "agent") {
    const meta = { ...t.meta, ...agentMeta(t.body.session, t.meta.id), id: t.meta.id };
    if (meta.timestamp === EPOCH) meta.timestamp = t.meta.timestamp;
    const body = agentMessages(t.body.rows, meta);
    // A subagent's prompt is in its root's start row, not in its own rows.
    const start = t.body.start;
    const prompt = start === undefined ? undefined : str(payloadOf(start), "prompt");
    if (start !== undefined && prompt)
      body.unshift({
        role: "user",
        content: [{ type: "text", text: prompt }],
        timestamp: timeOf(start.timestamp) ?? meta.timestamp,
      });
    return { meta, body };
  }
  if (t.body.layout === "conversation") {
    const meta = { ...t.meta, ...conversationMeta(t.body, t.meta.id) };
    if (meta.timestamp === EPOCH) meta.timestamp = t.meta.timestamp;
    return { meta, body: conversationMessages(t.body, meta.timestamp) };
  }
  const meta = kiroMeta(t.body.session, t.meta.id);
  const entries = t.body.entries;
  // states[i] is the history before entry i, so ResetTo costs no copy.
  const states: History[] = [];
  let history: History;
  let previous = meta.timestamp;
  for (const [i, entry] of entries.entries()) {
    states.push(history);
    const kind = entryKind(entry);
    if (kind === undefined) continue;
    const data = obj(entry, "data");
    switch (kind) {
      case "Prompt":
      case "AssistantMessage":
      case "ToolResults": {
        const content = list(data, "content").flatMap((b) => blockOf(b) ?? []);
        const timestamp = kiroTime(obj(data, "meta")?.timestamp) ?? previous;
        previous = timestamp;
        const role = kind === "AssistantMessage" ? "assistant" : "user";
        const message: Message = { role, content, timestamp };
        if (role === "assistant" && meta.model) message.model = meta.model;
        history = { message, before: history };
        break;
      }
      case "ResetTo": {
        const target = data?.target_index;
        if (typeof target === "number" && Number.isInteger(target) && target >= 0)
          history = states[Math.min(target, i)];
        break;
      }
      case "CancelledPrompt":
        if (history?.message.role === "user") history = history.before;
        break;
      case "Compaction":
      case "Clear":
        break;
      default:
        kind satisfies never;
    }
  }
  const body: Message[] = [];
  for (let h = history; h !== undefined; h = h.before)
    if (h.message.content.length > 0) body.push(h.message);
  body.reverse();
  return { meta: { ...t.meta, ...meta }, body };
}

function contentOf(block: Block): JsonObject {
  switch (block.type) {
    case "text":
      return { kind: "text", data: block.text };
    case "thinking":
      return {
        kind: "thinking",
        data: {
          text: block.text,
          signature: block.signature ?? null,
          redactedContent: base64ToBytes(block.encrypted ?? ""),
        },
      };
    case "image":
      return {
        kind: "image",
        data: {
          format: block.source.media_type.replace(/^image\//, "") || "png",
          source: { kind: "bytes", data: base64ToBytes(block.source.data) },
        },
      };
    case "tool_use": {
      const { name, input } = toolToKiro(block.tool);
      return { kind: "toolUse", data: { toolUseId: block.id, name, input } };
    }
    case "tool_result": {
      const text =
        typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      return {
        kind: "toolResult",
        data: {
          toolUseId: block.tool_use_id,
          content: [{ kind: "text", data: text }],
          status: block.is_error === true ? "error" : "success",
        },
      };
    }
    case "artifact": {
      const s = block.artifact.source;
      const text =
        s.type === "text" ? s.text : s.type === "path" ? s.path : `[${block.artifact.name}]`;
      return { kind: "text", data: text };
    }
    default:
      return block satisfies never;
  }
}

function seconds(ts: Timestamp): number {
  return timestampToEpoch(ts).seconds;
}

function fromCommon(t: Transcript<Common>): Transcript<KiroBody> {
  const last = t.body.at(-1)?.timestamp ?? t.meta.timestamp;
  const session: JsonObject = {
    session_id: t.meta.id,
    cwd: t.meta.cwd ?? "",
    created_at: t.meta.timestamp,
    updated_at: last,
    title: t.meta.title ?? null,
    session_state: {
      version: "v1",
      conversation_metadata: { user_turn_metadatas: [] },
      rts_model_state: {
        conversation_id: t.meta.id,
        model_info: t.meta.model === undefined ? null : { model_id: t.meta.model },
        context_usage_percentage: null,
      },
    },
  };
  const entries = t.body.map((m, i): JsonObject => {
    const message_id = stableUuid("kiro", t.meta.id, i);
    const content = m.content.map(contentOf);
    if (m.role === "assistant")
      return { version: "v1", kind: "AssistantMessage", data: { message_id, content } };
    if (m.content.some((b) => b.type === "tool_result"))
      return { version: "v1", kind: "ToolResults", data: { message_id, content, results: {} } };
    return {
      version: "v1",
      kind: "Prompt",
      data: { message_id, content, meta: { timestamp: seconds(m.timestamp) } },
    };
  });
  return { meta: t.meta, body: { session, entries } };
}

export const kiroCodec: Codec<KiroBody> = { toCommon, fromCommon };
