/**
 * The Codex codec's reader (`toCommon`): rollout lines -> the canonical
 * model. Pure: no I/O, no clock, no randomness. codec.ts pairs it with the
 * writer; what it reads is described there.
 */

import {
  type Block,
  type ImageSource,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
  totalTokens,
  type Usage,
} from "../../common.js";
import { assignDefined, parseBounded } from "../../json.js";
import { normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Common, Transcript } from "../../transcript.js";
import { type CodexBody, type Envelope, readEnvelope, SCAFFOLDING_PREFIXES } from "./body.js";
import { firstPrompt } from "./text.js";
import { customCallToTool, functionCallToTool, localShellToTool } from "./tools.js";

function isScaffolding(text: string): boolean {
  const t = text.trimStart();
  return SCAFFOLDING_PREFIXES.some((p) => t.startsWith(p));
}

const DATA_URL = /^data:([^;,]*)(;[^,]*)?,/;

/** An image URL (a `data:` URL in files Codex writes) as an image source. */
function imageFromUrl(url: string): ImageSource {
  const m = DATA_URL.exec(url);
  if (m && (m[2] ?? "").split(";").includes("base64")) {
    return {
      type: "base64",
      media_type: m[1] || "application/octet-stream",
      data: url.slice(m[0].length),
    };
  }
  return { type: "url", media_type: "", data: url };
}

export function imageToUrl(source: ImageSource): string {
  return source.type === "base64" ? `data:${source.media_type};base64,${source.data}` : source.data;
}

/** Message content items as blocks; undefined items and unknown kinds are skipped. */
function contentBlocks(content: unknown, dropScaffolding: boolean): Block[] {
  if (typeof content === "string") {
    return dropScaffolding && isScaffolding(content) ? [] : [{ type: "text", text: content }];
  }
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const item of content) {
    if (!isJsonObject(item)) continue;
    const it = item;
    if (
      (it.type === "input_text" || it.type === "output_text" || it.type === "text") &&
      typeof it.text === "string"
    ) {
      if (dropScaffolding && isScaffolding(it.text)) continue;
      blocks.push({ type: "text", text: it.text });
    } else if (it.type === "input_image" && typeof it.image_url === "string") {
      blocks.push({ type: "image", source: imageFromUrl(it.image_url) });
    }
  }
  return blocks;
}

/** A tool output (string, content items, or the old `{content, success}` object) in Common. */
function outputToCommon(output: Json | undefined): { content: Json; is_error: boolean } {
  if (typeof output === "string") return { content: output, is_error: false };
  if (Array.isArray(output)) {
    const blocks: Json[] = output.map((item) => {
      if (isJsonObject(item)) {
        const it = item;
        if (it.type === "input_text" && typeof it.text === "string") {
          return { type: "text", text: it.text };
        }
        if (it.type === "input_image" && typeof it.image_url === "string") {
          const source = imageFromUrl(it.image_url);
          return {
            type: "image",
            source: { type: source.type, media_type: source.media_type, data: source.data },
          };
        }
      }
      return item;
    });
    return { content: blocks, is_error: false };
  }
  if (isJsonObject(output)) {
    const o = output;
    if (
      typeof o.content === "string" &&
      Object.keys(o).every((k) => k === "content" || k === "success")
    ) {
      return { content: o.content, is_error: o.success === false };
    }
  }
  return { content: output ?? null, is_error: false };
}

/** The older shell and patch output: JSON text `{output, metadata:{exit_code, ...}}`. */
function legacyShellOutput(text: string): { content: string; is_error: boolean } | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const v = parseBounded(text)?.value;
    if (v === undefined || !isJsonObject(v)) return undefined;
    const o = v;
    const meta = o.metadata;
    if (typeof o.output !== "string" || !isJsonObject(meta)) return undefined;
    const code = meta.exit_code;
    if (typeof code !== "number") return undefined;
    return { content: o.output, is_error: code !== 0 };
  } catch {
    return undefined;
  }
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * `token_count.info.last_token_usage` in Anthropic's terms. OpenAI's
 * input_tokens include the cached ones; Anthropic's input_tokens do not.
 */
function usageFromTokenCount(payload: JsonObject): Usage | undefined {
  const info = payload.info;
  if (!isJsonObject(info)) return undefined;
  const last = info.last_token_usage;
  if (!isJsonObject(last)) return undefined;
  return usageFromCounters(last);
}

/** A Codex usage object (`input_tokens`, `cached_input_tokens`, `output_tokens`) in Anthropic's terms. */
function usageFromCounters(u: JsonObject): Usage | undefined {
  const input = count(u.input_tokens);
  const output = count(u.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  const cached = count(u.cached_input_tokens);
  const usage: Usage = { input_tokens: Math.max(0, input - (cached ?? 0)), output_tokens: output };
  assignDefined(usage, "cache_read_input_tokens", cached);
  return usage;
}

/** The cumulative counters of a token_count, as a key that repeats when the count does. */
function totalKey(payload: JsonObject): { key: string; total: JsonObject } | undefined {
  const info = payload.info;
  if (!isJsonObject(info) || !isJsonObject(info.total_token_usage)) return undefined;
  const t = info.total_token_usage;
  const counts = ["input_tokens", "output_tokens"].map((k) => count(t[k]));
  // Totals that are not counts (missing, or past what a number holds) say nothing.
  if (counts.some((n) => n === undefined)) return undefined;
  const key = ["input_tokens", "cached_input_tokens", "output_tokens", "total_tokens"]
    .map((k) => String(count(t[k]) ?? ""))
    .join(",");
  return { key, total: t };
}

/** `now - before` for each counter: a response's usage when only the running totals are written. */
function counterDelta(now: JsonObject, before: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  for (const k of ["input_tokens", "cached_input_tokens", "output_tokens"]) {
    // A counter that is not a count leaves the usage unknown, never a guess.
    const n = count(now[k]);
    if (n !== undefined) out[k] = Math.max(0, n - (before ? (count(before[k]) ?? 0) : 0));
  }
  return out;
}

function addUsage(into: Usage, more: Usage): void {
  into.input_tokens += more.input_tokens;
  into.output_tokens += more.output_tokens;
  if (more.cache_read_input_tokens !== undefined)
    into.cache_read_input_tokens =
      (into.cache_read_input_tokens ?? 0) + more.cache_read_input_tokens;
}

function execOutput(payload: JsonObject): { content: string; is_error: boolean } {
  const agg = payload.aggregated_output;
  const content =
    typeof agg === "string" && agg !== ""
      ? agg
      : `${typeof payload.stdout === "string" ? payload.stdout : ""}${
          typeof payload.stderr === "string" ? payload.stderr : ""
        }`;
  const code = payload.exit_code;
  return { content, is_error: typeof code === "number" && code !== 0 };
}

function reasoningText(payload: JsonObject): string {
  const texts = (items: unknown, kinds: readonly string[]): string[] =>
    Array.isArray(items)
      ? items.flatMap((s) =>
          isJsonObject(s) &&
          typeof s.type === "string" &&
          kinds.includes(s.type) &&
          typeof s.text === "string"
            ? [s.text]
            : [],
        )
      : [];
  const summary = texts(payload.summary, ["summary_text"]);
  // Models that expose raw reasoning put it in `content` instead of a summary.
  const parts = summary.length > 0 ? summary : texts(payload.content, ["reasoning_text", "text"]);
  return parts.join("\n\n");
}

type Group = "assistant" | "results" | "prompt" | undefined;

/** An open message's content until it closes (never written to: blocks gather apart). */
const NO_BLOCKS: Block[] = [];

export function codexToCommon(transcript: Transcript<CodexBody>): Transcript<Common> {
  const lines = transcript.body.lines;
  // Each line is parsed when it is reached and not kept (docs/architecture.md,
  // "Large sessions"); a first pass reads only the exec_command_end events.
  // A line without that word, nor a \u escape that could spell it, is none.
  const execEnds = new Map<string, JsonObject>();
  for (const { text } of lines) {
    if (!text.includes("exec_command_end") && !text.includes("\\u")) continue;
    const env = readEnvelope(text);
    if (env?.type !== "event_msg" || env.payload.type !== "exec_command_end") continue;
    const id = env.payload.call_id;
    if (typeof id === "string" && !execEnds.has(id)) execEnds.set(id, env.payload);
  }

  const messages: Message[] = [];
  let group: Group;
  let model: string | undefined;
  let lastTs: Timestamp = transcript.meta.timestamp;
  let lastRaw: string | undefined;
  let lastAssistant: Message | undefined;
  /** The running totals of the last token_count that had them: a repeat of them is no new usage. */
  let lastTotal: { key: string; total: JsonObject } | undefined;
  /**
   * Calls seen, by call_id, and whether each is a shell or patch call, whose
   * output older builds wrote as JSON text `{output, metadata:{exit_code}}`.
   */
  const calls = new Map<string, { exec: boolean }>();
  const answered = new Set<string>();
  /** web_search_call items wait for their web_search_end, in order. */
  const searches: { block: Block & { type: "tool_use" }; answered: boolean }[] = [];

  /**
   * The open message's blocks gather in one reused array; a message closed
   * gets an exact copy (see exactArray). A fresh array per message, grown
   * by push and then copied, left two dead arrays per message in the old
   * generation (about 180 bytes a message, 40 MB in a 43 MB rollout).
   */
  const gathered: Block[] = [];
  const close = (): void => {
    const last = messages[messages.length - 1];
    if (last && gathered.length > 0) last.content = gathered.slice();
    gathered.length = 0;
  };
  const open = (role: "assistant" | "user", kind: Group, ts: Timestamp): Block[] => {
    const last = messages[messages.length - 1];
    if (group === kind && last) return gathered;
    close();
    // The model in the literal: added after, it would cost a property store of its own.
    const m: Message =
      role === "assistant" && model !== undefined
        ? { role, content: NO_BLOCKS, timestamp: ts, model }
        : { role, content: NO_BLOCKS, timestamp: ts };
    messages.push(m);
    group = kind;
    if (role === "assistant") lastAssistant = m;
    return gathered;
  };
  const addCall = (id: string, tool: Tool, ts: Timestamp): void => {
    if (answered.has(id)) answered.delete(id); // a reused call_id starts a new call
    const patch = tool.name === "Raw" && tool.tool_name === "apply_patch";
    calls.set(id, {
      exec: tool.name === "Bash" || tool.name === "Write" || tool.name === "Edit" || patch,
    });
    open("assistant", "assistant", ts).push({ type: "tool_use", id, tool });
  };
  const addResult = (id: string, content: Json, isError: boolean, ts: Timestamp): void => {
    answered.add(id);
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: id, content };
    if (isError) block.is_error = true;
    open("user", "results", ts).push(block);
  };

  const readLine = (env: Envelope | undefined, index: number): void => {
    if (!env) return;
    // A line stamped as the one before shares its normalized string (Codex
    // stamps an item and its display mirror alike): one string, not one a message.
    const raw = typeof env.timestamp === "string" ? env.timestamp : undefined;
    const ts =
      raw !== undefined && raw === lastRaw ? lastTs : (raw && normalizeTimestamp(raw)) || lastTs;
    lastRaw = raw;
    lastTs = ts;
    const p = env.payload;
    switch (env.type) {
      case "turn_context":
        if (typeof p.model === "string" && p.model !== "") model = p.model;
        if (group === "assistant") group = undefined;
        return;
      case "event_msg":
        switch (p.type) {
          case "token_count": {
            // Codex repeats a count (same running totals) and some builds write
            // only the totals: each response's usage is its last_token_usage,
            // else the growth of the totals, and a repeated total adds nothing.
            const total = totalKey(p);
            const repeated = total !== undefined && total.key === lastTotal?.key;
            // The totals stand in only when no last_token_usage was written at all.
            const hasLast = isJsonObject(p.info) && p.info.last_token_usage !== undefined;
            let usage = repeated
              ? undefined
              : hasLast
                ? usageFromTokenCount(p)
                : total
                  ? usageFromCounters(counterDelta(total.total, lastTotal?.total))
                  : undefined;
            if (repeated && lastAssistant && !lastAssistant.usage) {
              // Unchanged totals after a new response: that response used nothing.
              const zero = usageFromTokenCount(p);
              if (zero && totalTokens(zero) === 0) usage = zero;
            }
            if (total !== undefined) lastTotal = total;
            if (usage && lastAssistant) {
              // Usage reported after a tool's output still belongs to the last response.
              if (!lastAssistant.usage) lastAssistant.usage = usage;
              else addUsage(lastAssistant.usage, usage);
            }
            // A token_count ends a model response: what follows is a new message.
            if (group === "assistant") group = undefined;
            return;
          }
          case "exec_command_end": {
            const id = p.call_id;
            if (typeof id !== "string" || !calls.has(id) || answered.has(id)) return;
            const out = execOutput(execEnds.get(id) ?? p);
            addResult(id, out.content, out.is_error, ts);
            return;
          }
          case "web_search_end": {
            const pending = searches.find((s) => !s.answered);
            if (!pending) return;
            pending.answered = true;
            if (typeof p.call_id === "string" && p.call_id !== "") pending.block.id = p.call_id;
            const query = typeof p.query === "string" ? p.query : "";
            calls.set(pending.block.id, { exec: false });
            addResult(pending.block.id, query, false, ts);
            return;
          }
          default:
            return; // display mirrors and lifecycle events carry nothing new
        }
      case "response_item":
        break;
      default:
        return; // session_meta, compacted, and kinds this version does not know
    }
    const callId = typeof p.call_id === "string" && p.call_id !== "" ? p.call_id : undefined;
    switch (p.type) {
      case "message": {
        if (p.role === "user") {
          const blocks = contentBlocks(p.content, true);
          if (blocks.length === 0) return;
          group = undefined; // every prompt is a message of its own
          open("user", "prompt", ts).push(...blocks);
        } else if (p.role === "assistant") {
          const blocks = contentBlocks(p.content, false);
          if (blocks.length > 0) open("assistant", "assistant", ts).push(...blocks);
        }
        return;
      }
      case "reasoning": {
        const text = reasoningText(p);
        const encrypted =
          typeof p.encrypted_content === "string" && p.encrypted_content !== ""
            ? p.encrypted_content
            : undefined;
        if (text === "" && encrypted === undefined) return;
        const block: Block = { type: "thinking", text };
        assignDefined(block, "encrypted", encrypted);
        open("assistant", "assistant", ts).push(block);
        return;
      }
      case "function_call": {
        const name = typeof p.name === "string" && p.name !== "" ? p.name : "function";
        let parsed: Json | undefined;
        // Arguments nested absurdly deep stay a string (what rendering would recurse on).
        if (typeof p.arguments === "string") parsed = parseBounded(p.arguments)?.value;
        else if (p.arguments !== undefined) parsed = p.arguments;
        addCall(
          callId ?? `call_line_${index + 1}`,
          functionCallToTool(name, p.arguments, parsed),
          ts,
        );
        return;
      }
      case "custom_tool_call": {
        const name = typeof p.name === "string" && p.name !== "" ? p.name : "custom_tool";
        const input = typeof p.input === "string" ? p.input : JSON.stringify(p.input ?? null);
        addCall(callId ?? `call_line_${index + 1}`, customCallToTool(name, input), ts);
        return;
      }
      case "local_shell_call": {
        const id =
          callId ?? (typeof p.id === "string" && p.id !== "" ? p.id : `call_line_${index + 1}`);
        addCall(id, localShellToTool(p.action), ts);
        return;
      }
      case "web_search_call": {
        const id = callId ?? `web_search_line_${index + 1}`;
        const block: ToolUseBlock = {
          type: "tool_use",
          id,
          tool: { name: "Raw", tool_name: "web_search", input: p.action ?? null },
        };
        calls.set(id, { exec: false });
        open("assistant", "assistant", ts).push(block);
        searches.push({ block, answered: false });
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        if (callId === undefined || !calls.has(callId) || answered.has(callId)) return;
        const end = execEnds.get(callId);
        if (end) {
          const out = execOutput(end);
          addResult(callId, out.content, out.is_error, ts);
          return;
        }
        let out = outputToCommon(p.output);
        if (calls.get(callId)?.exec && typeof out.content === "string") {
          out = legacyShellOutput(out.content) ?? out;
        }
        addResult(callId, out.content, out.is_error, ts);
        return;
      }
      default:
        return; // ghost snapshots, compaction markers, unknown item kinds
    }
  };
  let index = 0;
  for (const line of lines) readLine(readEnvelope(line.text), index++);

  // A thread nobody named reads as Codex lists it: by its first prompt. Only
  // here, in the projection: the store's own meta keeps a given title only,
  // as a saved title names the thread for Codex.
  const meta = { ...transcript.meta };
  if (meta.title === undefined) {
    const prompt = firstPrompt(transcript.body.lines);
    assignDefined(meta, "title", prompt);
  }
  close();
  // Messages left empty are dropped in place: a filtered copy would be one
  // more array of every message at the peak.
  let kept = 0;
  for (const m of messages) if (m.content.length > 0) messages[kept++] = m;
  messages.length = kept;
  return { meta, body: messages };
}
