/**
 * The Gemini CLI codec's reader (`toCommon`): session records -> the
 * canonical model, replaying the file as the CLI loads it. Pure: no I/O, no
 * clock, no randomness. codec.ts pairs it with the writer; what it reads is
 * described there.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type ToolResultBlock,
  type Usage,
} from "../../common.js";
import { blockToJson } from "../../common-json.js";
import type { Timestamp } from "../../time.js";
import type { Common, Transcript } from "../../transcript.js";
import {
  GeminiReplay,
  imageBlock,
  nameOf,
  partsOf,
  partsText,
  placeholder,
  usageFromCounts,
} from "../shared/gemini-parts.js";
import { assistantMessage, blockList } from "../shared/slim.js";
import { type Conversation, type GeminiBody, type MessageRecord, replay } from "./body.js";
import { isInjected } from "./records.js";
import { callToTool, SHELL } from "./tools.js";

/** `tokens` in Anthropic's terms (see usageFromCounts). */
function usageFromTokens(tokens: Json | undefined): Usage | undefined {
  return usageFromCounts(tokens, {
    input: "input",
    output: "output",
    cached: "cached",
    thoughts: "thoughts",
  });
}

/** `**subject** description`, the text the CLI replays a thought summary as. */
function thoughtText(thought: JsonObject): string {
  const subject = typeof thought.subject === "string" ? thought.subject : "";
  const description = typeof thought.description === "string" ? thought.description : "";
  return subject ? `**${subject}** ${description}` : description;
}

class Reader extends GeminiReplay {
  /** functionResponse parts (and what rides with them) as tool_result blocks, answered once. */
  private results(parts: readonly JsonObject[], fallbackId?: string, status?: Json): Block[] {
    const out: Block[] = [];
    let last: ToolResultBlock | undefined;
    for (const p of parts) {
      const fr = p.functionResponse;
      if (isJsonObject(fr)) {
        last = this.calls.answer(
          fr,
          fallbackId ?? "",
          status === "error" || status === "cancelled",
        );
        if (last !== undefined) out.push(last);
      } else if (last !== undefined) {
        // Media or text a tool returned beside its response (read_file of an image).
        const extra: Block | undefined = isJsonObject(p.inlineData)
          ? imageBlock(p.inlineData)
          : typeof p.text === "string"
            ? { type: "text", text: p.text }
            : placeholder(p);
        if (extra === undefined) continue;
        const prior: Json[] =
          typeof last.content === "string"
            ? [{ type: "text", text: last.content }]
            : Array.isArray(last.content)
              ? last.content
              : [last.content];
        last.content = [...prior, blockToJson(extra)];
      }
    }
    return out;
  }

  user(record: MessageRecord): void {
    const parts = partsOf(record.content);
    if (isInjected(partsText(parts))) return;
    const blocks: Block[] = [];
    for (const p of parts) {
      if (isJsonObject(p.functionResponse)) blocks.push(...this.results([p]));
      else if (typeof p.text === "string" && p.thought === undefined) {
        if (p.text !== "") blocks.push({ type: "text", text: p.text });
      } else if (isJsonObject(p.inlineData)) blocks.push(imageBlock(p.inlineData));
      else {
        const b = placeholder(p);
        if (b) blocks.push(b);
      }
    }
    if (blocks.length === 0) return;
    this.messages.push({
      role: "user",
      content: blockList(blocks),
      timestamp: this.ts(record.timestamp),
    });
  }

  gemini(record: MessageRecord): void {
    const parts = partsOf(record.content);
    const modern = parts.some((p) => isJsonObject(p.functionCall) || p.thought !== undefined);
    const toolCalls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isJsonObject) : [];
    const content: Block[] = [];
    if (!modern && Array.isArray(record.thoughts)) {
      for (const t of record.thoughts) {
        if (isJsonObject(t)) content.push({ type: "thinking", text: thoughtText(t) });
      }
    }
    const call = (id: string, callName: string, args: Json) => {
      this.calls.called(id, callName);
      content.push({ type: "tool_use", id, tool: callToTool(callName, args) });
    };
    parts.forEach((p, i) => {
      if (isJsonObject(p.functionCall)) {
        const fc = p.functionCall;
        call(
          nameOf(fc.id, `${record.id}-call-${i}`),
          nameOf(fc.name, "function"),
          fc.args === undefined ? {} : fc.args,
        );
      } else if (p.thought !== undefined && p.thought !== false) {
        if (typeof p.text === "string") content.push({ type: "thinking", text: p.text });
      } else if (typeof p.text === "string") {
        if (p.text !== "") content.push({ type: "text", text: p.text });
      } else if (isJsonObject(p.inlineData)) {
        content.push({ type: "text", text: partsText([p]) });
      } else {
        const b = placeholder(p);
        if (b) content.push(b);
      }
    });
    if (!modern) {
      toolCalls.forEach((tc, i) => {
        call(
          nameOf(tc.id, `${record.id}-call-${i}`),
          nameOf(tc.name, "function"),
          tc.args === undefined ? {} : tc.args,
        );
      });
    }
    if (content.length === 0) return;
    this.messages.push(
      assistantMessage(blockList(content), this.ts(record.timestamp), {
        model:
          typeof record.model === "string" && record.model !== ""
            ? this.models.same(record.model)
            : undefined,
        usage: usageFromTokens(record.tokens),
      }),
    );

    // The calls' results, as the CLI replays them right after the model turn.
    const results: Block[] = [];
    let at: Json | undefined;
    toolCalls.forEach((tc, i) => {
      const id = nameOf(tc.id, `${record.id}-call-${i}`);
      const result = tc.result;
      if (result === undefined || result === null || result === "") return;
      const parts: JsonObject[] =
        typeof result === "string"
          ? [{ functionResponse: { id, name: nameOf(tc.name, ""), response: { output: result } } }]
          : partsOf(result);
      const blocks = this.results(parts, id, tc.status);
      if (blocks.length > 0) at ??= tc.timestamp;
      results.push(...blocks);
    });
    if (results.length > 0) {
      this.messages.push({ role: "user", content: blockList(results), timestamp: this.ts(at) });
    }
  }
}

/** The conversation's messages as Common, in the order the CLI replays them. */
function conversationMessages(conversation: Conversation, start: Timestamp): Message[] {
  const reader = new Reader(SHELL, start);
  for (const record of conversation.messages) {
    switch (record.type) {
      case "user":
        reader.user(record);
        break;
      case "gemini":
        reader.gemini(record);
        break;
      default:
        break; // info, error, warning: the CLI's own notices, not conversation
    }
  }
  return reader.messages;
}

export function geminiToCommon(transcript: Transcript<GeminiBody>): Transcript<Common> {
  const conversation = replay(transcript.body.lines);
  const body = conversation ? conversationMessages(conversation, transcript.meta.timestamp) : [];
  return { meta: transcript.meta, body };
}
