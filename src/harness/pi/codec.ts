/**
 * pi Body <-> Common. Pure. The active branch's messages become Common
 * messages one for one (`commonEntries` in body.ts picks them): a user
 * message (text, images), an assistant message (text, thinking, tool calls,
 * its model, usage and stop reason), a tool result (a user message holding
 * one `tool_result`), and a `!command` the user ran (a user message with
 * pi's own text for it, `bashExecutionToText`). Abandoned branches,
 * compactions, branch summaries, labels and extension entries stay in the
 * Body. fromCommon writes a linear version 3 file, deterministic: entry ids
 * from UUIDv5 over the session id and the entry's place.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type StopReason,
  type Usage,
} from "../../common.js";
import { stableUuid } from "../../ids.js";
import { exactArray } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { promptTitle } from "../../strings.js";
import { type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { base64Image, str } from "../shared/fields.js";
import { blockText, resultText } from "../shared/results.js";
import { assistantMessage, blockList, Repeats } from "../shared/slim.js";
import { branchOf, commonEntries, commonMessage, type PiBody, SESSION_VERSION } from "./body.js";
import { piMeta, piTime } from "./meta.js";
import { toolFromPi, toolToPi } from "./tools.js";

const STOP_FROM_PI: Record<string, StopReason> = {
  stop: "end_turn",
  toolUse: "tool_use",
  length: "max_tokens",
  error: "error",
  aborted: "aborted",
};

function count(v: Json | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

function usageOf(value: Json | undefined): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  const usage: Usage = { input_tokens: count(value.input), output_tokens: count(value.output) };
  // fromCommon writes zeros where the source had no usage; all zeros read as none.
  if (
    usage.input_tokens + usage.output_tokens + count(value.cacheRead) + count(value.cacheWrite) ===
    0
  )
    return undefined;
  if (count(value.cacheRead) > 0) usage.cache_read_input_tokens = count(value.cacheRead);
  if (count(value.cacheWrite) > 0) usage.cache_creation_input_tokens = count(value.cacheWrite);
  return usage;
}

/** User or tool-result content items: text and images; other kinds are left out. */
function userBlocks(content: Json | undefined): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const i of content) {
    if (!isJsonObject(i)) continue;
    if (i.type === "text") blocks.push({ type: "text", text: str(i, "text") ?? "" });
    else if (i.type === "image") blocks.push(base64Image(i, "mimeType"));
  }
  return blockList(blocks);
}

function assistantBlock(item: Json): Block | undefined {
  if (!isJsonObject(item)) return undefined;
  switch (item.type) {
    case "text":
      return { type: "text", text: str(item, "text") ?? "" };
    case "thinking": {
      const signature = str(item, "thinkingSignature");
      if (item.redacted === true) return { type: "thinking", text: "", encrypted: signature ?? "" };
      const block: Block = { type: "thinking", text: str(item, "thinking") ?? "" };
      if (signature) block.signature = signature;
      return block;
    }
    case "toolCall":
      return {
        type: "tool_use",
        id: str(item, "id") ?? "",
        tool: toolFromPi(str(item, "name") ?? "", item.arguments ?? {}),
      };
    case "image":
      return base64Image(item, "mimeType");
    default:
      return undefined;
  }
}

/** pi's `bashExecutionToText`: what the model is shown of a command the user ran. */
function bashText(m: JsonObject): string {
  let text = `Ran \`${str(m, "command") ?? ""}\`\n`;
  const output = str(m, "output");
  text += output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)";
  if (m.cancelled === true) text += "\n\n(command cancelled)";
  else if (typeof m.exitCode === "number" && m.exitCode !== 0)
    text += `\n\nCommand exited with code ${m.exitCode}`;
  const full = str(m, "fullOutputPath");
  if (m.truncated === true && full) text += `\n\n[Output truncated. Full output: ${full}]`;
  return text;
}

/**
 * What a reader shares between the messages it builds: the last time (its
 * text as the entry had it and its normal form) and the last model name.
 */
class Shared {
  readonly models = new Repeats();
  private raw: Json | undefined;
  private normal: Timestamp | undefined;

  /** An entry's time (see piTime), the one before held once when it repeats. */
  time(value: Json | undefined): Timestamp | undefined {
    if (value === undefined || value !== this.raw) {
      this.raw = value;
      this.normal = piTime(value);
    }
    return this.normal;
  }
}

function messageOf(entry: JsonObject, previous: Timestamp, shared: Shared): Message | undefined {
  const picked = commonMessage(entry);
  if (picked === undefined) return undefined;
  const { message: m, role } = picked;
  const timestamp = shared.time(entry.timestamp) ?? piTime(m.timestamp) ?? previous;
  switch (role) {
    case "user":
      return { role: "user", content: userBlocks(m.content), timestamp };
    case "bashExecution":
      return { role: "user", content: [{ type: "text", text: bashText(m) }], timestamp };
    case "toolResult": {
      const blocks = userBlocks(m.content);
      const content: Json = blocks.every((b) => b.type === "text")
        ? blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n")
        : Array.isArray(m.content)
          ? m.content
          : [];
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(m, "toolCallId") ?? "",
        content,
      };
      if (m.isError === true) block.is_error = true;
      return { role: "user", content: [block], timestamp };
    }
    case "assistant": {
      const content = Array.isArray(m.content)
        ? blockList(m.content.flatMap((i) => assistantBlock(i) ?? []))
        : userBlocks(m.content);
      const reason = str(m, "stopReason");
      return assistantMessage(content, timestamp, {
        model: shared.models.maybe(str(m, "model") || undefined),
        stop_reason: reason === undefined ? undefined : (STOP_FROM_PI[reason] ?? { other: reason }),
        usage: usageOf(m.usage),
      });
    }
    default:
      return role satisfies never;
  }
}

function toCommon(t: Transcript<PiBody>): Transcript<Common> {
  // One pass over the lines finds the branch and the name; the walk below parses the branch again.
  const branch = branchOf(t.body.lines);
  const meta = piMeta(t.body.lines, t.meta.id, branch);
  const body: Message[] = [];
  let previous = meta.timestamp;
  const shared = new Shared();
  for (const group of commonEntries(branch)) {
    const parts = group.flatMap((entry) => {
      const message = messageOf(entry, previous, shared);
      return message === undefined ? [] : [message];
    });
    const [first] = parts;
    if (first === undefined) continue;
    // A group of tool results is one user message: every result, the first one's time.
    const message =
      parts.length === 1
        ? first
        : { ...first, content: exactArray(parts.flatMap((p) => p.content)) };
    previous = message.timestamp;
    body.push(message);
  }
  return { meta: { ...t.meta, ...meta }, body };
}

// ---------------------------------------------------------------------------
// Common -> pi

const STOP_TO_PI: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  error: "error",
  aborted: "aborted",
};

function stopToPi(m: Message): string {
  const reason = m.stop_reason;
  if (reason === undefined)
    return m.content.some((b) => b.type === "tool_use") ? "toolUse" : "stop";
  return typeof reason === "string" ? (STOP_TO_PI[reason] ?? "stop") : "stop";
}

function usageToPi(usage: Usage | undefined): JsonObject {
  const input = usage?.input_tokens ?? 0;
  const output = usage?.output_tokens ?? 0;
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** A block pi's user and tool-result content cannot hold, as text. */
function asText(block: Block): string {
  return blockText(block, (tool) => JSON.stringify(toolToPi(tool)));
}

function userItem(block: Block): JsonObject {
  return block.type === "image"
    ? { type: "image", data: block.source.data, mimeType: block.source.media_type }
    : { type: "text", text: asText(block) };
}

function assistantItem(block: Block): JsonObject {
  switch (block.type) {
    case "thinking":
      if (block.text === "" && block.encrypted !== undefined)
        return {
          type: "thinking",
          thinking: "",
          thinkingSignature: block.encrypted,
          redacted: true,
        };
      return block.signature !== undefined
        ? { type: "thinking", thinking: block.text, thinkingSignature: block.signature }
        : { type: "thinking", thinking: block.text };
    case "tool_use": {
      const { name, arguments: args } = toolToPi(block.tool);
      return { type: "toolCall", id: block.id, name, arguments: args };
    }
    default:
      return { type: "text", text: asText(block) };
  }
}

/** The lines are made as they are walked (`Lines.generated`): a save writes each as it is made. */
function fromCommon(t: Transcript<Common>): Transcript<PiBody> {
  return { meta: t.meta, body: { lines: Lines.generated(() => piLines(t)) } };
}

/** The session's lines, made a message at a time: the same on every walk. */
function* piLines(t: Transcript<Common>): Generator<VerbatimLine> {
  const id = t.meta.id;
  const used = new Set<string>();
  const entryId = (n: number): string => {
    const full = stableUuid("pi-entry", id, n);
    const short = full.replaceAll("-", "").slice(0, 8);
    const chosen = used.has(short) ? full : short;
    used.add(chosen);
    return chosen;
  };
  const header: JsonObject = {
    type: "session",
    version: SESSION_VERSION,
    id,
    timestamp: new Date(timestampMillis(t.meta.timestamp)).toISOString(),
    cwd: t.meta.cwd ?? "",
  };
  /** Entries made and not yet written, and how many were made in all (entry ids count them). */
  let made: JsonObject[] = [header];
  let count = 1;
  const take = (): VerbatimLine[] => {
    const lines = made.map((r): VerbatimLine => ({ text: JSON.stringify(r), eol: "\n" }));
    made = [];
    return lines;
  };
  const toolNames = new Map<string, string>();
  let parent: string | null = null;
  const push = (message: JsonObject, ts: Timestamp) => {
    const eid = entryId(count++);
    const ms = timestampMillis(ts);
    made.push({
      type: "message",
      id: eid,
      parentId: parent,
      timestamp: new Date(ms).toISOString(),
      message: { ...message, timestamp: ms },
    });
    parent = eid;
  };
  // A title travels as pi's own session name, unless it is what pi shows anyway (the first prompt).
  const prompt = promptTitle(t.body);
  // pi trims a name and reads an empty one as none.
  const name = t.meta.title?.trim() || undefined;
  if (name !== undefined && name !== prompt) {
    const eid = entryId(count++);
    made.push({
      type: "session_info",
      id: eid,
      parentId: null,
      timestamp: header.timestamp ?? null,
      name,
    });
    parent = eid;
  }
  yield* take();
  for (const m of t.body) {
    yield* take();
    if (m.role === "assistant") {
      for (const b of m.content)
        if (b.type === "tool_use") toolNames.set(b.id, toolToPi(b.tool).name);
      push(
        {
          role: "assistant",
          content: m.content.map(assistantItem),
          api: "txcript",
          provider: "txcript",
          model: m.model ?? t.meta.model ?? "unknown",
          usage: usageToPi(m.usage),
          stopReason: stopToPi(m),
        },
        m.timestamp,
      );
      continue;
    }
    // A user message: runs of tool results become toolResult messages, the rest user messages.
    let pending: Block[] = [];
    const flush = () => {
      if (pending.length > 0) push({ role: "user", content: pending.map(userItem) }, m.timestamp);
      pending = [];
    };
    for (const b of m.content) {
      if (b.type !== "tool_result") {
        pending.push(b);
        continue;
      }
      flush();
      const content =
        typeof b.content === "string"
          ? [{ type: "text", text: b.content }]
          : [{ type: "text", text: resultText(b.content) }];
      push(
        {
          role: "toolResult",
          toolCallId: b.tool_use_id,
          toolName: toolNames.get(b.tool_use_id) ?? "",
          content,
          isError: b.is_error === true,
        },
        m.timestamp,
      );
    }
    flush();
  }
  yield* take();
}

export const piCodec: Codec<PiBody> = { toCommon, fromCommon };
