/**
 * Cline Body <-> Common. Pure. Cline's messages are close to Anthropic's:
 * a user message holds text, images and tool results, an assistant message
 * text, thinking and tool calls, with its model (`modelInfo`), token counts
 * (`metrics`) and time (`ts`, epoch ms). Each becomes one Common message;
 * a prompt loses Cline's `<user_input mode="…">` wrapper (the mode), a
 * `file` block becomes its text, and `id`, `metadata` and `agent` stay in
 * the Body. fromCommon writes a messages file and a manifest, deterministic:
 * message ids from UUIDv5 over the session id and the message's place.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Usage,
} from "../../common.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import { type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import {
  countsUsage,
  sourceImage,
  thinkingBlock,
  thinkingItem,
  toolUseBlock,
} from "../shared/anthropic.js";
import { base64Image, obj, str } from "../shared/fields.js";
import { blockText, resultText } from "../shared/results.js";
import { type ClineBody, MESSAGES_VERSION, messagesOf, unwrapPrompt } from "./body.js";
import { clineMeta, clineTime } from "./meta.js";
import { toolFromCline, toolToCline } from "./tools.js";

function usageOf(metrics: JsonObject | undefined): Usage | undefined {
  return countsUsage(metrics, {
    input: "inputTokens",
    output: "outputTokens",
    cacheRead: "cacheReadTokens",
    cacheWrite: "cacheWriteTokens",
  });
}

/** Cline's image (`{data, mediaType}`) or the legacy Anthropic one (`{source: {…}}`). */
function imageBlock(item: JsonObject): Block {
  const source = obj(item, "source");
  return source !== undefined ? sourceImage(source) : base64Image(item, "mediaType");
}

/**
 * Cline 3's own tools answer with one `{query, result, success, error?}`
 * entry per command or file: their results as text, failed when any failed.
 */
function entryResults(content: Json | undefined): { text: string; failed: boolean } | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const texts: string[] = [];
  let failed = false;
  for (const e of content) {
    if (!isJsonObject(e) || typeof e.query !== "string" || typeof e.success !== "boolean")
      return undefined;
    texts.push(str(e, "result") ?? str(e, "error") ?? "");
    if (e.success === false) failed = true;
  }
  return { text: texts.join("\n"), failed };
}

function resultContent(content: Json | undefined): Json {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts = content.map((c) =>
    isJsonObject(c) && (c.type === "text" || c.type === "file")
      ? (str(c, "text") ?? str(c, "content") ?? "")
      : undefined,
  );
  return texts.every((t) => t !== undefined) ? texts.join("\n") : content;
}

function block(item: Json, role: "user" | "assistant"): Block | undefined {
  if (!isJsonObject(item)) return undefined;
  switch (item.type) {
    case "text": {
      const text = str(item, "text") ?? "";
      return { type: "text", text: role === "user" ? unwrapPrompt(text) : text };
    }
    case "file":
      return { type: "text", text: str(item, "content") ?? "" };
    case "image":
      return imageBlock(item);
    case "thinking":
    case "redacted_thinking":
      return thinkingBlock(item);
    case "tool_use":
      return toolUseBlock(item, toolFromCline);
    case "tool_result": {
      const entries = entryResults(item.content);
      const b: Block = {
        type: "tool_result",
        tool_use_id: str(item, "tool_use_id") ?? "",
        content: entries?.text ?? resultContent(item.content),
      };
      if (item.is_error === true || entries?.failed === true) b.is_error = true;
      return b;
    }
    default:
      return undefined;
  }
}

function messageOf(m: JsonObject, previous: Timestamp): Message | undefined {
  const role = m.role === "assistant" ? "assistant" : "user";
  const content =
    typeof m.content === "string"
      ? [{ type: "text" as const, text: role === "user" ? unwrapPrompt(m.content) : m.content }]
      : Array.isArray(m.content)
        ? m.content.flatMap((i) => block(i, role) ?? [])
        : [];
  const message: Message = { role, content, timestamp: clineTime(m.ts) ?? previous };
  if (role === "assistant") {
    const model = str(obj(m, "modelInfo"), "id");
    if (model) message.model = model;
    assignDefined(message, "usage", usageOf(obj(m, "metrics")));
  }
  return message;
}

function toCommon(t: Transcript<ClineBody>): Transcript<Common> {
  const meta = clineMeta(t.body, t.meta.id);
  const body: Message[] = [];
  let previous = meta.timestamp;
  for (const m of messagesOf(t.body.doc)) {
    const message = messageOf(m, previous);
    if (message === undefined) continue;
    previous = message.timestamp;
    body.push(message);
  }
  return { meta: { ...t.meta, ...meta }, body };
}

// ---------------------------------------------------------------------------
// Common -> Cline

function asText(b: Block): string {
  return blockText(b, (tool) => JSON.stringify(toolToCline(tool)));
}

function item(b: Block, role: "user" | "assistant"): JsonObject {
  switch (b.type) {
    case "image":
      return { type: "image", data: b.source.data, mediaType: b.source.media_type };
    case "thinking":
      return role === "user" ? { type: "text", text: b.text } : thinkingItem(b);
    case "tool_use": {
      if (role === "user") return { type: "text", text: asText(b) };
      const { name, input } = toolToCline(b.tool);
      return { type: "tool_use", id: b.id, name, input };
    }
    case "tool_result": {
      if (role === "assistant") return { type: "text", text: asText(b) };
      const out: JsonObject = {
        type: "tool_result",
        tool_use_id: b.tool_use_id,
        name: "",
        content: typeof b.content === "string" ? b.content : resultText(b.content),
      };
      if (b.is_error === true) out.is_error = true;
      return out;
    }
    default:
      return { type: "text", text: asText(b) };
  }
}

/**
 * The model a copy names where its source names none. The real Cline
 * refuses a manifest whose `model` is empty (its session schema asks for
 * one), and a resume runs with the provider and model the user has set, so
 * this name only fills the record.
 */
const CLINE_DEFAULT_MODEL = "unknown";

/** The manifest's model: the session's, else its first assistant message's, else the default. */
function sessionModel(t: Transcript<Common>): string {
  const first = t.body.find((m) => m.role === "assistant" && m.model);
  return t.meta.model || first?.model || CLINE_DEFAULT_MODEL;
}

function fromCommon(t: Transcript<Common>): Transcript<ClineBody> {
  const id = t.meta.id;
  const model = sessionModel(t);
  const names = new Map<string, string>();
  const messages: JsonObject[] = t.body.map((m, n) => {
    const content = m.content.map((b) => item(b, m.role));
    for (const c of content) {
      if (c.type === "tool_use" && typeof c.id === "string" && typeof c.name === "string")
        names.set(c.id, c.name);
      if (c.type === "tool_result" && typeof c.tool_use_id === "string")
        c.name = names.get(c.tool_use_id) ?? "";
    }
    const out: JsonObject = {
      id: stableUuid("cline-message", id, n),
      role: m.role,
      content,
      ts: timestampMillis(m.timestamp),
    };
    if (m.role === "assistant") {
      out.modelInfo = { id: m.model ?? t.meta.model ?? CLINE_DEFAULT_MODEL, provider: "txcript" };
      if (m.usage !== undefined)
        out.metrics = {
          inputTokens: m.usage.input_tokens,
          outputTokens: m.usage.output_tokens,
          cacheReadTokens: m.usage.cache_read_input_tokens ?? 0,
          cacheWriteTokens: m.usage.cache_creation_input_tokens ?? 0,
        };
    }
    return out;
  });
  const last = t.body.at(-1)?.timestamp ?? t.meta.timestamp;
  const doc: JsonObject = {
    version: MESSAGES_VERSION,
    updated_at: new Date(timestampMillis(last)).toISOString(),
    agent: "lead",
    sessionId: id,
    origin: { source: "cli", mode: "user", sessionId: id },
    messages,
  };
  const started = new Date(timestampMillis(t.meta.timestamp)).toISOString();
  const manifest: JsonObject = {
    version: 1,
    session_id: id,
    source: "cli",
    pid: 0,
    started_at: started,
    ended_at: new Date(timestampMillis(last)).toISOString(),
    exit_code: 0,
    status: "completed",
    interactive: false,
    provider: "txcript",
    model,
    cwd: t.meta.cwd ?? "",
    workspace_root: t.meta.cwd ?? "",
    enable_tools: true,
    enable_spawn: true,
    enable_teams: false,
  };
  const prompt = t.body
    .find((m) => m.role === "user" && m.content.some((b) => b.type === "text"))
    ?.content.flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n");
  assignDefined(manifest, "prompt", prompt);
  if (t.meta.title !== undefined) manifest.metadata = { title: t.meta.title };
  return { meta: t.meta, body: { doc, manifest } };
}

export const clineCodec: Codec<ClineBody> = { toCommon, fromCommon };
