/**
 * Cline's tools <-> Common tools. Cline 3.0 (`@cline/core`, the tool
 * schemas it sends the model) names them `run_commands` (`{commands:
 * [string]}`), `read_files` (`{files: [{path, start_line?, end_line?}]}`,
 * lines one-based and inclusive, null for none) and `apply_patch` (`{input:
 * <patch envelope>}`); one command becomes Bash, one file Read, and a patch
 * Write or Edit, each only on an exact fit. Every other tool (`search_codebase`,
 * `fetch_web_content`, `ask_question`, `spawn_agent`, team tools, MCP tools)
 * stays Raw. Any other name is read as a canonical (Claude-convention) name,
 * which is how a converted session's own tools come back. Pure.
 */

import { isJsonObject, type Json, type JsonObject, type Tool } from "../../common.js";
import { assignDefined } from "../../json.js";
import { patchToTool, toolToPatch } from "../shared/patch.js";
import { canonicalCall, type OwnForms, ownToolCall, toolToOwn } from "../shared/results.js";

const CLINE_TOOLS = new Set([
  "run_commands",
  "read_files",
  "apply_patch",
  "search_codebase",
  "fetch_web_content",
  "ask_question",
  "spawn_agent",
]);

function hasOnly(args: JsonObject, keys: readonly string[]): boolean {
  return Object.keys(args).every((k) => keys.includes(k));
}

function line(v: Json | undefined): number | null | undefined {
  if (v === undefined || v === null) return v === null ? null : undefined;
  return typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : undefined;
}

function readTool(args: JsonObject, raw: Tool): Tool {
  const files = args.files;
  if (!hasOnly(args, ["files"]) || !Array.isArray(files) || files.length !== 1) return raw;
  const [f] = files;
  if (!isJsonObject(f) || typeof f.path !== "string") return raw;
  if (!hasOnly(f, ["path", "start_line", "end_line"])) return raw;
  const start = line(f.start_line);
  const end = line(f.end_line);
  if (
    (f.start_line !== undefined && start === undefined) ||
    (f.end_line !== undefined && end === undefined)
  )
    return raw;
  const tool: Tool = { name: "Read", file_path: f.path };
  if (typeof start === "number") tool.offset = start;
  if (typeof end === "number") {
    const from = typeof start === "number" ? start : 1;
    if (end < from) return raw;
    tool.limit = end - from + 1;
  }
  return tool;
}

/** A Cline tool call as a Common tool. */
export function toolFromCline(name: string, args: Json): Tool {
  return ownToolCall(CLINE_TOOLS, name, args, (args, raw) => {
    switch (name) {
      case "run_commands": {
        const c = args.commands;
        if (!hasOnly(args, ["commands"]) || !Array.isArray(c) || c.length !== 1) return raw;
        const [command] = c;
        return typeof command === "string" ? { name: "Bash", command } : raw;
      }
      case "read_files":
        return readTool(args, raw);
      case "apply_patch": {
        if (typeof args.input !== "string" || !hasOnly(args, ["input"])) return raw;
        const tool = patchToTool(args.input);
        return tool.name === "Raw" ? raw : tool;
      }
      default:
        return raw;
    }
  });
}

/** A Common tool as Cline's `{name, input}`; what Cline's tools cannot say keeps its canonical form. */
export function toolToCline(tool: Tool): { name: string; input: JsonObject } {
  return toolToOwn(tool, CLINE_FORMS, canonicalCall);
}

/** A Write or Edit as an `apply_patch` call, when a patch can say it. */
function patchCall(tool: Tool): { name: string; input: JsonObject } | undefined {
  const patch = toolToPatch(tool);
  return patch === undefined ? undefined : { name: "apply_patch", input: { input: patch } };
}

const CLINE_FORMS: OwnForms<{ name: string; input: JsonObject }> = {
  Bash: (tool) =>
    Object.keys(tool).every((k) => k === "name" || k === "command")
      ? { name: "run_commands", input: { commands: [tool.command] } }
      : undefined,
  Read: (tool) => {
    if (tool.offset !== undefined && tool.offset < 1) return undefined;
    const file: JsonObject = { path: tool.file_path };
    const start = tool.offset ?? 1;
    assignDefined(file, "start_line", tool.offset);
    if (tool.limit !== undefined) {
      const end = start + tool.limit - 1;
      if (tool.limit < 1 || !Number.isSafeInteger(end)) return undefined;
      file.end_line = end;
    }
    return { name: "read_files", input: { files: [file] } };
  },
  Write: patchCall,
  Edit: patchCall,
};
