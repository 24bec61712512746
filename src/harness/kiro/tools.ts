/**
 * Kiro CLI's tool calls <-> Common tools. Kiro's built-in tools are named
 * `shell` (`{command, working_dir?}`; older names `execute_bash`,
 * `executeCmd`, `execute_cmd`), `read` (`fs_read`), `write` (`fs_write`),
 * `grep`, `glob` and more (`BuiltInToolName`, tools/mod.rs). Only `shell`
 * has an exact Common fit (Bash, its `working_dir` as `workdir`); `read`
 * and `write` take operation lists with no one-to-one fit and stay Raw, as
 * do MCP tools. Any other name is read as a canonical (Claude-convention)
 * name, which is how a converted session's own tools come back.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";

const SHELL = "shell";
/** Names Kiro accepts for its shell tool (strum serializations of `ExecuteCmd`). */
const SHELL_NAMES = new Set([SHELL, "execute_bash", "executeCmd", "execute_cmd"]);

/** A Kiro tool call as a Common tool. */
export function toolFromKiro(name: string, input: Json): Tool {
  if (!SHELL_NAMES.has(name)) return toolFromCanonical(name, input);
  if (
    isJsonObject(input) &&
    typeof input.command === "string" &&
    Object.keys(input).every((k) => k === "command" || k === "working_dir")
  ) {
    const dir = input.working_dir;
    if (dir === undefined) return { name: "Bash", command: input.command };
    if (typeof dir === "string") return { name: "Bash", command: input.command, workdir: dir };
  }
  return { name: "Raw", tool_name: name, input };
}

/** A Common tool as Kiro's `{name, input}`. */
export function toolToKiro(tool: Tool): { name: string; input: Json } {
  if (
    tool.name === "Bash" &&
    Object.keys(tool).every((k) => k === "name" || k === "command" || k === "workdir")
  ) {
    const input: JsonObject = { command: tool.command };
    assignDefined(input, "working_dir", tool.workdir);
    return { name: SHELL, input };
  }
  if (tool.name === "Raw") return { name: tool.tool_name, input: tool.input };
  return toolToCanonical(tool);
}
