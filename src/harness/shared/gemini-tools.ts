/**
 * Gemini-style function calls <-> canonical tools, for Gemini CLI and its
 * fork Qwen Code. Both name the same four tools almost alike; a `Dialect`
 * says where they differ (the edit tool's name and its replace-all key, the
 * shell's folder and timeout keys, read_file's line numbering), and one
 * table-driven mapping serves both. Pure.
 *
 * Reading: a call becomes a typed tool only when its arguments fit the
 * dialect's spec exactly; anything else (other keys, other kinds, other
 * tools) stays Raw, and canonical names txcript wrote (`Bash`, `Read`, …)
 * come back typed. Writing is the inverse: the native name where the tool
 * fits it exactly, else the canonical name with its canonical input.
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

/** How a harness spells its shell, read, write and edit tools. */
export interface Dialect {
  shell: string;
  /** The shell's working-folder key. */
  shellDir: string;
  /** The shell's timeout key in milliseconds, when it has one. */
  shellTimeout?: string;
  read: string;
  /**
   * `lines`: `start_line`/`end_line`, 1-based inclusive (Gemini CLI);
   * `offset`: `offset` 0-based and `limit` (Qwen Code).
   */
  readRange: "lines" | "offset";
  write: string;
  edit: string;
  /** The edit tool's replace-every-match key. */
  editAll: string;
}

type Kind = "string" | "bool" | "line" | "count";
type Spec = Record<string, readonly [Kind, boolean]>;

function specs(d: Dialect): Record<string, Spec> {
  const shell: Record<string, readonly [Kind, boolean]> = {
    command: ["string", true],
    description: ["string", false],
    [d.shellDir]: ["string", false],
    is_background: ["bool", false],
  };
  if (d.shellTimeout !== undefined) shell[d.shellTimeout] = ["line", false];
  const read: Spec =
    d.readRange === "lines"
      ? { file_path: ["string", true], start_line: ["line", false], end_line: ["line", false] }
      : { file_path: ["string", true], offset: ["count", false], limit: ["line", false] };
  return {
    [d.shell]: shell,
    [d.read]: read,
    [d.write]: { file_path: ["string", true], content: ["string", true] },
    [d.edit]: {
      file_path: ["string", true],
      old_string: ["string", true],
      new_string: ["string", true],
      [d.editAll]: ["bool", false],
    },
  };
}

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
          : typeof v === "number" && Number.isSafeInteger(v) && v >= (kind === "line" ? 1 : 0);
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

/** The mapping for one dialect: a call to a tool, and back. */
export interface ToolMap {
  callToTool(name: string, args: Json): Tool;
  toolToCall(tool: Tool): { name: string; args: Json };
}

export function toolMap(d: Dialect): ToolMap {
  const table = specs(d);
  const raw = (name: string, args: Json): Tool => ({ name: "Raw", tool_name: name, input: args });

  function readTool(name: string, args: JsonObject): Tool {
    const t: ReadTool = { name: "Read", file_path: str(args, "file_path") };
    if (d.readRange === "offset") {
      const offset = optNum(args, "offset");
      const limit = optNum(args, "limit");
      // Qwen's offset is 0-based and needs a limit; Read's offset is a 1-based line.
      if (offset !== undefined && limit === undefined) return raw(name, args);
      if (offset !== undefined) t.offset = offset + 1;
      assignDefined(t, "limit", limit);
      return t;
    }
    const start = optNum(args, "start_line");
    const end = optNum(args, "end_line");
    if (start !== undefined && end !== undefined && end < start) return raw(name, args);
    assignDefined(t, "offset", start);
    if (end !== undefined) t.limit = end - (start ?? 1) + 1;
    return t;
  }

  function callToTool(name: string, args: Json): Tool {
    // Own keys only: a call named `toString` or `constructor` is not a known tool.
    const spec = Object.hasOwn(table, name) ? table[name] : undefined;
    if (spec === undefined) return toolFromCanonical(name, args);
    if (!fits(args, spec)) return raw(name, args);
    if (name === d.shell) {
      const t: BashTool = { name: "Bash", command: str(args, "command") };
      assignDefined(t, "workdir", optStr(args, d.shellDir));
      assignDefined(t, "description", optStr(args, "description"));
      assignDefined(t, "run_in_background", optBool(args, "is_background"));
      if (d.shellTimeout !== undefined)
        assignDefined(t, "timeout_ms", optNum(args, d.shellTimeout));
      return t;
    }
    if (name === d.read) return readTool(name, args);
    if (name === d.write) {
      return { name: "Write", file_path: str(args, "file_path"), content: str(args, "content") };
    }
    const t: EditTool = {
      name: "Edit",
      file_path: str(args, "file_path"),
      old_string: str(args, "old_string"),
      new_string: str(args, "new_string"),
    };
    assignDefined(t, "replace_all", optBool(args, d.editAll));
    return t;
  }

  function toolToCall(tool: Tool): { name: string; args: Json } {
    switch (tool.name) {
      case "Bash": {
        // No native timeout key: keep the canonical call.
        if (tool.timeout_ms !== undefined && d.shellTimeout === undefined) break;
        if (
          tool.timeout_ms !== undefined &&
          !(Number.isSafeInteger(tool.timeout_ms) && tool.timeout_ms >= 1)
        )
          break;
        const args: JsonObject = { command: tool.command };
        assignDefined(args, "description", tool.description);
        if (tool.workdir !== undefined) args[d.shellDir] = tool.workdir;
        assignDefined(args, "is_background", tool.run_in_background);
        if (tool.timeout_ms !== undefined && d.shellTimeout !== undefined)
          args[d.shellTimeout] = tool.timeout_ms;
        return { name: d.shell, args };
      }
      case "Read": {
        const args: JsonObject = { file_path: tool.file_path };
        const { offset, limit } = tool;
        // Line numbers are 1-based; offset 0 or limit 0 have no native spelling.
        if (offset === 0 || limit === 0) break;
        if (d.readRange === "offset") {
          if (offset !== undefined && limit === undefined) break;
          if (offset !== undefined) args.offset = offset - 1;
          assignDefined(args, "limit", limit);
        } else {
          assignDefined(args, "start_line", offset);
          if (limit !== undefined) args.end_line = (offset ?? 1) + limit - 1;
        }
        return { name: d.read, args };
      }
      case "Write":
        return { name: d.write, args: { file_path: tool.file_path, content: tool.content } };
      case "Edit": {
        const args: JsonObject = {
          file_path: tool.file_path,
          old_string: tool.old_string,
          new_string: tool.new_string,
        };
        if (tool.replace_all !== undefined) args[d.editAll] = tool.replace_all;
        return { name: d.edit, args };
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

  return { callToTool, toolToCall };
}
