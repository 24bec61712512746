/**
 * Amp's tool calls <-> Common tools. Amp named its shell tool `Bash`
 * (`{cmd, cwd?}`) and later `shell_command` (`{command, workdir?}`), its
 * reader `Read` (`{path, read_range?: [first, last]}`); every other tool
 * (`edit_file`, `create_file`, `glob`, `painter`, MCP tools, ...) is Raw,
 * and a name read as canonical (Claude-convention) when its input fits,
 * which is how a converted session's own tools come back
 * (docs/formats/amp.md, "Tools").
 */

import {
  isJsonObject,
  type Json,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";

function onlyKeys(input: Json, keys: readonly string[]): input is { [k: string]: Json } {
  return isJsonObject(input) && Object.keys(input).every((k) => keys.includes(k));
}

/** An Amp tool call as a Common tool. */
export function toolFromAmp(name: string, input: Json): Tool {
  if (name === "Bash" && onlyKeys(input, ["cmd", "cwd"]) && typeof input.cmd === "string") {
    const cwd = input.cwd;
    if (cwd === undefined) return { name: "Bash", command: input.cmd };
    if (typeof cwd === "string") return { name: "Bash", command: input.cmd, workdir: cwd };
  }
  if (name === "shell_command" && onlyKeys(input, ["command", "workdir"])) {
    const tool = toolFromCanonical("Bash", input);
    if (tool.name === "Bash") return tool;
    return { name: "Raw", tool_name: name, input };
  }
  if (
    name === "Read" &&
    onlyKeys(input, ["path", "read_range"]) &&
    typeof input.path === "string"
  ) {
    const range = input.read_range;
    if (range === undefined) return { name: "Read", file_path: input.path };
    if (
      Array.isArray(range) &&
      range.length === 2 &&
      range.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 1) &&
      Number(range[1]) >= Number(range[0])
    )
      return {
        name: "Read",
        file_path: input.path,
        offset: Number(range[0]),
        limit: Number(range[1]) - Number(range[0]) + 1,
      };
  }
  return toolFromCanonical(name, input);
}

/** A Common tool as Amp's `{name, input}`: the canonical call (Amp's own names are not written). */
export function toolToAmp(tool: Tool): { name: string; input: Json } {
  return toolToCanonical(tool);
}
