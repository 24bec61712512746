/**
 * Goose's tool calls <-> Common tools. Goose's built-in developer extension
 * names its tools `developer__shell` (`{command}`) and
 * `developer__text_editor` (`{command: view|write|str_replace, path, ...}`);
 * those become Bash, Read, Write and Edit only on an exact fit of their
 * arguments. Any other name is read as a canonical (Claude-convention)
 * name, which is how a converted session's own tools come back; Goose's
 * MCP extension tools (`<extension>__<tool>`) match none and stay Raw.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
} from "../../common.js";
import { type OwnForms, toolToCall, toolToOwn } from "../shared/results.js";

const SHELL = "developer__shell";
const TEXT_EDITOR = "developer__text_editor";

function hasOnly(args: JsonObject, keys: readonly string[]): boolean {
  return Object.keys(args).every((k) => keys.includes(k));
}

/** A Goose tool call as a Common tool. */
export function toolFromGoose(name: string, args: Json): Tool {
  if (name !== SHELL && name !== TEXT_EDITOR) return toolFromCanonical(name, args);
  const raw: Tool = { name: "Raw", tool_name: name, input: args };
  if (!isJsonObject(args)) return raw;
  if (name === SHELL) {
    return typeof args.command === "string" && hasOnly(args, ["command"])
      ? { name: "Bash", command: args.command }
      : raw;
  }
  if (name !== TEXT_EDITOR || typeof args.path !== "string") return raw;
  const path = args.path;
  switch (args.command) {
    case "view":
      return hasOnly(args, ["command", "path"]) ? { name: "Read", file_path: path } : raw;
    case "write":
      return typeof args.file_text === "string" && hasOnly(args, ["command", "path", "file_text"])
        ? { name: "Write", file_path: path, content: args.file_text }
        : raw;
    case "str_replace":
      return typeof args.old_str === "string" &&
        typeof args.new_str === "string" &&
        hasOnly(args, ["command", "path", "old_str", "new_str"])
        ? { name: "Edit", file_path: path, old_string: args.old_str, new_string: args.new_str }
        : raw;
    default:
      return raw;
  }
}

/** A typed tool with no field beyond `keys`: Goose's own tool takes it whole. */
function exactly(tool: Tool, keys: readonly string[]): boolean {
  return Object.keys(tool).every((k) => keys.includes(k));
}

/** A Common tool as Goose's `{name, arguments}`. */
export function toolToGoose(tool: Tool): { name: string; arguments: Json } {
  return toolToOwn(tool, GOOSE_FORMS, toolToCall);
}

const GOOSE_FORMS: OwnForms<{ name: string; arguments: Json }> = {
  Bash: (tool) =>
    exactly(tool, ["name", "command"])
      ? { name: SHELL, arguments: { command: tool.command } }
      : undefined,
  Read: (tool) =>
    exactly(tool, ["name", "file_path"])
      ? { name: TEXT_EDITOR, arguments: { command: "view", path: tool.file_path } }
      : undefined,
  Write: (tool) => ({
    name: TEXT_EDITOR,
    arguments: { command: "write", path: tool.file_path, file_text: tool.content },
  }),
  Edit: (tool) =>
    exactly(tool, ["name", "file_path", "old_string", "new_string"])
      ? {
          name: TEXT_EDITOR,
          arguments: {
            command: "str_replace",
            path: tool.file_path,
            old_str: tool.old_string,
            new_str: tool.new_string,
          },
        }
      : undefined,
};
