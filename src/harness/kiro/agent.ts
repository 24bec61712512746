/**
 * A session of Kiro's agent engine (KAS, `kiro-cli chat --v3` and the Kiro
 * IDE; docs/formats/kiro.md "The agent engine") in Common terms. Pure.
 * `messages.jsonl` holds one persisted message a line, `{id, timestamp,
 * payload: {type, ...}}`; `payload.type` is one of 23 kinds. Conversation
 * kinds become messages (`user`; `assistant` chunks, joined while their
 * kind and `executionId` stay the same; `tool_call`, `tool_result`; a
 * subagent's start and completion as a call and its result); a
 * `checkpoint_revert` tombstone withdraws the rows from the message it
 * names, as Kiro's own replay does; `error`, `mode_change`, hook runs and
 * any kind this version does not know are kept as Raw records (a call with
 * no result); the turn and session bookkeeping kinds stay in the Body.
 */

import {
  type Block,
  type ImageBlock,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type StopReason,
} from "../../common.js";
import type { Timestamp } from "../../time.js";
import { type AgentKind, agentKind, payloadOf, timeOf } from "./agent-meta.js";
import { str } from "./body.js";
import { toolFromKiro } from "./tools.js";

/**
 * The rows in effect: a `checkpoint_revert` tombstone removes the rows from
 * its `effectiveFromMessageId` on (a target not in effect is ignored, as
 * Kiro warns and skips). A `summarization` tombstone changes what the model
 * sees next, not what was said: the rows before it stay.
 */
function effectiveRows(rows: readonly JsonObject[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const row of rows) {
    const p = payloadOf(row);
    if (p?.type === "tombstone" && p.kind === "checkpoint_revert") {
      const target = p.effectiveFromMessageId;
      const at = out.findIndex((r) => typeof r.id === "string" && r.id === target);
      if (at >= 0) out.splice(at);
      continue;
    }
    out.push(row);
  }
  return out;
}

/** `turn_end.stopReason` in Common terms. */
function stopOf(reason: string): StopReason {
  if (reason === "end_turn" || reason === "max_tokens") return reason;
  if (reason === "cancelled") return "aborted";
  if (reason === "error" || reason === "failed") return "error";
  return { other: reason };
}

/** A user's `images` (`{data, mimeType}`, base64) as image blocks. */
function imagesOf(p: JsonObject): ImageBlock[] {
  const images = Array.isArray(p.images) ? p.images : [];
  return images.flatMap((i): ImageBlock[] => {
    const data = isJsonObject(i) ? str(i, "data") : undefined;
    if (data === undefined) return [];
    const media_type = str(isJsonObject(i) ? i : undefined, "mimeType") || "image/png";
    return [{ type: "image", source: { type: "base64", media_type, data } }];
  });
}

/** Every field of a payload but its `type`: a Raw record's input. */
function restOf(p: JsonObject): JsonObject {
  const { type: _type, ...rest } = p;
  return rest;
}

const RECORD_KINDS: ReadonlySet<string> = new Set([
  "error",
  "mode_change",
  "ContextualHookInvoked",
]);

class Builder {
  readonly messages: Message[] = [];
  private current: Message | undefined;
  /** The `executionId` and chunk kind of the last assistant chunk, to join the next one. */
  private chunk: { exec: Json | undefined; kind: "text" | "thinking" } | undefined;
  private readonly calls = new Map<string, Block>();

  constructor(private readonly model: string | undefined) {}

  private open(role: Message["role"], timestamp: Timestamp, model?: string): Message {
    if (this.current?.role === role) return this.current;
    const m: Message = { role, content: [], timestamp };
    const mm = model ?? this.model;
    if (role === "assistant" && mm) m.model = mm;
    this.current = m;
    this.chunk = undefined;
    this.messages.push(m);
    return m;
  }

  /** A user's prompt always opens a message of its own. */
  user(p: JsonObject, ts: Timestamp): void {
    const content: Block[] = [];
    const text = str(p, "content");
    if (text) content.push({ type: "text", text });
    content.push(...imagesOf(p));
    if (content.length === 0) return;
    this.current = { role: "user", content, timestamp: ts };
    this.chunk = undefined;
    this.messages.push(this.current);
  }

  assistant(p: JsonObject, ts: Timestamp): void {
    const text = str(p, "content") ?? "";
    const op = str(p, "operationType");
    if (op === "Summary") return;
    const kind = op === "Reasoning" ? "thinking" : "text";
    const m = this.open("assistant", ts, str(p, "reasoningModelId"));
    const last = m.content.at(-1);
    if (this.chunk?.kind === kind && this.chunk.exec === p.executionId && last?.type === kind) {
      last.text += text;
      return;
    }
    if (kind === "text") {
      if (text === "") return;
      m.content.push({ type: "text", text });
    } else {
      const block: Block = { type: "thinking", text };
      const signature = str(p, "reasoningSignature");
      if (signature) block.signature = signature;
      const redacted = str(p, "reasoningRedactedContent");
      if (redacted) block.encrypted = redacted;
      if (text === "" && !signature && !redacted) return;
      m.content.push(block);
    }
    this.chunk = { exec: p.executionId, kind };
  }

  /** A call; a later row of the same id updates the call where it first appeared. */
  call(id: string, name: string, input: Json, ts: Timestamp): void {
    const tool = toolFromKiro(name, input);
    const seen = this.calls.get(id);
    if (seen?.type === "tool_use") {
      seen.tool = tool;
      return;
    }
    const block: Block = { type: "tool_use", id, tool };
    this.open("assistant", ts).content.push(block);
    this.chunk = undefined;
    this.calls.set(id, block);
  }

  /** A Raw record: a call named by the row's kind, its other fields as input, no result. */
  record(id: string, kind: string, input: JsonObject, ts: Timestamp): void {
    this.open("assistant", ts).content.push({
      type: "tool_use",
      id,
      tool: { name: "Raw", tool_name: kind, input },
    });
    this.chunk = undefined;
  }

  /** A result joins a user message of results only; anything else opens one. */
  result(id: string, content: Json, error: boolean, ts: Timestamp): void {
    let m = this.current;
    if (m?.role !== "user" || !m.content.every((b) => b.type === "tool_result")) {
      m = { role: "user", content: [], timestamp: ts };
      this.messages.push(m);
      this.current = m;
      this.chunk = undefined;
    }
    const block: Block = { type: "tool_result", tool_use_id: id, content };
    if (error) block.is_error = true;
    m.content.push(block);
  }

  stop(reason: string): void {
    if (this.current?.role === "assistant" && reason !== "")
      this.current.stop_reason = stopOf(reason);
  }
}

/** The Common messages of an agent-engine session's rows. */
export function agentMessages(rows: readonly JsonObject[], meta: Meta): Message[] {
  const b = new Builder(meta.model);
  let previous = meta.timestamp;
  for (const [n, row] of effectiveRows(rows).entries()) {
    const p = payloadOf(row);
    if (p === undefined) continue;
    const ts = timeOf(row.timestamp) ?? previous;
    previous = ts;
    const kind = agentKind(p);
    if (kind === undefined || RECORD_KINDS.has(kind)) {
      const id = typeof row.id === "string" && row.id !== "" ? row.id : `line-${n + 1}`;
      b.record(`kiro-record:${id}`, str(p, "type") ?? "", restOf(p), ts);
      continue;
    }
    read(b, kind, p, ts);
  }
  return b.messages.filter((m) => m.content.length > 0);
}

function read(b: Builder, kind: AgentKind, p: JsonObject, ts: Timestamp): void {
  switch (kind) {
    case "user":
      b.user(p, ts);
      break;
    case "assistant":
      b.assistant(p, ts);
      break;
    case "tool_call":
      b.call(str(p, "toolCallId") ?? "", str(p, "toolName") ?? "", p.args ?? null, ts);
      break;
    case "tool_result":
      b.result(str(p, "toolCallId") ?? "", p.content ?? "", p.success === false, ts);
      break;
    case "sub_agent_start": {
      const input = {
        subAgentName: p.subAgentName ?? null,
        prompt: p.prompt ?? null,
        explanation: p.explanation ?? null,
      };
      b.call(str(p, "subSessionId") ?? "", "sub_agent", input, ts);
      break;
    }
    case "sub_agent_complete": {
      const failed = p.status !== "success";
      const text = str(p, "response") || (failed ? str(p, "errorMessage") : undefined) || "";
      b.result(str(p, "subSessionId") ?? "", text, failed, ts);
      break;
    }
    case "turn_end":
      b.stop(str(p, "stopReason") ?? "");
      break;
    case "system":
    case "agent_note":
    case "tool_revert":
    case "error":
    case "mode_change":
    case "session_event":
    case "sub_agent_progress":
    case "steering_inclusion":
    case "turn_start":
    case "tombstone":
    case "usage_summary":
    case "ContextualHookInvoked":
    case "pending_interaction":
    case "interaction_resolved":
    case "session_metadata":
    case "session_start":
      break;
    default:
      kind satisfies never;
  }
}
