/**
 * Gemini API parts (`{text}`, `{text, thought}`, `{inlineData}`,
 * `{functionCall}`, `{functionResponse}`, ...) as the harnesses that record
 * them read them: Gemini CLI and its fork Qwen Code, which keep a message's
 * content as a part list. Pure. What differs between them (the shell tool's
 * name, where token counts sit) comes in as parameters.
 */

import {
  type ArtifactBlock,
  type Block,
  type ImageBlock,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type TextBlock,
  type ToolResultBlock,
  type Usage,
} from "../../common.js";
import { normalizeTimestamp, type Timestamp } from "../../time.js";
import { artifactText } from "./results.js";
import { Repeats } from "./slim.js";

/** A record's content (PartListUnion) as a list of parts. */
export function partsOf(content: Json | undefined): JsonObject[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return [{ text: content }];
  if (Array.isArray(content)) {
    return content.flatMap((p) =>
      typeof p === "string" ? [{ text: p }] : isJsonObject(p) ? [p] : [],
    );
  }
  return isJsonObject(content) ? [content] : [];
}

export function nameOf(v: Json | undefined, fallback: string): string {
  return typeof v === "string" && v !== "" ? v : fallback;
}

/** The CLIs' `partListUnionToString(…, verbose)`: what they test prompts with. */
export function partsText(parts: readonly JsonObject[]): string {
  return parts
    .map((p) => {
      if (p.thought !== undefined) return `[Thought: ${String(p.thought)}]`;
      if (p.fileData !== undefined) return "[File Data]";
      if (isJsonObject(p.functionCall))
        return `[Function Call: ${nameOf(p.functionCall.name, "")}]`;
      if (isJsonObject(p.functionResponse))
        return `[Function Response: ${nameOf(p.functionResponse.name, "")}]`;
      if (isJsonObject(p.inlineData)) return "[Media]";
      return typeof p.text === "string" ? p.text : "";
    })
    .join("");
}

export function imageBlock(data: JsonObject): Block {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: typeof data.mimeType === "string" ? data.mimeType : "application/octet-stream",
      data: typeof data.data === "string" ? data.data : "",
    },
  };
}

/** A part no block holds, as the placeholder the CLI shows for it. */
export function placeholder(part: JsonObject): Block | undefined {
  const text = partsText([part]);
  return text === "" ? undefined : { type: "text", text };
}

const EXIT_CODE = /(?:^|\n)Exit Code: (-?\d+)(?:\n|$)/;

/**
 * A functionResponse's `response` as a tool_result's content and error
 * flag. `shell` names the shell tool, which reports a failing command in
 * its output (`Exit Code: n`), not as an error.
 */
function responseToCommon(
  response: Json | undefined,
  tool: string,
  shell: string,
): { content: Json; is_error: boolean } {
  if (!isJsonObject(response)) return { content: response ?? "", is_error: false };
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === "string") {
    const code = tool === shell ? EXIT_CODE.exec(response.output)?.[1] : undefined;
    return { content: response.output, is_error: code !== undefined && code !== "0" };
  }
  if (keys.length === 1 && typeof response.error === "string") {
    return { content: response.error, is_error: true };
  }
  return { content: response, is_error: false };
}

/**
 * The calls a reader has shown and those already answered: a
 * functionResponse becomes a tool_result only for a call shown and not yet
 * answered, so repeated responses count once (Gemini CLI and Qwen Code alike).
 */
export class CallLedger {
  private readonly answered = new Set<string>();
  private readonly names = new Map<string, string>();

  /** `shell` names the shell tool (see responseToCommon). */
  constructor(private readonly shell: string) {}

  /** A call shown, under its id. */
  called(id: string, name: string): void {
    this.names.set(id, name);
  }

  /** The response as a tool_result, or undefined when it answers no call shown or one already answered. */
  answer(fr: JsonObject, fallbackId: string, failed: boolean): ToolResultBlock | undefined {
    const id = nameOf(fr.id, fallbackId);
    // A response to no call shown (or one already answered) has nothing to answer.
    if (id === "" || this.answered.has(id) || !this.names.has(id)) return undefined;
    this.answered.add(id);
    const tool = nameOf(fr.name, this.names.get(id) ?? "");
    const { content, is_error } = responseToCommon(fr.response, tool, this.shell);
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: id, content };
    if (is_error || failed) block.is_error = true;
    return block;
  }
}

function count(v: Json | undefined): number | undefined {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

/** Where a harness keeps Gemini's four token counts in its usage object. */
export interface TokenKeys {
  input: string;
  output: string;
  cached: string;
  thoughts: string;
}

/**
 * Gemini token counts in Anthropic's terms: Gemini's prompt count includes
 * the cached tokens and its candidate count excludes the thinking tokens.
 */
export function usageFromCounts(tokens: Json | undefined, keys: TokenKeys): Usage | undefined {
  if (!isJsonObject(tokens)) return undefined;
  const input = count(tokens[keys.input]);
  const output = count(tokens[keys.output]);
  if (input === undefined || output === undefined) return undefined;
  const cached = count(tokens[keys.cached]) ?? 0;
  const input_tokens = Math.max(0, input - cached);
  const output_tokens = output + (count(tokens[keys.thoughts]) ?? 0);
  // Whole literals: a field added to a finished one costs a property array (40 bytes a message).
  return cached > 0
    ? { input_tokens, output_tokens, cache_read_input_tokens: cached }
    : { input_tokens, output_tokens };
}

/**
 * What a Gemini-family reader carries through a replay: the messages so
 * far, the ledger of calls awaiting answers, and the last good timestamp
 * (a record without one of its own takes it; the first takes the start).
 */
export class GeminiReplay {
  readonly messages: Message[] = [];
  protected readonly calls: CallLedger;
  private lastTs: Timestamp;

  /** `shell` names the shell tool (see CallLedger). */
  constructor(shell: string, start: Timestamp) {
    this.calls = new CallLedger(shell);
    this.lastTs = start;
  }

  /** The text `lastTs` was read from: a time that repeats is read (and held) once. */
  private lastRaw: string | undefined;
  /** Model names, held once while they repeat. */
  protected readonly models = new Repeats();

  /** A record's `timestamp` when it is one, else the last good one. */
  protected ts(v: Json | undefined): Timestamp {
    if (typeof v !== "string" || v === this.lastRaw) return this.lastTs;
    const normal = normalizeTimestamp(v);
    if (normal) {
      this.lastTs = normal;
      this.lastRaw = v;
    }
    return this.lastTs;
  }
}

// ---------------------------------------------------------------------------
// Writing

/** A user's text, image or artifact as a part (an artifact as the text the CLIs show for it). */
export function userPart(block: TextBlock | ImageBlock | ArtifactBlock): JsonObject {
  switch (block.type) {
    case "text":
      return { text: block.text };
    case "image":
      return imagePart(block);
    case "artifact":
      return { text: artifactText(block) };
    default:
      return block satisfies never;
  }
}

/** An image as a part: inline data, or the placeholder text a URL becomes (the CLIs keep no URLs). */
function imagePart(block: ImageBlock): JsonObject {
  return block.source.type === "base64"
    ? { inlineData: { mimeType: block.source.media_type, data: block.source.data } }
    : { text: `[image: ${block.source.data}]` };
}
