/**
 * Claude Code -> Common (the codec's `toCommon`): resolves the live branch
 * of the `parentUuid` chain, merges the lines one API response was split
 * into, and maps slash-command records to `/command` tools. Pure; codec.ts
 * pairs it with the writer.
 */

import {
  type Artifact,
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  STOP_REASONS,
  type StopReason,
  type Tool,
  type ToolResultBlock,
  toolFromCanonical,
  type Usage,
} from "../../common.js";
import { stableUuid } from "../../ids.js";
import { assignDefined, exactArray } from "../../json.js";
import { normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { type ClaudeCodeBody, type Lines, lineType, recordAt } from "./body.js";
import { readMarkup } from "./markup.js";

/** Line flags the live-branch walk reads (one byte a line). */
const RECORD = 1; // a JSON object
const UUID = 2; // with a string uuid
const CONVERSATION = 4; // a user or assistant line off any sidechain
const ASSISTANT = 8;
const USER = 16;
const DUPLICATE = 32; // its uuid was taken by an earlier line

/** What a line's content says of tool calls: the ids it calls and answers. */
interface ToolIds {
  calls: string[];
  answers: string[];
  /** Non-empty content whose every block answers a call by a string id. */
  allAnswers: boolean;
}

/**
 * The few fields of every line the walk needs, read in one pass that keeps
 * no record: flags, the resolved parent, assistant response ids and tool ids.
 */
interface Skeleton {
  flags: Uint8Array;
  /** The index of line i's parent (parentUuid, else logicalParentUuid), or -1. */
  parent: Int32Array;
  responses: Map<number, string>;
  tools: Map<number, ToolIds>;
}

function toolIds(content: Json | undefined): ToolIds | undefined {
  if (!Array.isArray(content)) return undefined;
  const ids: ToolIds = { calls: [], answers: [], allAnswers: content.length > 0 };
  for (const b of content) {
    const answer =
      isJsonObject(b) && b.type === "tool_result" && typeof b.tool_use_id === "string"
        ? b.tool_use_id
        : undefined;
    if (answer === undefined) ids.allAnswers = false;
    else ids.answers.push(answer);
    if (isJsonObject(b) && b.type === "tool_use" && typeof b.id === "string") ids.calls.push(b.id);
  }
  return ids.calls.length > 0 || ids.answers.length > 0 ? ids : undefined;
}

function skeleton(lines: Lines): Skeleton {
  const n = lines.length;
  const sk: Skeleton = {
    flags: new Uint8Array(n),
    parent: new Int32Array(n).fill(-1),
    responses: new Map(),
    tools: new Map(),
  };
  const byUuid = new Map<string, number>();
  // Parents named before their line is reached, resolved once every uuid is known.
  const later = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const record = recordAt(lines, i);
    if (record === undefined) continue;
    const type = lineType(record);
    let flags = RECORD;
    if (type === "assistant") flags |= ASSISTANT;
    if (type === "user") flags |= USER;
    if ((type === "user" || type === "assistant") && record.isSidechain !== true)
      flags |= CONVERSATION;
    const uuid = str(record, "uuid");
    if (uuid !== undefined) {
      flags |= UUID;
      if (byUuid.has(uuid)) flags |= DUPLICATE;
      else byUuid.set(uuid, i);
    }
    sk.flags[i] = flags;
    const parent = str(record, "parentUuid") ?? str(record, "logicalParentUuid");
    if (parent !== undefined) {
      const at = byUuid.get(parent);
      if (at !== undefined) sk.parent[i] = at;
      else later.set(i, parent);
    }
    const message = obj(record, "message");
    const id = str(message, "id");
    if (id !== undefined) sk.responses.set(i, id);
    const tools = toolIds(message?.content);
    if (tools !== undefined) sk.tools.set(i, tools);
  }
  for (const [i, parent] of later) sk.parent[i] = byUuid.get(parent) ?? -1;
  return sk;
}

/** Indices of the lines that make up the conversation, in file order. */
function liveLines(lines: Lines): number[] {
  const { flags, parent, responses, tools } = skeleton(lines);
  const n = flags.length;
  const has = (i: number, flag: number) => ((flags[i] ?? 0) & flag) !== 0;
  // A compaction boundary starts a fresh chain (parentUuid null) but names
  // the line it continues in logicalParentUuid: follow it, so the history
  // before a /compact stays part of the session.
  const parentOf = (i: number): number | undefined => {
    const p = parent[i] ?? -1;
    return p === -1 ? undefined : p;
  };

  // The live branch: walk back from the last conversation line.
  let leaf = -1;
  for (let i = n - 1; i >= 0; i--) {
    if (has(i, UUID) && has(i, CONVERSATION) && !has(i, DUPLICATE)) {
      leaf = i;
      break;
    }
  }
  const onChain = new Set<number>();
  for (let i: number | undefined = leaf; i !== undefined && i >= 0 && !onChain.has(i); ) {
    onChain.add(i);
    i = parentOf(i);
  }

  // A line off the chain is on a dead branch when its ancestry meets the
  // chain before the leaf (a fork: a rewind, an edited prompt). Lines whose
  // ancestry never meets the chain (a broken parent link) or meets it at the
  // leaf (bookkeeping appended after the last turn) are kept.
  const dead = new Map<number, boolean>();
  const isDead = (start: number): boolean => {
    const path: number[] = [];
    const seen = new Set<number>();
    let verdict = false;
    for (let i: number | undefined = start; ; ) {
      if (i === undefined || seen.has(i)) break;
      const known = dead.get(i);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      if (onChain.has(i)) {
        verdict = i !== leaf && i !== start;
        break;
      }
      seen.add(i);
      path.push(i);
      i = parentOf(i);
    }
    for (const i of path) dead.set(i, verdict);
    return verdict;
  };

  const keep = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!has(i, RECORD) || has(i, DUPLICATE)) continue;
    if (!has(i, UUID) || onChain.has(i) || !isDead(i)) keep[i] = 1;
  }

  // Parallel tool calls can leave sibling branches that are not dead: each
  // result may hang off its own call's line, and the lines of one split
  // response off each other. Rescue those: a response already on the live
  // branch, and results that answer live calls nothing kept answers.
  const liveResponses = new Set<string>();
  const liveCalls = new Set<string>();
  const answered = new Set<string>();
  const note = (i: number) => {
    if (has(i, ASSISTANT)) {
      const id = responses.get(i);
      if (id !== undefined) liveResponses.add(id);
    }
    const t = tools.get(i);
    if (t === undefined) return;
    for (const id of t.calls) liveCalls.add(id);
    for (const id of t.answers) answered.add(id);
  };
  for (let i = 0; i < n; i++) if (keep[i] === 1) note(i);
  const offBranch = (i: number) => keep[i] !== 1 && has(i, RECORD) && !has(i, DUPLICATE);
  for (let i = 0; i < n; i++) {
    const id = responses.get(i);
    if (offBranch(i) && has(i, ASSISTANT) && id !== undefined && liveResponses.has(id)) {
      keep[i] = 1;
      note(i);
    }
  }
  for (let i = 0; i < n; i++) {
    if (!offBranch(i) || !has(i, USER)) continue;
    const t = tools.get(i);
    if (t === undefined || !t.allAnswers) continue;
    if (t.answers.every((id) => liveCalls.has(id) && !answered.has(id))) {
      keep[i] = 1;
      note(i);
    }
  }

  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i] === 1) out.push(i);
  return out;
}

/**
 * Claude Code's `Bash.timeout` is Common's `timeout_ms`; everything else keeps
 * Claude's keys. Other writers emit a Claude `Bash` with Common's own keys
 * (`workdir`, `timeout_ms`): an input whose every key fits the canonical Bash
 * reads as Bash; one naming both timeouts is ambiguous and stays Raw.
 */
function toolFromClaude(name: string, input: Json): Tool {
  if (name.startsWith("/")) return { name: "Raw", tool_name: name, input };
  if (name === "Bash") {
    if (!isJsonObject(input) || ("timeout_ms" in input && "timeout" in input)) {
      return { name: "Raw", tool_name: name, input };
    }
    const renamed: JsonObject = {};
    for (const [key, value] of Object.entries(input)) {
      Object.defineProperty(renamed, key === "timeout" ? "timeout_ms" : key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const tool = toolFromCanonical(name, renamed);
    return tool.name === "Bash" ? tool : { name: "Raw", tool_name: name, input };
  }
  return toolFromCanonical(name, input);
}

function readStopReason(value: Json | undefined): StopReason | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return STOP_REASONS.find((r) => r === value) ?? { other: value };
}

function count(value: Json | undefined): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function readUsage(value: Json | undefined): Usage | undefined {
  if (value === undefined || !isJsonObject(value)) return undefined;
  const input = count(value.input_tokens);
  const output = count(value.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  const usage: Usage = { input_tokens: input, output_tokens: output };
  const read = count(value.cache_read_input_tokens);
  const created = count(value.cache_creation_input_tokens);
  assignDefined(usage, "cache_read_input_tokens", read);
  assignDefined(usage, "cache_creation_input_tokens", created);
  return usage;
}

interface BlockContext {
  sessionId: string;
  line: number;
}

/** One Anthropic content block; undefined for blocks Common cannot hold. */
function readBlock(b: Json, at: BlockContext, index: number): Block | undefined {
  if (!isJsonObject(b)) return undefined;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? { type: "text", text: b.text } : undefined;
    case "thinking": {
      if (typeof b.thinking !== "string") return undefined;
      const block: Block = { type: "thinking", text: b.thinking };
      if (typeof b.signature === "string" && b.signature !== "") block.signature = b.signature;
      return block;
    }
    case "tool_use": {
      if (typeof b.id !== "string" || typeof b.name !== "string" || b.name === "") return undefined;
      return { type: "tool_use", id: b.id, tool: toolFromClaude(b.name, b.input ?? {}) };
    }
    case "tool_result": {
      if (typeof b.tool_use_id !== "string") return undefined;
      const block: ToolResultBlock = {
        type: "tool_result",
        tool_use_id: b.tool_use_id,
        content: b.content === undefined ? "" : b.content,
      };
      if (b.is_error === true) block.is_error = true;
      return block;
    }
    case "image": {
      const src = b.source;
      if (src === undefined || !isJsonObject(src)) return undefined;
      if (src.type === "base64" && typeof src.data === "string") {
        const media = typeof src.media_type === "string" ? src.media_type : "";
        return { type: "image", source: { type: "base64", media_type: media, data: src.data } };
      }
      if (src.type === "url" && typeof src.url === "string") {
        return { type: "image", source: { type: "url", media_type: "", data: src.url } };
      }
      return undefined;
    }
    case "document": {
      // Inline documents only: a url source has nothing Common can hold.
      const src = b.source;
      if (src === undefined || !isJsonObject(src) || typeof src.data !== "string") return undefined;
      if (src.type !== "text" && src.type !== "base64") return undefined;
      const artifact: Artifact = {
        id: stableUuid("claude_code", at.sessionId, "document", at.line, index),
        name: typeof b.title === "string" && b.title !== "" ? b.title : "document",
        source:
          src.type === "text"
            ? { type: "text", text: src.data }
            : { type: "base64", data: src.data },
      };
      if (typeof src.media_type === "string") artifact.source.media_type = src.media_type;
      return { type: "artifact", artifact };
    }
    default:
      // redacted_thinking, server tool blocks, citations...: nothing in Common holds them.
      return undefined;
  }
}

function readContent(content: Json | undefined, at: BlockContext): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  content.forEach((b, i) => {
    const block = readBlock(b, at, i);
    if (block !== undefined) out.push(block);
  });
  return exactArray(out);
}

/** The text of a user/system line when it is one string (or one text block). */
function soleText(content: Json | undefined): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length === 1) {
    const b = content[0];
    if (b !== undefined && isJsonObject(b) && b.type === "text" && typeof b.text === "string") {
      return b.text;
    }
  }
  return undefined;
}

export function claudeToCommon(transcript: Transcript<ClaudeCodeBody>): Transcript<Common> {
  const { meta } = transcript;
  const lines = transcript.body.lines;
  const messages: Message[] = [];
  let previousTs: Timestamp = meta.timestamp;

  // The assistant message split lines merge into, while only tool results follow it.
  let open: { index: number; id: string } | undefined;
  const seenResponses = new Set<string>();
  // Slash commands awaiting their output, by tool id; and line uuid -> tool id.
  const pendingCommands: string[] = [];
  const commandByLine = new Map<string, string>();

  const timestampOf = (record: JsonObject): Timestamp => {
    const raw = str(record, "timestamp");
    const ts = raw === undefined ? undefined : normalizeTimestamp(raw);
    if (ts !== undefined) previousTs = ts;
    return ts ?? previousTs;
  };
  const push = (message: Message, resultsOnly: boolean) => {
    messages.push(message);
    if (!resultsOnly) open = undefined;
  };

  /** A command or its output; true when the text was markup and has been handled. */
  const markup = (text: string, record: JsonObject, i: number): boolean => {
    const m = readMarkup(text);
    if (m === undefined) return false;
    switch (m.kind) {
      case "caveat":
        return true;
      case "command": {
        const id = str(record, "uuid") ?? stableUuid("claude_code", meta.id, "command", i);
        const tool: Tool =
          m.command.args === undefined
            ? { name: "Command", command: m.command.name }
            : { name: "Command", command: m.command.name, args: m.command.args };
        pendingCommands.push(id);
        const uuid = str(record, "uuid");
        if (uuid !== undefined) commandByLine.set(uuid, id);
        push(
          {
            role: "user",
            content: [{ type: "tool_use", id, tool }],
            timestamp: timestampOf(record),
          },
          false,
        );
        return true;
      }
      case "output": {
        const parent = str(record, "parentUuid");
        const byParent = parent === undefined ? undefined : commandByLine.get(parent);
        const id =
          byParent !== undefined && pendingCommands.includes(byParent)
            ? byParent
            : pendingCommands[pendingCommands.length - 1];
        if (id === undefined) return false; // output of nothing we know: keep it as text
        pendingCommands.splice(pendingCommands.indexOf(id), 1);
        const result: ToolResultBlock = { type: "tool_result", tool_use_id: id, content: m.text };
        if (m.isError) result.is_error = true;
        push({ role: "user", content: [result], timestamp: timestampOf(record) }, false);
        return true;
      }
      default:
        return m satisfies never;
    }
  };

  for (const i of liveLines(lines)) {
    const record = recordAt(lines, i);
    if (record === undefined) continue;
    const type = lineType(record);
    const at: BlockContext = { sessionId: meta.id, line: i };
    if (type === "system") {
      const content = record.content;
      if (str(record, "subtype") === "local_command" && typeof content === "string") {
        markup(content, record, i);
      }
      continue;
    }
    if ((type !== "user" && type !== "assistant") || record.isSidechain === true) continue;
    const message = obj(record, "message");
    if (message === undefined) continue;
    if (type === "user") {
      const text = soleText(message.content);
      if (text !== undefined && markup(text, record, i)) continue;
      const content = readContent(message.content, at);
      if (content.length === 0) continue;
      const resultsOnly = content.every((b) => b.type === "tool_result");
      push({ role: "user", content, timestamp: timestampOf(record) }, resultsOnly);
      continue;
    }

    // An assistant line: one block of one API response, or all of it.
    const content = readContent(message.content, at);
    const responseId = str(message, "id");
    const usage = readUsage(message.usage);
    const stop = readStopReason(message.stop_reason);
    const target = open !== undefined && open.id === responseId ? messages[open.index] : undefined;
    if (target !== undefined) {
      target.content = target.content.concat(content);
      // Each split line repeats the response's usage: the last copy is the final count.
      assignDefined(target, "usage", usage);
      assignDefined(target, "stop_reason", stop);
      timestampOf(record);
      continue;
    }
    if (content.length === 0) continue;
    const out: Message = { role: "assistant", content, timestamp: timestampOf(record) };
    const model = str(message, "model");
    if (model !== undefined && model !== "") out.model = model;
    assignDefined(out, "stop_reason", stop);
    // A response id seen before (its lines interrupted by a prompt) had its usage counted.
    if (usage !== undefined && (responseId === undefined || !seenResponses.has(responseId))) {
      out.usage = usage;
    }
    messages.push(out);
    open = responseId === undefined ? undefined : { index: messages.length - 1, id: responseId };
    if (responseId !== undefined) seenResponses.add(responseId);
  }
  return { meta, body: messages };
}
