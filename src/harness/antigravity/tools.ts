/**
 * agy's native tool calls and the canonical tools: `nativeTool` reads a
 * call (typed only on an exact fit, else Raw) and `nativeCall` writes one
 * as a `ChatToolCall`, choosing agy's own tool name when it reads back
 * identically. No I/O.
 */

import { isDeepStrictEqual } from "node:util";
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  type ToolUseBlock,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { encode } from "../../protobuf.js";
import { type OwnForms, ownForm } from "../shared/results.js";
import { ChatToolCall, CLI_WAIT_MS_BEFORE_ASYNC } from "./schema.js";

/** Display strings agy mirrors into tool arguments; dropped only when a call becomes typed. */
const DISPLAY_KEYS = new Set(["toolAction", "toolSummary"]);

/** Keys `mapped` accepts besides the display keys; any other key keeps the call Raw. */
function onlyKeys(args: JsonObject, allowed: readonly string[]): boolean {
  for (const k of Object.keys(args)) if (!DISPLAY_KEYS.has(k) && !allowed.includes(k)) return false;
  return true;
}

const isUint = (v: Json | undefined): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isStr = (v: Json | undefined): v is string => typeof v === "string";
const isBoolOrAbsent = (v: Json | undefined) => v === undefined || typeof v === "boolean";

/**
 * A native call as a canonical tool: `run_command` → Bash, `view_file` →
 * Read, `write_to_file` → Write, `replace_file_content` → Edit when the
 * arguments fit exactly; any other name goes through the canonical
 * normalization (so canonical names written back by fromCommon come back
 * typed), and anything that does not fit stays Raw with its input untouched.
 */
export function nativeTool(name: string, input: Json): Tool {
  const raw: Tool = { name: "Raw", tool_name: name, input };
  const args = isJsonObject(input) ? input : undefined;
  switch (name) {
    case "run_command": {
      if (!args || !onlyKeys(args, ["CommandLine", "Cwd", "WaitMsBeforeAsync"])) return raw;
      const { CommandLine: command, Cwd: cwd, WaitMsBeforeAsync: wait } = args;
      if (!isStr(command) || (cwd !== undefined && !isStr(cwd))) return raw;
      // The canonical Bash has no slot for another async threshold.
      if (wait !== undefined && wait !== CLI_WAIT_MS_BEFORE_ASYNC) return raw;
      return cwd === undefined
        ? { name: "Bash", command }
        : { name: "Bash", command, workdir: cwd };
    }
    case "view_file": {
      if (!args || !onlyKeys(args, ["AbsolutePath", "StartLine", "EndLine"])) return raw;
      const { AbsolutePath: path, StartLine: start, EndLine: end } = args;
      if (!isStr(path)) return raw;
      if ((start !== undefined && !isUint(start)) || (end !== undefined && !isUint(end))) {
        return raw;
      }
      const tool: Tool = { name: "Read", file_path: path };
      assignDefined(tool, "offset", start);
      if (end !== undefined) {
        // EndLine is inclusive; an inverted range has no canonical form.
        if (start !== undefined && end < start) return raw;
        tool.limit = start === undefined ? end : end - start + 1;
      }
      return tool;
    }
    case "write_to_file": {
      const allowed = ["TargetFile", "CodeContent", "Overwrite", "Description", "Instruction"];
      if (!args || !onlyKeys(args, allowed)) return raw;
      const { TargetFile: file, CodeContent: content, Overwrite: overwrite } = args;
      if (!isStr(file) || !isStr(content)) return raw;
      // Write always overwrites: `Overwrite: false` means something Write cannot say.
      if (overwrite !== undefined && overwrite !== true) return raw;
      if (!optionalStrings(args, ["Description", "Instruction"])) return raw;
      return { name: "Write", file_path: file, content };
    }
    case "replace_file_content": {
      const allowed = [
        "TargetFile",
        "TargetContent",
        "ReplacementContent",
        "AllowMultiple",
        "StartLine",
        "EndLine",
        "Description",
        "Instruction",
      ];
      if (!args || !onlyKeys(args, allowed)) return raw;
      const { TargetFile: file, TargetContent: old, ReplacementContent: replacement } = args;
      if (!isStr(file) || !isStr(old) || !isStr(replacement)) return raw;
      if (!isBoolOrAbsent(args.AllowMultiple)) return raw;
      if (!optionalStrings(args, ["Description", "Instruction"])) return raw;
      for (const k of ["StartLine", "EndLine"])
        if (args[k] !== undefined && !isUint(args[k])) return raw;
      const tool: Tool = {
        name: "Edit",
        file_path: file,
        old_string: old,
        new_string: replacement,
      };
      if (args.AllowMultiple === true) tool.replace_all = true;
      return tool;
    }
    default:
      return toolFromCanonical(name, input);
  }
}

function optionalStrings(args: JsonObject, keys: readonly string[]): boolean {
  for (const k of keys) if (args[k] !== undefined && !isStr(args[k])) return false;
  return true;
}

export interface NativeCall {
  name: string;
  args: Json;
  /** True when the tool maps onto agy's own tool (and `nativeTool` reads it back identically). */
  native: boolean;
  bytes: Uint8Array;
}

/** The agy name and arguments for a canonical tool; canonical names ride along otherwise. */
export function nativeCall(call: ToolUseBlock): NativeCall {
  const candidate = ownForm(call.tool, NATIVE_FORMS);
  let name: string;
  let args: Json;
  let native = false;
  if (
    candidate !== undefined &&
    isDeepStrictEqual(nativeTool(candidate.name, candidate.args), call.tool)
  ) {
    ({ name, args } = candidate);
    native = true;
  } else {
    ({ name, input: args } = toolToCanonical(call.tool));
  }
  const bytes = encode((w) => {
    w.string(ChatToolCall.id, call.id);
    w.string(ChatToolCall.name, name);
    w.string(ChatToolCall.arguments_json, argumentsText(args));
    w.string(ChatToolCall.original_name, name);
  });
  return { name, args, native, bytes };
}

/** Arguments as JSON text; a string that is not JSON is written as is (it came from there). */
function argumentsText(args: Json): string {
  if (typeof args === "string") {
    try {
      JSON.parse(args);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args);
}

/** The typed tools as the CLI's own tool calls. */
const NATIVE_FORMS: OwnForms<{ name: string; args: JsonObject }> = {
  Bash: (tool) => {
    const args: JsonObject = { CommandLine: tool.command };
    assignDefined(args, "Cwd", tool.workdir);
    args.WaitMsBeforeAsync = CLI_WAIT_MS_BEFORE_ASYNC;
    return { name: "run_command", args };
  },
  Read: (tool) => {
    const args: JsonObject = { AbsolutePath: tool.file_path };
    assignDefined(args, "StartLine", tool.offset);
    if (tool.limit !== undefined) {
      args.EndLine = tool.offset === undefined ? tool.limit : tool.offset + tool.limit - 1;
    }
    return { name: "view_file", args };
  },
  Write: (tool) => ({
    name: "write_to_file",
    args: { TargetFile: tool.file_path, CodeContent: tool.content, Overwrite: true },
  }),
  Edit: (tool) => ({
    name: "replace_file_content",
    args: {
      TargetFile: tool.file_path,
      TargetContent: tool.old_string,
      ReplacementContent: tool.new_string,
      AllowMultiple: tool.replace_all === true,
    },
  }),
};
