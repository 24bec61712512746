/**
 * Droid Body <-> Common. Pure. The conversation's `message` records
 * (body.ts `conversation`) become Common messages one for one; their
 * content is Anthropic-style blocks (text, thinking, tool_use, tool_result,
 * image). Droid records no per-message usage: the session's totals in its
 * settings file ride on the last assistant message. fromCommon writes a
 * `session_start` line and one `message` line per Common message, ids from
 * UUIDv5 over the session id and the message's place, and a settings text
 * with the token totals when the source had any.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Usage,
} from "../../common.js";
import { stableUuid, uuidSessionId } from "../../ids.js";
import { assignDefined, exactArray } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { promptTitle } from "../../strings.js";
import { type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import {
  imageItem,
  sourceImage,
  thinkingBlock,
  thinkingItem,
  toolUseBlock,
} from "../shared/anthropic.js";
import { obj, str } from "../shared/fields.js";
import { blockText, resultText } from "../shared/results.js";
import { conversation, type DroidBody, recordsOf, settingsUsage } from "./body.js";
import { droidMeta, recordTime } from "./meta.js";
import { toolFromDroid, toolToDroid } from "./tools.js";

/** The `session_start` version Droid 0.225 writes. */
const SESSION_VERSION = 2;

/** A tool result's content: a string as it is, text items joined, anything else kept as JSON. */
function resultContent(content: Json | undefined): Json {
  if (content === undefined || content === null) return "";
  if (typeof content === "string" || !Array.isArray(content)) return content;
  const texts = content.map((i) => (isJsonObject(i) && i.type === "text" ? str(i, "text") : null));
  return texts.every((t) => typeof t === "string") ? texts.join("\n") : content;
}

function blockOf(item: Json): Block | undefined {
  if (typeof item === "string") return { type: "text", text: item };
  if (!isJsonObject(item)) return undefined;
  switch (item.type) {
    case "text":
      return { type: "text", text: str(item, "text") ?? "" };
    case "thinking":
    case "redacted_thinking":
      return thinkingBlock(item);
    case "tool_use":
      return toolUseBlock(item, toolFromDroid);
    case "tool_result": {
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(item, "tool_use_id") ?? "",
        content: resultContent(item.content),
      };
      if (item.is_error === true) block.is_error = true;
      return block;
    }
    case "image":
      return sourceImage(obj(item, "source"));
    default:
      return undefined;
  }
}

/**
 * The strings many messages repeat (a timestamp, a model), shared: a run
 * of messages with the same one holds it once, not once a message.
 */
interface Shared {
  time?: string;
  model?: string;
}

/** `value`, or the equal string held before it. */
function share(shared: Shared, key: keyof Shared, value: string): string {
  const held = shared[key];
  if (held === value) return held;
  shared[key] = value;
  return value;
}

function messageOf(record: JsonObject, previous: Timestamp, shared: Shared): Message | undefined {
  const m = obj(record, "message");
  if (m === undefined || (m.role !== "user" && m.role !== "assistant")) return undefined;
  // Exact arrays: a list grown by push keeps room for 16 more (~130 bytes a message).
  const content =
    typeof m.content === "string"
      ? [{ type: "text" as const, text: m.content }]
      : Array.isArray(m.content)
        ? exactArray(m.content.flatMap((i) => blockOf(i) ?? []))
        : [];
  const time = recordTime(record);
  const timestamp = time === undefined ? previous : share(shared, "time", time);
  const model = str(m, "modelId");
  // The model in the literal: added after, it costs a property store of its own.
  return m.role === "assistant" && model
    ? { role: m.role, content, timestamp, model: share(shared, "model", model) }
    : { role: m.role, content, timestamp };
}

function toCommon(t: Transcript<DroidBody>): Transcript<Common> {
  const records = recordsOf(t.body.lines);
  const meta = droidMeta(records, t.body.settings, t.meta.id);
  const body: Message[] = [];
  let previous = meta.timestamp;
  const shared: Shared = {};
  for (const record of conversation(records)) {
    const message = messageOf(record, previous, shared);
    if (message === undefined) continue;
    previous = message.timestamp;
    body.push(message);
  }
  const usage = settingsUsage(t.body.settings);
  const last = body.findLast((m) => m.role === "assistant");
  if (usage !== undefined && last !== undefined) last.usage = usage;
  return { meta: { ...t.meta, ...meta }, body };
}

// ---------------------------------------------------------------------------
// Common -> Droid

/** A block Droid's content cannot hold where it stands, as text. */
function asText(block: Block): string {
  return blockText(block, (tool) => JSON.stringify(toolToDroid(tool)));
}

function itemOf(block: Block, role: Message["role"]): JsonObject {
  switch (block.type) {
    case "image":
      return imageItem(block.source);
    case "thinking":
      if (role !== "assistant") break;
      return thinkingItem(block);
    case "tool_use":
      if (role !== "assistant") break;
      return { type: "tool_use", id: block.id, ...toolToDroid(block.tool) };
    case "tool_result": {
      if (role !== "user") break;
      const content = typeof block.content === "string" ? block.content : resultText(block.content);
      return {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        is_error: block.is_error === true,
        content,
      };
    }
    case "text":
    case "artifact":
      break;
    default:
      return block satisfies never;
  }
  return { type: "text", text: asText(block) };
}

/** The sum of every message's usage, or undefined when none has any. */
function totalUsage(messages: readonly Message[]): Usage | undefined {
  let total: Usage | undefined;
  for (const m of messages) {
    if (m.usage === undefined) continue;
    total ??= { input_tokens: 0, output_tokens: 0 };
    total.input_tokens += m.usage.input_tokens;
    total.output_tokens += m.usage.output_tokens;
    const read = (total.cache_read_input_tokens ?? 0) + (m.usage.cache_read_input_tokens ?? 0);
    const made =
      (total.cache_creation_input_tokens ?? 0) + (m.usage.cache_creation_input_tokens ?? 0);
    if (read > 0) total.cache_read_input_tokens = read;
    if (made > 0) total.cache_creation_input_tokens = made;
  }
  return total;
}

function settingsText(usage: Usage): string {
  const tokenUsage = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    thinkingTokens: 0,
  };
  return `${JSON.stringify({ tokenUsage }, null, 2)}\n`;
}

/** The id a Common session is written under: its own when it is a UUID (Droid's ids are). */
export function droidSessionId(id: string): string {
  return uuidSessionId("droid-session", id);
}

/** The lines are made as they are walked (`Lines.generated`): a save writes each as it is made. */
function fromCommon(t: Transcript<Common>): Transcript<DroidBody> {
  const id = droidSessionId(t.meta.id);
  const body: DroidBody = { lines: Lines.generated(() => droidLines(id, t)) };
  const usage = totalUsage(t.body);
  if (usage !== undefined) body.settings = settingsText(usage);
  return { meta: { ...t.meta, id }, body };
}

/** The session's lines, a message at a time: the same on every walk. */
function* droidLines(id: string, t: Transcript<Common>): Generator<VerbatimLine> {
  const line = (record: JsonObject): VerbatimLine => ({ text: JSON.stringify(record), eol: "\n" });
  yield line({
    type: "session_start",
    id,
    title: t.meta.title?.trim() || promptTitle(t.body) || "",
    // Droid's schema requires an owner (it writes the user's name); a file it cannot read, it deletes.
    owner: "",
    version: SESSION_VERSION,
    cwd: t.meta.cwd ?? "",
  });
  let parent: string | undefined;
  let n = 0;
  for (const m of t.body) {
    const mid = stableUuid("droid-message", id, n++);
    const message: JsonObject = {
      role: m.role,
      content: m.content.map((b) => itemOf(b, m.role)),
    };
    if (m.role === "assistant") assignDefined(message, "modelId", m.model ?? t.meta.model);
    const record: JsonObject = { type: "message", id: mid };
    assignDefined(record, "parentId", parent);
    record.timestamp = new Date(timestampMillis(m.timestamp)).toISOString();
    record.message = message;
    yield line(record);
    parent = mid;
  }
}

export const droidCodec: Codec<DroidBody> = { toCommon, fromCommon };
