/**
 * Crush Body <-> Common: the reader is read.ts; this file writes. Pure
 * and deterministic (ids are UUIDv5 over the session id and the row's
 * place). A Common user message becomes a `tool` row for its tool results
 * and a `user` row for the rest, in that order; an assistant message one
 * `assistant` row. docs/formats/crush.md, "What conversion loses".
 */

import type { Block, JsonObject, Message, StopReason } from "../../common.js";
import { stableUuid } from "../../ids.js";
import { assignDefined } from "../../json.js";
import { type Timestamp, timestampToEpoch } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { artifactText } from "../shared/results.js";
import type { CrushBody } from "./body.js";
import { crushToCommon } from "./read.js";
import { toolToCrush } from "./tools.js";

function seconds(ts: Timestamp): number {
  return timestampToEpoch(ts).seconds;
}

/** A Common stop reason as a `finish` part's reason (Crush calls an aborted turn `canceled`). */
function finishReason(reason: StopReason): string {
  if (typeof reason !== "string") return reason.other;
  return reason === "aborted" ? "canceled" : reason;
}

function wrap(type: string, data: JsonObject): JsonObject {
  return { type, data };
}

/** One block as a Crush part (`names` maps a call id to its tool's Crush name). */
function partOf(block: Block, names: ReadonlyMap<string, string>): JsonObject {
  switch (block.type) {
    case "text":
      return wrap("text", { text: block.text });
    case "thinking":
      return wrap("reasoning", {
        thinking: block.text,
        signature: block.signature ?? "",
        thought_signature: "",
        tool_id: "",
        responses_data: null,
      });
    case "image":
      return wrap("binary", {
        Path: "",
        MIMEType: block.source.media_type,
        Data: block.source.data,
      });
    case "artifact":
      return wrap("text", { text: artifactText(block) });
    case "tool_use": {
      const { name, input } = toolToCrush(block.tool);
      return wrap("tool_call", {
        id: block.id,
        name,
        input: JSON.stringify(input),
        provider_executed: false,
        finished: true,
      });
    }
    case "tool_result":
      return wrap("tool_result", {
        tool_call_id: block.tool_use_id,
        name: names.get(block.tool_use_id) ?? "",
        content: typeof block.content === "string" ? block.content : JSON.stringify(block.content),
        data: "",
        mime_type: "",
        metadata: "",
        is_error: block.is_error === true,
      });
    default:
      return block satisfies never;
  }
}

/** The rows one Common message becomes: role and blocks. */
function rowsOf(m: Message): { role: string; blocks: Block[] }[] {
  if (m.role === "assistant") return [{ role: "assistant", blocks: m.content }];
  const results = m.content.filter((b) => b.type === "tool_result");
  const rest = m.content.filter((b) => b.type !== "tool_result");
  return [
    ...(results.length > 0 ? [{ role: "tool", blocks: results }] : []),
    ...(rest.length > 0 ? [{ role: "user", blocks: rest }] : []),
  ];
}

function fromCommon(t: Transcript<Common>): Transcript<CrushBody> {
  const id = t.meta.id;
  const names = new Map<string, string>();
  for (const m of t.body)
    for (const b of m.content) if (b.type === "tool_use") names.set(b.id, toolToCrush(b.tool).name);
  const messages: JsonObject[] = [];
  // Crush lists a session's rows by created_at: a message timed before the
  // one it follows takes that one's time, so the order stays the conversation's.
  let earliest = Number.NEGATIVE_INFINITY;
  for (const m of t.body) {
    const at = Math.max(seconds(m.timestamp), earliest);
    earliest = at;
    for (const { role, blocks } of rowsOf(m)) {
      const parts = blocks.map((b) => partOf(b, names));
      let finished: number | null = null;
      if (role !== "assistant") {
        // Crush closes every prompt and tool row with a `stop` finish.
        parts.push(wrap("finish", { reason: "stop", time: 0 }));
      } else {
        // A turn with no stop reason still ends: Crush reads a row without a
        // finish as one still streaming, so it gets Crush's own `unknown`.
        const reason = m.stop_reason === undefined ? "unknown" : finishReason(m.stop_reason);
        parts.push(wrap("finish", { reason, time: at }));
        finished = at;
      }
      const model = role === "assistant" ? (m.model ?? t.meta.model) : undefined;
      messages.push({
        id: stableUuid("crush", id, messages.length),
        session_id: id,
        role,
        parts: JSON.stringify(parts),
        model: model ?? "",
        created_at: at,
        updated_at: at,
        finished_at: finished,
        provider: null,
        is_summary_message: 0,
      });
    }
  }
  const last = t.body.at(-1)?.timestamp ?? t.meta.timestamp;
  const session: JsonObject = {
    id,
    parent_session_id: null,
    title: t.meta.title ?? "",
    message_count: messages.length,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    updated_at: seconds(last),
    created_at: seconds(t.meta.timestamp),
    summary_message_id: null,
    todos: null,
  };
  const body: CrushBody = { session, messages };
  assignDefined(body, "cwd", t.meta.cwd);
  return { meta: t.meta, body };
}

export const crushCodec: Codec<CrushBody> = { toCommon: crushToCommon, fromCommon };
