/**
 * The Gemini CLI codec: session records <-> the canonical model. Pure: no
 * I/O, no clock, no randomness.
 *
 * Reading (`toCommon`, in read.ts) replays the file as the CLI loads it (body.ts), then
 * walks the messages the way the CLI rebuilds its model history on resume
 * (`convertSessionToClientHistory`):
 * - `info`, `error` and `warning` records are not conversation; user texts
 *   the CLI injects (`<session_context>`, `<hook_context>`) are hidden;
 * - a `gemini` record is one assistant message: its thoughts (`**subject**
 *   description`, as the CLI replays them) or raw thought parts, its text,
 *   and its calls (from `functionCall` parts when the content holds them,
 *   else from `toolCalls`); usage from `tokens`;
 * - the calls' results (`toolCalls[].result`, and the `functionResponse`
 *   parts v0.44+ also records as user messages and checkpoints repeat) are
 *   one user message of tool_result blocks, each call answered once.
 *
 * Writing (`fromCommon`, here) produces the JSONL 0.39+ reads, in the legacy
 * record shape every loader accepts: a metadata line, a `<session_context>`
 * record naming the workspace (hidden from the model, as the CLI's own),
 * user records, and one `gemini` record per run of assistant messages
 * (cut where text, a thought or a file follows a call, since the CLI
 * replays a record's calls last), its calls in `toolCalls` each with its
 * result (a call the session never answered gets an error result: Gemini
 * refuses a call without one).
 */

import type { Block, JsonObject, Message, Meta, ToolResultBlock, Usage } from "../../common.js";
import { commandText } from "../../common.js";
import { stableUuid, uuidSessionId } from "../../ids.js";
import { assignDefined } from "../../json.js";
import type { Timestamp } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { userPart } from "../shared/gemini-parts.js";
import { artifactText, resultText } from "../shared/results.js";
import { type GeminiBody, Lines, recordLine } from "./body.js";
import { geminiToCommon } from "./read.js";
import { isoMillis, projectHash } from "./records.js";
import { toolToCall } from "./tools.js";

// ---------------------------------------------------------------------------
// Writing

/** Gemini CLI session ids are UUIDs: a UUID is kept (lowercased), anything else is mapped to one. */
export function geminiSessionId(id: string): string {
  return uuidSessionId("gemini-session", id);
}

/** The minimal preamble txcript writes so the text form carries the cwd; the CLI hides it. */
function sessionContext(cwd: string): string {
  return `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n- **Workspace Directories:**\n  - ${cwd}\n</session_context>`;
}

/**
 * A tool_result as a functionResponse `response`, shaped as the CLI shapes
 * its own (`convertToFunctionResponse`): `{"output": <text>}`, or
 * `{"error": <text>}` for a failure; a JSON result goes as its JSON text
 * (docs/formats/gemini-cli.md, "Writing").
 */
function responseFromCommon(block: ToolResultBlock): JsonObject {
  const text = resultText(block.content);
  return block.is_error ? { error: text } : { output: text };
}

/** A call the session never answered: Gemini refuses a functionCall without a response. */
const UNANSWERED = "[no result was recorded for this call]";

interface PendingCall {
  record: JsonObject;
  name: string;
}

interface GeminiRecord {
  record: JsonObject;
  texts: string[];
  thoughts: JsonObject[];
  calls: JsonObject[];
  usage: Usage | undefined;
}

/** `**subject** description` back into a thought summary. */
function thoughtFromText(text: string, at: string): JsonObject {
  const m = /^\*\*([^\n]+?)\*\* ([\s\S]*)$/.exec(text);
  // Only when reading back gives the same text (a subject cannot be empty).
  if (m && m[1] !== undefined && m[2] !== undefined && m[1] !== "") {
    return { subject: m[1], description: m[2], timestamp: at };
  }
  return { subject: "", description: text, timestamp: at };
}

function tokensFromUsage(usage: Usage): JsonObject {
  const cached = usage.cache_read_input_tokens ?? 0;
  const input = usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0);
  return {
    input,
    output: usage.output_tokens,
    cached,
    thoughts: 0,
    tool: 0,
    total: input + usage.output_tokens,
  };
}

function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b && { ...b };
  if (!b) return a;
  const sum: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  const read = (a.cache_read_input_tokens ?? 0) + (b.cache_read_input_tokens ?? 0);
  const made = (a.cache_creation_input_tokens ?? 0) + (b.cache_creation_input_tokens ?? 0);
  if (a.cache_read_input_tokens !== undefined || b.cache_read_input_tokens !== undefined)
    sum.cache_read_input_tokens = read;
  if (a.cache_creation_input_tokens !== undefined || b.cache_creation_input_tokens !== undefined)
    sum.cache_creation_input_tokens = made;
  return sum;
}

/** Whether a block puts text, a thought or a file into a model record. */
function addsToTurn(block: Block): boolean {
  switch (block.type) {
    case "text":
    case "thinking":
      return block.text !== "";
    case "image":
    case "artifact":
      return true;
    default:
      return false;
  }
}

class Writer {
  private readonly records: JsonObject[] = [];
  private current: GeminiRecord | undefined;
  private readonly pending = new Map<string, PendingCall>();
  private readonly answered = new Set<string>();
  private readonly gemini: GeminiRecord[] = [];
  /** User slash commands: their output comes back as what the user saw, text. */
  private readonly commands = new Set<string>();

  private inEffect: string | undefined;

  constructor(
    private readonly id: string,
    private readonly meta: Meta,
  ) {
    this.inEffect = meta.model;
  }

  /** Record ids: one UUIDv5 per session, its last 48 bits the record's number (hashing each costs more than writing it). */
  private nextId(): string {
    this.base ??= stableUuid("gemini-records", this.id).slice(0, 24);
    return `${this.base}${this.records.length.toString(16).padStart(12, "0")}`;
  }
  private base: string | undefined;

  private result(block: ToolResultBlock, at: Timestamp): void {
    const call = this.pending.get(block.tool_use_id);
    // A result that answers no call (or one already answered) has nowhere to go.
    if (call === undefined || this.answered.has(block.tool_use_id)) return;
    this.answered.add(block.tool_use_id);
    const response = responseFromCommon(block);
    call.record.result = [
      { functionResponse: { id: block.tool_use_id, name: call.name, response } },
    ];
    call.record.status = block.is_error ? "error" : "success";
    call.record.timestamp = isoMillis(at);
    call.record.resultDisplay = resultText(block.content);
  }

  user(message: Message): void {
    this.current = undefined;
    const parts: JsonObject[] = [];
    for (const block of message.content) {
      switch (block.type) {
        case "text":
        case "image":
        case "artifact":
          parts.push(userPart(block));
          break;
        case "tool_result":
          if (this.commands.has(block.tool_use_id)) parts.push({ text: resultText(block.content) });
          else this.result(block, message.timestamp);
          break;
        case "tool_use":
          // A user's slash command: what the user typed.
          if (block.tool.name === "Command") {
            parts.push({ text: commandText(block.tool) });
            this.commands.add(block.id);
          }
          break;
        case "thinking":
          break; // a user has no reasoning to replay
        default:
          block satisfies never;
      }
    }
    if (parts.length === 0) return;
    this.records.push({
      id: this.nextId(),
      timestamp: isoMillis(message.timestamp),
      type: "user",
      content: parts,
    });
  }

  private open(message: Message, at: string): GeminiRecord {
    const record: JsonObject = { id: this.nextId(), timestamp: at, type: "gemini" };
    // A turn without a model runs on the one in effect (the session's at first).
    const model = message.model ?? this.inEffect;
    assignDefined(record, "model", model);
    this.inEffect = model;
    const g: GeminiRecord = { record, texts: [], thoughts: [], calls: [], usage: undefined };
    this.records.push(record);
    this.gemini.push(g);
    this.current = g;
    return g;
  }

  assistant(message: Message): void {
    const at = isoMillis(message.timestamp);
    // Consecutive assistant messages are one model turn to Gemini.
    let g = this.current ?? this.open(message, at);
    g.usage = addUsage(g.usage, message.usage);
    for (const block of message.content) {
      // Gemini CLI replays a record as thoughts, then text, then calls: what
      // follows a call goes in a record of its own, or it would be sent
      // before the call (seen with 0.61.0 on an agy turn "call, then text").
      if (g.calls.length > 0 && addsToTurn(block)) g = this.open(message, at);
      switch (block.type) {
        case "text":
          g.texts.push(block.text);
          break;
        case "thinking":
          // Only the readable summary travels; signatures belong to their own conversation.
          if (block.text !== "") g.thoughts.push(thoughtFromText(block.text, at));
          break;
        case "tool_use": {
          const { name: callName, args } = toolToCall(block.tool);
          const record: JsonObject = {
            id: block.id,
            name: callName,
            args,
            result: null,
            status: "cancelled",
            timestamp: at,
          };
          g.calls.push(record);
          this.pending.set(block.id, { record, name: callName });
          break;
        }
        case "tool_result":
          this.result(block, message.timestamp);
          break;
        case "image":
          g.texts.push(`[image: ${block.source.media_type || block.source.type}]`);
          break;
        case "artifact":
          g.texts.push(artifactText(block));
          break;
        default:
          block satisfies never;
      }
    }
  }

  lines(): GeminiBody["lines"] {
    for (const g of this.gemini) {
      const r = g.record;
      const { model } = r;
      delete r.model;
      r.content = g.texts.join("\n\n");
      r.thoughts = g.thoughts;
      r.tokens = g.usage ? tokensFromUsage(g.usage) : null;
      assignDefined(r, "model", model);
      if (g.calls.length > 0) r.toolCalls = g.calls;
    }
    for (const [id, call] of this.pending) {
      if (this.answered.has(id)) continue;
      call.record.result = [
        { functionResponse: { id, name: call.name, response: { error: UNANSWERED } } },
      ];
    }
    const start = isoMillis(this.meta.timestamp);
    const last = this.records.at(-1)?.timestamp;
    const meta: JsonObject = {
      sessionId: this.id,
      projectHash: projectHash(this.meta.cwd ?? ""),
      startTime: start,
      lastUpdated: typeof last === "string" && last > start ? last : start,
      kind: "main",
    };
    if (this.meta.title !== undefined && this.meta.title.trim() !== "")
      meta.summary = this.meta.title;
    const lines = [recordLine(meta)];
    if (this.meta.cwd !== undefined) {
      lines.push(
        recordLine({
          id: stableUuid("gemini-context", this.id),
          timestamp: start,
          type: "user",
          content: [{ text: sessionContext(this.meta.cwd) }],
        }),
      );
    }
    for (const r of this.records) lines.push(recordLine(r));
    return Lines.of(lines);
  }
}

function geminiFromCommon(transcript: Transcript<Common>): Transcript<GeminiBody> {
  const id = geminiSessionId(transcript.meta.id);
  const meta = { ...transcript.meta, id };
  const writer = new Writer(id, meta);
  for (const message of transcript.body) {
    if (message.role === "user") writer.user(message);
    else writer.assistant(message);
  }
  return { meta, body: { lines: writer.lines() } };
}

export const geminiCodec: Codec<GeminiBody> = {
  toCommon: geminiToCommon,
  fromCommon: geminiFromCommon,
};
