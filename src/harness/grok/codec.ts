/**
 * Grok Body <-> Common. Pure. `updates.jsonl` read in order: a run of
 * user chunks (and finished calls' outcomes) is a user message, a run of
 * agent chunks, thoughts, calls and plans an assistant message; chunks of
 * one kind in a row join into one block. A `tool_call` and its
 * `tool_call_update`s merge into one tool_use, and into one tool_result
 * when the call finished (`failed`: an error). Any other kind
 * (`hook_execution`, `retry_state`, a newer one) is a Raw record: a Raw
 * tool_use named by its kind on an assistant message, its fields the
 * input. When no update makes a conversation block, `chat_history.jsonl`
 * is read for the prompts, the Raw records after them. No usage or stop
 * reason is recorded. fromCommon is deterministic.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { EPOCH, type Timestamp, timestampFromMillis, timestampMillis } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { artifactText } from "../shared/results.js";
import { type GrokBody, kindOf, rawKindOf, updateOf } from "./body.js";
import { grokMeta, lineMillis } from "./meta.js";
import { liveUpdates } from "./rewind.js";
import {
  chunkBlock,
  isTerminal,
  mergeCall,
  resultFromGrok,
  resultToGrok,
  toolFromGrok,
  toolToGrok,
} from "./tools.js";

/** One ACP content block of a chunk as a Common block; undefined for a kind not read. */
function chunkContent(c: Json, thought: boolean): Block | undefined {
  if (typeof c === "string")
    return thought ? { type: "thinking", text: c } : { type: "text", text: c };
  if (!isJsonObject(c)) return undefined;
  if (c.type === "text") {
    const text = str(c, "text") ?? "";
    return thought ? { type: "thinking", text } : { type: "text", text };
  }
  if (thought) return undefined;
  if (c.type === "image") {
    const media_type = str(c, "mimeType") ?? "";
    const data = str(c, "data");
    if (data !== undefined) return { type: "image", source: { type: "base64", media_type, data } };
    const uri = str(c, "uri");
    return uri === undefined
      ? undefined
      : { type: "image", source: { type: "url", media_type, data: uri } };
  }
  if (c.type === "resource_link") {
    const uri = str(c, "uri") ?? "";
    return { type: "text", text: `[${str(c, "name") ?? uri}](${uri})` };
  }
  if (c.type === "resource") {
    const text = str(obj(c, "resource"), "text");
    return text === undefined ? undefined : { type: "text", text };
  }
  return undefined;
}

/** A chunk's content (one block, or a list of them) as Common blocks. */
function chunkBlocks(content: Json | undefined, thought: boolean): Block[] {
  if (content === undefined) return [];
  const items = Array.isArray(content) ? content : [content];
  return items.flatMap((c) => chunkContent(c, thought) ?? []);
}

/** A `plan` update as text: one `- [status] entry` line each. */
function planText(update: JsonObject): Block | undefined {
  const entries = Array.isArray(update.entries) ? update.entries : [];
  const lines = entries.flatMap((e) =>
    isJsonObject(e) ? [`- [${str(e, "status") ?? ""}] ${str(e, "content") ?? ""}`] : [],
  );
  return lines.length === 0 ? undefined : { type: "text", text: `Plan:\n${lines.join("\n")}` };
}

/** Blocks no chunk joins: a plan's text. */
const sealed = new WeakSet<Block>();

/** A block into a message: text after text, or thinking after thinking, joins the block before. */
function append(m: Message, b: Block): void {
  const last = m.content[m.content.length - 1];
  if (last !== undefined && sealed.has(last)) m.content.push(b);
  else if (b.type === "text" && last?.type === "text") last.text += b.text;
  else if (b.type === "thinking" && last?.type === "thinking") last.text += b.text;
  else m.content.push(b);
}

/** Every call's fields, merged over its `tool_call` and `tool_call_update` lines in order. */
function mergedCalls(updates: readonly JsonObject[]): Map<string, JsonObject> {
  const calls = new Map<string, JsonObject>();
  for (const line of updates) {
    const u = updateOf(line);
    const kind = kindOf(u);
    if (u === undefined || (kind !== "tool_call" && kind !== "tool_call_update")) continue;
    const id = str(u, "toolCallId");
    if (id === undefined) continue;
    const call = calls.get(id) ?? {};
    mergeCall(call, u);
    calls.set(id, call);
  }
  return calls;
}

/** The id prefix of a Raw record's tool_use, so fromCommon writes it back as the update it was. */
const RAW_ID = "grok-update:";

/** An update read as a Raw record: its fields (all but `sessionUpdate`) as a Raw tool's input, named by its kind. */
function rawRecord(kind: string, update: JsonObject, line: JsonObject, index: number): Block {
  // fromEntries defines keys (a `__proto__` key stays a key, never a prototype).
  const input: JsonObject = Object.fromEntries(
    Object.entries(update).filter(([k]) => k !== "sessionUpdate"),
  );
  const event = str(obj(obj(line, "params"), "_meta"), "eventId");
  return {
    type: "tool_use",
    id: `${RAW_ID}${event ?? `line-${index + 1}`}`,
    tool: { name: "Raw", tool_name: kind, input },
  };
}

interface Read {
  messages: Message[];
  /** Whether any update made a conversation block (a chunk's, a call's or a plan's), not only Raw records. */
  conversation: boolean;
}

function fromUpdates(updates: readonly JsonObject[], start: Timestamp): Read {
  const calls = mergedCalls(updates);
  const body: Message[] = [];
  const called = new Set<string>();
  const answered = new Set<string>();
  let conversation = false;
  let current: Message | undefined;
  // A line's time in milliseconds (undefined: the session's); formatted only when a message opens.
  let previous: number | undefined;
  let formatted: { ms: number; at: Timestamp } | undefined;
  const timeOf = (ms: number | undefined): Timestamp => {
    if (ms === undefined) return start;
    if (formatted?.ms !== ms) formatted = { ms, at: timestampFromMillis(ms) };
    return formatted.at;
  };
  const open = (role: Message["role"], update: JsonObject): Message => {
    if (current?.role !== role) {
      current = { role, content: [], timestamp: timeOf(previous) };
      body.push(current);
    }
    if (role === "assistant" && current.model === undefined) {
      const model = str(obj(update, "_meta"), "modelId");
      if (model) current.model = model;
    }
    return current;
  };
  for (const [index, line] of updates.entries()) {
    const u = updateOf(line);
    if (u === undefined) continue;
    const kind = kindOf(u);
    if (kind === undefined) {
      const raw = rawKindOf(u);
      if (raw === undefined) continue;
      previous = lineMillis(line) ?? previous;
      open("assistant", u).content.push(rawRecord(raw, u, line, index));
      continue;
    }
    previous = lineMillis(line) ?? previous;
    switch (kind) {
      case "user_message_chunk":
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const blocks = chunkBlocks(u.content, kind === "agent_thought_chunk");
        if (blocks.length === 0) break;
        conversation = true;
        const m = open(kind === "user_message_chunk" ? "user" : "assistant", u);
        for (const b of blocks) append(m, b);
        break;
      }
      case "plan": {
        const b = planText(u);
        if (b !== undefined) {
          conversation = true;
          open("assistant", u).content.push(b);
          sealed.add(b);
        }
        break;
      }
      case "tool_call":
      case "tool_call_update": {
        const id = str(u, "toolCallId");
        const call = id === undefined ? undefined : calls.get(id);
        if (id === undefined || call === undefined) break;
        conversation = true;
        if (!called.has(id)) {
          called.add(id);
          open("assistant", u).content.push({ type: "tool_use", id, tool: toolFromGrok(call) });
        }
        if (!answered.has(id) && isTerminal(str(u, "status"))) {
          answered.add(id);
          open("user", u).content.push(resultFromGrok(id, call));
        }
        break;
      }
      default:
        kind satisfies never;
    }
  }
  return { messages: body, conversation };
}

const QUERY = /^\s*<user_query>\n?([\s\S]*?)\n?<\/user_query>\s*$/;

/** `chat_history.jsonl` as messages: user and assistant text; system lines and injected context left out. */
function fromHistory(history: readonly JsonObject[], at: Timestamp): Message[] {
  const body: Message[] = [];
  for (const line of history) {
    const role = line.type;
    if ((role !== "user" && role !== "assistant") || line.synthetic_reason !== undefined) continue;
    const raw = line.content;
    const parts = Array.isArray(raw) ? raw : [raw];
    const texts = parts.flatMap((p) =>
      typeof p === "string"
        ? [p]
        : isJsonObject(p) && p.type === "text"
          ? [str(p, "text") ?? ""]
          : [],
    );
    let text = texts.join("\n");
    if (role === "user") text = QUERY.exec(text)?.[1] ?? text;
    if (text.trim() === "") continue;
    body.push({ role, content: [{ type: "text", text }], timestamp: at });
  }
  return body;
}

function toCommon(t: Transcript<GrokBody>): Transcript<Common> {
  // The store's meta is the fuller (the folder's name as id, the group's
  // cwd, the file's time where summary.json has none); the summary fills gaps.
  const fromSummary = grokMeta(t.body.summary, t.meta.id);
  const meta = { ...fromSummary, ...t.meta };
  if (meta.timestamp === EPOCH) meta.timestamp = fromSummary.timestamp;
  const read = fromUpdates(liveUpdates(t.body.updates), meta.timestamp);
  // Only Raw records (every model call failed): the prompts are in the chat history, the records after them.
  const body = read.conversation
    ? read.messages
    : [...fromHistory(t.body.history, meta.timestamp), ...read.messages];
  if (meta.model === undefined) {
    const model = body.find((m) => m.model)?.model;
    if (model) meta.model = model;
  }
  return { meta, body };
}

/** One `session/update` line: seconds in `timestamp`, milliseconds in `_meta.agentTimestampMs`. */
function updateLine(sessionId: string, at: Timestamp, update: JsonObject): JsonObject {
  const ms = timestampMillis(at);
  return {
    timestamp: Math.floor(ms / 1000),
    method: "session/update",
    params: { sessionId, update, _meta: { agentTimestampMs: ms } },
  };
}

/** A message's blocks as the updates Grok would have sent for them. */
function messageUpdates(m: Message): JsonObject[] {
  const chunk = m.role === "user" ? "user_message_chunk" : "agent_message_chunk";
  const updates = m.content.map((b): JsonObject => {
    switch (b.type) {
      case "text":
      case "image":
        return { sessionUpdate: chunk, content: chunkBlock(b) ?? {} };
      case "thinking":
        return m.role === "assistant"
          ? { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: b.text } }
          : { sessionUpdate: chunk, content: { type: "text", text: b.text } };
      case "artifact":
        return { sessionUpdate: chunk, content: { type: "text", text: artifactText(b) } };
      case "tool_use":
        // A Raw record read from Grok goes back as the update it was.
        if (b.tool.name === "Raw" && b.id.startsWith(RAW_ID) && isJsonObject(b.tool.input))
          return { ...b.tool.input, sessionUpdate: b.tool.tool_name };
        return { sessionUpdate: "tool_call", toolCallId: b.id, ...toolToGrok(b.tool) };
      case "tool_result":
        return { sessionUpdate: "tool_call_update", ...resultToGrok(b) };
      default:
        return b satisfies never;
    }
  });
  if (m.role === "assistant" && m.model)
    for (const u of updates)
      if (u.sessionUpdate !== "tool_call_update") u._meta = { modelId: m.model };
  return updates;
}

function fromCommon(t: Transcript<Common>): Transcript<GrokBody> {
  const id = t.meta.id;
  const updates = t.body.flatMap((m) =>
    messageUpdates(m).map((u) => updateLine(id, m.timestamp, u)),
  );
  const info: JsonObject = { id };
  if (t.meta.cwd) info.cwd = t.meta.cwd;
  const summary: JsonObject = { info };
  assignDefined(summary, "generated_title", t.meta.title || undefined);
  summary.created_at = t.meta.timestamp;
  summary.updated_at = t.body[t.body.length - 1]?.timestamp ?? t.meta.timestamp;
  summary.num_messages = t.body.length;
  assignDefined(summary, "current_model_id", t.meta.model || undefined);
  return { meta: { ...t.meta }, body: { summary, updates, history: [] } };
}

export const grokCodec: Codec<GrokBody> = { toCommon, fromCommon };
