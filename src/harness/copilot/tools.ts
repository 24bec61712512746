/**
 * Copilot CLI's built-in tools <-> Common tools: `bash` (`{command,
 * description}`) → Bash, `view` (`{path}`) → Read, `create` (`{path,
 * file_text}`) → Write, `edit` (`{path, old_str, new_str}`) → Edit, each only
 * on an exact fit; every other tool (`view_range`, `bash` modes, `grep`,
 * `glob`, MCP tools) stays Raw, and any other name is read as a canonical
 * name. Pure.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { type OwnForms, toolToCall, toolToOwn } from "../shared/results.js";

const OWN = new Set(["bash", "view", "create", "edit"]);

function exactly(args: JsonObject, keys: readonly string[]): boolean {
  const have = Object.keys(args);
  return have.length === keys.length && keys.every((k) => typeof args[k] === "string");
}

export function toolFromCopilot(name: string, args: Json): Tool {
  if (!OWN.has(name)) return toolFromCanonical(name, args);
  const raw: Tool = { name: "Raw", tool_name: name, input: args };
  if (!isJsonObject(args)) return raw;
  const s = (k: string) => String(args[k]);
  if (name === "bash" && exactly(args, ["command", "description"]))
    return { name: "Bash", command: s("command"), description: s("description") };
  if (name === "bash" && exactly(args, ["command"])) return { name: "Bash", command: s("command") };
  if (name === "view" && exactly(args, ["path"])) return { name: "Read", file_path: s("path") };
  if (name === "create" && exactly(args, ["path", "file_text"]))
    return { name: "Write", file_path: s("path"), content: s("file_text") };
  if (name === "edit" && exactly(args, ["path", "old_str", "new_str"]))
    return {
      name: "Edit",
      file_path: s("path"),
      old_string: s("old_str"),
      new_string: s("new_str"),
    };
  return raw;
}

export function toolToCopilot(tool: Tool): { name: string; arguments: Json } {
  return toolToOwn(tool, COPILOT_FORMS, toolToCall);
}

const COPILOT_FORMS: OwnForms<{ name: string; arguments: Json }> = {
  Bash: (tool) => {
    if (!Object.keys(tool).every((k) => k === "name" || k === "command" || k === "description"))
      return undefined;
    const args: JsonObject = { command: tool.command };
    assignDefined(args, "description", tool.description);
    return { name: "bash", arguments: args };
  },
  Read: (tool) =>
    tool.offset === undefined && tool.limit === undefined
      ? { name: "view", arguments: { path: tool.file_path } }
      : undefined,
  Write: (tool) => ({
    name: "create",
    arguments: { path: tool.file_path, file_text: tool.content },
  }),
  Edit: (tool) =>
    tool.replace_all === true
      ? undefined
      : {
          name: "edit",
          arguments: { path: tool.file_path, old_str: tool.old_string, new_str: tool.new_string },
        },
};
