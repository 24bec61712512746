/**
 * Droid's built-in tools <-> Common tools. Droid 0.225 names them (its
 * request's `tools`): `Execute` (`{command, summary, timeout?` in seconds,
 * `fireAndForget?, riskLevel, riskLevelReason}`), `Read` (`{file_path,
 * offset?, limit?, image_quality?}`, offset 1-based), `Create` (`{file_path,
 * content}`) and `Edit` (`{file_path, old_str, new_str, change_all?}`); each
 * becomes Bash, Read, Write or Edit only on a fit. Execute's risk rating
 * (`riskLevel`, `riskLevelReason`) is Droid's own permission gate and has
 * no Common field: a Bash keeps the command, its summary as the
 * description, timeout and background flag, and drops the rating (the loss
 * is documented). `LS`, `Grep`, `Glob`, `ApplyPatch`, `Task`, MCP tools and
 * the rest stay Raw. Any other name is read as a canonical
 * (Claude-convention) name, which is how a converted session's own tools
 * come back. Pure.
 */

import type { Json, JsonObject, Tool } from "../../common.js";
import { assignDefined } from "../../json.js";
import { hasOnly, isCount, readFromArgs } from "../shared/fields.js";
import { canonicalCall, type OwnForms, ownToolCall, toolToOwn } from "../shared/results.js";

const DROID_TOOLS = new Set(["Execute", "Read", "Create", "Edit"]);
const RISK_LEVELS = new Set(["low", "medium", "high"]);

function execute(args: JsonObject, raw: Tool): Tool {
  const keys = ["command", "summary", "timeout", "fireAndForget", "riskLevel", "riskLevelReason"];
  if (typeof args.command !== "string" || !hasOnly(args, keys)) return raw;
  if (args.summary !== undefined && typeof args.summary !== "string") return raw;
  if (args.riskLevel !== undefined && !RISK_LEVELS.has(String(args.riskLevel))) return raw;
  if (args.riskLevelReason !== undefined && typeof args.riskLevelReason !== "string") return raw;
  if (args.fireAndForget !== undefined && typeof args.fireAndForget !== "boolean") return raw;
  if (args.timeout !== undefined && !isCount(args.timeout)) return raw;
  const tool: Tool = { name: "Bash", command: args.command };
  if (typeof args.summary === "string" && args.summary !== "") tool.description = args.summary;
  if (isCount(args.timeout)) tool.timeout_ms = args.timeout * 1000;
  if (args.fireAndForget === true) tool.run_in_background = true;
  return tool;
}

function edit(args: JsonObject, raw: Tool): Tool {
  if (
    typeof args.file_path !== "string" ||
    typeof args.old_str !== "string" ||
    typeof args.new_str !== "string" ||
    !hasOnly(args, ["file_path", "old_str", "new_str", "change_all"])
  )
    return raw;
  if (args.change_all !== undefined && typeof args.change_all !== "boolean") return raw;
  const tool: Tool = {
    name: "Edit",
    file_path: args.file_path,
    old_string: args.old_str,
    new_string: args.new_str,
  };
  if (args.change_all === true) tool.replace_all = true;
  return tool;
}

/** A Droid tool call as a Common tool. */
export function toolFromDroid(name: string, args: Json): Tool {
  return ownToolCall(DROID_TOOLS, name, args, (args, raw) => {
    switch (name) {
      case "Execute":
        return execute(args, raw);
      case "Read":
        return readFromArgs(args, "file_path") ?? raw;
      case "Create":
        return typeof args.file_path === "string" &&
          typeof args.content === "string" &&
          hasOnly(args, ["file_path", "content"])
          ? { name: "Write", file_path: args.file_path, content: args.content }
          : raw;
      case "Edit":
        return edit(args, raw);
      default:
        return raw;
    }
  });
}

/** A Common tool as Droid's `{name, input}`; what Droid's tools cannot say keeps its canonical form. */
export function toolToDroid(tool: Tool): { name: string; input: JsonObject } {
  return toolToOwn(tool, DROID_FORMS, canonicalCall);
}

const DROID_FORMS: OwnForms<{ name: string; input: JsonObject }> = {
  Bash: (tool) => {
    if (tool.timeout_ms !== undefined && tool.timeout_ms % 1000 !== 0) return undefined;
    const input: JsonObject = { command: tool.command };
    assignDefined(input, "summary", tool.description);
    if (tool.timeout_ms !== undefined) input.timeout = tool.timeout_ms / 1000;
    if (tool.run_in_background === true) input.fireAndForget = true;
    return tool.workdir === undefined ? { name: "Execute", input } : undefined;
  },
  Read: (tool) => {
    const input: JsonObject = { file_path: tool.file_path };
    assignDefined(input, "offset", tool.offset);
    assignDefined(input, "limit", tool.limit);
    return { name: "Read", input };
  },
  Write: (tool) => ({
    name: "Create",
    input: { file_path: tool.file_path, content: tool.content },
  }),
  Edit: (tool) => {
    const input: JsonObject = {
      file_path: tool.file_path,
      old_str: tool.old_string,
      new_str: tool.new_string,
    };
    if (tool.replace_all === true) input.change_all = true;
    return { name: "Edit", input };
  },
};
