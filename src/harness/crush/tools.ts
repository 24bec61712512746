/**
 * Crush's tool calls <-> Common tools. Crush's built-in tools `bash`,
 * `view`, `write`, `edit` and `multiedit` take Claude-like arguments
 * (`bash`'s directory is `working_dir`); each becomes Bash, Read, Write,
 * Edit or MultiEdit only on an exact fit, else stays Raw under its own name
 * and input. Any other name is read as a canonical name (how a converted
 * session's own tools come back); Crush's other tools and MCP tools match
 * none and stay Raw.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";

/** Crush's tool names for the typed tools, and the argument renamed between them. */
const CRUSH_NAMES = {
  bash: "Bash",
  view: "Read",
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
} as const;
type CrushName = keyof typeof CRUSH_NAMES;

function crushName(name: string): CrushName | undefined {
  return Object.keys(CRUSH_NAMES).find((k): k is CrushName => k === name);
}

/** `input` with key `from` renamed `to` (undefined when `to` is there already). */
function renamed(input: JsonObject, from: string, to: string): JsonObject | undefined {
  if (!Object.hasOwn(input, from)) return input;
  if (Object.hasOwn(input, to)) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(input)) out[k === from ? to : k] = v;
  return out;
}

/** A Crush tool call as a Common tool. */
export function toolFromCrush(name: string, input: Json): Tool {
  const own = crushName(name);
  if (own === undefined) return toolFromCanonical(name, input);
  const raw: Tool = { name: "Raw", tool_name: name, input };
  if (!isJsonObject(input)) return raw;
  const args = own === "bash" ? renamed(input, "working_dir", "workdir") : input;
  if (args === undefined) return raw;
  const tool = toolFromCanonical(CRUSH_NAMES[own], args);
  return tool.name === "Raw" ? raw : tool;
}

/** A Common tool as Crush's `{name, input}`: a typed tool under Crush's own name. */
export function toolToCrush(tool: Tool): { name: string; input: Json } {
  const { name, input } = toolToCanonical(tool);
  switch (tool.name) {
    case "Bash":
      return {
        name: "bash",
        input: (isJsonObject(input) && renamed(input, "workdir", "working_dir")) || input,
      };
    case "Read":
      return { name: "view", input };
    case "Write":
      return { name: "write", input };
    case "Edit":
      return { name: "edit", input };
    case "MultiEdit":
      return { name: "multiedit", input };
    case "Command":
    case "Raw":
      return { name, input };
    default:
      return tool satisfies never;
  }
}
