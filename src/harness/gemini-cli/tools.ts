/**
 * Gemini CLI tool calls <-> canonical tools.
 *
 * Reading: a call becomes a typed tool only when its arguments fit exactly:
 * - `run_shell_command {command, description?, dir_path?, is_background?}`
 *   -> Bash (`dir_path` as workdir, `is_background` as run_in_background);
 * - `read_file {file_path, start_line?, end_line?}` -> Read (offset =
 *   start_line, limit = end_line - start_line + 1, all 1-based inclusive;
 *   an end_line alone is a limit from line 1);
 * - `write_file {file_path, content}` -> Write;
 * - `replace {file_path, old_string, new_string, allow_multiple?}` -> Edit.
 *   The CLI's schema requires an `instruction`, which no Edit field holds,
 *   so a call that carries one stays Raw (lossless) rather than losing it.
 * Older argument spellings (`directory`, `absolute_path`, 0-based `offset`,
 * `expected_replacements`), extra keys (`delay_ms`) and every other tool stay
 * Raw; canonical names txcript wrote (`Bash`, `Read`, …) come back typed.
 *
 * Writing is the inverse: the native name where the tool fits it exactly,
 * else the canonical name with its canonical input (a Bash with a timeout,
 * MultiEdit), which the CLI replays as plain history.
 */

import {
  type BashTool,
  type EditTool,
  isJsonObject,
  type Json,
  type JsonObject,
  type ReadTool,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";

export const SHELL = "run_shell_command";
const READ = "read_file";
const WRITE = "write_file";
const EDIT = "replace";

type Kind = "string" | "bool" | "line";
type Spec = Record<string, readonly [Kind, boolean]>;

const SPECS: Record<string, Spec> = {
  [SHELL]: {
    command: ["string", true],
    description: ["string", false],
    dir_path: ["string", false],
    is_background: ["bool", false],
  },
  [READ]: { file_path: ["string", true], start_line: ["line", false], end_line: ["line", false] },
  [WRITE]: { file_path: ["string", true], content: ["string", true] },
  [EDIT]: {
    file_path: ["string", true],
    old_string: ["string", true],
    new_string: ["string", true],
    allow_multiple: ["bool", false],
  },
};

function fits(args: Json, spec: Spec): args is JsonObject {
  if (!isJsonObject(args)) return false;
  for (const key of Object.keys(args)) if (!Object.hasOwn(spec, key)) return false;
  for (const [key, [kind, required]] of Object.entries(spec)) {
    const v = args[key];
    if (v === undefined) {
      if (required) return false;
      continue;
    }
    const ok =
      kind === "string"
        ? typeof v === "string"
        : kind === "bool"
          ? typeof v === "boolean"
          : typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
    if (!ok) return false;
  }
  return true;
}

// Readers of arguments `fits` has checked: a key is absent or of its kind.
const str = (args: JsonObject, key: string): string => {
  const v = args[key];
  return typeof v === "string" ? v : "";
};
const optStr = (args: JsonObject, key: string): string | undefined => {
  const v = args[key];
  return typeof v === "string" ? v : undefined;
};
const optNum = (args: JsonObject, key: string): number | undefined => {
  const v = args[key];
  return typeof v === "number" ? v : undefined;
};
const optBool = (args: JsonObject, key: string): boolean | undefined => {
  const v = args[key];
  return typeof v === "boolean" ? v : undefined;
};

/** A Gemini function call as a canonical tool. */
export function callToTool(name: string, args: Json): Tool {
  // Own keys only: a call named `toString` or `constructor` is not a known tool.
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  if (spec === undefined) return toolFromCanonical(name, args);
  if (!fits(args, spec)) return { name: "Raw", tool_name: name, input: args };
  switch (name) {
    case SHELL: {
      const t: BashTool = { name: "Bash", command: str(args, "command") };
      assignDefined(t, "workdir", optStr(args, "dir_path"));
      assignDefined(t, "description", optStr(args, "description"));
      assignDefined(t, "run_in_background", optBool(args, "is_background"));
      return t;
    }
    case READ: {
      const start = optNum(args, "start_line");
      const end = optNum(args, "end_line");
      if (start !== undefined && end !== undefined && end < start) {
        return { name: "Raw", tool_name: name, input: args };
      }
      const t: ReadTool = { name: "Read", file_path: str(args, "file_path") };
      assignDefined(t, "offset", start);
      if (end !== undefined) t.limit = end - (start ?? 1) + 1;
      return t;
    }
    case WRITE:
      return {
        name: "Write",
        file_path: str(args, "file_path"),
        content: str(args, "content"),
      };
    default: {
      const t: EditTool = {
        name: "Edit",
        file_path: str(args, "file_path"),
        old_string: str(args, "old_string"),
        new_string: str(args, "new_string"),
      };
      assignDefined(t, "replace_all", optBool(args, "allow_multiple"));
      return t;
    }
  }
}

/** A canonical tool as a Gemini function call (name and args). */
export function toolToCall(tool: Tool): { name: string; args: Json } {
  switch (tool.name) {
    case "Bash": {
      if (tool.timeout_ms !== undefined) break; // no native key: keep the canonical call
      const args: JsonObject = { command: tool.command };
      assignDefined(args, "description", tool.description);
      assignDefined(args, "dir_path", tool.workdir);
      assignDefined(args, "is_background", tool.run_in_background);
      return { name: SHELL, args };
    }
    case "Read": {
      const args: JsonObject = { file_path: tool.file_path };
      const { offset, limit } = tool;
      // Line numbers are 1-based; offset 0 or limit 0 have no native spelling.
      if (offset === 0 || limit === 0) break;
      assignDefined(args, "start_line", offset);
      if (limit !== undefined) args.end_line = (offset ?? 1) + limit - 1;
      return { name: READ, args };
    }
    case "Write":
      return { name: WRITE, args: { file_path: tool.file_path, content: tool.content } };
    case "Edit": {
      const args: JsonObject = {
        file_path: tool.file_path,
        old_string: tool.old_string,
        new_string: tool.new_string,
      };
      assignDefined(args, "allow_multiple", tool.replace_all);
      return { name: EDIT, args };
    }
    case "Raw":
      return { name: tool.tool_name, args: tool.input };
    case "MultiEdit":
    case "Command":
      break;
    default:
      tool satisfies never;
  }
  const { name, input } = toolToCanonical(tool);
  return { name, args: input };
}
