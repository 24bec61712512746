/**
 * Canonical blocks as the plain text a harness without their kind carries:
 * a tool result's content, an artifact. Pure; shared by the writers of
 * harnesses whose results are text (Codex, Gemini CLI, OpenCode). Also a
 * tool call in and out of canonical form, for tool maps with their own names.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";

/** A tool result as text: strings as they are, text blocks joined, anything else as JSON. */
export function resultText(content: Json): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((b) =>
      isJsonObject(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : [],
    );
    if (texts.length === content.length) return texts.join("\n");
  }
  return JSON.stringify(content);
}

/** An artifact as a text part: its name, then its text, path or media type. */
export function artifactText(block: Block & { type: "artifact" }): string {
  const { name, source } = block.artifact;
  switch (source.type) {
    case "text":
      return `[artifact ${name}]\n${source.text}`;
    case "path":
      return `[artifact ${name}: ${source.path}]`;
    case "base64":
      return `[artifact ${name}: ${source.media_type ?? "binary"}, base64]`;
    default:
      return source satisfies never;
  }
}

/**
 * A block as text where a harness's content cannot hold its kind: text and
 * thinking as their text, an artifact as `artifactText`, a call as
 * `callText` says, a result as `resultText`, an image as nothing.
 */
export function blockText(block: Block, callText: (tool: Tool) => string): string {
  switch (block.type) {
    case "text":
    case "thinking":
      return block.text;
    case "artifact":
      return artifactText(block);
    case "tool_use":
      return callText(block.tool);
    case "tool_result":
      return resultText(block.content);
    case "image":
      return "";
    default:
      return block satisfies never;
  }
}

/**
 * A tool as a named call whose input is an object, for a tool a harness has
 * no own name for: a Raw tool under its own name, any other under its
 * canonical name; an input that is not an object is wrapped as `{input}`.
 */
export function canonicalCall(tool: Tool): { name: string; input: JsonObject } {
  const { name, input } =
    tool.name === "Raw" ? { name: tool.tool_name, input: tool.input } : toolToCanonical(tool);
  return { name, input: isJsonObject(input) ? input : { input } };
}

/** A tool as a `{name, arguments}` call in its canonical form (a Raw keeps its own name and input). */
export function toolToCall(tool: Tool): { name: string; arguments: Json } {
  const { name, input } = toolToCanonical(tool);
  return { name, arguments: input };
}

/**
 * A harness's tool call as a Common tool, the preamble every tool map with
 * its own names shares: a name outside `own` is a canonical call (a copy's),
 * object arguments of an own tool go to `read`, anything else stays `raw`.
 */
export function ownToolCall(
  own: ReadonlySet<string>,
  name: string,
  args: Json,
  read: (args: JsonObject, raw: Tool) => Tool,
): Tool {
  if (!own.has(name)) return toolFromCanonical(name, args);
  const raw: Tool = { name: "Raw", tool_name: name, input: args };
  return isJsonObject(args) ? read(args, raw) : raw;
}

/**
 * A harness's own form of each kind of Common tool it has one for: each
 * gives undefined where the tool does not fit the harness's own tool.
 */
export type OwnForms<C> = {
  readonly [N in Tool["name"]]?: (tool: Extract<Tool, { name: N }>) => C | undefined;
};

/**
 * A Common tool in a harness's own form where `own` has one that fits,
 * else in `fallback`'s form (the canonical call every copy can read back).
 */
export function toolToOwn<C>(tool: Tool, own: OwnForms<C>, fallback: (tool: Tool) => C): C {
  return ownForm(tool, own) ?? fallback(tool);
}

/** A Common tool in a harness's own form, undefined where `own` has none that fits. */
export function ownForm<C>(tool: Tool, own: OwnForms<C>): C | undefined {
  switch (tool.name) {
    case "Bash":
      return own.Bash?.(tool);
    case "Read":
      return own.Read?.(tool);
    case "Write":
      return own.Write?.(tool);
    case "Edit":
      return own.Edit?.(tool);
    case "MultiEdit":
      return own.MultiEdit?.(tool);
    case "Command":
      return own.Command?.(tool);
    case "Raw":
      return own.Raw?.(tool);
    default:
      return tool satisfies never;
  }
}
