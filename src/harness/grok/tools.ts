/**
 * Grok's tool calls and their outcomes <-> Common. A call is an ACP
 * `tool_call` (`toolCallId`, `title`, `kind`, `status`, `rawInput`) and
 * later `tool_call_update` lines for the same id; its outcome is the
 * merged `content` (`{type:"content"|"diff"|"terminal",…}` items) and
 * `rawOutput` once `status` is `completed` or `failed`. Grok Build first
 * registers a call under its wire name with the model's arguments, then
 * refines it: a display title, and as `rawInput` its typed `ToolInput`
 * (`{"variant": "Bash" | "ReadFile" | "SearchReplace" | "Write" | …, …}`),
 * with `_meta["x.ai/tool"].name` the wire name (docs/formats/grok.md
 * "Tools"). The four variants with an exact Common fit become Bash, Read,
 * Edit and Write; any other call is Raw under its wire name (else its
 * `title`, else its `kind`), typed only when that name and input fit a
 * canonical tool exactly, which is how a converted session's tools come
 * back. Pure.
 */

import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  type ToolResultBlock,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { hasOnly, isCount, obj, str } from "../shared/fields.js";
import { resultText } from "../shared/results.js";

/** The statuses after which a call has an outcome. */
export function isTerminal(status: string | undefined): boolean {
  return status === "completed" || status === "failed";
}

/**
 * A call's merged fields: each later line's fields over the earlier ones;
 * `_meta` merged key by key, so a later update's own `_meta` keeps the
 * tool identity an earlier one stamped.
 */
export function mergeCall(into: JsonObject, update: JsonObject): void {
  for (const [k, v] of Object.entries(update)) {
    if (k === "sessionUpdate") continue;
    const before = into[k];
    into[k] = k === "_meta" && isJsonObject(before) && isJsonObject(v) ? { ...before, ...v } : v;
  }
}

/** Grok Build's tool identity on a call's `_meta` (`CanonicalToolMeta`, key `x.ai/tool`). */
const TOOL_META = "x.ai/tool";

/**
 * A typed `ToolInput` (serde tag `variant`) as a Common tool, when it is
 * one of the four with an exact fit and holds no field Common would drop;
 * else undefined. Field names are Grok Build's serde names.
 */
function typedTool(input: JsonObject): Tool | undefined {
  const tool = (name: string, args: JsonObject): Tool | undefined => {
    const t = toolFromCanonical(name, args);
    return t.name === "Raw" ? undefined : t;
  };
  switch (input.variant) {
    case "Bash": {
      // BashToolInput {command, timeout?, description, is_background}.
      if (!hasOnly(input, ["variant", "command", "description", "timeout", "is_background"]))
        return undefined;
      const args: JsonObject = { command: input.command ?? null };
      assignDefined(args, "description", input.description);
      assignDefined(args, "timeout_ms", input.timeout);
      if (input.is_background === true) args.run_in_background = true;
      else if (input.is_background !== undefined && input.is_background !== false) return undefined;
      return tool("Bash", args);
    }
    case "ReadFile": {
      // ReadFileInput {target_file, offset? (1-based line; negative counts from the end), limit?, pages?, format?}.
      if (!hasOnly(input, ["variant", "target_file", "offset", "limit"])) return undefined;
      if (input.offset !== undefined && !isCount(input.offset)) return undefined;
      const args: JsonObject = { file_path: input.target_file ?? null };
      assignDefined(args, "offset", input.offset);
      assignDefined(args, "limit", input.limit);
      return tool("Read", args);
    }
    case "SearchReplace": {
      // SearchReplaceInput {file_path, old_string, new_string, replace_all}.
      if (!hasOnly(input, ["variant", "file_path", "old_string", "new_string", "replace_all"]))
        return undefined;
      const { variant: _v, ...args } = input;
      return tool("Edit", args);
    }
    case "Write": {
      // WriteInput {file_path, content}.
      if (!hasOnly(input, ["variant", "file_path", "content"])) return undefined;
      const { variant: _v, ...args } = input;
      return tool("Write", args);
    }
    default:
      return undefined;
  }
}

/** A merged call as a Common tool. */
export function toolFromGrok(call: JsonObject): Tool {
  const input = call.rawInput;
  const typed = isJsonObject(input) ? typedTool(input) : undefined;
  if (typed !== undefined) return typed;
  const wire = str(obj(obj(call, "_meta"), TOOL_META), "name");
  const name = wire || str(call, "title") || str(call, "kind") || "tool";
  return toolFromCanonical(name, input === undefined ? {} : input);
}

/** ACP's tool kinds for the canonical tools; any other is `other`. */
const KIND: Readonly<Record<string, string>> = {
  Bash: "execute",
  Read: "read",
  Write: "edit",
  Edit: "edit",
  MultiEdit: "edit",
};

/** A Common tool as a `tool_call` update's fields: its canonical name as `title`, its input as `rawInput`. */
export function toolToGrok(tool: Tool): JsonObject {
  const { name, input } = toolToCanonical(tool);
  return { title: name, kind: KIND[tool.name] ?? "other", status: "pending", rawInput: input };
}

/** A diff item as text: the path, then the old lines with `-` and the new with `+`. */
function diffText(item: JsonObject): string {
  const path = str(item, "path") ?? "";
  const lines = (text: string | undefined, mark: string) =>
    text === undefined || text === "" ? [] : text.split("\n").map((l) => `${mark}${l}`);
  return [
    `--- ${path}`,
    `+++ ${path}`,
    ...lines(str(item, "oldText"), "-"),
    ...lines(str(item, "newText"), "+"),
  ].join("\n");
}

/** One ACP content block as text (a text block's text; anything else as JSON). */
function blockText(block: Json | undefined): string {
  if (isJsonObject(block) && block.type === "text" && typeof block.text === "string")
    return block.text;
  return block === undefined ? "" : JSON.stringify(block);
}

/** A `content` item as text: wrapped content, a diff, a terminal, or the item as JSON. */
function itemText(item: Json): string {
  if (!isJsonObject(item)) return JSON.stringify(item);
  switch (item.type) {
    case "content":
      return blockText(item.content);
    case "diff":
      return diffText(item);
    case "terminal":
      return `[terminal ${str(item, "terminalId") ?? ""}]`;
    default:
      return JSON.stringify(item);
  }
}

/**
 * A finished call's outcome: its `content` items as text, one a line;
 * when it has none, `rawOutput` as it is; else empty. `failed` is an error.
 */
export function resultFromGrok(id: string, call: JsonObject): ToolResultBlock {
  const items = Array.isArray(call.content) ? call.content : [];
  const raw = call.rawOutput;
  const content: Json =
    items.length > 0 ? items.map(itemText).join("\n") : raw === undefined ? "" : raw;
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: id, content };
  if (call.status === "failed") block.is_error = true;
  return block;
}

/**
 * A Common result as a `tool_call_update`'s fields: text (a string, or
 * text blocks joined) as one content item, any other value as `rawOutput`.
 */
export function resultToGrok(b: ToolResultBlock): JsonObject {
  const c = b.content;
  const isText =
    typeof c === "string" ||
    (Array.isArray(c) &&
      c.every((x) => isJsonObject(x) && x.type === "text" && typeof x.text === "string"));
  const out: JsonObject = {
    toolCallId: b.tool_use_id,
    status: b.is_error === true ? "failed" : "completed",
  };
  if (isText) out.content = [{ type: "content", content: { type: "text", text: resultText(c) } }];
  else out.rawOutput = c;
  return out;
}

/** A block that can ride in a chunk's `content`: text, or an image. */
export function chunkBlock(b: Block): JsonObject | undefined {
  if (b.type === "text") return { type: "text", text: b.text };
  if (b.type === "image")
    return b.source.type === "base64"
      ? { type: "image", mimeType: b.source.media_type, data: b.source.data }
      : { type: "image", mimeType: b.source.media_type, uri: b.source.data };
  return undefined;
}
