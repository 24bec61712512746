/**
 * Copilot CLI Body <-> Common. Pure. A `user.message` becomes a user
 * message (its `content`, not the `transformedContent` the model was sent);
 * an `assistant.message` an assistant message (reasoning with its opaque
 * signature, text, `toolRequests` as tool calls, its model, and the usage
 * of the `session.usage_record` before it); consecutive
 * `tool.execution_complete` events one user message of results (an error
 * when `success` is false or the shell exited non-zero). Every other event
 * stays in the Body. fromCommon writes those same events, deterministic
 * (ids from UUIDv5); txcript's store does not save them (read-only).
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
import type { VerbatimLine } from "../../lines.js";
import { normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { artifactText, resultText } from "../shared/results.js";
import { type CopilotBody, type CopilotEvent, eventsOf, messageGroups } from "./body.js";
import { copilotMeta } from "./meta.js";
import { toolFromCopilot, toolToCopilot } from "./tools.js";

function count(v: Json | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

function usageOf(record: CopilotEvent | undefined): Usage | undefined {
  const u = obj(record?.data, "usage");
  if (u === undefined) return undefined;
  const usage: Usage = { input_tokens: count(u.inputTokens), output_tokens: count(u.outputTokens) };
  if (count(u.cacheReadTokens) > 0) usage.cache_read_input_tokens = count(u.cacheReadTokens);
  if (count(u.cacheWriteTokens) > 0) usage.cache_creation_input_tokens = count(u.cacheWriteTokens);
  return usage;
}

function resultBlock(e: CopilotEvent): Block {
  const d = e.data;
  const result = obj(d, "result");
  const content: Json =
    result === undefined ? (str(obj(d, "error"), "message") ?? "") : (result.content ?? "");
  const exit = obj(d, "shellExecution")?.exitCode;
  const failed = d.success === false || (typeof exit === "number" && exit !== 0);
  const block: Block = { type: "tool_result", tool_use_id: str(d, "toolCallId") ?? "", content };
  if (failed) block.is_error = true;
  return block;
}

/** A prompt's text, then its inline blob attachments as images (an interned asset is not read). */
function userBlocks(d: JsonObject): Block[] {
  const blocks: Block[] = [];
  const images: Block[] = [];
  for (const a of Array.isArray(d.attachments) ? d.attachments : []) {
    if (!isJsonObject(a)) continue;
    const data = str(a, "data");
    if (a.type === "blob" && data !== undefined)
      images.push({
        type: "image",
        source: { type: "base64", media_type: str(a, "mimeType") ?? "", data },
      });
  }
  const text = str(d, "content") ?? "";
  if (text !== "" || images.length === 0) blocks.push({ type: "text", text });
  return [...blocks, ...images];
}

function assistantOf(d: JsonObject): Block[] {
  const blocks: Block[] = [];
  const reasoning = str(d, "reasoningText");
  const signature = str(d, "reasoningOpaque");
  if (reasoning !== undefined && reasoning !== "") {
    const b: Block = { type: "thinking", text: reasoning };
    if (signature) b.signature = signature;
    blocks.push(b);
  }
  const text = str(d, "content");
  if (text) blocks.push({ type: "text", text });
  const requests = Array.isArray(d.toolRequests) ? d.toolRequests : [];
  for (const r of requests) {
    if (!isJsonObject(r)) continue;
    blocks.push({
      type: "tool_use",
      id: str(r, "toolCallId") ?? "",
      tool: toolFromCopilot(str(r, "name") ?? "", r.arguments === undefined ? {} : r.arguments),
    });
  }
  return blocks;
}

function toCommon(t: Transcript<CopilotBody>): Transcript<Common> {
  const events = eventsOf(t.body.lines);
  const meta = copilotMeta(events, t.meta.id);
  const body: Message[] = [];
  let previous = meta.timestamp;
  let usage: CopilotEvent | undefined;
  const groups = messageGroups(events);
  // Usage records sit before their assistant message; index them by position.
  const order = new Map(events.map((e, i) => [e, i]));
  const records = events.filter((e) => e.type === "session.usage_record");
  for (const group of groups) {
    const first = group[0];
    if (first === undefined) continue;
    const timestamp = normalizeTimestamp(first.timestamp ?? "") ?? previous;
    previous = timestamp;
    if (first.type === "tool.execution_complete") {
      body.push({ role: "user", content: group.map(resultBlock), timestamp });
    } else if (first.type === "user.message") {
      body.push({ role: "user", content: userBlocks(first.data), timestamp });
    } else {
      const at = order.get(first) ?? 0;
      usage = records.filter((r) => (order.get(r) ?? 0) < at).at(-1);
      const message: Message = { role: "assistant", content: assistantOf(first.data), timestamp };
      const model = str(first.data, "model");
      if (model) message.model = model;
      const u = usageOf(usage);
      // A record already given to an earlier message is not counted twice.
      if (u !== undefined && usage !== undefined) {
        message.usage = u;
        records.splice(records.indexOf(usage), 1);
      }
      body.push(message);
    }
  }
  return { meta: { ...t.meta, ...meta }, body };
}

// ---------------------------------------------------------------------------
// Common -> Copilot events

function fromCommon(t: Transcript<Common>): Transcript<CopilotBody> {
  const id = t.meta.id;
  let n = 0;
  let parent: string | null = null;
  const lines: VerbatimLine[] = [];
  const push = (type: string, data: JsonObject, timestamp: Timestamp) => {
    const eid = stableUuid("copilot-event", id, n++);
    lines.push({
      text: JSON.stringify({ type, data, id: eid, timestamp, parentId: parent }),
      eol: "\n",
    });
    parent = eid;
  };
  const context: JsonObject = {};
  assignDefined(context, "cwd", t.meta.cwd);
  assignDefined(context, "branch", t.meta.git_branch);
  const start: JsonObject = {
    sessionId: id,
    version: 1,
    producer: "txcript",
    startTime: t.meta.timestamp,
    context,
  };
  assignDefined(start, "selectedModel", t.meta.model);
  assignDefined(start, "copilotVersion", t.meta.cli_version);
  push("session.start", start, t.meta.timestamp);
  for (const m of t.body) {
    if (m.role === "assistant") {
      const data: JsonObject = {
        messageId: stableUuid("copilot-message", id, n),
        content: "",
        toolRequests: [],
      };
      const texts: string[] = [];
      const requests: JsonObject[] = [];
      for (const b of m.content) {
        if (b.type === "thinking" && data.reasoningText === undefined) {
          data.reasoningText = b.text;
          assignDefined(data, "reasoningOpaque", b.signature);
        } else if (b.type === "thinking") texts.push(b.text);
        else if (b.type === "tool_use") {
          const { name, arguments: args } = toolToCopilot(b.tool);
          requests.push({ toolCallId: b.id, name, arguments: args, type: "function" });
        } else if (b.type === "text") texts.push(b.text);
        else if (b.type === "artifact") texts.push(artifactText(b));
        else if (b.type === "tool_result") texts.push(resultText(b.content));
      }
      data.content = texts.join("\n\n");
      data.toolRequests = requests;
      assignDefined(data, "model", m.model);
      if (m.usage !== undefined) {
        const u: JsonObject = {
          inputTokens: m.usage.input_tokens,
          outputTokens: m.usage.output_tokens,
        };
        u.cacheReadTokens = m.usage.cache_read_input_tokens ?? 0;
        u.cacheWriteTokens = m.usage.cache_creation_input_tokens ?? 0;
        assignDefined(u, "model", m.model);
        push("session.usage_record", { usage: u }, m.timestamp);
      }
      push("assistant.message", data, m.timestamp);
      continue;
    }
    const texts: string[] = [];
    const images: JsonObject[] = [];
    const flush = () => {
      if (texts.length > 0 || images.length > 0) {
        const data: JsonObject = { content: texts.join("\n\n") };
        if (images.length > 0) data.attachments = [...images];
        push("user.message", data, m.timestamp);
      }
      texts.length = 0;
      images.length = 0;
    };
    for (const b of m.content) {
      if (b.type === "tool_result") {
        flush();
        push(
          "tool.execution_complete",
          {
            toolCallId: b.tool_use_id,
            success: b.is_error !== true,
            result: { content: resultText(b.content) },
          },
          m.timestamp,
        );
      } else if (b.type === "text") texts.push(b.text);
      else if (b.type === "artifact") texts.push(artifactText(b));
      else if (b.type === "thinking") texts.push(b.text);
      else if (b.type === "tool_use") texts.push(JSON.stringify(toolToCopilot(b.tool)));
      else if (b.type === "image")
        images.push({ type: "blob", data: b.source.data, mimeType: b.source.media_type });
    }
    flush();
  }
  return { meta: t.meta, body: { lines } };
}

export const copilotCodec: Codec<CopilotBody> = { toCommon, fromCommon };
