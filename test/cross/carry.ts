/**
 * What each harness can carry: one explicit projection per harness, the
 * Common transcript a conversion through that harness gives back
 * (`toCommon(parse(render(fromCommon(c))))`). Every rule is written down in
 * the harness's format document (docs/formats/<harness>.md: its losses are
 * quoted in [brackets], its reading and writing rules in "quotes"); the few
 * the documents do not state are listed in docs/conversions.md and pinned
 * by "losses no other test pins" in matrix.test.ts. No rule calls the codec
 * under test; the only shared helpers are the session id mappings (that a
 * stable UUID replaces a non-UUID is the contract, not its exact key).
 *
 * The projections model the blocks and tools a coding session carries
 * (text, thinking, image, tool_use, tool_result; Bash, Read, Write, Edit,
 * Raw). Anything else throws, so a source that strays from that is noticed,
 * not silently mis-predicted.
 */

import { quote } from "shell-quote";
import {
  type BashTool,
  type Block,
  type EditTool,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type ReadTool,
  STOP_REASONS,
  type StopReason,
  stopReasonText,
  type Tool,
  type ToolResultBlock,
  type ToolUseBlock,
  toolFromCanonical,
  toolToCanonical,
  type Usage,
} from "../../src/common.js";
import { ampThreadId } from "../../src/harness/amp/meta.js";
import { claudeSessionId } from "../../src/harness/claude-code/codec.js";
import { toolFromCline, toolToCline } from "../../src/harness/cline/tools.js";
import { SCAFFOLDING_PREFIXES } from "../../src/harness/codex/body.js";
import { codexSessionId } from "../../src/harness/codex/codec.js";
import { toolFromCopilot, toolToCopilot } from "../../src/harness/copilot/tools.js";
import { toolFromCrush, toolToCrush } from "../../src/harness/crush/tools.js";
import { droidSessionId } from "../../src/harness/droid/codec.js";
import { toolFromDroid, toolToDroid } from "../../src/harness/droid/tools.js";
import { geminiSessionId } from "../../src/harness/gemini-cli/codec.js";
import { toolFromPi, toolToPi } from "../../src/harness/pi/tools.js";
import { qwenSessionId } from "../../src/harness/qwen-code/codec.js";
import { openCodeSessionId } from "../../src/harness/shared/opencode/codec.js";
import { artifactText, resultText } from "../../src/harness/shared/results.js";
import { oneLineTitle } from "../../src/strings.js";
import {
  compareTimestamps,
  EPOCH,
  type Timestamp,
  timestampFromMillis,
  timestampMillis,
} from "../../src/time.js";
import type { Common, HarnessId, Transcript } from "../../src/transcript.js";

/** Through the text form, or saved and loaded through the harness's store. */
export type Via = "text" | "store";
export type Carry = (t: Transcript<Common>, via: Via) => Transcript<Common>;

const clone = <T>(v: T): T => structuredClone(v);

/**
 * [A session nobody named reads as titled by its first prompt] (Claude Code,
 * Codex, OpenCode, Goose): the first user message with text, its text
 * blocks joined, on one line, cut to 120 code points; `skip` names prompts
 * the reader passes over.
 */
function firstPromptTitle(
  body: readonly Message[],
  skip: (line: string) => boolean,
): string | undefined {
  for (const m of body) {
    if (m.role !== "user") continue;
    const text = m.content.map((b) => (b.type === "text" ? b.text : "")).join(" ");
    const line = oneLineTitle(text, 120);
    if (line === undefined || skip(line)) continue;
    return line;
  }
  return undefined;
}

function unsupported(harness: string, what: string): never {
  throw new Error(`the ${harness} projection does not model ${what}`);
}

function checkBlock(harness: string, b: Block): void {
  if (b.type === "artifact") unsupported(harness, "artifacts");
  if (b.type === "tool_use" && (b.tool.name === "Command" || b.tool.name === "MultiEdit")) {
    unsupported(harness, `${b.tool.name} tools`);
  }
}

/** The calls each result answers: a result is carried only after an assistant call. */
function assistantCalls(body: Common): Map<string, ToolUseBlock> {
  const calls = new Map<string, ToolUseBlock>();
  for (const m of body) {
    for (const b of m.content) {
      checkBlock("matrix", b);
      if (b.type === "tool_use") {
        if (m.role !== "assistant") unsupported("matrix", "tool calls in user messages");
        calls.set(b.id, b);
      }
      if (b.type === "tool_result" && m.role !== "user") {
        unsupported("matrix", "tool results in assistant messages");
      }
    }
  }
  const seen = new Set<string>();
  const answered = new Set<string>();
  for (const m of body) {
    for (const b of m.content) {
      if (b.type === "tool_use") seen.add(b.id);
      if (b.type !== "tool_result") continue;
      if (!seen.has(b.tool_use_id))
        unsupported("matrix", "results before their call, or of no call");
      if (answered.has(b.tool_use_id)) unsupported("matrix", "a call answered twice");
      answered.add(b.tool_use_id);
    }
  }
  return calls;
}

// ---------------------------------------------------------------------------
// Simple: the Body is Common itself; parse(render(c)) is c
// (docs/formats/simple.md; test/foundation/simple.test.ts "parse(render(t))").

export const carrySimple: Carry = (t) => clone(t);

// ---------------------------------------------------------------------------
// Claude Code (docs/formats/claude-code.md, "Common → Claude Code")

const CLAUDE_WRITER_VERSION = "2.1.200";

/** [Timestamps are cut to milliseconds] */
const toMillis = (ts: Timestamp): Timestamp => timestampFromMillis(timestampMillis(ts));

export const carryClaudeCode: Carry = (t) => {
  assistantCalls(t.body);
  const session = t.meta;
  const results = new Map<string, { block: ToolResultBlock; at: Timestamp }>();
  for (const m of t.body) {
    for (const b of m.content) {
      if (b.type === "tool_result") results.set(b.tool_use_id, { block: b, at: m.timestamp });
    }
  }
  const body: Message[] = [];
  for (const m of t.body) {
    const content: Block[] = [];
    for (const b of m.content) {
      switch (b.type) {
        case "text":
          // [empty and whitespace-only text blocks … are dropped]
          if (b.text.trim() !== "") content.push({ type: "text", text: b.text });
          break;
        case "thinking": {
          // [Reasoning without an Anthropic signature (or from a model not
          // known to be Claude) becomes plain text; encrypted-only reasoning is dropped]
          const model = m.model ?? session.model;
          const replayable =
            m.role === "assistant" &&
            b.signature !== undefined &&
            b.signature !== "" &&
            b.encrypted === undefined &&
            model !== undefined &&
            /claude/i.test(model);
          if (replayable) content.push({ type: "thinking", text: b.text, signature: b.signature! });
          else if (b.text.trim() !== "") content.push({ type: "text", text: b.text });
          break;
        }
        case "image":
          // [Images … in assistant messages become text placeholders]
          content.push(
            m.role === "user"
              ? clone(b)
              : { type: "text", text: `[image: ${b.source.media_type || b.source.type}]` },
          );
          break;
        case "tool_use":
          if (!/^[a-zA-Z0-9_-]+$/.test(b.id)) unsupported("Claude Code", "tool ids it replaces");
          content.push({ type: "tool_use", id: b.id, tool: claudeTool(b.tool, session.cwd) });
          break;
        case "tool_result":
          break; // moved right after its call (below)
        case "artifact":
          unsupported("Claude Code", "artifacts");
      }
    }
    // [messages left empty, are dropped]
    if (content.length === 0) continue;
    const out: Message = { role: m.role, content, timestamp: toMillis(m.timestamp) };
    if (m.role === "assistant") {
      // Every assistant line names a model: the message's, else the session's.
      const model = m.model ?? session.model;
      if (model !== undefined) out.model = model;
      // Written as its text, read back as Anthropic's reason or `other`; an empty one is none.
      const stop = m.stop_reason === undefined ? "" : stopReasonText(m.stop_reason);
      if (stop !== "") {
        out.stop_reason = (STOP_REASONS as readonly string[]).includes(stop)
          ? (stop as StopReason)
          : { other: stop };
      }
      // [absent cache counters are written as 0]
      if (m.usage !== undefined) {
        out.usage = {
          input_tokens: m.usage.input_tokens,
          output_tokens: m.usage.output_tokens,
          cache_read_input_tokens: m.usage.cache_read_input_tokens ?? 0,
          cache_creation_input_tokens: m.usage.cache_creation_input_tokens ?? 0,
        };
      }
    }
    body.push(out); // (user lines carry no model)
    // [Results are moved right after their calls; a call without a result
    // gains an error result]: one user message, at the first call's result's time.
    const uses = m.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (uses.length === 0) continue;
    const answers = uses.map((u): ToolResultBlock => {
      const r = results.get(u.id);
      return r === undefined
        ? {
            type: "tool_result",
            tool_use_id: u.id,
            content: "No result was recorded for this tool call.",
            is_error: true,
          }
        : claudeResult(r.block);
    });
    const when = results.get(uses[0]!.id)?.at ?? m.timestamp;
    body.push({ role: "user", content: answers, timestamp: toMillis(when) });
  }
  // [The session start becomes the first line's time, and cli_version becomes the writer's 2.1.200]
  const first = [...body].map((m) => m.timestamp).sort(compareTimestamps)[0];
  const meta: Meta = { id: claudeSessionId(session.id), timestamp: first ?? EPOCH };
  if (session.cwd !== undefined) meta.cwd = session.cwd;
  if (session.git_branch !== undefined) meta.git_branch = session.git_branch;
  const title =
    session.title !== undefined && session.title !== ""
      ? session.title
      : firstPromptTitle(body, (line) => line.startsWith("<"));
  if (title !== undefined) meta.title = title;
  meta.cli_version = CLAUDE_WRITER_VERSION;
  // The session model is the first model an assistant line names.
  const firstModel = body.find((m) => m.role === "assistant" && m.model !== undefined)?.model;
  if (firstModel !== undefined) meta.model = firstModel;
  return { meta, body };
};

function claudeTool(tool: Tool, cwd: string | undefined): Tool {
  if (tool.name === "Bash") {
    if (tool.workdir === undefined) return clone(tool);
    // [Bash workdir becomes a `cd '<dir>' &&` prefix of the command, or is
    // dropped when it is the session's cwd]
    const { workdir, ...rest } = tool;
    return workdir === cwd
      ? rest
      : { ...rest, command: `cd ${quote([workdir])} && ${tool.command}` };
  }
  // [tool names with other characters are replaced; non-object Raw inputs are
  // wrapped in {"input": …} (and read back wrapped)]
  const { name, input } = toolToCanonical(tool);
  const written = /^[a-zA-Z0-9_-]{1,128}$/.test(name)
    ? name
    : name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 128) || "tool";
  return claudeReadTool(written, isJsonObject(input) ? clone(input) : { input: clone(input) });
}

/**
 * Reading (docs "Reading", 4): Claude Code's names and keys are the canonical
 * ones, except Bash's `timeout`, which is Common's `timeout_ms`; a Bash input
 * that names both timeouts stays Raw.
 */
function claudeReadTool(name: string, input: JsonObject): Tool {
  if (name === "Bash") {
    if ("timeout_ms" in input && "timeout" in input) return { name: "Raw", tool_name: name, input };
    const renamed: JsonObject = {};
    for (const [k, v] of Object.entries(input)) renamed[k === "timeout" ? "timeout_ms" : k] = v;
    const tool = toolFromCanonical(name, renamed);
    return tool.name === "Bash" ? tool : { name: "Raw", tool_name: name, input };
  }
  return toolFromCanonical(name, input);
}

const ANTHROPIC_RESULT_BLOCKS = new Set(["text", "image"]);

function claudeResult(b: ToolResultBlock): ToolResultBlock {
  // [Structured (non-block) tool results become compact JSON text]
  const blocks =
    Array.isArray(b.content) &&
    b.content.length > 0 &&
    b.content.every(
      (x) =>
        isJsonObject(x) &&
        typeof x.type === "string" &&
        ANTHROPIC_RESULT_BLOCKS.has(x.type) &&
        (x.type !== "text" || (typeof x.text === "string" && x.text.trim() !== "")),
    );
  const content: Json =
    typeof b.content === "string" || blocks ? clone(b.content) : JSON.stringify(b.content);
  return b.is_error
    ? { type: "tool_result", tool_use_id: b.tool_use_id, content, is_error: true }
    : { type: "tool_result", tool_use_id: b.tool_use_id, content };
}

// ---------------------------------------------------------------------------
// Codex (docs/formats/codex.md, "Common → Codex")

export const carryCodex: Carry = (t, via) => {
  const calls = assistantCalls(t.body);
  const session = t.meta;
  const body: Message[] = [];
  // [Per-message models: a message without one inherits the model in effect]
  let inEffect = session.model;
  let firstResponseModel: string | undefined;
  let responded = false;
  for (const m of t.body) {
    if (m.role === "user") {
      // [Inside one user message, tool results are written before its text]
      const results: Block[] = [];
      const prompt: Block[] = [];
      for (const b of m.content) {
        switch (b.type) {
          case "tool_result":
            results.push(codexResult(b, calls.get(b.tool_use_id)!.tool));
            break;
          case "text":
            prompt.push(clone(b));
            break;
          case "image":
            prompt.push(clone(b));
            break;
          case "thinking":
            break; // [thinking in user messages]
          default:
            unsupported("Codex", `${b.type} blocks in user messages`);
        }
      }
      if (results.length > 0) body.push({ role: "user", content: results, timestamp: m.timestamp });
      if (prompt.length > 0) body.push({ role: "user", content: prompt, timestamp: m.timestamp });
      continue;
    }
    const content: Block[] = [];
    for (const b of m.content) {
      switch (b.type) {
        case "text":
          content.push(clone(b));
          break;
        case "thinking":
          // [Thinking signatures and encrypted reasoning; thinking with only
          // encrypted content disappears]
          if (b.text !== "") content.push({ type: "thinking", text: b.text });
          break;
        case "tool_use":
          content.push({ type: "tool_use", id: b.id, tool: codexTool(b.tool) });
          break;
        case "image":
          break; // [Images in assistant messages]
        default:
          unsupported("Codex", `${b.type} blocks in assistant messages`);
      }
    }
    // [messages with nothing Codex holds]
    if (content.length === 0) continue;
    inEffect = m.model ?? inEffect;
    if (!responded) firstResponseModel = inEffect;
    responded = true;
    const out: Message = { role: "assistant", content, timestamp: m.timestamp };
    if (inEffect !== undefined) out.model = inEffect;
    // [Stop reasons] are not kept.
    const usage = m.usage === undefined ? undefined : codexUsage(m.usage);
    if (usage !== undefined) out.usage = usage;
    body.push(out);
  }
  const meta: Meta = { id: codexSessionId(session.id), timestamp: session.timestamp };
  if (session.cwd !== undefined && session.cwd !== "") meta.cwd = session.cwd;
  if (session.git_branch !== undefined) meta.git_branch = session.git_branch;
  // [The title, in the text form; the store keeps it in session_index.jsonl]
  const title =
    via === "store" && session.title !== undefined && session.title.trim() !== ""
      ? session.title
      : firstPromptTitle(body, (line) => SCAFFOLDING_PREFIXES.some((p) => line.startsWith(p)));
  if (title !== undefined) meta.title = title;
  if (session.cli_version !== undefined && session.cli_version !== "") {
    meta.cli_version = session.cli_version;
  }
  // [the session's model comes back as the first response's]
  const model = responded ? firstResponseModel : undefined;
  if (model !== undefined) meta.model = model;
  return { meta, body };
};

/** [Cache-creation tokens are folded into input tokens; an absent cache-read count comes back as 0] */
function codexUsage(u: Usage): Usage | undefined {
  // [Counters whose OpenAI-side sum exceeds 2^53 − 1 cannot be written exactly and are dropped]
  const openAiInput =
    u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  if (!Number.isSafeInteger(openAiInput)) return undefined;
  return {
    input_tokens: u.input_tokens + (u.cache_creation_input_tokens ?? 0),
    output_tokens: u.output_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
}

/** Codex's shell and patch tools, which its reader maps to Bash, Write and Edit. */
export const CODEX_OWN_TOOLS = new Set([
  "exec_command",
  "shell",
  "container_exec",
  "container.exec",
  "shell_command",
  "apply_patch",
  "local_shell",
]);

function codexTool(tool: Tool): Tool {
  switch (tool.name) {
    case "Bash": {
      // [Bash description and run_in_background]
      const out: Tool = { name: "Bash", command: tool.command };
      if (tool.workdir !== undefined) out.workdir = tool.workdir;
      if (tool.timeout_ms !== undefined) out.timeout_ms = tool.timeout_ms;
      return out;
    }
    case "Edit": {
      // An apply_patch Update has no replace_all: an explicit false (the default) is not kept.
      const { replace_all: _, ...rest } = tool;
      return codexCustom(tool) ? rest : clone(tool);
    }
    case "Raw": {
      // [Tool names outside [A-Za-z0-9_-] are rewritten]; a rewritten name is
      // read back like any name (canonical names with fitting input are typed).
      const name = tool.tool_name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "tool";
      if (CODEX_OWN_TOOLS.has(name)) unsupported("Codex", `Raw tools named ${name}`);
      return typeof tool.input === "string"
        ? { name: "Raw", tool_name: name, input: tool.input }
        : toolFromCanonical(name, clone(tool.input));
    }
    default:
      return clone(tool);
  }
}

/**
 * Calls Codex writes as freeform `custom_tool_call`s, whose output is a
 * string: Write and Edit as `apply_patch` "when the patch carries them
 * exactly (content empty or ending in `\n`, no `\r`, no `replace_all`, a
 * one-line path without surrounding blanks)", and Raw tools with a string input.
 */
function codexCustom(tool: Tool): boolean {
  const path = (p: string) => p !== "" && p === p.trim() && !/[\r\n]/.test(p);
  switch (tool.name) {
    case "Write":
      return (
        path(tool.file_path) &&
        (tool.content === "" || (tool.content.endsWith("\n") && !tool.content.includes("\r")))
      );
    case "Edit":
      return (
        path(tool.file_path) &&
        tool.replace_all !== true &&
        !tool.old_string.includes("\r") &&
        !tool.new_string.includes("\r")
      );
    case "Raw":
      return typeof tool.input === "string";
    default:
      return false;
  }
}

/** Text blocks joined, as the shell's output log records them. */
function asText(content: Json): string {
  if (typeof content === "string") return content;
  if (
    Array.isArray(content) &&
    content.every((b) => isJsonObject(b) && b.type === "text" && typeof b.text === "string")
  ) {
    return content.map((b) => (b as { text: string }).text).join("\n");
  }
  return JSON.stringify(content);
}

/**
 * [Structured results become JSON text; `is_error` on results of tools other
 * than Bash; non-text Bash results become text]. Lists of text blocks are
 * content items Codex carries.
 */
function codexResult(b: ToolResultBlock, tool: Tool): ToolResultBlock {
  const textBlocks =
    Array.isArray(b.content) &&
    b.content.length > 0 &&
    b.content.every((x) => isJsonObject(x) && x.type === "text" && typeof x.text === "string");
  if (tool.name === "Bash" || codexCustom(tool)) {
    // A shell's output log, or a freeform tool's output string.
    const out: ToolResultBlock = {
      type: "tool_result",
      tool_use_id: b.tool_use_id,
      content: asText(b.content),
    };
    if (b.is_error && tool.name === "Bash") out.is_error = true;
    return out;
  }
  const content: Json =
    typeof b.content === "string"
      ? b.content
      : textBlocks
        ? clone(b.content)
        : JSON.stringify(b.content);
  return { type: "tool_result", tool_use_id: b.tool_use_id, content };
}

// ---------------------------------------------------------------------------
// Antigravity (agy) (docs/formats/antigravity.md, "Writing: fromCommon" and
// "What does not survive a trip through Common")

const TITLE_MAX = 80;

/**
 * [the session title unless it is the first prompt's]: with no checkpoint the
 * title is "the first USER_INPUT step's text … with whitespace runs
 * collapsed, cut to 80 code points (79 and `…`)".
 */
function promptTitle(text: string): string | undefined {
  const line = text.trim().split(/\s+/u).join(" ");
  if (line === "") return undefined;
  const points = Array.from(line);
  return points.length <= TITLE_MAX ? line : `${points.slice(0, TITLE_MAX - 1).join("")}…`;
}

/** [readable model names written from other harnesses]: only `model-<n>` has an enum. */
const agyModel = (model: string | undefined) =>
  model !== undefined && /^model-(0|[1-9]\d{0,14})$/.test(model) ? model : undefined;

/** JSON object or array text comes back as JSON from a GENERIC step; anything else as text. */
function jsonOrText(text: string): Json {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  try {
    const v = JSON.parse(text) as Json;
    return typeof v === "object" && v !== null ? v : text;
  } catch {
    return text;
  }
}

/**
 * Whether the call's step is typed (its result kept as written) or GENERIC
 * (its text re-read: "Text that is a JSON object or array comes back as
 * JSON (GENERIC, agency), anything else as text"). Typed "Bash, Read, Write
 * and Edit whose agy form reads back identically … when that step carries
 * the result exactly": Bash is run_command with a command and a workdir
 * only and a text result; Read is view_file with a text result that is not
 * an error and a line range agy can store; Write and Edit carry only agy's
 * own `{file, created|edited}` result.
 */
function agyTypedResult(tool: Tool, r: ToolResultBlock): boolean {
  if (tool.name === "Bash") {
    const onlyAgyKeys = Object.keys(tool).every((k) => ["name", "command", "workdir"].includes(k));
    return onlyAgyKeys && typeof r.content === "string";
  }
  if (tool.name === "Read") {
    // view_file's EndLine is inclusive: offset + limit - 1, a line number agy
    // can store and that gives the limit back (past 2^53 the sum rounds).
    const end = (tool.offset ?? 0) + (tool.limit ?? 0) - 1;
    const range =
      tool.limit === undefined ||
      tool.offset === undefined ||
      (tool.limit >= 1 && Number.isSafeInteger(end) && end - tool.offset + 1 === tool.limit);
    return range && typeof r.content === "string" && !r.is_error;
  }
  return false;
}

/** agy's own tool names, which its reader maps by their own arguments. */
const AGY_OWN = new Set(["run_command", "view_file", "write_to_file", "replace_file_content"]);

/**
 * ["Other names go through the canonical normalization, so canonical names
 * written back by fromCommon come back typed"]: a Raw call under a
 * canonical name whose input fits that tool (as a source that keeps, say,
 * a Read it cannot store as Raw gives it) is read back as the tool.
 */
function agyCall(b: ToolUseBlock): ToolUseBlock {
  const { tool } = b;
  if (tool.name !== "Raw" || AGY_OWN.has(tool.tool_name) || !isJsonObject(tool.input))
    return clone(b);
  const typed = toolFromCanonical(tool.tool_name, clone(tool.input));
  return typed.name === "Raw" ? clone(b) : { ...clone(b), tool: typed };
}

export const carryAntigravity: Carry = (t) => {
  const calls = assistantCalls(t.body);
  const session = t.meta;
  // Each call keeps its first result, written in the step right after its call.
  const results = new Map<string, { block: ToolResultBlock; at: Timestamp }>();
  for (const m of t.body) {
    for (const b of m.content) {
      if (b.type === "tool_result" && !results.has(b.tool_use_id)) {
        results.set(b.tool_use_id, { block: b, at: m.timestamp });
      }
    }
  }
  const body: Message[] = [];
  let firstPrompt: string | undefined;
  let lastModel: string | undefined;
  for (const m of t.body) {
    if (m.role === "user") {
      // "A user message → USER_INPUT …; text blocks join with blank lines";
      // carried results are written after their call instead.
      const texts: string[] = [];
      const images: Block[] = [];
      for (const b of m.content) {
        if (b.type === "text") texts.push(b.text);
        else if (b.type === "thinking" && b.text.trim() !== "") texts.push(b.text);
        else if (b.type === "image") {
          // An image step with no bytes is no image; a missing media type reads as PNG.
          if (b.source.data === "") continue;
          images.push({
            type: "image",
            source: {
              type: "base64",
              media_type: b.source.media_type || "image/png",
              data: b.source.data,
            },
          });
        } else if (b.type === "tool_result")
          continue; // carried by its call's step
        else unsupported("agy", `${b.type} blocks in user messages`);
      }
      const text = texts.join("\n\n");
      if (text.trim() === "" && images.length === 0) continue;
      const content: Block[] = text === "" ? images : [{ type: "text", text }, ...images];
      firstPrompt ??= text;
      body.push({ role: "user", content, timestamp: m.timestamp });
      continue;
    }
    // "An assistant message → PLANNER_RESPONSE: thinking (non-blank blocks
    // joined) and the first signature, text …, every call"; read back as
    // thinking, text, calls. A signature is kept only on a lone block (a
    // joined text is not what it signed: see docs/conversions.md).
    const thinking: string[] = [];
    let signature: string | undefined;
    const texts: string[] = [];
    const uses: ToolUseBlock[] = [];
    for (const b of m.content) {
      switch (b.type) {
        case "thinking":
          if (b.text.trim() !== "") {
            thinking.push(b.text);
            signature ??= b.signature || undefined;
          }
          break; // [encrypted thinking]
        case "text":
          texts.push(b.text);
          break;
        case "image":
          texts.push(`[image: ${b.source.media_type}]`); // [assistant images … (placeholder text)]
          break;
        case "tool_use":
          uses.push(agyCall(b));
          break;
        default:
          unsupported("agy", `${b.type} blocks in assistant messages`);
      }
    }
    const text = texts.join("\n\n");
    if (thinking.length === 0 && text.trim() === "" && uses.length === 0) continue;
    const content: Block[] = [];
    if (thinking.length > 0) {
      const block: Block = { type: "thinking", text: thinking.join("\n\n") };
      if (signature !== undefined && thinking.length === 1) block.signature = signature;
      content.push(block);
    }
    if (text.trim() !== "") content.push({ type: "text", text });
    content.push(...uses);
    const out: Message = { role: "assistant", content, timestamp: m.timestamp };
    const model = agyModel(m.model);
    if (model !== undefined) out.model = model;
    lastModel = model;
    // [`stop_sequence` (reads back as `end_turn`)]; "`stop-<n>` → n", other reasons have no number.
    if (m.stop_reason !== undefined) {
      const stop = m.stop_reason === "stop_sequence" ? "end_turn" : m.stop_reason;
      if (typeof stop === "string" || /^stop-\d{1,15}$/.test(stop.other)) out.stop_reason = stop;
    }
    // [usage with zero input and output, zero cache counters]
    if (m.usage !== undefined && (m.usage.input_tokens > 0 || m.usage.output_tokens > 0)) {
      const u: Usage = { input_tokens: m.usage.input_tokens, output_tokens: m.usage.output_tokens };
      if ((m.usage.cache_read_input_tokens ?? 0) > 0) {
        u.cache_read_input_tokens = m.usage.cache_read_input_tokens!;
      }
      if ((m.usage.cache_creation_input_tokens ?? 0) > 0) {
        u.cache_creation_input_tokens = m.usage.cache_creation_input_tokens!;
      }
      out.usage = u;
    }
    body.push(out);
    // The calls' results, grouped in one user message at the first result's time.
    const answered: ToolResultBlock[] = [];
    let when: Timestamp | undefined;
    for (const use of uses) {
      const r = results.get(use.id);
      if (r === undefined) continue;
      when ??= r.at;
      const typed = agyTypedResult(calls.get(use.id)!.tool, r.block);
      const content = typed
        ? clone(r.block.content)
        : jsonOrText(
            typeof r.block.content === "string" ? r.block.content : JSON.stringify(r.block.content),
          );
      answered.push(
        r.block.is_error
          ? { type: "tool_result", tool_use_id: use.id, content, is_error: true }
          : { type: "tool_result", tool_use_id: use.id, content },
      );
    }
    if (answered.length > 0 && when !== undefined) {
      body.push({ role: "user", content: answered, timestamp: when });
    }
  }
  // Meta: id, start, cwd, branch; [the title, kept in annotations/<id>.pbtxt]
  // unless blank, else the first prompt's; "model = … `model-<n>` of the
  // latest planner step"; [`cli_version`] is not stored.
  const meta: Meta = { id: session.id, timestamp: session.timestamp };
  if (session.cwd !== undefined) meta.cwd = session.cwd;
  if (session.git_branch !== undefined) meta.git_branch = session.git_branch;
  const title =
    session.title !== undefined && session.title.trim() !== ""
      ? session.title
      : firstPrompt === undefined
        ? undefined
        : promptTitle(firstPrompt);
  if (title !== undefined) meta.title = title;
  if (lastModel !== undefined) meta.model = lastModel;
  return { meta, body };
};

// ---------------------------------------------------------------------------
// OpenCode (docs/formats/opencode.md, "Common → OpenCode" and "What does not
// survive a trip through Common")

const OPENCODE_FINISH = new Map<string, StopReason>([
  ["stop", "end_turn"],
  ["tool-calls", "tool_use"],
  ["length", "max_tokens"],
  ["error", "error"],
  ["aborted", "aborted"],
]);

/** "stop_sequence is written as stop and read as end_turn"; other reasons by AI SDK name. */
function openCodeStop(reason: StopReason): StopReason | undefined {
  const finish =
    typeof reason === "string"
      ? ({ end_turn: "stop", tool_use: "tool-calls", max_tokens: "length", stop_sequence: "stop" }[
          reason as string
        ] ?? reason)
      : reason.other;
  if (finish === "") return undefined;
  return OPENCODE_FINISH.get(finish) ?? { other: finish };
}

/** [Zero counters are dropped; a usage of nothing but zeros disappears] */
function openCodeUsage(u: Usage | undefined): Usage | undefined {
  if (u === undefined) return undefined;
  const n = (v: number | undefined) =>
    v !== undefined && Number.isSafeInteger(v) && v > 0 ? v : 0;
  const out: Usage = { input_tokens: n(u.input_tokens), output_tokens: n(u.output_tokens) };
  const read = n(u.cache_read_input_tokens);
  const write = n(u.cache_creation_input_tokens);
  if (out.input_tokens + out.output_tokens + read + write === 0) return undefined;
  if (read > 0) out.cache_read_input_tokens = read;
  if (write > 0) out.cache_creation_input_tokens = write;
  return out;
}

const OPENCODE_OWN = new Set(["bash", "read", "write", "edit", "multiedit", "apply_patch"]);
const OPENCODE_KEYS: Record<string, [string, Record<string, string>]> = {
  bash: [
    "Bash",
    { command: "command", timeout: "timeout_ms", description: "description", workdir: "workdir" },
  ],
  read: ["Read", { filePath: "file_path", offset: "offset", limit: "limit" }],
  write: ["Write", { filePath: "file_path", content: "content" }],
  edit: [
    "Edit",
    {
      filePath: "file_path",
      oldString: "old_string",
      newString: "new_string",
      replaceAll: "replace_all",
    },
  ],
};

/** "Tools are written under OpenCode's names and read back typed when they fit". */
function openCodeTool(tool: Tool): Tool {
  switch (tool.name) {
    case "Bash": {
      // [Bash run_in_background]
      const { run_in_background: _, ...rest } = tool;
      return clone(rest);
    }
    case "Raw": {
      // [A Raw tool's input that is not a JSON object is wrapped as {"input": …}]
      const input: Json = isJsonObject(tool.input)
        ? clone(tool.input)
        : { input: clone(tool.input) };
      // [A Raw call named after one of OpenCode's own tools is read as that tool when its input fits]
      const keys = Object.hasOwn(OPENCODE_KEYS, tool.tool_name)
        ? OPENCODE_KEYS[tool.tool_name]
        : undefined;
      if (keys !== undefined && isJsonObject(input)) {
        const renamed: JsonObject = {};
        let fits = true;
        for (const [k, v] of Object.entries(input)) {
          const canonical = keys[1][k];
          if (canonical === undefined) fits = false;
          else renamed[canonical] = v;
        }
        const typed = fits ? toolFromCanonical(keys[0], renamed) : undefined;
        if (typed !== undefined && typed.name !== "Raw") return typed;
      } else if (OPENCODE_OWN.has(tool.tool_name)) {
        unsupported("OpenCode", `Raw tools named ${tool.tool_name}`);
      }
      return { name: "Raw", tool_name: tool.tool_name, input };
    }
    default:
      return clone(tool);
  }
}

export const carryOpenCode: Carry = (t) => {
  assistantCalls(t.body);
  const session = t.meta;
  // Writing: one OpenCode message per Common message with anything to hold;
  // results fold into their call's tool part.
  type Part =
    | { kind: "block"; block: Block }
    | { kind: "call"; id: string; tool: Tool; result?: { block: ToolResultBlock; at: Timestamp } };
  interface Written {
    role: "user" | "assistant";
    at: Timestamp;
    parts: Part[];
    model?: string;
    stop?: StopReason;
    usage?: Usage;
  }
  const written: Written[] = [];
  const calls = new Map<string, Extract<Part, { kind: "call" }>>();
  for (const m of t.body) {
    const at = toMillis(m.timestamp);
    const parts: Part[] = [];
    for (const b of m.content) {
      switch (b.type) {
        case "tool_result": {
          const call = calls.get(b.tool_use_id);
          if (m.role === "user" && call !== undefined && call.result === undefined)
            call.result = { block: clone(b), at };
          break;
        }
        case "text":
          // [Empty text blocks are dropped]
          if (b.text !== "") parts.push({ kind: "block", block: clone(b) });
          break;
        case "thinking":
          // [Thinking signatures and encrypted reasoning; thinking in user messages]
          if (m.role === "assistant" && b.text !== "")
            parts.push({ kind: "block", block: { type: "thinking", text: b.text } });
          break;
        case "tool_use": {
          if (m.role !== "assistant") break;
          const call = { kind: "call" as const, id: b.id, tool: openCodeTool(b.tool) };
          if (!calls.has(b.id)) calls.set(b.id, call);
          parts.push(call);
          break;
        }
        case "image":
          parts.push({ kind: "block", block: clone(b) });
          break;
        default:
          unsupported("OpenCode", `${b.type} blocks`);
      }
    }
    // [Messages with nothing OpenCode holds, with their usage]
    if (parts.length === 0) continue;
    const w: Written = { role: m.role, at, parts };
    if (m.role === "assistant") {
      const model = m.model ?? session.model;
      if (model !== undefined && model !== "") w.model = model;
      if (m.stop_reason !== undefined) {
        const stop = openCodeStop(m.stop_reason);
        if (stop !== undefined) w.stop = stop;
      }
      const usage = openCodeUsage(m.usage);
      if (usage !== undefined) w.usage = usage;
    }
    written.push(w);
  }
  // Reading: "an assistant message is cut after each run of tool parts, their
  // results following as a user message"; [a call without a result comes
  // back with OpenCode's interrupted error].
  const body: Message[] = [];
  for (const w of written) {
    if (w.role === "user") {
      body.push({
        role: "user",
        content: w.parts.map((p) => (p as { block: Block }).block),
        timestamp: w.at,
      });
      continue;
    }
    const pieces: Message[] = [];
    let cur: Block[] = [];
    let curAt = w.at;
    let results: ToolResultBlock[] = [];
    let resultsAt = w.at;
    const flush = () => {
      if (cur.length > 0) {
        const m: Message = { role: "assistant", content: cur, timestamp: curAt };
        if (w.model !== undefined) m.model = w.model;
        pieces.push(m);
      }
      if (results.length > 0) pieces.push({ role: "user", content: results, timestamp: resultsAt });
      cur = [];
      results = [];
    };
    for (const p of w.parts) {
      if (p.kind === "block") {
        if (results.length > 0) {
          flush();
          // Text and reasoning parts carry their message's time; an image none.
          curAt = p.block.type === "image" ? resultsAt : w.at;
        }
        cur.push(p.block);
        continue;
      }
      cur.push({ type: "tool_use", id: p.id, tool: p.tool });
      const r = p.result ?? {
        block: {
          type: "tool_result",
          tool_use_id: p.id,
          content: "[Tool execution was interrupted]",
          is_error: true,
        },
        at: w.at,
      };
      if (results.length === 0) resultsAt = r.at;
      results.push(r.block);
    }
    flush();
    const last = pieces.filter((m) => m.role === "assistant").at(-1);
    if (last !== undefined) {
      if (w.stop !== undefined) last.stop_reason = w.stop;
      if (w.usage !== undefined) last.usage = w.usage;
    }
    body.push(...pieces);
  }
  const meta: Meta = { id: openCodeSessionId(session), timestamp: toMillis(session.timestamp) };
  if (session.cwd !== undefined && session.cwd !== "") meta.cwd = session.cwd;
  // [The git branch]; a title is kept unless empty; [a session left at
  // OpenCode's default title is titled by its first prompt].
  const title =
    session.title !== undefined && session.title !== ""
      ? session.title
      : firstPromptTitle(body, () => false);
  if (title !== undefined) meta.title = title;
  if (session.cli_version !== undefined && session.cli_version !== "")
    meta.cli_version = session.cli_version;
  // [The session's model comes back as the first assistant message's]
  const model = written.find((w) => w.role === "assistant" && w.model !== undefined)?.model;
  if (model !== undefined) meta.model = model;
  return { meta, body };
};

// ---------------------------------------------------------------------------
// Gemini CLI (docs/formats/gemini-cli.md, "Writing" and "What conversion loses")

/** Gemini's own tool names: their arguments decide whether they come back typed. */
const GEMINI_NATIVE: Record<string, Record<string, "string" | "bool" | "line">> = {
  run_shell_command: {
    command: "string",
    description: "string",
    dir_path: "string",
    is_background: "bool",
  },
  read_file: { file_path: "string", start_line: "line", end_line: "line" },
  write_file: { file_path: "string", content: "string" },
  replace: {
    file_path: "string",
    old_string: "string",
    new_string: "string",
    allow_multiple: "bool",
  },
};
const GEMINI_REQUIRED: Record<string, string[]> = {
  run_shell_command: ["command"],
  read_file: ["file_path"],
  write_file: ["file_path", "content"],
  replace: ["file_path", "old_string", "new_string"],
};

/** [Tools written under the native name only where their arguments say the same thing; else the canonical name] */
function geminiWritten(tool: Tool): { name: string; input: Json } {
  switch (tool.name) {
    case "Bash": {
      if (tool.timeout_ms !== undefined) break;
      const input: JsonObject = { command: tool.command };
      if (tool.description !== undefined) input.description = tool.description;
      if (tool.workdir !== undefined) input.dir_path = tool.workdir;
      if (tool.run_in_background !== undefined) input.is_background = tool.run_in_background;
      return { name: "run_shell_command", input };
    }
    case "Read": {
      if (tool.offset === 0 || tool.limit === 0) break;
      const input: JsonObject = { file_path: tool.file_path };
      if (tool.offset !== undefined) input.start_line = tool.offset;
      if (tool.limit !== undefined) input.end_line = (tool.offset ?? 1) + tool.limit - 1;
      return { name: "read_file", input };
    }
    case "Write":
      return { name: "write_file", input: { file_path: tool.file_path, content: tool.content } };
    case "Edit": {
      const input: JsonObject = {
        file_path: tool.file_path,
        old_string: tool.old_string,
        new_string: tool.new_string,
      };
      if (tool.replace_all !== undefined) input.allow_multiple = tool.replace_all;
      return { name: "replace", input };
    }
    case "Raw":
      return { name: tool.tool_name, input: clone(tool.input) };
    default:
      unsupported("Gemini CLI", `${tool.name} tools`);
  }
  return toolToCanonical(tool);
}

/** Reading: "a call becomes a typed tool only when its arguments fit exactly" */
function geminiRead(name: string, input: Json): Tool {
  const spec = GEMINI_NATIVE[name];
  if (spec === undefined) return toolFromCanonical(name, input);
  const raw: Tool = { name: "Raw", tool_name: name, input };
  if (!isJsonObject(input)) return raw;
  for (const [k, v] of Object.entries(input)) {
    const kind = spec[k];
    if (kind === undefined) return raw;
    if (kind === "string" && typeof v !== "string") return raw;
    if (kind === "bool" && typeof v !== "boolean") return raw;
    if (kind === "line" && !(typeof v === "number" && Number.isSafeInteger(v) && v >= 1))
      return raw;
  }
  if (!GEMINI_REQUIRED[name]!.every((k) => input[k] !== undefined)) return raw;
  const i = input as unknown as {
    command: string;
    dir_path?: string;
    description?: string;
    is_background?: boolean;
    file_path: string;
    start_line?: number;
    end_line?: number;
    content: string;
    old_string: string;
    new_string: string;
    allow_multiple?: boolean;
  };
  switch (name) {
    case "run_shell_command": {
      const t: BashTool = { name: "Bash", command: i.command };
      if (i.dir_path !== undefined) t.workdir = i.dir_path;
      if (i.description !== undefined) t.description = i.description;
      if (i.is_background !== undefined) t.run_in_background = i.is_background;
      return t;
    }
    case "read_file": {
      const start = i.start_line;
      const end = i.end_line;
      if (start !== undefined && end !== undefined && end < start) return raw;
      const t: ReadTool = { name: "Read", file_path: i.file_path };
      if (start !== undefined) t.offset = start;
      if (end !== undefined) t.limit = end - (start ?? 1) + 1;
      return t;
    }
    case "write_file":
      return { name: "Write", file_path: i.file_path, content: i.content };
    default: {
      const t: EditTool = {
        name: "Edit",
        file_path: i.file_path,
        old_string: i.old_string,
        new_string: i.new_string,
      };
      if (i.allow_multiple !== undefined) t.replace_all = i.allow_multiple;
      return t;
    }
  }
}

/** The CLI's `cleanMessage` (one line, printable ASCII), as the session list shows a prompt. */
const geminiClean = (s: string) =>
  s
    .replace(/\n+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7E]+/g, "")
    .trim();
const geminiSummary = (s: string) =>
  s
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the CLI strips escapes
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: and control characters
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
    .trim();
const GEMINI_INJECTED = /^(<session_context>|<hook_context>)/;

export const carryGemini: Carry = (t, via) => {
  const calls = assistantCalls(t.body);
  const session = t.meta;
  const results = new Map<string, { block: ToolResultBlock; at: Timestamp }>();
  for (const m of t.body) {
    for (const b of m.content) {
      if (b.type === "tool_result" && !results.has(b.tool_use_id))
        results.set(b.tool_use_id, { block: b, at: m.timestamp });
    }
  }
  const written = new Map<string, string>();
  for (const [id, u] of calls) written.set(id, geminiWritten(u.tool).name);
  const body: Message[] = [];
  let firstPrompt: string | undefined;
  let firstModel: string | undefined;
  let inEffect = session.model;
  let shownYet = false;
  // [Consecutive assistant messages become one model turn; what follows a call opens a new one]
  type Seg = { m: Message; blocks: Block[]; first: boolean };
  const order: ({ user: Message } | { run: Seg[] })[] = [];
  const opens = (b: Block) =>
    b.type === "text" || b.type === "thinking"
      ? b.text !== ""
      : b.type === "image" || b.type === "artifact";
  for (const m of t.body) {
    if (m.role === "user") {
      order.push({ user: m });
      continue;
    }
    const last = order[order.length - 1];
    let run: Seg[];
    if (last !== undefined && "run" in last) run = last.run;
    else {
      run = [];
      order.push({ run });
    }
    let seg: Seg = { m, blocks: [], first: true };
    run.push(seg);
    let called = run.some((x) => x.blocks.some((b) => b.type === "tool_use"));
    for (const b of m.content) {
      if (called && opens(b)) {
        run = [];
        order.push({ run });
        seg = { m, blocks: [], first: false };
        run.push(seg);
        called = false;
      }
      seg.blocks.push(b);
      if (b.type === "tool_use") called = true;
    }
  }
  for (const item of order) {
    if ("user" in item) {
      const m = item.user;
      const content: Block[] = [];
      let concat = "";
      for (const b of m.content) {
        if (b.type === "text") {
          concat += b.text;
          if (b.text !== "") content.push(clone(b));
        } else if (b.type === "image") {
          if (b.source.type === "base64") {
            concat += "[Media]";
            content.push({
              type: "image",
              source: { type: "base64", media_type: b.source.media_type, data: b.source.data },
            });
          } else {
            const text = `[image: ${b.source.data}]`;
            concat += text;
            content.push({ type: "text", text });
          }
        } else if (b.type === "tool_result" || b.type === "thinking") continue;
        else unsupported("Gemini CLI", `${b.type} blocks in user messages`);
      }
      // [injected context is hidden]: a written record that reads as one is hidden too.
      if (GEMINI_INJECTED.test(concat.trim())) continue;
      if (content.length === 0) continue;
      const trimmed = concat.trim();
      if (
        firstPrompt === undefined &&
        trimmed !== "" &&
        !trimmed.startsWith("/") &&
        !trimmed.startsWith("?")
      ) {
        firstPrompt = m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      }
      body.push({ role: "user", content, timestamp: toMillis(m.timestamp) });
      continue;
    }
    const run = item.run;
    const head = run[0]!.m;
    // [a turn without a model runs on the one in effect, the session's at first]
    const model = head.model ?? inEffect;
    inEffect = model;
    const thinking: Block[] = [];
    const texts: string[] = [];
    const uses: ToolUseBlock[] = [];
    let usage: { input: number; output: number; read: number } | undefined;
    for (const { m, blocks, first } of run) {
      // A message's usage stays with the turn it began in.
      if (m.usage !== undefined && first) {
        const u = m.usage;
        usage ??= { input: 0, output: 0, read: 0 };
        usage.input +=
          u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
        usage.output += u.output_tokens;
        usage.read += u.cache_read_input_tokens ?? 0;
      }
      for (const b of blocks) {
        switch (b.type) {
          case "text":
            texts.push(b.text);
            break;
          case "thinking":
            // [signatures and encrypted reasoning are not kept; thinking comes first]
            if (b.text !== "") thinking.push({ type: "thinking", text: b.text });
            break;
          case "image":
            texts.push(`[image: ${b.source.media_type || b.source.type}]`);
            break;
          case "tool_use": {
            const w = geminiWritten(b.tool);
            uses.push({ type: "tool_use", id: b.id, tool: geminiRead(w.name, w.input) });
            break;
          }
          default:
            unsupported("Gemini CLI", `${b.type} blocks in assistant messages`);
        }
      }
    }
    const text = texts.join("\n\n");
    const content: Block[] = [
      ...thinking,
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...uses,
    ];
    if (content.length === 0) continue;
    const out: Message = { role: "assistant", content, timestamp: toMillis(head.timestamp) };
    if (model !== undefined && model !== "") out.model = model;
    // "the model of the first `gemini` record with something to show"
    if (!shownYet) firstModel = out.model;
    shownYet = true;
    // [cache-creation tokens are folded into input; counts past 2^53 − 1 are dropped]
    if (
      usage !== undefined &&
      Number.isSafeInteger(usage.input) &&
      Number.isSafeInteger(usage.output)
    ) {
      const u: Usage = {
        input_tokens: Math.max(0, usage.input - usage.read),
        output_tokens: usage.output,
      };
      if (usage.read > 0) u.cache_read_input_tokens = usage.read;
      out.usage = u;
    }
    body.push(out);
    // The calls' results right after the turn; [a call never answered gets an error result].
    const answers: ToolResultBlock[] = [];
    let when: Timestamp | undefined;
    for (const use of uses) {
      const r = results.get(use.id);
      when ??=
        r?.at ??
        run.find((x) => x.blocks.some((b) => b.type === "tool_use" && b.id === use.id))!.m
          .timestamp;
      if (r === undefined) {
        answers.push({
          type: "tool_result",
          tool_use_id: use.id,
          content: "[no result was recorded for this call]",
          is_error: true,
        });
        continue;
      }
      const c = r.block.content;
      if (r.block.is_error) {
        answers.push({
          type: "tool_result",
          tool_use_id: use.id,
          content: asText(c),
          is_error: true,
        });
        continue;
      }
      // [every response is {"output": <text>} or {"error": <text>}: a JSON result comes back as its text]
      const s = asText(c);
      // [a shell output reporting a non-zero exit code reads as an error]
      const code =
        written.get(use.id) === "run_shell_command"
          ? /(?:^|\n)Exit Code: (-?\d+)(?:\n|$)/.exec(s)?.[1]
          : undefined;
      answers.push(
        code !== undefined && code !== "0"
          ? { type: "tool_result", tool_use_id: use.id, content: s, is_error: true }
          : { type: "tool_result", tool_use_id: use.id, content: s },
      );
    }
    if (answers.length > 0)
      body.push({ role: "user", content: answers, timestamp: toMillis(when!) });
  }
  // [cli_version and git_branch are not kept; times are cut to milliseconds]
  const meta: Meta = { id: geminiSessionId(session.id), timestamp: toMillis(session.timestamp) };
  // The text form names the cwd in its <session_context>; the store in its project folder.
  if (session.cwd !== undefined) {
    const cwd = via === "store" ? session.cwd : session.cwd.split("\n")[0]!.trim();
    if (cwd !== "") meta.cwd = cwd;
  }
  // "the summary when there is one, else the first user prompt … cleaned"
  const summary =
    session.title !== undefined && session.title.trim() !== "" ? geminiSummary(session.title) : "";
  const title =
    summary !== "" ? summary : firstPrompt === undefined ? "" : geminiClean(firstPrompt);
  if (title !== "") meta.title = title;
  if (firstModel !== undefined) meta.model = firstModel;
  return { meta, body };
};

/**
 * Goose (docs/formats/goose.md): "one Goose message per Common message";
 * [message times to the second], [stop reasons, usage and per-message
 * models], [git branch and CLI version] are lost; assistant messages take
 * the session's model; a structured tool result becomes its JSON text;
 * Bash/Read/Write/Edit come back typed.
 */
const carryGoose: Carry = (t) => {
  const meta: Meta = { id: t.meta.id, timestamp: t.meta.timestamp };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  // [An unnamed session is titled by its first prompt] (set below, from what is carried).
  if (t.meta.title) meta.title = t.meta.title;
  if (t.meta.model) meta.model = t.meta.model;
  const block = (b: Block): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "thinking":
        if (b.text === "" && b.encrypted !== undefined)
          return { type: "thinking", text: "", encrypted: b.encrypted };
        return b.signature
          ? { type: "thinking", text: b.text, signature: b.signature }
          : { type: "thinking", text: b.text };
      case "image":
        return {
          type: "image",
          source: { type: "base64", media_type: b.source.media_type, data: b.source.data },
        };
      case "tool_use":
        if (b.tool.name === "Raw" && b.tool.tool_name.startsWith("developer__"))
          unsupported("Goose", "a Raw tool under a Goose developer name");
        return {
          type: "tool_use",
          id: b.id,
          tool: toolFromCanonical(toolToCanonical(b.tool).name, toolToCanonical(b.tool).input),
        };
      case "tool_result": {
        const r: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
        };
        if (b.is_error) r.is_error = true;
        return r;
      }
      default:
        return unsupported("Goose", b.type);
    }
  };
  // [Times are whole seconds; a `created` of 1e11 or more is not read as
  // seconds, and the message takes the time before it (the session's start first)]
  let previous = meta.timestamp;
  const body: Message[] = [];
  for (const m of t.body) {
    const seconds = Math.floor(timestampMillis(m.timestamp) / 1000);
    const timestamp = Math.abs(seconds) < 1e11 ? timestampFromMillis(seconds * 1000) : previous;
    previous = timestamp;
    if (m.content.length === 0) continue;
    const out: Message = { role: m.role, content: m.content.map(block), timestamp };
    if (m.role === "assistant" && meta.model) out.model = meta.model;
    body.push(out);
  }
  if (meta.title === undefined) {
    const title = firstPromptTitle(body, () => false);
    if (title !== undefined) meta.title = title;
  }
  return { meta, body };
};

/**
 * Kiro CLI (docs/formats/kiro.md): "one log entry per Common message", the
 * session's metadata on the text form's first line; [message times to the
 * second, on prompts only: an assistant message or tool results take the
 * time before them], [stop reasons, usage and per-message models] and [git
 * branch and CLI version] are lost; assistant messages take the session's
 * model; a structured tool result becomes its JSON text; Bash comes back
 * typed, every other tool by its canonical name.
 */
const carryKiro: Carry = (t) => {
  const meta: Meta = { id: t.meta.id, timestamp: t.meta.timestamp };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  if (t.meta.title) meta.title = t.meta.title;
  if (t.meta.model) meta.model = t.meta.model;
  const block = (b: Block): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "thinking": {
        const out: Block = { type: "thinking", text: b.text };
        if (b.signature) out.signature = b.signature;
        // [opaque reasoning is kept as bytes: it comes back as standard base64]
        const bytes = b.encrypted ? Buffer.from(b.encrypted, "base64").toString("base64") : "";
        if (bytes) out.encrypted = bytes;
        return out;
      }
      case "image":
        return {
          type: "image",
          // [images are kept as bytes: their data comes back as standard base64]
          source: {
            type: "base64",
            media_type: b.source.media_type,
            data: Buffer.from(b.source.data, "base64").toString("base64"),
          },
        };
      case "tool_use":
        if (b.tool.name === "Raw" && ["shell", "execute_bash"].includes(b.tool.tool_name))
          unsupported("Kiro", "a Raw tool under a Kiro shell name");
        return {
          type: "tool_use",
          id: b.id,
          tool: toolFromCanonical(toolToCanonical(b.tool).name, toolToCanonical(b.tool).input),
        };
      case "tool_result": {
        const r: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
        };
        if (b.is_error) r.is_error = true;
        return r;
      }
      default:
        return unsupported("Kiro", b.type);
    }
  };
  let previous = meta.timestamp;
  const body: Message[] = [];
  for (const m of t.body) {
    const prompt = m.role === "user" && !m.content.some((b) => b.type === "tool_result");
    const seconds = Math.floor(timestampMillis(m.timestamp) / 1000);
    const timestamp =
      prompt && Math.abs(seconds) < 1e11 ? timestampFromMillis(seconds * 1000) : previous;
    previous = timestamp;
    if (m.content.length === 0) continue;
    const out: Message = { role: m.role, content: m.content.map(block), timestamp };
    if (m.role === "assistant" && meta.model) out.model = meta.model;
    body.push(out);
  }
  return { meta, body };
};

/**
 * pi (docs/formats/pi.md): one pi message per Common message, but [a user
 * message's tool results become one `toolResult` message each, and its other
 * blocks one user message between them]; [consecutive results read back as one
 * message]; [times to the millisecond];
 * [git branch and CLI version are lost]; [an assistant message with no model
 * takes the session's, else "unknown"], [its usage is always written, and
 * all zeros read as none]; [no stop reason reads as tool_use when the message
 * calls a tool, else end_turn; stop_sequence and other reasons as end_turn];
 * [a structured tool result becomes its text]; [opaque reasoning beside text
 * is lost]; [an image or artifact in an assistant message becomes text]; tools go through
 * pi's own names (its tools module, tested on its own in test/pi).
 */
const carryPi: Carry = (t) => {
  const ms = (ts: Timestamp): Timestamp => timestampFromMillis(timestampMillis(ts));
  const meta: Meta = { id: t.meta.id, timestamp: ms(t.meta.timestamp) };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  // [A title is pi's session name: trimmed, and an empty one is none].
  const named = t.meta.title?.trim();
  if (named) meta.title = named;
  const userBlock = (b: Block): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "image":
        return {
          type: "image",
          source: { type: "base64", media_type: b.source.media_type, data: b.source.data },
        };
      case "thinking":
        return { type: "text", text: b.text };
      case "artifact":
        return { type: "text", text: artifactText(b) };
      default:
        return unsupported("pi", `${b.type} in a user message`);
    }
  };
  const assistantBlock = (b: Block): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "thinking":
        if (b.text === "" && b.encrypted !== undefined)
          return { type: "thinking", text: "", encrypted: b.encrypted };
        return b.signature !== undefined
          ? { type: "thinking", text: b.text, signature: b.signature }
          : { type: "thinking", text: b.text };
      case "tool_use": {
        const { name, arguments: args } = toolToPi(b.tool);
        return { type: "tool_use", id: b.id, tool: toolFromPi(name, args) };
      }
      case "image":
        return { type: "text", text: "" };
      case "artifact":
        return { type: "text", text: artifactText(b) };
      default:
        return unsupported("pi", `${b.type} in an assistant message`);
    }
  };
  const body: Message[] = [];
  for (const m of t.body) {
    const timestamp = ms(m.timestamp);
    if (m.role === "assistant") {
      const out: Message = {
        role: "assistant",
        content: m.content.map(assistantBlock),
        timestamp,
        model: m.model ?? t.meta.model ?? "unknown",
      };
      const calls = m.content.some((b) => b.type === "tool_use");
      const reason = m.stop_reason;
      out.stop_reason =
        reason === undefined
          ? calls
            ? "tool_use"
            : "end_turn"
          : typeof reason === "string" && reason !== "stop_sequence"
            ? reason
            : "end_turn";
      const u = m.usage;
      if (
        u !== undefined &&
        u.input_tokens +
          u.output_tokens +
          (u.cache_read_input_tokens ?? 0) +
          (u.cache_creation_input_tokens ?? 0) >
          0
      ) {
        const usage: Usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens };
        if (u.cache_read_input_tokens) usage.cache_read_input_tokens = u.cache_read_input_tokens;
        if (u.cache_creation_input_tokens)
          usage.cache_creation_input_tokens = u.cache_creation_input_tokens;
        out.usage = usage;
      }
      body.push(out);
      continue;
    }
    let pending: Block[] = [];
    const flush = () => {
      if (pending.length > 0) body.push({ role: "user", content: pending, timestamp });
      pending = [];
    };
    for (const b of m.content) {
      if (b.type !== "tool_result") {
        pending.push(userBlock(b));
        continue;
      }
      flush();
      const r: ToolResultBlock = {
        type: "tool_result",
        tool_use_id: b.tool_use_id,
        content: resultText(b.content),
      };
      if (b.is_error) r.is_error = true;
      body.push({ role: "user", content: [r], timestamp });
    }
    flush();
  }
  // [Consecutive tool results read back as one user message, at the first one's time].
  const merged: Message[] = [];
  const onlyResults = (m: Message) =>
    m.role === "user" && m.content.length > 0 && m.content.every((b) => b.type === "tool_result");
  for (const m of body) {
    const last = merged.at(-1);
    if (last !== undefined && onlyResults(last) && onlyResults(m)) last.content.push(...m.content);
    else merged.push(m);
  }
  body.splice(0, body.length, ...merged);
  const firstModel = body.find((m) => m.role === "assistant")?.model;
  if (firstModel !== undefined) meta.model = firstModel;
  if (meta.title === undefined) {
    const title = firstPromptTitle(
      body.filter((m) => !m.content.some((b) => b.type === "tool_result")),
      () => false,
    );
    if (title !== undefined) meta.title = title;
  }
  return { meta, body };
};

/**
 * GitHub Copilot CLI (docs/formats/copilot.md), text form (the events
 * file; a store save adds workspace.yaml): [the CLI version is the
 * writer's, 1.0.102]; [a user message's text-like blocks become one `user.message`,
 * joined by a blank line, then its images as blob attachments, each tool
 * result its own completion]; [consecutive results read back as one message]; [an assistant
 * message is its first non-empty thinking (with its signature), its other
 * text-like blocks joined by a blank line, then its calls]; [stop reasons
 * and the session title are lost; the title is the first prompt]; [results
 * become text]; tools go through Copilot's own names (its tools module).
 * Through the store, the title is kept as workspace.yaml's `name`.
 */
const carryCopilot: Carry = (t, via) => {
  const meta: Meta = { id: t.meta.id, timestamp: t.meta.timestamp };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  if (t.meta.git_branch) meta.git_branch = t.meta.git_branch;
  // The writer follows 1.0.102 and says so in `copilotVersion` (the CLI requires one).
  meta.cli_version = "1.0.102";
  const textOf = (b: Block): string | undefined => {
    switch (b.type) {
      case "text":
      case "thinking":
        return b.text;
      case "artifact":
        return artifactText(b);
      case "tool_use":
        return JSON.stringify(toolToCopilot(b.tool));
      case "tool_result":
        return resultText(b.content);
      case "image":
        return undefined;
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = [];
  for (const m of t.body) {
    const timestamp = m.timestamp;
    if (m.role === "assistant") {
      const content: Block[] = [];
      const texts: string[] = [];
      const calls: Block[] = [];
      let reasoned = false;
      for (const b of m.content) {
        if (b.type === "thinking" && !reasoned) {
          reasoned = true;
          if (b.text !== "")
            content.push(
              b.signature !== undefined
                ? { type: "thinking", text: b.text, signature: b.signature }
                : { type: "thinking", text: b.text },
            );
        } else if (b.type === "tool_use") {
          const { name, arguments: args } = toolToCopilot(b.tool);
          calls.push({ type: "tool_use", id: b.id, tool: toolFromCopilot(name, args) });
        } else {
          const text = textOf(b);
          if (text !== undefined) texts.push(text);
        }
      }
      const joined = texts.join("\n\n");
      if (joined !== "") content.push({ type: "text", text: joined });
      content.push(...calls);
      const out: Message = { role: "assistant", content, timestamp };
      if (m.model !== undefined) out.model = m.model;
      if (m.usage !== undefined) {
        const usage: Usage = {
          input_tokens: m.usage.input_tokens,
          output_tokens: m.usage.output_tokens,
        };
        if (m.usage.cache_read_input_tokens)
          usage.cache_read_input_tokens = m.usage.cache_read_input_tokens;
        if (m.usage.cache_creation_input_tokens)
          usage.cache_creation_input_tokens = m.usage.cache_creation_input_tokens;
        out.usage = usage;
      }
      body.push(out);
      continue;
    }
    let texts: string[] = [];
    let images: Block[] = [];
    const flush = () => {
      const text = texts.join("\n\n");
      const head: Block[] = text !== "" || images.length === 0 ? [{ type: "text", text }] : [];
      if (texts.length > 0 || images.length > 0)
        body.push({ role: "user", content: [...head, ...images], timestamp });
      texts = [];
      images = [];
    };
    for (const b of m.content) {
      if (b.type === "tool_result") {
        flush();
        const r: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: resultText(b.content),
        };
        if (b.is_error) r.is_error = true;
        body.push({ role: "user", content: [r], timestamp });
        continue;
      }
      if (b.type === "image")
        images.push({
          type: "image",
          source: { type: "base64", media_type: b.source.media_type, data: b.source.data },
        });
      const text = textOf(b);
      if (text !== undefined) texts.push(text);
    }
    flush();
  }
  const merged: Message[] = [];
  const onlyResults = (m: Message) =>
    m.role === "user" && m.content.length > 0 && m.content.every((b) => b.type === "tool_result");
  for (const m of body) {
    const last = merged.at(-1);
    if (last !== undefined && onlyResults(last) && onlyResults(m)) last.content.push(...m.content);
    else merged.push(m);
  }
  // A blank name is not a title: the reader falls back to the first prompt.
  const named = via === "store" && t.meta.title?.trim() ? t.meta.title : undefined;
  const title =
    named ??
    firstPromptTitle(
      merged.filter((m) => !onlyResults(m)),
      () => false,
    );
  if (title !== undefined) meta.title = title;
  const model =
    merged.find((m) => m.role === "assistant" && m.model !== undefined)?.model ?? t.meta.model;
  if (model) meta.model = model;
  return { meta, body: merged };
};

/**
 * Qwen Code (docs/formats/qwen-code.md, "Common → Qwen Code"): one record
 * per message; [results follow their call, one user message per run of
 * results; a call never answered gets an error result]; [thinking in a user
 * message becomes text; signatures, stop reasons, cli_version and
 * git_branch are lost; times are cut to milliseconds]; [the session starts
 * at its first record: the title's, else the first message's].
 */
function qwenWritten(tool: Tool): { name: string; input: Json } {
  switch (tool.name) {
    case "Bash": {
      if (
        tool.timeout_ms !== undefined &&
        !(Number.isSafeInteger(tool.timeout_ms) && tool.timeout_ms >= 1)
      )
        break;
      const input: JsonObject = { command: tool.command };
      if (tool.description !== undefined) input.description = tool.description;
      if (tool.workdir !== undefined) input.directory = tool.workdir;
      if (tool.run_in_background !== undefined) input.is_background = tool.run_in_background;
      if (tool.timeout_ms !== undefined) input.timeout = tool.timeout_ms;
      return { name: "run_shell_command", input };
    }
    case "Read": {
      const { offset, limit } = tool;
      if (offset === 0 || limit === 0 || (offset !== undefined && limit === undefined)) break;
      const input: JsonObject = { file_path: tool.file_path };
      if (offset !== undefined) input.offset = offset - 1;
      if (limit !== undefined) input.limit = limit;
      return { name: "read_file", input };
    }
    case "Write":
      return { name: "write_file", input: { file_path: tool.file_path, content: tool.content } };
    case "Edit": {
      const input: JsonObject = {
        file_path: tool.file_path,
        old_string: tool.old_string,
        new_string: tool.new_string,
      };
      if (tool.replace_all !== undefined) input.replace_all = tool.replace_all;
      return { name: "edit", input };
    }
    case "Raw":
      return { name: tool.tool_name, input: clone(tool.input) };
    default:
      unsupported("Qwen Code", `${tool.name} tools`);
  }
  return toolToCanonical(tool);
}

/** The native call read back: the four tools typed (the writer only writes fitting arguments). */
function qwenRead(name: string, input: Json, canonical: Tool): Tool {
  if (["run_shell_command", "read_file", "write_file", "edit"].includes(name))
    return clone(canonical);
  return toolFromCanonical(name, input);
}

const carryQwen: Carry = (t) => {
  assistantCalls(t.body);
  const session = t.meta;
  const results = new Map<string, { block: ToolResultBlock; at: Timestamp }>();
  for (const m of t.body) {
    for (const b of m.content) {
      if (b.type === "tool_result" && !results.has(b.tool_use_id))
        results.set(b.tool_use_id, { block: b, at: m.timestamp });
    }
  }
  const body: Message[] = [];
  const times: Timestamp[] = [];
  let model: string | undefined;
  let prompt: string | undefined;
  const title = session.title !== undefined && session.title !== "" ? session.title : undefined;
  if (title !== undefined) times.push(toMillis(session.timestamp));
  for (const m of t.body) {
    if (m.role === "user") {
      const content: Block[] = [];
      let written = 0;
      let promptText = "";
      for (const b of m.content) {
        if (b.type === "text" || b.type === "thinking") {
          written++;
          promptText += b.text;
          if (b.text !== "") content.push({ type: "text", text: b.text });
        } else if (b.type === "image") {
          written++;
          if (b.source.type === "base64") content.push(clone(b));
          else {
            const text = `[image: ${b.source.data}]`;
            promptText += text;
            content.push({ type: "text", text });
          }
        }
      }
      if (written === 0) continue;
      times.push(toMillis(m.timestamp));
      const trimmed = promptText.trim();
      if (prompt === undefined && trimmed !== "") prompt = trimmed;
      if (content.length > 0)
        body.push({ role: "user", content, timestamp: toMillis(m.timestamp) });
      continue;
    }
    const content: Block[] = [];
    const uses: { id: string; name: string }[] = [];
    let written = 0;
    for (const b of m.content) {
      written++;
      switch (b.type) {
        case "text":
          if (b.text !== "") content.push({ type: "text", text: b.text });
          break;
        case "thinking":
          content.push({ type: "thinking", text: b.text });
          break;
        case "image":
          content.push({ type: "text", text: "[Media]" });
          break;
        case "tool_use": {
          if (b.id === "") unsupported("Qwen Code", "empty call ids");
          const w = qwenWritten(b.tool);
          content.push({ type: "tool_use", id: b.id, tool: qwenRead(w.name, w.input, b.tool) });
          uses.push({ id: b.id, name: w.name });
          break;
        }
        default:
          unsupported("Qwen Code", `${b.type} blocks in assistant messages`);
      }
    }
    if (written === 0) continue;
    times.push(toMillis(m.timestamp));
    if (model === undefined && m.model !== undefined && m.model !== "") model = m.model;
    if (content.length > 0) {
      const out: Message = { role: "assistant", content, timestamp: toMillis(m.timestamp) };
      if (m.model !== undefined && m.model !== "") out.model = m.model;
      if (m.usage !== undefined) {
        const u = m.usage;
        const read = u.cache_read_input_tokens ?? 0;
        const input = u.input_tokens + read + (u.cache_creation_input_tokens ?? 0);
        if (Number.isSafeInteger(input) && Number.isSafeInteger(u.output_tokens)) {
          const usage: Usage = {
            input_tokens: Math.max(0, input - read),
            output_tokens: u.output_tokens,
          };
          if (read > 0) usage.cache_read_input_tokens = read;
          out.usage = usage;
        }
      }
      body.push(out);
    }
    const answers: ToolResultBlock[] = [];
    let when: Timestamp | undefined;
    for (const use of uses) {
      const r = results.get(use.id);
      const at = toMillis(r?.at ?? m.timestamp);
      when ??= at;
      times.push(at);
      if (r === undefined) {
        answers.push({
          type: "tool_result",
          tool_use_id: use.id,
          content: "[no result was recorded for this call]",
          is_error: true,
        });
        continue;
      }
      const c = r.block.content;
      if (r.block.is_error) {
        answers.push({
          type: "tool_result",
          tool_use_id: use.id,
          content: asText(c),
          is_error: true,
        });
        continue;
      }
      // [every response is {"output": <text>} or {"error": <text>}: a JSON result comes back as its text]
      const text = asText(c);
      const code =
        use.name === "run_shell_command"
          ? /(?:^|\n)Exit Code: (-?\d+)(?:\n|$)/.exec(text)?.[1]
          : undefined;
      answers.push(
        code !== undefined && code !== "0"
          ? { type: "tool_result", tool_use_id: use.id, content: text, is_error: true }
          : { type: "tool_result", tool_use_id: use.id, content: text },
      );
    }
    if (answers.length > 0) body.push({ role: "user", content: answers, timestamp: when! });
  }
  const start = [...times].sort(compareTimestamps)[0];
  if (start === undefined) unsupported("Qwen Code", "sessions with nothing to write");
  const meta: Meta = { id: qwenSessionId(session.id), timestamp: start };
  if (session.cwd !== undefined && session.cwd !== "") meta.cwd = session.cwd;
  const shown =
    title ?? (prompt === undefined ? undefined : oneLineTitle(prompt.split("\n")[0] ?? "", 80));
  if (shown !== undefined) meta.title = shown;
  if (model !== undefined) meta.model = model;
  return { meta, body };
};

/**
 * Cursor (docs/formats/cursor.md): "txcript writes the chat layout", the
 * session's metadata on the text form's header line; [times to the
 * millisecond], [stop reasons and usage] and [git branch and CLI version]
 * are lost; the session's model is the first message model when it has
 * none; an artifact becomes its text; Cursor's own tools come back typed,
 * every other tool by its canonical name.
 */
const CURSOR_ARGS: Record<string, string[]> = {
  Shell: ["command", "cwd"],
  Read: ["path", "offset", "limit"],
  StrReplace: ["path", "old_string", "new_string", "oldString", "newString", "replace_all"],
  Write: ["path", "content"],
};
const carryCursor: Carry = (t) => {
  const ms = (ts: Timestamp) => timestampFromMillis(timestampMillis(ts));
  const meta: Meta = { id: t.meta.id, timestamp: ms(t.meta.timestamp) };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  if (t.meta.title) meta.title = t.meta.title;
  const model = t.meta.model || t.body.find((m) => m.model)?.model;
  if (model) meta.model = model;
  const block = (b: Block): Block => {
    switch (b.type) {
      case "text":
      case "image":
      case "tool_result":
        return clone(b);
      case "thinking": {
        const out: Block = { type: "thinking", text: b.text };
        if (b.signature) out.signature = b.signature;
        if (b.encrypted) out.encrypted = b.encrypted;
        return out;
      }
      case "tool_use": {
        // [a Raw tool under a Cursor tool name whose input uses Cursor's argument names is read as Cursor's]
        if (b.tool.name === "Raw") {
          const args = Object.hasOwn(CURSOR_ARGS, b.tool.tool_name)
            ? CURSOR_ARGS[b.tool.tool_name]
            : undefined;
          const input = b.tool.input;
          if (args && isJsonObject(input) && Object.keys(input).every((k) => args.includes(k)))
            unsupported("Cursor", "a Raw tool in Cursor's own argument names");
        }
        const { name, input } = toolToCanonical(b.tool);
        return { type: "tool_use", id: b.id, tool: toolFromCanonical(name, input) };
      }
      case "artifact": {
        const { name, source } = b.artifact;
        const text =
          source.type === "text"
            ? `[artifact ${name}]\n${source.text}`
            : source.type === "path"
              ? `[artifact ${name}: ${source.path}]`
              : `[artifact ${name}: ${source.media_type ?? "binary"}, base64]`;
        return { type: "text", text };
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = [];
  for (const m of t.body) {
    if (m.content.length === 0) continue;
    const out: Message = {
      role: m.role,
      content: m.content.map(block),
      timestamp: ms(m.timestamp),
    };
    if (m.role === "assistant" && m.model) out.model = m.model;
    body.push(out);
  }
  return { meta, body };
};

/**
 * Amp (docs/formats/amp.md): "the thread document, every message one to
 * one"; [times to the millisecond], [opaque reasoning], [a user message's
 * model, usage and stop reason] and [the session model, but for the first
 * assistant model] are lost; the id becomes a `T-<uuid>`; an error result
 * becomes its text; an artifact becomes its text; Bash and Read come back
 * typed, every other tool by its canonical name.
 */
const carryAmp: Carry = (t) => {
  const ms = (ts: Timestamp) => timestampFromMillis(timestampMillis(ts));
  const meta: Meta = { id: ampThreadId(t.meta.id), timestamp: ms(t.meta.timestamp) };
  if (t.meta.cwd !== undefined) {
    meta.cwd = t.meta.cwd;
    if (t.meta.git_branch !== undefined) meta.git_branch = t.meta.git_branch;
  }
  if (t.meta.title) meta.title = t.meta.title;
  if (t.meta.cli_version) meta.cli_version = t.meta.cli_version;
  const model = t.body.find((m) => m.role === "assistant" && m.model)?.model;
  if (model) meta.model = model;
  const block = (b: Block): Block => {
    switch (b.type) {
      case "text":
      case "image":
        return clone(b);
      case "thinking": {
        const out: Block = { type: "thinking", text: b.text };
        if (b.signature) out.signature = b.signature;
        return out;
      }
      case "tool_use": {
        // [a Raw tool under an Amp tool name whose input fits Amp's own arguments is read as Amp's]
        if (b.tool.name === "Raw") {
          const { tool_name: n, input } = b.tool;
          const keys = isJsonObject(input) ? Object.keys(input) : undefined;
          const fits = (allowed: string[]) => keys?.every((k) => allowed.includes(k)) === true;
          if (
            (n === "Bash" && fits(["cmd", "cwd"])) ||
            (n === "shell_command" && fits(["command", "workdir"])) ||
            (n === "Read" && fits(["path", "read_range"]))
          )
            unsupported("Amp", "a Raw tool in Amp's own argument names");
        }
        const { name, input } = toolToCanonical(b.tool);
        return { type: "tool_use", id: b.id, tool: toolFromCanonical(name, input) };
      }
      case "tool_result": {
        if (!b.is_error) return clone(b);
        const text =
          typeof b.content === "string"
            ? b.content
            : Array.isArray(b.content) &&
                b.content.every(
                  (x) => isJsonObject(x) && x.type === "text" && typeof x.text === "string",
                )
              ? b.content.map((x) => (isJsonObject(x) ? String(x.text) : "")).join("\n")
              : JSON.stringify(b.content);
        return { type: "tool_result", tool_use_id: b.tool_use_id, content: text, is_error: true };
      }
      case "artifact": {
        const { name, source } = b.artifact;
        const text =
          source.type === "text"
            ? `[artifact ${name}]\n${source.text}`
            : source.type === "path"
              ? `[artifact ${name}: ${source.path}]`
              : `[artifact ${name}: ${source.media_type ?? "binary"}, base64]`;
        return { type: "text", text };
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = [];
  for (const m of t.body) {
    if (m.content.length === 0) continue;
    const out: Message = {
      role: m.role,
      content: m.content.map(block),
      timestamp: ms(m.timestamp),
    };
    if (m.role === "assistant") {
      if (m.model) out.model = m.model;
      // [a harness-specific stop reason spelled like a known one reads as that one: Amp keeps one string]
      const stop = m.stop_reason;
      if (stop !== undefined)
        out.stop_reason =
          typeof stop === "object"
            ? (STOP_REASONS.find((r) => r === stop.other) ?? clone(stop))
            : stop;
      if (m.usage !== undefined) out.usage = clone(m.usage);
    }
    body.push(out);
  }
  return { meta, body };
};

// ---------------------------------------------------------------------------
// Grok CLI (docs/formats/grok.md): the session's `updates.jsonl`, ACP
// notifications with no message boundaries.

/**
 * Grok CLI: [one message a run of same-role updates] (messages of one role
 * in a row read as one, empty ones vanish, the first's time and model
 * kept), [chunks of one kind in a row join] (text after text, thinking
 * after thinking), [times to the millisecond]; usage, stop reasons,
 * thinking signatures and encrypted reasoning, git branch and CLI version
 * are lost; a user's thinking and any artifact become text; a text result
 * (or text blocks, joined by newlines) is one text, any other result is
 * kept as it is; every tool comes back by its canonical name, typed on an
 * exact fit (a nameless Raw tool as `other`); the
 * session model is `current_model_id`, else the first assistant model.
 */
const carryGrok: Carry = (t) => {
  const meta: Meta = { id: t.meta.id, timestamp: t.meta.timestamp };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  if (t.meta.title) meta.title = t.meta.title;
  const block = (b: Block, role: Message["role"]): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "image":
        return b.source.type === "base64"
          ? clone(b)
          : { type: "image", source: { ...b.source, type: "url" } };
      case "thinking":
        return role === "assistant"
          ? { type: "thinking", text: b.text }
          : { type: "text", text: b.text };
      case "artifact":
        return { type: "text", text: artifactText(b) };
      case "tool_use": {
        const { name, input } = toolToCanonical(b.tool);
        return { type: "tool_use", id: b.id, tool: toolFromCanonical(name || "other", input) };
      }
      case "tool_result": {
        const c = b.content;
        const text =
          typeof c === "string" ||
          (Array.isArray(c) &&
            c.every((x) => isJsonObject(x) && x.type === "text" && typeof x.text === "string"));
        const out: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: text ? resultText(c) : clone(c),
        };
        if (b.is_error === true) out.is_error = true;
        return out;
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = [];
  for (const m of t.body) {
    if (m.content.length === 0) continue;
    let last = body[body.length - 1];
    if (last?.role !== m.role) {
      last = { role: m.role, content: [], timestamp: toMillis(m.timestamp) };
      body.push(last);
    }
    if (m.role === "assistant" && last.model === undefined && m.model) last.model = m.model;
    for (const b of m.content) {
      const out = block(b, m.role);
      const prev = last.content[last.content.length - 1];
      if (out.type === "text" && prev?.type === "text") prev.text += out.text;
      else if (out.type === "thinking" && prev?.type === "thinking") prev.text += out.text;
      else last.content.push(out);
    }
  }
  const model = t.meta.model || body.find((m) => m.model)?.model;
  if (model) meta.model = model;
  return { meta, body };
};

// ---------------------------------------------------------------------------
// Cline (docs/formats/cline.md): the messages file, and the manifest a store save writes.

const carryCline: Carry = (t) => {
  const ms = (ts: Timestamp): Timestamp => timestampFromMillis(timestampMillis(ts));
  const unwrap = (text: string): string =>
    /^<user_input mode="[a-z]+">([\s\S]*)<\/user_input>$/.exec(text)?.[1] ?? text;
  const block = (b: Block, role: "user" | "assistant"): Block => {
    switch (b.type) {
      case "text":
        // ["A prompt loses Cline's <user_input mode> wrapper"].
        return { type: "text", text: role === "user" ? unwrap(b.text) : b.text };
      case "image":
        return {
          type: "image",
          source: { type: "base64", media_type: b.source.media_type, data: b.source.data },
        };
      case "artifact":
        return { type: "text", text: artifactText(b) };
      case "thinking":
        if (role === "user") return { type: "text", text: b.text };
        if (b.text === "" && b.encrypted !== undefined)
          return { type: "thinking", text: "", encrypted: b.encrypted };
        return b.signature !== undefined
          ? { type: "thinking", text: b.text, signature: b.signature }
          : { type: "thinking", text: b.text };
      case "tool_use": {
        if (role === "user") return unsupported("cline", "tool calls in user messages");
        const { name, input } = toolToCline(b.tool);
        return { type: "tool_use", id: b.id, tool: toolFromCline(name, input) };
      }
      case "tool_result": {
        if (role === "assistant") return unsupported("cline", "results in assistant messages");
        const out: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: typeof b.content === "string" ? b.content : resultText(b.content),
        };
        if (b.is_error === true) out.is_error = true;
        return out;
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = t.body.map((m) => {
    const out: Message = {
      role: m.role,
      content: m.content.map((b) => block(b, m.role)),
      timestamp: ms(m.timestamp),
    };
    if (m.role === "assistant") {
      out.model = m.model ?? t.meta.model ?? "unknown";
      const u = m.usage;
      const read = u?.cache_read_input_tokens ?? 0;
      const write = u?.cache_creation_input_tokens ?? 0;
      if (u !== undefined && u.input_tokens + u.output_tokens + read + write > 0) {
        const usage: Usage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens };
        if (read > 0) usage.cache_read_input_tokens = read;
        if (write > 0) usage.cache_creation_input_tokens = write;
        out.usage = usage;
      }
    }
    return out;
  });
  const prompt = firstPromptTitle(body, () => false);
  // [The manifest carries the start, cwd, model and title: in <id>.json, or under `manifest` in the text form].
  const meta: Meta = { id: t.meta.id, timestamp: ms(t.meta.timestamp) };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  const title = t.meta.title?.trim() || prompt;
  if (title) meta.title = title;
  // [The manifest's model is the session's, else the first assistant message's, else "unknown"].
  meta.model =
    t.meta.model || t.body.find((m) => m.role === "assistant" && m.model)?.model || "unknown";
  return { meta, body };
};

/**
 * Factory Droid (docs/formats/droid.md): one Droid message per Common
 * message, Anthropic-style blocks; [a non-UUID session id is replaced by a
 * stable UUID]; [times to the millisecond]; [the session's start is its
 * first message's time (Droid's session start records none)]; [git branch
 * and CLI version are lost]; [a title is trimmed, and a session without one
 * is titled by its first prompt]; [the session's model is its first
 * assistant message's]; [an assistant message with no model takes the
 * session's]; [stop reasons are lost]; [usage is the session's total, in the
 * settings file beside the session: through the store it rides on the last
 * assistant message, through the text form it is lost]; [a structured tool
 * result becomes its text]; [opaque reasoning beside text, and an empty
 * signature, are lost]; [thinking, a tool call or a tool result where the
 * role cannot hold it becomes text]; tools go through Droid's own names (its
 * tools module, tested on its own in test/droid).
 */
const carryDroid: Carry = (t, via) => {
  const ms = (ts: Timestamp): Timestamp => timestampFromMillis(timestampMillis(ts));
  const block = (b: Block, role: Message["role"]): Block => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "image":
        return {
          type: "image",
          source: { type: b.source.type, media_type: b.source.media_type, data: b.source.data },
        };
      case "artifact":
        return { type: "text", text: artifactText(b) };
      case "thinking":
        if (role !== "assistant") return { type: "text", text: b.text };
        if (b.text === "" && b.encrypted !== undefined)
          return { type: "thinking", text: "", encrypted: b.encrypted };
        return b.signature
          ? { type: "thinking", text: b.text, signature: b.signature }
          : { type: "thinking", text: b.text };
      case "tool_use": {
        const { name, input } = toolToDroid(b.tool);
        if (role !== "assistant") return { type: "text", text: JSON.stringify({ name, input }) };
        return { type: "tool_use", id: b.id, tool: toolFromDroid(name, input) };
      }
      case "tool_result": {
        if (role !== "user") return { type: "text", text: resultText(b.content) };
        const out: Block = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: typeof b.content === "string" ? b.content : resultText(b.content),
        };
        if (b.is_error === true) out.is_error = true;
        return out;
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = t.body.map((m) => {
    const out: Message = {
      role: m.role,
      content: m.content.map((b) => block(b, m.role)),
      timestamp: ms(m.timestamp),
    };
    const model = m.model ?? t.meta.model;
    if (m.role === "assistant" && model) out.model = model;
    return out;
  });
  if (via === "store") {
    let total: Usage | undefined;
    for (const m of t.body) {
      if (m.usage === undefined) continue;
      total ??= { input_tokens: 0, output_tokens: 0 };
      total.input_tokens += m.usage.input_tokens;
      total.output_tokens += m.usage.output_tokens;
      const read = (total.cache_read_input_tokens ?? 0) + (m.usage.cache_read_input_tokens ?? 0);
      const made =
        (total.cache_creation_input_tokens ?? 0) + (m.usage.cache_creation_input_tokens ?? 0);
      if (read > 0) total.cache_read_input_tokens = read;
      if (made > 0) total.cache_creation_input_tokens = made;
    }
    const last = body.findLast((m) => m.role === "assistant");
    const sum = total
      ? total.input_tokens +
        total.output_tokens +
        (total.cache_read_input_tokens ?? 0) +
        (total.cache_creation_input_tokens ?? 0)
      : 0;
    if (total !== undefined && last !== undefined && sum > 0) last.usage = total;
  }
  const first = body[0];
  const meta: Meta = {
    id: droidSessionId(t.meta.id),
    timestamp: first === undefined ? EPOCH : first.timestamp,
  };
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  const title = t.meta.title?.trim() || firstPromptTitle(t.body, () => false);
  if (title) meta.title = title;
  const model = body.find((m) => m.role === "assistant" && m.model)?.model;
  if (model) meta.model = model;
  return { meta, body };
};

/**
 * Crush (docs/formats/crush.md): "a user message becomes a `tool` row of
 * its tool results, then a `user` row of the rest", each read back as its
 * own user message; [times to the second], [usage], [git branch and CLI
 * version] and [encrypted reasoning] are lost; an artifact becomes its
 * text; "an image is a binary attachment", read back as an image when its
 * type is an image's; a structured tool result becomes its JSON text;
 * assistant rows take the session's model when they name none, and the
 * session's model is its first assistant row's; Crush calls an aborted
 * turn `canceled`; bash/view/write/edit/multiedit come back typed.
 */
const carryCrush: Carry = (t) => {
  // [Times are whole seconds; a column of 1e11 or more is read as milliseconds (the schema's
  // comments say ms), one of 1e15 or more as no time: the row takes the time before it]
  const read = (s: number): Timestamp | undefined => {
    if (Math.abs(s) < 1e11) return timestampFromMillis(s * 1000);
    return Math.abs(s) < 1e15 ? timestampFromMillis(s) : undefined;
  };
  const column = (ts: Timestamp): Timestamp | undefined =>
    read(Math.floor(timestampMillis(ts) / 1000));
  // [A message timed before the one it follows takes that one's time]: Crush orders rows by it.
  let written = Number.NEGATIVE_INFINITY;
  const meta: Meta = { id: t.meta.id, timestamp: column(t.meta.timestamp) ?? EPOCH };
  let previous = meta.timestamp;
  if (t.meta.cwd) meta.cwd = t.meta.cwd;
  const modelOf = (m: Message) => (m.role === "assistant" ? (m.model ?? t.meta.model) : undefined);
  const model = t.body.map(modelOf).find((x) => x);
  const reason = (r: StopReason): StopReason | undefined => {
    const written = typeof r === "string" ? (r === "aborted" ? "canceled" : r) : r.other;
    if (written === "" || written === "stop" || written === "unknown") return undefined;
    if (written === "canceled") return "aborted";
    return STOP_REASONS.find((k) => k === written) ?? { other: written };
  };
  const block = (b: Block): Block | undefined => {
    switch (b.type) {
      case "text":
        return clone(b);
      case "thinking":
        if (b.text === "" && !b.signature) return undefined;
        return b.signature
          ? { type: "thinking", text: b.text, signature: b.signature }
          : { type: "thinking", text: b.text };
      case "image": {
        const { media_type, data } = b.source;
        if (media_type.startsWith("image/"))
          return { type: "image", source: { type: "base64", media_type, data } };
        const name = "attachment";
        return media_type.startsWith("text/")
          ? {
              type: "artifact",
              artifact: {
                id: name,
                name,
                source: {
                  type: "text",
                  text: Buffer.from(data, "base64").toString("utf8"),
                  media_type,
                },
              },
            }
          : {
              type: "artifact",
              artifact: { id: name, name, source: { type: "base64", data, media_type } },
            };
      }
      case "artifact":
        return { type: "text", text: artifactText(b) };
      case "tool_use": {
        const { name, input } = toolToCrush(b.tool);
        return {
          type: "tool_use",
          id: b.id,
          tool: toolFromCrush(name, JSON.parse(JSON.stringify(input))),
        };
      }
      case "tool_result": {
        const r: ToolResultBlock = {
          type: "tool_result",
          tool_use_id: b.tool_use_id,
          content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
        };
        if (b.is_error) r.is_error = true;
        return r;
      }
      default:
        return b satisfies never;
    }
  };
  const body: Message[] = [];
  // One row per assistant message, and per non-empty half of a user message.
  const row = (m: Message, blocks: Block[]) => {
    written = Math.max(Math.floor(timestampMillis(m.timestamp) / 1000), written);
    const timestamp = read(written) ?? previous;
    previous = timestamp;
    const content = blocks.flatMap((b) => block(b) ?? []);
    if (content.length === 0) return;
    const out: Message = { role: m.role, content, timestamp };
    if (m.role === "assistant") {
      const own = modelOf(m);
      if (own) out.model = own;
      const stop = m.stop_reason === undefined ? undefined : reason(m.stop_reason);
      if (stop !== undefined) out.stop_reason = stop;
    }
    body.push(out);
  };
  for (const m of t.body) {
    if (m.role === "assistant") row(m, m.content);
    else {
      const results = m.content.filter((b) => b.type === "tool_result");
      const rest = m.content.filter((b) => b.type !== "tool_result");
      if (results.length > 0) row(m, results);
      if (rest.length > 0) row(m, rest);
    }
  }
  // [An untitled session is titled by its first prompt]: the first user row's text.
  const title = t.meta.title?.trim() ? t.meta.title : firstPromptTitle(body, () => false);
  if (title) meta.title = title;
  if (model) meta.model = model;
  return { meta, body };
};

export const CARRY: Record<HarnessId, Carry> = {
  antigravity: carryAntigravity,
  claude_code: carryClaudeCode,
  codex: carryCodex,
  opencode: carryOpenCode,
  gemini_cli: carryGemini,
  simple: carrySimple,
  goose: carryGoose,
  kiro: carryKiro,
  pi: carryPi,
  copilot: carryCopilot,
  qwen_code: carryQwen,
  cursor: carryCursor,
  amp: carryAmp,
  cline: carryCline,
  crush: carryCrush,
  droid: carryDroid,
  // Kilo writes OpenCode's rows (docs/formats/kilo.md): what OpenCode carries, Kilo carries.
  kilo: carryOpenCode,
  grok: carryGrok,
};
