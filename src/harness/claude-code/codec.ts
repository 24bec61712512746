/**
 * Claude Code <-> Common. Reading (read.ts) resolves the live branch of the
 * `parentUuid` chain, merges the lines one API response was split into,
 * and maps slash-command records to `/command` tools. Writing (here) produces what
 * `claude --resume <id>` accepts (see docs/formats/claude-code.md, "Writing").
 */

import { quote } from "shell-quote";
import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type ToolResultBlock,
  type ToolUseBlock,
  toolToCanonical,
} from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { isUuid } from "../../id-forms.js";
import { stableUuid } from "../../ids.js";
import { assignDefined, defined } from "../../json.js";
import { type Timestamp, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { type ClaudeCodeBody, type ClaudeLine, Lines, lineType, recordLine } from "./body.js";
import { commandMarkup, outputMarkup } from "./markup.js";
import { claudeToCommon } from "./read.js";
import { readMeta } from "./text.js";

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

/**
 * Writes a session's records a message at a time: `message` each, then
 * `end`, taking the records made after each (`take`), so that none is held
 * longer than it takes to write it.
 */
class Writer {
  /** Records made and not yet taken. */
  private made: JsonObject[] = [];
  /** Records made so far: what line ids and message ids count from. */
  private count = 0;
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
    /**
     * False for records made only to be read for the meta: their line and
     * message ids are left empty (hashing them is much of a walk's cost).
     */
    private readonly ids = true,
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
    return this.ids ? stableUuid("claude_code", this.sessionId, "line", this.count) : "";
  }

  /** The envelope, in Claude Code's key order, around a record's own fields. */
  private emit(type: string, ts: Timestamp, fields: JsonObject): void {
    const uuid = this.uuid();
    const record: JsonObject = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
    };
    assignDefined(record, "cwd", this.meta.cwd);
    record.sessionId = this.sessionId;
    record.version = WRITER_VERSION;
    assignDefined(record, "gitBranch", this.meta.git_branch);
    record.type = type;
    for (const [k, v] of Object.entries(fields)) record[k] = v;
    record.uuid = uuid;
    record.timestamp = claudeTimestamp(ts);
    this.push(record);
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
      assignDefined(out, "timeout", bash.timeout_ms);
      assignDefined(out, "description", bash.description);
      assignDefined(out, "run_in_background", bash.run_in_background);
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
      id: this.ids
        ? `msg_${stableUuid("claude_code", this.sessionId, "message", this.count).replace(/-/g, "")}`
        : "",
      type: "message",
      role: "assistant",
    };
    const model = source.model ?? this.meta.model;
    assignDefined(message, "model", model);
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
      ...defined({ args: block.tool.args }),
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

  /** The records made since the last take. */
  take(): JsonObject[] {
    const made = this.made;
    this.made = [];
    return made;
  }

  message(message: Message): void {
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
  }

  /** The closing records, after the last message. */
  end(): void {
    // Recent releases append the last prompt and the leaf it led to; resume tooling relies on it.
    const leaf = this.lastConversationUuid;
    if (leaf !== undefined) {
      this.push({
        type: "last-prompt",
        lastPrompt: this.lastPrompt,
        leafUuid: leaf,
        sessionId: this.sessionId,
      });
    }
    if (this.meta.title !== undefined && this.meta.title !== "") {
      this.push({
        type: "custom-title",
        customTitle: this.meta.title,
        sessionId: this.sessionId,
      });
    }
  }

  private push(record: JsonObject): void {
    this.made.push(record);
    this.count++;
  }
}

/** A session's records, made a message at a time by a fresh writer: the same on every walk. */
function* claudeRecords(
  meta: Meta,
  sessionId: string,
  body: Common,
  ids = true,
): Generator<JsonObject, void, undefined> {
  const writer = new Writer(meta, sessionId, body, ids);
  try {
    for (const message of body) {
      writer.message(message);
      yield* writer.take();
    }
    writer.end();
    yield* writer.take();
  } catch (cause) {
    throw writeError(cause);
  }
}

/** A stack overflow while writing is a value nested too deeply for JSON. */
function writeError(cause: unknown): unknown {
  if (!(cause instanceof RangeError)) return cause;
  return new UnsupportedError("claude_code", "a value is nested too deeply to write as JSON", {
    cause,
  });
}

/** The session's lines, each made from its record as the walk reaches it. */
function* claudeLines(
  meta: Meta,
  sessionId: string,
  body: Common,
): Generator<ClaudeLine, void, undefined> {
  try {
    for (const record of claudeRecords(meta, sessionId, body)) yield recordLine(record);
  } catch (cause) {
    throw writeError(cause);
  }
}

/**
 * The Body's lines are made as they are walked (`Lines.generated`), so a
 * save writes each as it is made; the meta comes from one walk of the
 * records here, made without ids and not kept. A value too deep for JSON
 * fails the walk that writes it (the save, before anything is in place).
 */
function claudeFromCommon(transcript: Transcript<Common>): Transcript<ClaudeCodeBody> {
  const sessionId = claudeSessionId(transcript.meta.id);
  const { meta: source, body } = transcript;
  let conversational = false;
  const meta = readMeta(
    (function* () {
      // Without ids: the meta reads none, and hashing them would double the cost of a save.
      for (const record of claudeRecords(source, sessionId, body, false)) {
        const type = lineType(record);
        if (type === "user" || type === "assistant") conversational = true;
        yield record;
      }
    })(),
    () => sessionId,
  );
  // Claude Code (and our reader) take a file without a user or assistant line
  // for no session at all: refuse rather than write one nobody can open.
  if (!conversational) {
    throw new UnsupportedError(
      "claude_code",
      "the session has no message Claude Code can hold (no text, image, tool call or result)",
    );
  }
  return {
    meta,
    body: { lines: Lines.generated(() => claudeLines(source, sessionId, body)) },
  };
}

export const claudeCodeCodec: Codec<ClaudeCodeBody> = {
  toCommon: claudeToCommon,
  fromCommon: claudeFromCommon,
};
