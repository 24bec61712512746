/**
 * Claude Code <-> Common. Reading resolves the live branch of the
 * `parentUuid` chain, merges the lines one API response was split into,
 * and maps slash-command records to `/command` tools. Writing produces what
 * `claude --resume <id>` accepts (see docs/formats/claude-code.md, "Writing").
 */

import { quote } from "shell-quote";
import {
  type Artifact,
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  STOP_REASONS,
  type StopReason,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
  toolFromCanonical,
  toolToCanonical,
  type Usage,
} from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { isUuid, stableUuid } from "../../ids.js";
import { normalizeTimestamp, type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { type ClaudeCodeBody, type ClaudeLine, lineType, recordLine } from "./body.js";
import { commandMarkup, outputMarkup, readMarkup } from "./markup.js";
import { readMeta } from "./text.js";

// ---------------------------------------------------------------------------
// Reading: Claude Code -> Common

/** Indices of the lines that make up the conversation, in file order. */
export function liveLines(lines: readonly ClaudeLine[]): number[] {
  const byUuid = new Map<string, number>();
  const duplicate = new Set<number>();
  lines.forEach(({ record }, i) => {
    const uuid = str(record, "uuid");
    if (uuid === undefined) return;
    if (byUuid.has(uuid)) duplicate.add(i);
    else byUuid.set(uuid, i);
  });
  // A compaction boundary starts a fresh chain (parentUuid null) but names
  // the line it continues in logicalParentUuid: follow it, so the history
  // before a /compact stays part of the session.
  const parentOf = (i: number): number | undefined => {
    const record = lines[i]?.record;
    const parent = str(record, "parentUuid") ?? str(record, "logicalParentUuid");
    return parent === undefined ? undefined : byUuid.get(parent);
  };
  const isConversation = (i: number): boolean => {
    const record = lines[i]?.record;
    const type = lineType(record);
    return (type === "user" || type === "assistant") && record?.isSidechain !== true;
  };

  // The live branch: walk back from the last conversation line.
  let leaf = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (str(lines[i]?.record, "uuid") !== undefined && isConversation(i) && !duplicate.has(i)) {
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

  const keep: boolean[] = lines.map(({ record }, i) => {
    if (record === undefined || duplicate.has(i)) return false;
    return str(record, "uuid") === undefined || onChain.has(i) || !isDead(i);
  });

  // Parallel tool calls can leave sibling branches that are not dead: each
  // result may hang off its own call's line, and the lines of one split
  // response off each other. Rescue those: a response already on the live
  // branch, and results that answer live calls nothing kept answers.
  const liveResponses = new Set<string>();
  const liveCalls = new Set<string>();
  const answered = new Set<string>();
  const note = (i: number) => {
    const message = obj(lines[i]?.record, "message");
    const content = message?.content;
    if (lineType(lines[i]?.record) === "assistant") {
      const id = str(message, "id");
      if (id !== undefined) liveResponses.add(id);
    }
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isJsonObject(b)) continue;
      if (b.type === "tool_use" && typeof b.id === "string") liveCalls.add(b.id);
      if (b.type === "tool_result" && typeof b.tool_use_id === "string")
        answered.add(b.tool_use_id);
    }
  };
  keep.forEach((k, i) => {
    if (k) note(i);
  });
  const offBranch = (i: number) => !keep[i] && lines[i]?.record !== undefined && !duplicate.has(i);
  lines.forEach(({ record }, i) => {
    const id = str(obj(record, "message"), "id");
    if (
      offBranch(i) &&
      lineType(record) === "assistant" &&
      id !== undefined &&
      liveResponses.has(id)
    ) {
      keep[i] = true;
      note(i);
    }
  });
  lines.forEach(({ record }, i) => {
    if (!offBranch(i) || lineType(record) !== "user") return;
    const content = obj(record, "message")?.content;
    if (!Array.isArray(content) || content.length === 0) return;
    const ids = content.map((b) =>
      isJsonObject(b) && b.type === "tool_result" && typeof b.tool_use_id === "string"
        ? b.tool_use_id
        : undefined,
    );
    if (ids.every((id) => id !== undefined && liveCalls.has(id) && !answered.has(id))) {
      keep[i] = true;
      note(i);
    }
  });

  const out: number[] = [];
  keep.forEach((k, i) => {
    if (k) out.push(i);
  });
  return out;
}

/**
 * Claude Code's `Bash.timeout` is Common's `timeout_ms`; everything else keeps
 * Claude's keys. Other writers emit a Claude `Bash` with Common's own keys
 * (`workdir`, `timeout_ms`): an input whose every key fits the canonical Bash
 * reads as Bash; one naming both timeouts is ambiguous and stays Raw.
 */
export function toolFromClaude(name: string, input: Json): Tool {
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
  if (read !== undefined) usage.cache_read_input_tokens = read;
  if (created !== undefined) usage.cache_creation_input_tokens = created;
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
  return out;
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
    const record = lines[i]?.record;
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
      target.content.push(...content);
      // Each split line repeats the response's usage: the last copy is the final count.
      if (usage !== undefined) target.usage = usage;
      if (stop !== undefined) target.stop_reason = stop;
      timestampOf(record);
      continue;
    }
    if (content.length === 0) continue;
    const out: Message = { role: "assistant", content, timestamp: timestampOf(record) };
    const model = str(message, "model");
    if (model !== undefined && model !== "") out.model = model;
    if (stop !== undefined) out.stop_reason = stop;
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

// ---------------------------------------------------------------------------
// Writing: Common -> Claude Code

/** The Claude Code release whose line format the writer follows; written as each line's `version`. */
export const WRITER_VERSION = "2.1.200";

/** The Messages API's pattern for tool_use ids. */
const TOOL_ID_RE = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME_RE = /^[a-zA-Z0-9_-]{1,128}$/;

/** The session id a Common transcript is written under: its own when it is a UUID. */
export function claudeSessionId(id: string): string {
  // Claude Code names files by lowercase UUIDs; any other id gets one derived from it.
  return isUuid(id) && id === id.toLowerCase() ? id : stableUuid("claude_code", "session", id);
}

/**
 * A thinking block may be replayed only with the signature Anthropic gave it.
 * The model must be known to be Claude: a turn whose model was lost on the
 * way (agy writes only numeric models) may carry another vendor's signature,
 * and a foreign signature fails the whole resume.
 */
function replayableThinking(block: Block, model: string | undefined): boolean {
  return (
    block.type === "thinking" &&
    block.signature !== undefined &&
    block.signature !== "" &&
    block.encrypted === undefined &&
    model !== undefined &&
    /claude/i.test(model)
  );
}

/** Milliseconds, as Claude Code writes them. */
function claudeTimestamp(ts: Timestamp): string {
  return new Date(timestampMillis(ts)).toISOString();
}

function jsonText(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const RESULT_BLOCK_TYPES = new Set([
  "text",
  "image",
  "document",
  "search_result",
  "tool_reference",
  "browser_state",
]);

/** tool_result content as Claude Code loads it: a string or Anthropic blocks, never a bare value. */
function resultContent(content: Json): Json {
  if (typeof content === "string") return content;
  if (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every(
      (b) =>
        isJsonObject(b) &&
        typeof b.type === "string" &&
        RESULT_BLOCK_TYPES.has(b.type) &&
        (b.type !== "text" || (typeof b.text === "string" && b.text.trim() !== "")),
    )
  ) {
    return content;
  }
  return JSON.stringify(content);
}

interface Slot {
  message: number;
  block: ToolResultBlock;
  consumed: boolean;
}

class Writer {
  readonly lines: ClaudeLine[] = [];
  private parent: string | null = null;
  private toolIds = new Map<string, string[]>(); // original id -> written ids, by occurrence
  private usedToolIds = new Set<string>();
  private slots = new Map<string, Slot[]>();
  private pendingToolUses = new Set<string>(); // tool_use ids not written yet
  private lastConversationUuid: string | undefined;
  private lastPrompt = "";

  constructor(
    private readonly meta: Meta,
    private readonly sessionId: string,
    private readonly body: Common,
  ) {
    body.forEach((m, mi) => {
      for (const b of m.content) {
        if (b.type === "tool_result") {
          const list = this.slots.get(b.tool_use_id) ?? [];
          list.push({ message: mi, block: b, consumed: false });
          this.slots.set(b.tool_use_id, list);
        } else if (b.type === "tool_use") this.pendingToolUses.add(b.id);
      }
    });
  }

  private uuid(): string {
    return stableUuid("claude_code", this.sessionId, "line", this.lines.length);
  }

  /** The envelope, in Claude Code's key order, around a record's own fields. */
  private emit(type: string, ts: Timestamp, fields: JsonObject): void {
    const uuid = this.uuid();
    const record: JsonObject = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
    };
    if (this.meta.cwd !== undefined) record.cwd = this.meta.cwd;
    record.sessionId = this.sessionId;
    record.version = WRITER_VERSION;
    if (this.meta.git_branch !== undefined) record.gitBranch = this.meta.git_branch;
    record.type = type;
    for (const [k, v] of Object.entries(fields)) record[k] = v;
    record.uuid = uuid;
    record.timestamp = claudeTimestamp(ts);
    this.lines.push(recordLine(record));
    this.parent = uuid;
    if (type === "user" || type === "assistant") this.lastConversationUuid = uuid;
  }

  /** A tool id the API accepts, unique in the session, stable for the original id's nth use. */
  private writtenToolId(original: string): string {
    const previous = this.toolIds.get(original) ?? [];
    let id = original;
    if (!TOOL_ID_RE.test(id) || this.usedToolIds.has(id)) {
      const hex = stableUuid("claude_code", this.sessionId, "tool", original, previous.length);
      id = `toolu_${hex.replace(/-/g, "")}`;
    }
    previous.push(id);
    this.toolIds.set(original, previous);
    this.usedToolIds.add(id);
    return id;
  }

  /** The first result not yet written for a call. */
  private takeResult(id: string): Slot | undefined {
    const slot = this.slots.get(id)?.find((s) => !s.consumed);
    if (slot !== undefined) slot.consumed = true;
    return slot;
  }

  private toolUse(block: ToolUseBlock, writtenId: string): JsonObject {
    const { name, input } = toolToCanonical(block.tool);
    let args: Json = input;
    if (block.tool.name === "Bash") {
      const bash = block.tool;
      const out: JsonObject = {};
      // Claude Code's Bash has no working-directory key: a cd prefix keeps the meaning.
      out.command =
        bash.workdir === undefined || bash.workdir === this.meta.cwd
          ? bash.command
          : `cd ${quote([bash.workdir])} && ${bash.command}`;
      if (bash.timeout_ms !== undefined) out.timeout = bash.timeout_ms;
      if (bash.description !== undefined) out.description = bash.description;
      if (bash.run_in_background !== undefined) out.run_in_background = bash.run_in_background;
      args = out;
    } else if (!isJsonObject(args)) {
      // The API requires an object of arguments.
      args = { input: args };
    }
    const safeName = TOOL_NAME_RE.test(name)
      ? name
      : name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 128) || "tool";
    return { type: "tool_use", id: writtenId, name: safeName, input: args };
  }

  private assistantLine(source: Message, content: JsonObject[], withUsage: boolean): void {
    const message: JsonObject = {
      id: `msg_${stableUuid("claude_code", this.sessionId, "message", this.lines.length).replace(/-/g, "")}`,
      type: "message",
      role: "assistant",
    };
    const model = source.model ?? this.meta.model;
    if (model !== undefined) message.model = model;
    message.content = content;
    message.stop_reason =
      source.stop_reason === undefined
        ? null
        : typeof source.stop_reason === "string"
          ? source.stop_reason
          : source.stop_reason.other;
    message.stop_sequence = null;
    if (withUsage && source.usage !== undefined) {
      const u = source.usage;
      message.usage = {
        input_tokens: u.input_tokens,
        cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
        output_tokens: u.output_tokens,
      };
    }
    this.emit("assistant", source.timestamp, { message });
  }

  private userLine(ts: Timestamp, content: JsonObject[]): void {
    const only = content[0];
    const text =
      content.length === 1 && only?.type === "text" && typeof only.text === "string"
        ? only.text
        : undefined;
    const typed = content.flatMap((b) =>
      b.type === "text" && typeof b.text === "string" ? [b.text] : [],
    );
    if (typed.length > 0) this.lastPrompt = typed.join("\n");
    this.emit("user", ts, { message: { role: "user", content: text ?? content } });
  }

  private commandLines(block: ToolUseBlock, ts: Timestamp): void {
    if (block.tool.name !== "Command") return;
    const command = {
      name: block.tool.command,
      ...(block.tool.args === undefined ? {} : { args: block.tool.args }),
    };
    this.emit("system", ts, {
      subtype: "local_command",
      content: commandMarkup(command),
      level: "info",
      isMeta: false,
    });
    this.pendingToolUses.delete(block.id);
    const result = this.takeResult(block.id);
    if (result === undefined) return;
    const source = this.body[result.message];
    this.emit("system", source?.timestamp ?? ts, {
      subtype: "local_command",
      content: outputMarkup(jsonText(result.block.content), result.block.is_error === true),
      level: "info",
      isMeta: false,
    });
  }

  /** Write the results of the calls just written, in one user line right after them. */
  private resultsLine(calls: { original: string; written: string }[], ts: Timestamp): void {
    if (calls.length === 0) return;
    const content: JsonObject[] = [];
    let when = ts;
    for (const call of calls) {
      const slot = this.takeResult(call.original);
      const out: JsonObject = {
        type: "tool_result",
        tool_use_id: call.written,
        content:
          slot === undefined
            ? "No result was recorded for this tool call."
            : resultContent(slot.block.content),
      };
      if (slot === undefined || slot.block.is_error === true) out.is_error = true;
      if (slot !== undefined && content.length === 0)
        when = this.body[slot.message]?.timestamp ?? ts;
      content.push(out);
    }
    this.userLine(when, content);
  }

  /** Blocks Claude Code cannot hold in this role, as the nearest thing it can. */
  private asText(block: Block): JsonObject | undefined {
    switch (block.type) {
      case "text":
      case "thinking":
        return block.text.trim() === "" ? undefined : { type: "text", text: block.text };
      case "image":
        return { type: "text", text: `[image: ${block.source.media_type || block.source.type}]` };
      case "artifact": {
        const a = block.artifact;
        const src = a.source;
        const body =
          src.type === "text" ? `\n${src.text}` : src.type === "path" ? ` (${src.path})` : "";
        return { type: "text", text: `[artifact: ${a.name}]${body}` };
      }
      case "tool_result":
        return {
          type: "text",
          text: `[result of tool call ${block.tool_use_id}]\n${jsonText(block.content)}`,
        };
      case "tool_use":
        return undefined;
      default:
        return block satisfies never;
    }
  }

  /** User-side content blocks (images, documents) where Anthropic accepts them. */
  private userBlock(block: Block): JsonObject | undefined {
    if (block.type === "image") {
      const s = block.source;
      if (s.type === "base64") {
        return {
          type: "image",
          source: { type: "base64", media_type: s.media_type, data: s.data },
        };
      }
      if (s.type === "url") return { type: "image", source: { type: "url", url: s.data } };
      return this.asText(block);
    }
    if (block.type === "artifact") {
      const { name, source } = block.artifact;
      if (source.type === "text") {
        return {
          type: "document",
          source: {
            type: "text",
            media_type: source.media_type ?? "text/plain",
            data: source.text,
          },
          title: name,
        };
      }
      if (source.type === "base64" && source.media_type === "application/pdf") {
        return {
          type: "document",
          source: { type: "base64", media_type: source.media_type, data: source.data },
          title: name,
        };
      }
      if (source.type === "base64" && source.media_type?.startsWith("image/")) {
        return {
          type: "image",
          source: { type: "base64", media_type: source.media_type, data: source.data },
        };
      }
    }
    return this.asText(block);
  }

  write(): void {
    this.body.forEach((message) => {
      let role: "user" | "assistant" | undefined;
      let content: JsonObject[] = [];
      let calls: { original: string; written: string }[] = [];
      let usageWritten = false;
      const flush = () => {
        if (role === "assistant" && content.length > 0) {
          this.assistantLine(message, content, !usageWritten);
          usageWritten = true;
          this.resultsLine(calls, message.timestamp);
        } else if (role === "user" && content.length > 0) {
          this.userLine(message.timestamp, content);
        }
        role = undefined;
        content = [];
        calls = [];
      };
      const add = (r: "user" | "assistant", block: JsonObject | undefined) => {
        if (block === undefined) return;
        if (role !== r) flush();
        role = r;
        content.push(block);
      };
      for (const block of message.content) {
        switch (block.type) {
          case "tool_use":
            if (block.tool.name === "Command") {
              flush();
              this.commandLines(block, message.timestamp);
            } else {
              const written = this.writtenToolId(block.id);
              this.pendingToolUses.delete(block.id);
              add("assistant", this.toolUse(block, written));
              calls.push({ original: block.id, written });
            }
            break;
          case "tool_result": {
            const list = this.slots.get(block.tool_use_id);
            const slot = list?.find((s) => s.block === block);
            if (slot?.consumed) break;
            // A result written before its call is taken when the call is written.
            if (this.pendingToolUses.has(block.tool_use_id)) break;
            if (slot !== undefined) slot.consumed = true;
            add("user", this.asText(block));
            break;
          }
          case "thinking":
            if (
              message.role === "assistant" &&
              replayableThinking(block, message.model ?? this.meta.model) &&
              block.signature !== undefined
            ) {
              add("assistant", {
                type: "thinking",
                thinking: block.text,
                signature: block.signature,
              });
            } else add(message.role, this.asText(block));
            break;
          case "text":
            add(message.role, this.asText(block));
            break;
          case "image":
          case "artifact":
            add(message.role, message.role === "user" ? this.userBlock(block) : this.asText(block));
            break;
          default:
            block satisfies never;
        }
      }
      flush();
    });
    // Recent releases append the last prompt and the leaf it led to; resume tooling relies on it.
    const leaf = this.lastConversationUuid;
    if (leaf !== undefined) {
      this.lines.push(
        recordLine({
          type: "last-prompt",
          lastPrompt: this.lastPrompt,
          leafUuid: leaf,
          sessionId: this.sessionId,
        }),
      );
    }
    if (this.meta.title !== undefined && this.meta.title !== "") {
      this.lines.push(
        recordLine({
          type: "custom-title",
          customTitle: this.meta.title,
          sessionId: this.sessionId,
        }),
      );
    }
  }
}

export function claudeFromCommon(transcript: Transcript<Common>): Transcript<ClaudeCodeBody> {
  const sessionId = claudeSessionId(transcript.meta.id);
  const writer = new Writer(transcript.meta, sessionId, transcript.body);
  try {
    writer.write();
  } catch (cause) {
    if (cause instanceof RangeError) {
      throw new UnsupportedError("claude_code", "a value is nested too deeply to write as JSON", {
        cause,
      });
    }
    throw cause;
  }
  const lines = writer.lines;
  // Claude Code (and our reader) take a file without a user or assistant line
  // for no session at all: refuse rather than write one nobody can open.
  if (!lines.some((l) => ["user", "assistant"].includes(lineType(l.record) ?? ""))) {
    throw new UnsupportedError(
      "claude_code",
      "the session has no message Claude Code can hold (no text, image, tool call or result)",
    );
  }
  return { meta: readMeta(lines, () => sessionId), body: { lines } };
}

export const claudeCodeCodec: Codec<ClaudeCodeBody> = {
  toCommon: claudeToCommon,
  fromCommon: claudeFromCommon,
};
