/**
 * pi's built-in tools <-> Common tools. pi 0.73 names them `bash`
 * (`{command, timeout?}` in seconds), `read` (`{path, offset?, limit?}`,
 * offset 1-based), `write` (`{path, content}`) and `edit` (`{path,
 * edits: [{oldText, newText}]}`; before that `{path, oldText, newText}`);
 * each becomes Bash, Read, Write, Edit or MultiEdit only on an exact fit.
 * `grep`, `find`, `ls` and extension tools stay Raw. Any other name is read
 * as a canonical (Claude-convention) name, which is how a converted
 * session's own tools come back. Pure.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { hasOnly, isCount, readFromArgs } from "../shared/fields.js";
import { ownToolCall } from "../shared/results.js";

const PI_TOOLS = new Set(["bash", "read", "write", "edit"]);

/** `{oldText, newText}` pairs, or undefined when any is not exactly that. */
function editPairs(
  edits: Json | undefined,
): { old_string: string; new_string: string }[] | undefined {
  if (!Array.isArray(edits) || edits.length === 0) return undefined;
  const out: { old_string: string; new_string: string }[] = [];
  for (const e of edits) {
    if (!isJsonObject(e) || typeof e.oldText !== "string" || typeof e.newText !== "string")
      return undefined;
    if (!hasOnly(e, ["oldText", "newText"])) return undefined;
    out.push({ old_string: e.oldText, new_string: e.newText });
  }
  return out;
}

/** A pi tool call as a Common tool. */
export function toolFromPi(name: string, args: Json): Tool {
  return ownToolCall(PI_TOOLS, name, args, (args, raw) => {
    switch (name) {
      case "bash": {
        if (typeof args.command !== "string" || !hasOnly(args, ["command", "timeout"])) return raw;
        if (args.timeout === undefined) return { name: "Bash", command: args.command };
        return isCount(args.timeout)
          ? { name: "Bash", command: args.command, timeout_ms: args.timeout * 1000 }
          : raw;
      }
      case "read":
        return readFromArgs(args, "path") ?? raw;
      case "write":
        return typeof args.path === "string" &&
          typeof args.content === "string" &&
          hasOnly(args, ["path", "content"])
          ? { name: "Write", file_path: args.path, content: args.content }
          : raw;
      case "edit": {
        if (typeof args.path !== "string") return raw;
        if (typeof args.oldText === "string" && typeof args.newText === "string") {
          return hasOnly(args, ["path", "oldText", "newText"])
            ? {
                name: "Edit",
                file_path: args.path,
                old_string: args.oldText,
                new_string: args.newText,
              }
            : raw;
        }
        const pairs = editPairs(args.edits);
        if (pairs === undefined || !hasOnly(args, ["path", "edits"])) return raw;
        const [only] = pairs;
        if (pairs.length === 1 && only !== undefined)
          return { name: "Edit", file_path: args.path, ...only };
        return { name: "MultiEdit", file_path: args.path, edits: pairs };
      }
      default:
        return raw;
    }
  });
}

/** A Common tool as pi's `{name, arguments}`; what pi's tools cannot say keeps its canonical form. */
export function toolToPi(tool: Tool): { name: string; arguments: JsonObject } {
  switch (tool.name) {
    case "Bash":
      if (
        Object.keys(tool).every((k) => k === "name" || k === "command" || k === "timeout_ms") &&
        (tool.timeout_ms === undefined || tool.timeout_ms % 1000 === 0)
      ) {
        const args: JsonObject = { command: tool.command };
        if (tool.timeout_ms !== undefined) args.timeout = tool.timeout_ms / 1000;
        return { name: "bash", arguments: args };
      }
      break;
    case "Read": {
      const args: JsonObject = { path: tool.file_path };
      assignDefined(args, "offset", tool.offset);
      assignDefined(args, "limit", tool.limit);
      return { name: "read", arguments: args };
    }
    case "Write":
      return { name: "write", arguments: { path: tool.file_path, content: tool.content } };
    case "Edit":
      if (tool.replace_all !== true)
        return {
          name: "edit",
          arguments: {
            path: tool.file_path,
            edits: [{ oldText: tool.old_string, newText: tool.new_string }],
          },
        };
      break;
    case "MultiEdit":
      if (tool.edits.length > 0 && tool.edits.every((e) => e.replace_all !== true))
        return {
          name: "edit",
          arguments: {
            path: tool.file_path,
            edits: tool.edits.map((e) => ({ oldText: e.old_string, newText: e.new_string })),
          },
        };
      break;
    case "Raw":
      return {
        name: tool.tool_name,
        arguments: isJsonObject(tool.input) ? tool.input : { input: tool.input },
      };
    case "Command":
      break;
    default:
      return tool satisfies never;
  }
  const { name, input } = toolToCanonical(tool);
  return { name, arguments: isJsonObject(input) ? input : { input } };
}
