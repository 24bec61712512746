/**
 * The Codex codec: rollout lines <-> the canonical model. Pure: no I/O, no
 * clock, no randomness.
 *
 * Reading (`toCommon`, in read.ts) is one pass over the protocol log (`response_item`)
 * with the display log (`event_msg`) consulted for what only it carries:
 * - each model response becomes one assistant message: its reasoning
 *   summaries (thinking), text and calls, closed by the `token_count` that
 *   reports its usage, or by the next user input or `turn_context`;
 * - tool outputs become tool_result blocks on a user message, paired with
 *   their call by `call_id`; a shell call's result is counted once: the
 *   `exec_command_end` event wins over the `function_call_output` mirror
 *   (its output and exit code), at the mirror's position; duplicate and
 *   orphan outputs are dropped, as Codex drops them before a request;
 * - the model comes from `turn_context`, usage from `token_count`
 *   (`last_token_usage`, OpenAI's cached tokens split out of the input);
 * - environment/instruction preludes and developer messages are not
 *   conversation and are skipped.
 *
 * Writing (`fromCommon`, here) produces what `codex resume <id>` replays:
 * `session_meta` first (source "cli", model_provider "openai", a null
 * base_instructions key), then per turn `task_started`, `turn_context`, the
 * protocol items mirrored in the display log (`user_message`,
 * `agent_message`, `agent_reasoning`, `exec_command_end`), a `token_count`
 * after each assistant message and a `task_complete`. Encrypted reasoning
 * and Anthropic signatures are never written.
 */

import {
  commandText,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type Tool,
  type ToolResultBlock,
  type Usage,
} from "../../common.js";
import { stableUuid, uuidSessionId } from "../../ids.js";
import { nonEmpty } from "../../strings.js";
import type { Timestamp } from "../../time.js";
import type { Codec, Common, Transcript } from "../../transcript.js";
import { artifactText, resultText } from "../shared/results.js";
import { type CodexBody, type CodexLine, envelopeLine, Lines } from "./body.js";
import { codexToCommon, imageToUrl } from "./read.js";
import { type CodexCall, toolToCodexCall } from "./tools.js";

// ---------------------------------------------------------------------------
// Writing

/** Codex thread ids are UUIDs: a UUID is kept (lowercased), anything else is mapped to one. */
export function codexSessionId(id: string): string {
  return uuidSessionId("codex-session", id);
}

/** A tool result as a `function_call_output.output`: a string or input_text/input_image items. */
function outputFromCommon(content: Json): Json {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length > 0) {
    const items: Json[] = [];
    for (const b of content) {
      if (!isJsonObject(b)) return JSON.stringify(content);
      if (b.type === "text" && typeof b.text === "string") {
        items.push({ type: "input_text", text: b.text });
      } else if (b.type === "image" && isJsonObject(b.source)) {
        const s = b.source;
        if (
          typeof s.type !== "string" ||
          typeof s.media_type !== "string" ||
          typeof s.data !== "string"
        ) {
          return JSON.stringify(content);
        }
        items.push({
          type: "input_image",
          image_url: imageToUrl({ type: s.type, media_type: s.media_type, data: s.data }),
        });
      } else return JSON.stringify(content);
    }
    return items;
  }
  return JSON.stringify(content);
}

type TokenUsage = {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
};

function tokenUsage(usage: Usage): TokenUsage {
  const cached = usage.cache_read_input_tokens ?? 0;
  const input = usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0);
  return {
    input_tokens: input,
    cached_input_tokens: cached,
    output_tokens: usage.output_tokens,
    reasoning_output_tokens: 0,
    total_tokens: input + usage.output_tokens,
  };
}

/** Writes a rollout a message at a time; `take` gives the lines made since the last take. */
class RolloutWriter {
  private made: CodexLine[] = [];
  private turn = 0;
  private turnId: string | undefined;
  private turnTs: Timestamp;
  private turnContextWritten = false;
  private tokenCountWritten = false;
  private lastAgentMessage: string | null = null;
  private model: string | undefined;
  private readonly totals = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
  private readonly calls = new Map<string, CodexCall | "command">();
  private readonly answered = new Set<string>();

  constructor(
    private readonly id: string,
    private readonly meta: Meta,
    /** The model for turns when no message names one (the session's, if no message has any). */
    private readonly fallbackModel: string | undefined,
  ) {
    this.turnTs = meta.timestamp;
    const payload: JsonObject = {
      id,
      timestamp: meta.timestamp,
      cwd: meta.cwd ?? "",
      originator: "txcript",
      cli_version: meta.cli_version ?? "",
      source: "cli",
      model_provider: "openai",
      // The key must be present (null is fine): without it Codex starts afresh.
      base_instructions: null,
    };
    if (meta.git_branch !== undefined) payload.git = { branch: meta.git_branch };
    this.emit(meta.timestamp, "session_meta", payload);
  }

  private emit(ts: Timestamp, type: string, payload: JsonObject): void {
    this.made.push(envelopeLine(ts, type, payload));
  }

  take(): CodexLine[] {
    const made = this.made;
    this.made = [];
    return made;
  }
  private item(ts: Timestamp, payload: JsonObject): void {
    this.emit(ts, "response_item", payload);
  }
  private event(ts: Timestamp, payload: JsonObject): void {
    this.emit(ts, "event_msg", payload);
  }

  private startTurn(ts: Timestamp): string {
    this.endTurn();
    this.turn++;
    const turnId = stableUuid("codex-turn", this.id, this.turn);
    this.turnId = turnId;
    this.turnTs = ts;
    this.turnContextWritten = false;
    this.tokenCountWritten = false;
    this.lastAgentMessage = null;
    this.event(ts, { type: "task_started", turn_id: turnId, model_context_window: null });
    return turnId;
  }

  private ensureTurn(ts: Timestamp): string {
    const turnId = this.turnId ?? this.startTurn(ts);
    this.turnTs = ts;
    return turnId;
  }

  endTurn(): void {
    if (this.turnId === undefined) return;
    if (!this.tokenCountWritten) {
      this.event(this.turnTs, { type: "token_count", info: null, rate_limits: null });
    }
    this.event(this.turnTs, {
      type: "task_complete",
      turn_id: this.turnId,
      last_agent_message: this.lastAgentMessage,
    });
    this.turnId = undefined;
  }

  private turnContext(ts: Timestamp, model: string | undefined): void {
    const turnId = this.ensureTurn(ts);
    const wanted = nonEmpty(model) ?? this.model ?? nonEmpty(this.fallbackModel);
    if (wanted === undefined || (this.turnContextWritten && wanted === this.model)) return;
    this.model = wanted;
    this.turnContextWritten = true;
    this.emit(ts, "turn_context", {
      turn_id: turnId,
      cwd: this.meta.cwd ?? "",
      approval_policy: "on-request",
      sandbox_policy: { type: "workspace-write" },
      model: wanted,
      summary: "auto",
    });
  }

  private call(ts: Timestamp, id: string, tool: Tool, model?: string): void {
    this.turnContext(ts, model);
    const call = toolToCodexCall(tool);
    this.calls.set(id, call);
    if (call.kind === "function") {
      this.item(ts, {
        type: "function_call",
        name: call.name,
        arguments: call.arguments,
        call_id: id,
      });
    } else {
      this.item(ts, {
        type: "custom_tool_call",
        status: "completed",
        call_id: id,
        name: call.name,
        input: call.input,
      });
    }
  }

  /** A tool result; a /command's output comes back as prompt text instead. */
  private result(ts: Timestamp, block: ToolResultBlock, prompt: JsonObject[]): void {
    const call = this.calls.get(block.tool_use_id);
    if (call === "command") {
      prompt.push({ type: "input_text", text: resultText(block.content) });
      return;
    }
    const id = block.tool_use_id;
    // Codex drops outputs that answer no call (or a call already answered)
    // before each request; writing them would only add noise.
    if (call === undefined || this.answered.has(id)) return;
    this.answered.add(id);
    const turnId = this.ensureTurn(ts);
    if (call.kind === "custom") {
      this.item(ts, {
        type: "custom_tool_call_output",
        call_id: id,
        output: resultText(block.content),
      });
      return;
    }
    if (call.kind === "function" && call.bash) {
      // The display log's record of a shell run; its exit code carries is_error.
      const text = resultText(block.content);
      this.event(ts, {
        type: "exec_command_end",
        call_id: id,
        turn_id: turnId,
        command: ["bash", "-lc", call.bash.command],
        cwd: call.bash.workdir ?? this.meta.cwd ?? "",
        parsed_cmd: [],
        source: "agent",
        stdout: text,
        stderr: "",
        aggregated_output: text,
        exit_code: block.is_error ? 1 : 0,
        duration: { secs: 0, nanos: 0 },
        formatted_output: text,
        status: block.is_error ? "failed" : "completed",
      });
    }
    this.item(ts, {
      type: "function_call_output",
      call_id: id,
      output: outputFromCommon(block.content),
    });
  }

  user(message: Message): void {
    const ts = message.timestamp;
    const prompt: JsonObject[] = [];
    for (const block of message.content) {
      switch (block.type) {
        case "text":
          prompt.push({ type: "input_text", text: block.text });
          break;
        case "image":
          prompt.push({ type: "input_image", image_url: imageToUrl(block.source) });
          break;
        case "artifact":
          prompt.push({ type: "input_text", text: artifactText(block) });
          break;
        case "tool_use":
          if (block.tool.name === "Command") {
            // Codex has no slash-command record: the command becomes what the user typed.
            prompt.push({ type: "input_text", text: commandText(block.tool) });
            this.calls.set(block.id, "command");
          } else this.call(ts, block.id, block.tool);
          break;
        case "tool_result":
          this.result(ts, block, prompt);
          break;
        case "thinking":
          break; // a user has no reasoning to replay
        default:
          block satisfies never;
      }
    }
    if (prompt.length === 0) return;
    this.startTurn(ts);
    this.item(ts, { type: "message", role: "user", content: prompt });
    const event: JsonObject = {
      type: "user_message",
      message: prompt
        .flatMap((p) => (p.type === "input_text" && typeof p.text === "string" ? [p.text] : []))
        .join("\n"),
    };
    const images = prompt.flatMap((p) =>
      p.type === "input_image" && typeof p.image_url === "string" ? [p.image_url] : [],
    );
    if (images.length > 0) event.images = images;
    this.event(ts, event);
  }

  assistant(message: Message): void {
    const ts = message.timestamp;
    // The turn_context comes with the first item written: a message with
    // nothing Codex can hold leaves no trace, not even its model.
    let wrote = false;
    const context = (): void => {
      this.turnContext(ts, message.model);
      wrote = true;
    };
    let run: string[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      context();
      this.item(ts, {
        type: "message",
        role: "assistant",
        content: run.map((text) => ({ type: "output_text", text })),
      });
      for (const text of run) this.event(ts, { type: "agent_message", message: text });
      this.lastAgentMessage = run.at(-1) ?? null;
      run = [];
    };
    const results: ToolResultBlock[] = [];
    for (const block of message.content) {
      if (block.type === "text") {
        run.push(block.text);
        continue;
      }
      if (block.type === "artifact") {
        run.push(artifactText(block));
        continue;
      }
      flush();
      switch (block.type) {
        case "thinking":
          // Only the readable summary travels: encrypted content and signatures
          // are valid only in the conversation that produced them.
          if (block.text !== "") {
            context();
            this.item(ts, {
              type: "reasoning",
              summary: [{ type: "summary_text", text: block.text }],
              encrypted_content: null,
            });
            this.event(ts, { type: "agent_reasoning", text: block.text });
          }
          break;
        case "tool_use":
          context();
          this.call(ts, block.id, block.tool, message.model);
          break;
        case "tool_result":
          // Written after this response's token_count, as a tool's output follows its response.
          results.push(block);
          break;
        case "image":
          break; // Codex assistant messages carry text only
        default:
          block satisfies never;
      }
    }
    flush();
    if (wrote) this.tokenCount(ts, message.usage);
    const unused: JsonObject[] = [];
    for (const block of results) this.result(ts, block, unused);
  }

  private tokenCount(ts: Timestamp, usage: Usage | undefined): void {
    this.tokenCountWritten = true;
    if (usage) {
      const last = tokenUsage(usage);
      const t = this.totals;
      t.input += last.input_tokens;
      t.cached += last.cached_input_tokens;
      t.output += last.output_tokens;
      t.total += last.total_tokens;
      this.event(ts, {
        type: "token_count",
        info: {
          total_token_usage: {
            input_tokens: t.input,
            cached_input_tokens: t.cached,
            output_tokens: t.output,
            reasoning_output_tokens: t.reasoning,
            total_tokens: t.total,
          },
          last_token_usage: last,
          model_context_window: null,
        },
        rate_limits: null,
      });
    } else {
      // Still a response boundary, so consecutive assistant messages stay apart.
      this.event(ts, { type: "token_count", info: null, rate_limits: null });
    }
  }
}

/** The rollout's lines, made a message at a time by a fresh writer: the same on every walk. */
function* rolloutLines(id: string, transcript: Transcript<Common>): Generator<CodexLine> {
  // A message without a model inherits the one in effect, the session's at first.
  const writer = new RolloutWriter(id, transcript.meta, transcript.meta.model);
  yield* writer.take();
  for (const message of transcript.body) {
    if (message.role === "user") writer.user(message);
    else writer.assistant(message);
    yield* writer.take();
  }
  writer.endTurn();
  yield* writer.take();
}

/** The lines are made as they are walked (`Lines.generated`): a save writes each as it is made. */
function codexFromCommon(transcript: Transcript<Common>): Transcript<CodexBody> {
  const id = codexSessionId(transcript.meta.id);
  return {
    meta: { ...transcript.meta, id },
    body: { lines: Lines.generated(() => rolloutLines(id, transcript)) },
  };
}

export const codexCodec: Codec<CodexBody> = {
  toCommon: codexToCommon,
  fromCommon: codexFromCommon,
};
