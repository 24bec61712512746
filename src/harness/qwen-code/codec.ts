/**
 * The Qwen Code codec: chat recording records <-> the canonical model.
 * Pure: no I/O, no clock, no randomness.
 *
 * Reading follows the CLI's resume (body.ts `activeChain`): only the active
 * chain counts; `system` records (telemetry, attribution, compression
 * checkpoints, titles) are bookkeeping, not conversation. A `user` record's
 * parts are the prompt (the hook context the CLI appends is hidden); an
 * `assistant` record is one assistant message (thought parts -> thinking,
 * text, functionCall -> tool_use; `model`; usage from `usageMetadata`); each
 * `tool_result` record holds one call's functionResponse, and a run of them
 * is one user message of tool_result blocks (an `error` status flags it).
 * Parts are read by the code Gemini CLI uses (../shared/gemini-parts.ts).
 *
 * Writing produces what 0.24.4 records: one line per message in a
 * `parentUuid` chain (ids UUIDv5 over the session id and position), each
 * result its own `tool_result` record with `toolCallResult`, right after
 * its call; a call the session never answered gets an error result, since
 * the model API refuses a call without one. A title is written as the
 * CLI's `custom_title` record, at the session's start.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type ToolResultBlock,
  type Usage,
} from "../../common.js";
import { isUuid } from "../../id-forms.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import type { VerbatimLine } from "../../lines.js";
import { type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import {
  GeminiReplay,
  imageBlock,
  nameOf,
  partsOf,
  placeholder,
  usageFromCounts,
  userPart,
} from "../shared/gemini-parts.js";
import { artifactText, resultText } from "../shared/results.js";
import { assistantMessage, blockList } from "../shared/slim.js";
import { activeChain, Lines, type QwenBody, type QwenRecord, recordLine } from "./body.js";
import { isHookContext } from "./text.js";
import { callToTool, SHELL, toolToCall } from "./tools.js";

const TOKEN_KEYS = {
  input: "promptTokenCount",
  output: "candidatesTokenCount",
  cached: "cachedContentTokenCount",
  thoughts: "thoughtsTokenCount",
} as const;

/** A record's `message.parts`; the CLI ignores parts that are not a list. */
function recordParts(record: JsonObject): JsonObject[] {
  const parts = obj(record, "message")?.parts;
  return Array.isArray(parts) ? partsOf(parts) : [];
}

class Reader extends GeminiReplay {
  private result(part: JsonObject, failed: boolean): ToolResultBlock | undefined {
    const fr = obj(part, "functionResponse");
    return fr === undefined ? undefined : this.calls.answer(fr, "", failed);
  }

  /** Blocks into the open user message when it holds only results, else a new one. */
  private pushUser(blocks: Block[], record: JsonObject, joinResults: boolean): void {
    if (blocks.length === 0) return;
    const last = this.messages.at(-1);
    if (
      joinResults &&
      last?.role === "user" &&
      !last.content.some((b) => b.type !== "tool_result")
    ) {
      last.content.push(...blocks);
      this.ts(record.timestamp);
      return;
    }
    this.messages.push({
      role: "user",
      content: blockList(blocks),
      timestamp: this.ts(record.timestamp),
    });
  }

  user(record: JsonObject): void {
    const blocks: Block[] = [];
    for (const p of recordParts(record)) {
      if (isJsonObject(p.functionResponse)) {
        const b = this.result(p, false);
        if (b) blocks.push(b);
      } else if (typeof p.text === "string" && p.thought === undefined) {
        if (p.text !== "" && !isHookContext(p.text)) blocks.push({ type: "text", text: p.text });
      } else if (isJsonObject(p.inlineData)) blocks.push(imageBlock(p.inlineData));
      else {
        const b = placeholder(p);
        if (b) blocks.push(b);
      }
    }
    this.pushUser(blocks, record, false);
  }

  toolResult(record: JsonObject): void {
    const status = str(obj(record, "toolCallResult"), "status");
    const failed = status === "error" || status === "cancelled";
    const blocks = recordParts(record).flatMap((p) => this.result(p, failed) ?? []);
    this.pushUser(blocks, record, true);
  }

  assistant(record: JsonObject): void {
    const content: Block[] = [];
    recordParts(record).forEach((p, i) => {
      const fc = obj(p, "functionCall");
      if (fc !== undefined) {
        const id = nameOf(fc.id, `${str(record, "uuid") ?? ""}-call-${i}`);
        const name = nameOf(fc.name, "function");
        this.calls.called(id, name);
        content.push({
          type: "tool_use",
          id,
          tool: callToTool(name, fc.args === undefined ? {} : fc.args),
        });
      } else if (p.thought !== undefined && p.thought !== false) {
        if (typeof p.text === "string") content.push({ type: "thinking", text: p.text });
      } else if (typeof p.text === "string") {
        if (p.text !== "") content.push({ type: "text", text: p.text });
      } else {
        const b = placeholder(p);
        if (b) content.push(b);
      }
    });
    if (content.length === 0) return;
    this.messages.push(
      assistantMessage(blockList(content), this.ts(record.timestamp), {
        model: this.models.maybe(str(record, "model") || undefined),
        usage: usageFromCounts(record.usageMetadata, TOKEN_KEYS),
      }),
    );
  }
}

function chainMessages(chain: Iterable<QwenRecord>, start: Timestamp): Message[] {
  const reader = new Reader(SHELL, start);
  for (const r of chain) {
    switch (r.type) {
      case "user":
        reader.user(r.raw);
        break;
      case "assistant":
        reader.assistant(r.raw);
        break;
      case "tool_result":
        reader.toolResult(r.raw);
        break;
      case "system":
        break; // the CLI's bookkeeping, not conversation
      default:
        r.type satisfies never;
    }
  }
  return reader.messages;
}

function qwenToCommon(transcript: Transcript<QwenBody>): Transcript<Common> {
  const chain = activeChain(transcript.body.lines);
  return { meta: transcript.meta, body: chainMessages(chain, transcript.meta.timestamp) };
}

// ---------------------------------------------------------------------------
// Writing

/** Qwen Code session ids are UUIDs: a UUID is kept (lowercased), anything else is mapped to one. */
export function qwenSessionId(id: string): string {
  return isUuid(id) ? id.toLowerCase() : stableUuid("qwen-session", id);
}

const UNANSWERED = "[no result was recorded for this call]";

function iso(ts: Timestamp): string {
  return new Date(timestampMillis(ts)).toISOString();
}

function usageMetadata(usage: Usage): JsonObject {
  const cached = usage.cache_read_input_tokens ?? 0;
  const input = usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0);
  return {
    promptTokenCount: input,
    candidatesTokenCount: usage.output_tokens,
    thoughtsTokenCount: 0,
    totalTokenCount: input + usage.output_tokens,
    cachedContentTokenCount: cached,
  };
}

/**
 * A tool_result as a functionResponse `response`, shaped as Qwen Code (a fork of
 * Gemini CLI) shapes its own (`convertToFunctionResponse`): `{"output": <text>}`, or
 * `{"error": <text>}` for a failure; a JSON result goes as its JSON text
 * (docs/formats/qwen-code.md, "Writing").
 */
function responseFromCommon(block: ToolResultBlock): JsonObject {
  const text = resultText(block.content);
  return block.is_error ? { error: text } : { output: text };
}

/** Writes records a message at a time; `take` gives those made since the last take. */
class Writer {
  private made: JsonObject[] = [];
  /** Records made so far: what record ids count from. */
  private count = 0;
  private parent: string | null = null;

  constructor(
    private readonly id: string,
    private readonly cwd: string | undefined,
    /** Each call's result and the time of its message, so it can follow its call. */
    private readonly results: Map<string, { block: ToolResultBlock; at: Timestamp }>,
  ) {}

  push(type: string, at: Timestamp, fields: JsonObject): void {
    const uuid = stableUuid("qwen-record", this.id, this.count++);
    const record: JsonObject = {
      uuid,
      parentUuid: this.parent,
      sessionId: this.id,
      timestamp: iso(at),
      type,
    };
    assignDefined(record, "cwd", this.cwd);
    this.made.push({ ...record, ...fields });
    this.parent = uuid;
  }

  take(): JsonObject[] {
    const made = this.made;
    this.made = [];
    return made;
  }

  user(message: Message): void {
    const parts: Json[] = [];
    for (const b of message.content) {
      switch (b.type) {
        case "tool_result":
          break; // written right after its call (assistant)
        case "thinking":
          parts.push({ text: b.text });
          break;
        case "text":
        case "image":
        case "artifact":
          parts.push(userPart(b));
          break;
        case "tool_use": {
          const { name, args } = toolToCall(b.tool);
          parts.push({ text: `[tool call ${name}] ${JSON.stringify(args)}` });
          break;
        }
        default:
          b satisfies never;
      }
    }
    if (parts.length > 0)
      this.push("user", message.timestamp, { message: { role: "user", parts } });
  }

  assistant(message: Message): void {
    const parts: Json[] = [];
    const calls: [string, string][] = [];
    for (const b of message.content) {
      switch (b.type) {
        case "text":
          parts.push({ text: b.text });
          break;
        case "thinking":
          parts.push({ text: b.text, thought: true });
          break;
        case "tool_use": {
          const { name, args } = toolToCall(b.tool);
          parts.push({ functionCall: { id: b.id, name, args } });
          calls.push([b.id, name]);
          break;
        }
        case "tool_result":
          parts.push({ text: resultText(b.content) });
          break;
        case "image":
          parts.push({ text: "[Media]" });
          break;
        case "artifact":
          parts.push({ text: artifactText(b) });
          break;
        default:
          b satisfies never;
      }
    }
    if (parts.length === 0) return;
    const fields: JsonObject = { message: { role: "model", parts } };
    assignDefined(fields, "model", message.model);
    if (message.usage !== undefined) fields.usageMetadata = usageMetadata(message.usage);
    this.push("assistant", message.timestamp, fields);
    // Each result right after its call, as the CLI records them; an unanswered call gets an error.
    for (const [id, name] of calls) {
      const r = this.results.get(id);
      const response = r === undefined ? { error: UNANSWERED } : responseFromCommon(r.block);
      const failed = r === undefined || r.block.is_error === true;
      this.push("tool_result", r?.at ?? message.timestamp, {
        message: { role: "user", parts: [{ functionResponse: { id, name, response } }] },
        toolCallResult: { callId: id, status: failed ? "error" : "success" },
      });
    }
  }
}

/** The lines are made as they are walked (`Lines.generated`): a save writes each as it is made. */
function qwenFromCommon(transcript: Transcript<Common>): Transcript<QwenBody> {
  const id = qwenSessionId(transcript.meta.id);
  const meta: Meta = { ...transcript.meta, id };
  const results = new Map<string, { block: ToolResultBlock; at: Timestamp }>();
  for (const m of transcript.body) {
    for (const b of m.content) {
      if (b.type === "tool_result" && !results.has(b.tool_use_id))
        results.set(b.tool_use_id, { block: b, at: m.timestamp });
    }
  }
  return {
    meta,
    body: { lines: Lines.generated(() => qwenLines(meta, transcript.body, results)) },
  };
}

/** The session's lines, made a message at a time by a fresh writer: the same on every walk. */
function* qwenLines(
  meta: Meta,
  body: Common,
  results: Map<string, { block: ToolResultBlock; at: Timestamp }>,
): Generator<VerbatimLine> {
  const writer = new Writer(meta.id, meta.cwd, results);
  // A title is what the CLI's /rename records; its time keeps the session's start.
  const title = meta.title;
  if (title !== undefined && title !== "") {
    writer.push("system", meta.timestamp, {
      subtype: "custom_title",
      systemPayload: { customTitle: title },
    });
  }
  for (const message of body) {
    if (message.role === "user") writer.user(message);
    else writer.assistant(message);
    for (const record of writer.take()) yield recordLine(record);
  }
  for (const record of writer.take()) yield recordLine(record);
}

export const qwenCodec: Codec<QwenBody> = {
  toCommon: qwenToCommon,
  fromCommon: qwenFromCommon,
};
