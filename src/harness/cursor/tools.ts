/**
 * Cursor's tool calls <-> Common tools. Cursor's agent names its tools
 * `Shell` (`{command, cwd?}`), `Read` (`{path, offset?, limit?}`),
 * `StrReplace` (`{path, old_string, new_string, replace_all?}`; camelCase
 * `oldString`/`newString` also seen) and `Write` (`{path, content}`), with
 * `Grep`, `Glob`, `Delete`, MCP tools and more beside them
 * (docs/formats/cursor.md). A call is typed only on an exact fit; any
 * other name is read as a canonical (Claude-convention) name, which is how
 * a converted session's own tools come back.
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";

/** Cursor's name for each canonical tool it has, and the inverse. */
const FROM_CURSOR: Readonly<Record<string, string>> = {
  Shell: "Bash",
  Read: "Read",
  StrReplace: "Edit",
  Write: "Write",
};

/** Cursor's argument names -> canonical ones, per canonical tool. */
const ARG_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Bash: { command: "command", cwd: "workdir" },
  Read: { path: "file_path", offset: "offset", limit: "limit" },
  Edit: {
    path: "file_path",
    old_string: "old_string",
    new_string: "new_string",
    oldString: "old_string",
    newString: "new_string",
    replace_all: "replace_all",
  },
  Write: { path: "file_path", content: "content" },
};

/**
 * The desktop editor's tool names (`toolFormerData.name`) for the canonical
 * tools they fit, and their argument names (docs/formats/cursor.md, [S] [W]).
 */
const FROM_DESKTOP: Readonly<Record<string, string>> = {
  run_terminal_command_v2: "Bash",
  run_terminal_cmd: "Bash",
  read_file_v2: "Read",
  read_file: "Read",
};

const DESKTOP_ARG_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Bash: { command: "command", cwd: "workdir" },
  Read: {
    targetFile: "file_path",
    target_file: "file_path",
    path: "file_path",
    offset: "offset",
    limit: "limit",
  },
};

/** A Cursor tool call as a Common tool; `desktop` for the desktop editor's tool names. */
export function toolFromCursor(name: string, input: Json, desktop = false): Tool {
  const canonical = desktop ? FROM_DESKTOP[name] : FROM_CURSOR[name];
  if (canonical === undefined) return toolFromCanonical(name, input);
  const names = (desktop ? DESKTOP_ARG_NAMES[canonical] : ARG_NAMES[canonical]) ?? {};
  if (isJsonObject(input) && Object.keys(input).every((k) => k in names)) {
    const renamed: JsonObject = {};
    for (const [k, v] of Object.entries(input)) {
      const to = names[k];
      if (to === undefined || to in renamed) return { name: "Raw", tool_name: name, input };
      renamed[to] = v;
    }
    const tool = toolFromCanonical(canonical, renamed);
    if (tool.name !== "Raw") return tool;
  }
  return { name: "Raw", tool_name: name, input };
}

/** Common -> Cursor, for the tools Cursor has: the canonical fields under Cursor's names. */
const TO_CURSOR: Readonly<
  Record<string, { name: string; args: Readonly<Record<string, string>> }>
> = {
  Bash: { name: "Shell", args: { command: "command", workdir: "cwd" } },
  Read: { name: "Read", args: { file_path: "path", offset: "offset", limit: "limit" } },
  Edit: {
    name: "StrReplace",
    args: {
      file_path: "path",
      old_string: "old_string",
      new_string: "new_string",
      replace_all: "replace_all",
    },
  },
  Write: { name: "Write", args: { file_path: "path", content: "content" } },
};

/** A Common tool as Cursor's `{name, input}`: Cursor's own tool where it fits exactly. */
export function toolToCursor(tool: Tool): { name: string; input: Json } {
  if (tool.name === "Raw") return { name: tool.tool_name, input: tool.input };
  const { name, input } = toolToCanonical(tool);
  const target = TO_CURSOR[name];
  if (target !== undefined && isJsonObject(input)) {
    const out: JsonObject = {};
    let fits = true;
    for (const [k, v] of Object.entries(input)) {
      const to = target.args[k];
      if (to === undefined) fits = false;
      else out[to] = v;
    }
    if (fits) return { name: target.name, input: out };
  }
  return { name, input };
}
