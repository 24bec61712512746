/**
 * Copilot CLI Body <-> Common. Pure. A `user.message` becomes a user
 * message (its `content`, not the `transformedContent` the model was sent,
 * and its images, inline or interned as a `session.binary_asset`); an
 * `assistant.message` an assistant message (reasoning with its opaque
 * signature, text, `toolRequests` as tool calls, its model, and the usage
 * of the `session.usage_record` before it); consecutive
 * `tool.execution_complete` events one user message of results (an error
 * when `success` is false or the shell exited non-zero). A sub-agent's
 * events (an `agentId`) are not the session's messages: its last answer is
 * the result of the tool call that spawned it when that result is empty.
 * Every other event stays in the Body. fromCommon writes those same
 * events, deterministic (ids from UUIDv5), with the `session.start` and
 * `workspace.yaml` the CLI needs to list and resume the session.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Usage,
} from "../../common.js";
import { stableUuid } from "../../ids.js";
import { assignDefined, defined } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { artifactText, resultText } from "../shared/results.js";
import { type CopilotBody, type CopilotEvent, eventsOf, messageGroups } from "./body.js";
import { copilotMeta } from "./meta.js";
import { toolFromCopilot, toolToCopilot } from "./tools.js";

/**
 * The Copilot CLI release whose event format the writer follows, written
 * as `session.start`'s `copilotVersion` (1.0.102 refuses a session without
 * one: "Session file is corrupted (line 1: missing field `copilotVersion`)").
 */
const WRITER_VERSION = "1.0.102";

/** A `session.binary_asset`'s bytes by its `assetId`. */
type Assets = ReadonlyMap<string, { data: string; mimeType: string }>;

/**
 * In one walk of the events: the `session.binary_asset` bytes by id, and
 * each sub-agent's last answer, by the tool call that spawned it: a
 * `subagent.started` names the call (`data.toolCallId`) and the agent
 * (`agentId`); the agent's `assistant.message` events carry that `agentId`.
 */
function sideTables(events: Iterable<CopilotEvent>): {
  assets: Assets;
  answers: Map<string, string>;
} {
  const assets = new Map<string, { data: string; mimeType: string }>();
  const callOf = new Map<string, string>();
  const answers = new Map<string, string>();
  for (const e of events) {
    if (e.type === "session.binary_asset") {
      const id = str(e.data, "assetId");
      const data = str(e.data, "data");
      if (id !== undefined && data !== undefined)
        assets.set(id, { data, mimeType: str(e.data, "mimeType") ?? "" });
    }
    if (e.agentId === undefined) continue;
    if (e.type === "subagent.started") {
      const call = str(e.data, "toolCallId");
      if (call !== undefined) callOf.set(e.agentId, call);
    } else if (e.type === "assistant.message") {
      const call = callOf.get(e.agentId);
      const text = str(e.data, "content");
      if (call !== undefined && text) answers.set(call, text);
    }
  }
  return { assets, answers };
}

function count(v: Json | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

function usageOf(record: CopilotEvent | undefined): Usage | undefined {
  const u = obj(record?.data, "usage");
  if (u === undefined) return undefined;
  const usage: Usage = { input_tokens: count(u.inputTokens), output_tokens: count(u.outputTokens) };
  if (count(u.cacheReadTokens) > 0) usage.cache_read_input_tokens = count(u.cacheReadTokens);
  if (count(u.cacheWriteTokens) > 0) usage.cache_creation_input_tokens = count(u.cacheWriteTokens);
  return usage;
}

function resultBlock(e: CopilotEvent, answers: ReadonlyMap<string, string>): Block {
  const d = e.data;
  const result = obj(d, "result");
  let content: Json =
    result === undefined ? (str(obj(d, "error"), "message") ?? "") : (result.content ?? "");
  const answer = answers.get(str(d, "toolCallId") ?? "");
  if (answer !== undefined && (content === "" || content === null)) content = answer;
  const exit = obj(d, "shellExecution")?.exitCode;
  const failed = d.success === false || (typeof exit === "number" && exit !== 0);
  const block: Block = { type: "tool_result", tool_use_id: str(d, "toolCallId") ?? "", content };
  if (failed) block.is_error = true;
  return block;
}

/**
 * A prompt's text, then its images: a `blob` attachment's inline `data`,
 * or the bytes of the `session.binary_asset` an attachment's `assetId`
 * names (the CLI interns an image so) when they are an image.
 */
function userBlocks(d: JsonObject, assets: Assets): Block[] {
  const blocks: Block[] = [];
  const images: Block[] = [];
  for (const a of Array.isArray(d.attachments) ? d.attachments : []) {
    if (!isJsonObject(a)) continue;
    const inline = a.type === "blob" ? str(a, "data") : undefined;
    const asset = assets.get(str(a, "assetId") ?? "");
    const mime = str(a, "mimeType") ?? asset?.mimeType ?? "";
    const data = inline ?? (mime.startsWith("image/") ? asset?.data : undefined);
    if (data !== undefined)
      images.push({ type: "image", source: { type: "base64", media_type: mime, data } });
  }
  const text = str(d, "content") ?? "";
  if (text !== "" || images.length === 0) blocks.push({ type: "text", text });
  return [...blocks, ...images];
}

function assistantOf(d: JsonObject): Block[] {
  const blocks: Block[] = [];
  const reasoning = str(d, "reasoningText");
  const signature = str(d, "reasoningOpaque");
  if (reasoning !== undefined && reasoning !== "") {
    const b: Block = { type: "thinking", text: reasoning };
    if (signature) b.signature = signature;
    blocks.push(b);
  }
  const text = str(d, "content");
  if (text) blocks.push({ type: "text", text });
  const requests = Array.isArray(d.toolRequests) ? d.toolRequests : [];
  for (const r of requests) {
    if (!isJsonObject(r)) continue;
    blocks.push({
      type: "tool_use",
      id: str(r, "toolCallId") ?? "",
      tool: toolFromCopilot(str(r, "name") ?? "", r.arguments === undefined ? {} : r.arguments),
    });
  }
  return blocks;
}

function toCommon(t: Transcript<CopilotBody>): Transcript<Common> {
  // Events are parsed as each walk reads them (meta, side tables, messages), never all held.
  const events = eventsOf(t.body.lines);
  const meta = copilotMeta(events, t.meta.id, t.body.workspace);
  const { assets, answers } = sideTables(events);
  const body: Message[] = [];
  let previous = meta.timestamp;
  /**
   * The main agent's usage records read so far and not yet given to a
   * message: a record sits before its assistant message, which takes the
   * last one before it.
   */
  const records: CopilotEvent[] = [];
  function* noted(): Generator<CopilotEvent> {
    for (const e of events) {
      if (e.type === "session.usage_record" && e.agentId === undefined) records.push(e);
      yield e;
    }
  }
  // A message's group comes as soon as its event is read: `records` then holds those before it.
  for (const group of messageGroups(noted())) {
    const first = group[0];
    if (first === undefined) continue;
    const timestamp = normalizeTimestamp(first.timestamp ?? "") ?? previous;
    previous = timestamp;
    if (first.type === "tool.execution_complete") {
      body.push({ role: "user", content: group.map((e) => resultBlock(e, answers)), timestamp });
    } else if (first.type === "user.message") {
      body.push({ role: "user", content: userBlocks(first.data, assets), timestamp });
    } else {
      const message: Message = { role: "assistant", content: assistantOf(first.data), timestamp };
      const model = str(first.data, "model");
      if (model) message.model = model;
      const u = usageOf(records.at(-1));
      // A record already given to an earlier message is not counted twice.
      if (u !== undefined) {
        message.usage = u;
        records.pop();
      }
      body.push(message);
    }
  }
  return { meta: { ...t.meta, ...meta }, body };
}

// ---------------------------------------------------------------------------
// Common -> Copilot events

/** The lines are made as they are walked (`Lines.generated`): a save writes each as it is made. */
function fromCommon(t: Transcript<Common>): Transcript<CopilotBody> {
  const id = t.meta.id;
  const workspace: JsonObject = {
    id,
    ...defined({ cwd: t.meta.cwd, branch: t.meta.git_branch, name: t.meta.title }),
    user_named: false,
    summary_count: 0,
    fork_count: 0,
    created_at: t.meta.timestamp,
    updated_at: t.body.at(-1)?.timestamp ?? t.meta.timestamp,
  };
  return { meta: t.meta, body: { lines: Lines.generated(() => copilotLines(t)), workspace } };
}

/** The events file's lines, a message at a time: the same on every walk. */
function* copilotLines(t: Transcript<Common>): Generator<VerbatimLine> {
  const id = t.meta.id;
  let n = 0;
  let parent: string | null = null;
  /** Lines made and not yet taken. */
  let lines: VerbatimLine[] = [];
  const take = (): VerbatimLine[] => {
    const made = lines;
    lines = [];
    return made;
  };
  const push = (type: string, data: JsonObject, timestamp: Timestamp) => {
    const eid = stableUuid("copilot-event", id, n++);
    lines.push({
      text: JSON.stringify({ type, data, id: eid, timestamp, parentId: parent }),
      eol: "\n",
    });
    parent = eid;
  };
  const context: JsonObject = {};
  assignDefined(context, "cwd", t.meta.cwd);
  assignDefined(context, "branch", t.meta.git_branch);
  const start: JsonObject = {
    sessionId: id,
    version: 1,
    producer: "txcript",
    copilotVersion: WRITER_VERSION,
    startTime: t.meta.timestamp,
    context,
  };
  assignDefined(start, "selectedModel", t.meta.model);
  push("session.start", start, t.meta.timestamp);
  // Calls written as `bash`: a failed one is recorded the CLI's way (below).
  const shells = new Set<string>();
  for (const m of t.body) {
    yield* take();
    if (m.role === "assistant") {
      const data: JsonObject = {
        messageId: stableUuid("copilot-message", id, n),
        content: "",
        toolRequests: [],
      };
      const texts: string[] = [];
      const requests: JsonObject[] = [];
      for (const b of m.content) {
        if (b.type === "thinking" && data.reasoningText === undefined) {
          data.reasoningText = b.text;
          assignDefined(data, "reasoningOpaque", b.signature);
        } else if (b.type === "thinking") texts.push(b.text);
        else if (b.type === "tool_use") {
          const { name, arguments: args } = toolToCopilot(b.tool);
          if (name === "bash") shells.add(b.id);
          requests.push({ toolCallId: b.id, name, arguments: args, type: "function" });
        } else if (b.type === "text") texts.push(b.text);
        else if (b.type === "artifact") texts.push(artifactText(b));
        else if (b.type === "tool_result") texts.push(resultText(b.content));
      }
      data.content = texts.join("\n\n");
      data.toolRequests = requests;
      assignDefined(data, "model", m.model);
      if (m.usage !== undefined) {
        const u: JsonObject = {
          inputTokens: m.usage.input_tokens,
          outputTokens: m.usage.output_tokens,
        };
        u.cacheReadTokens = m.usage.cache_read_input_tokens ?? 0;
        u.cacheWriteTokens = m.usage.cache_creation_input_tokens ?? 0;
        assignDefined(u, "model", m.model);
        push("session.usage_record", { usage: u }, m.timestamp);
      }
      push("assistant.message", data, m.timestamp);
      continue;
    }
    const texts: string[] = [];
    const images: JsonObject[] = [];
    const flush = () => {
      if (texts.length > 0 || images.length > 0) {
        const data: JsonObject = { content: texts.join("\n\n") };
        if (images.length > 0) data.attachments = [...images];
        push("user.message", data, m.timestamp);
      }
      texts.length = 0;
      images.length = 0;
    };
    for (const b of m.content) {
      if (b.type === "tool_result") {
        flush();
        const ok = {
          toolCallId: b.tool_use_id,
          success: true,
          result: { content: resultText(b.content) },
        };
        push(
          "tool.execution_complete",
          b.is_error !== true
            ? ok
            : shells.has(b.tool_use_id)
              ? // The CLI records a failed command as done, with its exit code (Common keeps none: 1).
                { ...ok, shellExecution: { exitCode: 1 } }
              : // The CLI replays a failed call's `error.message`, not its result.
                {
                  toolCallId: b.tool_use_id,
                  success: false,
                  error: { message: resultText(b.content) },
                },
          m.timestamp,
        );
      } else if (b.type === "text") texts.push(b.text);
      else if (b.type === "artifact") texts.push(artifactText(b));
      else if (b.type === "thinking") texts.push(b.text);
      else if (b.type === "tool_use") texts.push(JSON.stringify(toolToCopilot(b.tool)));
      else if (b.type === "image")
        images.push({ type: "blob", data: b.source.data, mimeType: b.source.media_type });
    }
    flush();
  }
  yield* take();
}

export const copilotCodec: Codec<CopilotBody> = { toCommon, fromCommon };
