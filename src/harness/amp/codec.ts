/**
 * Amp Body <-> Common. Pure. A thread's `messages` map one to one:
 * `user` messages (prompts, images, tool results) and `assistant` ones
 * (text, thinking, tool calls, images; `state` the stop reason, `usage`
 * the model and tokens). Times: `meta.sentAt` (ms), else `usage.timestamp`,
 * else the time before. Other roles and block kinds stay in the Body only.
 * fromCommon is deterministic.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  STOP_REASONS,
  type StopReason,
  type Usage,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { sourceImageWithData, thinkingBlock } from "../shared/anthropic.js";
import { obj, str } from "../shared/fields.js";
import { artifactText, resultText } from "../shared/results.js";
import type { AmpBody } from "./body.js";
import { ampMeta, ampThreadId, ampTime, pathUri } from "./meta.js";
import { toolFromAmp, toolToAmp } from "./tools.js";

/** A tool run's error as text: its `message`, the text itself, or its JSON. */
function errorText(error: Json | undefined): string {
  if (typeof error === "string") return error;
  const message = isJsonObject(error) ? str(error, "message") : undefined;
  if (message !== undefined) return message;
  return error === undefined ? "" : JSON.stringify(error);
}

function toolResultOf(b: JsonObject): Block {
  const run = obj(b, "run");
  const status = str(run, "status");
  const block: Block = { type: "tool_result", tool_use_id: str(b, "toolUseID") ?? "", content: "" };
  if (status === "error") {
    block.content = errorText(run?.error);
    block.is_error = true;
  } else if (status === "cancelled" || status === "rejected-by-user") {
    block.content = str(run, "reason") ?? status;
    block.is_error = true;
  } else {
    const result = run?.result;
    block.content = result === undefined ? "" : result;
  }
  return block;
}

function blockOf(b: Json): Block | undefined {
  if (typeof b === "string") return { type: "text", text: b };
  if (!isJsonObject(b)) return undefined;
  switch (b.type) {
    case "text":
      return { type: "text", text: str(b, "text") ?? "" };
    case "thinking":
      return thinkingBlock(b);
    case "image": {
      const source = obj(b, "source");
      return sourceImageWithData(source, str(source, "mediaType") ?? str(source, "media_type"));
    }
    case "tool_use": {
      const input = b.input;
      return {
        type: "tool_use",
        id: str(b, "id") ?? "",
        tool: toolFromAmp(str(b, "name") ?? "", input === undefined ? {} : input),
      };
    }
    case "tool_result":
      return toolResultOf(b);
    default:
      return undefined;
  }
}

function stopOf(state: JsonObject | undefined): StopReason | undefined {
  if (str(state, "type") === "cancelled") return "aborted";
  if (str(state, "type") !== "complete") return undefined;
  const reason = str(state, "stopReason");
  if (reason === undefined) return undefined;
  return STOP_REASONS.find((r) => r === reason) ?? { other: reason };
}

function usageOf(usage: JsonObject | undefined): Usage | undefined {
  const n = (k: string) => {
    const v = usage?.[k];
    return typeof v === "number" && Number.isFinite(v) ? v : undefined;
  };
  const input = n("inputTokens");
  const output = n("outputTokens");
  if (input === undefined && output === undefined) return undefined;
  const out: Usage = { input_tokens: input ?? 0, output_tokens: output ?? 0 };
  const read = n("cacheReadInputTokens");
  assignDefined(out, "cache_read_input_tokens", read);
  const created = n("cacheCreationInputTokens");
  assignDefined(out, "cache_creation_input_tokens", created);
  return out;
}

function toCommon(t: Transcript<AmpBody>): Transcript<Common> {
  const meta = { ...t.meta, ...ampMeta(t.body.thread, t.meta.id) };
  const messages = Array.isArray(t.body.thread.messages) ? t.body.thread.messages : [];
  const body: Message[] = [];
  let previous = meta.timestamp;
  for (const m of messages) {
    if (!isJsonObject(m) || (m.role !== "user" && m.role !== "assistant")) continue;
    const usage = obj(m, "usage");
    const at = ampTime(obj(m, "meta")?.sentAt) ?? ampTime(usage?.timestamp) ?? previous;
    previous = at;
    const raw = m.content;
    const parts = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    const content = parts.flatMap((p) => blockOf(p) ?? []);
    if (content.length === 0) continue;
    const message: Message = { role: m.role, content, timestamp: at };
    if (m.role === "assistant") {
      const model = str(usage, "model");
      if (model) message.model = model;
      const stop = stopOf(obj(m, "state"));
      assignDefined(message, "stop_reason", stop);
      const u = usageOf(usage);
      assignDefined(message, "usage", u);
    }
    body.push(message);
  }
  return { meta, body };
}

function blockFor(b: Block): JsonObject {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "thinking": {
      const out: JsonObject = { type: "thinking", thinking: b.text };
      assignDefined(out, "signature", b.signature);
      return out;
    }
    case "image":
      return {
        type: "image",
        source: { type: b.source.type, data: b.source.data, mediaType: b.source.media_type },
      };
    case "tool_use": {
      const { name, input } = toolToAmp(b.tool);
      return { type: "tool_use", id: b.id, name, input, complete: true };
    }
    case "tool_result":
      return {
        type: "tool_result",
        toolUseID: b.tool_use_id,
        run:
          b.is_error === true
            ? { status: "error", error: { message: resultText(b.content) } }
            : { status: "done", result: b.content },
      };
    case "artifact":
      return { type: "text", text: artifactText(b) };
    default:
      return b satisfies never;
  }
}

function stateFor(reason: StopReason): JsonObject {
  if (reason === "aborted") return { type: "cancelled" };
  return { type: "complete", stopReason: typeof reason === "string" ? reason : reason.other };
}

function fromCommon(t: Transcript<Common>): Transcript<AmpBody> {
  const messages = t.body.map((m, i): JsonObject => {
    const out: JsonObject = {
      role: m.role,
      messageId: i,
      content: m.content.map(blockFor),
      meta: { sentAt: timestampMillis(m.timestamp) },
    };
    if (m.role === "assistant") {
      if (m.stop_reason !== undefined) out.state = stateFor(m.stop_reason);
      const usage: JsonObject = {};
      assignDefined(usage, "model", m.model);
      if (m.usage !== undefined) {
        usage.inputTokens = m.usage.input_tokens;
        usage.outputTokens = m.usage.output_tokens;
        if (m.usage.cache_read_input_tokens !== undefined)
          usage.cacheReadInputTokens = m.usage.cache_read_input_tokens;
        if (m.usage.cache_creation_input_tokens !== undefined)
          usage.cacheCreationInputTokens = m.usage.cache_creation_input_tokens;
      }
      if (Object.keys(usage).length > 0) out.usage = usage;
    }
    return out;
  });
  const thread: JsonObject = {
    v: 1,
    id: ampThreadId(t.meta.id),
    created: timestampMillis(t.meta.timestamp),
  };
  assignDefined(thread, "title", t.meta.title);
  const initial: JsonObject = {};
  if (t.meta.cwd !== undefined) {
    const tree: JsonObject = { uri: pathUri(t.meta.cwd) };
    if (t.meta.git_branch !== undefined)
      tree.repository = { ref: `refs/heads/${t.meta.git_branch}`, type: "git" };
    initial.trees = [tree];
  }
  if (t.meta.cli_version !== undefined)
    initial.platform = { client: "CLI", clientVersion: t.meta.cli_version };
  if (Object.keys(initial).length > 0) thread.env = { initial };
  thread.messages = messages;
  return { meta: { ...t.meta, id: ampThreadId(t.meta.id) }, body: { thread } };
}

export const ampCodec: Codec<AmpBody> = { toCommon, fromCommon };
