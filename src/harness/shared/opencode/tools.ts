/**
 * OpenCode's built-in tools and the canonical tools they map to. A typed
 * tool is chosen only when the native input fits it exactly (every key
 * known, every value of the right type); anything else stays Raw with the
 * native name and input untouched.
 *
 * - `bash {command, timeout (ms), description, workdir}` <-> Bash
 * - `read {filePath, offset (1-based), limit}` <-> Read
 * - `write {filePath, content}` <-> Write
 * - `edit {filePath, oldString, newString, replaceAll}` <-> Edit
 * - `multiedit {filePath, edits: [{filePath?, oldString, newString, replaceAll?}]}` <-> MultiEdit
 * - `apply_patch {patchText}` (GPT models) -> Write or Edit when the patch is
 *   exactly one of those (read as Codex's `apply_patch` is), else Raw
 *
 * Sources: packages/opencode/src/tool/{bash,read,write,edit,multiedit,apply_patch}.ts
 * and the tool schemas OpenCode 1.18.33 sends (docs/formats/opencode.md).
 */

import {
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../../common.js";
import { assignDefined } from "../../../json.js";
import { patchToTool } from "../patch.js";

type KeyMap = readonly (readonly [native: string, canonical: string])[];

const BASH: KeyMap = [
  ["command", "command"],
  ["timeout", "timeout_ms"],
  ["description", "description"],
  ["workdir", "workdir"],
];
const READ: KeyMap = [
  ["filePath", "file_path"],
  ["offset", "offset"],
  ["limit", "limit"],
];
const WRITE: KeyMap = [
  ["filePath", "file_path"],
  ["content", "content"],
];
const EDIT: KeyMap = [
  ["filePath", "file_path"],
  ["oldString", "old_string"],
  ["newString", "new_string"],
  ["replaceAll", "replace_all"],
];
const EDIT_OP: KeyMap = [
  ["oldString", "old_string"],
  ["newString", "new_string"],
  ["replaceAll", "replace_all"],
];

const NATIVE = {
  bash: ["Bash", BASH],
  read: ["Read", READ],
  write: ["Write", WRITE],
  edit: ["Edit", EDIT],
} as const;
const NATIVE_NAME = { Bash: "bash", Read: "read", Write: "write", Edit: "edit" } as const;

/** Rename keys by `map`; undefined when a key is not in it. */
function rename(input: JsonObject, map: KeyMap, toCanonical: boolean): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    const pair = map.find(([n, c]) => (toCanonical ? n : c) === key);
    if (pair === undefined) return undefined;
    out[toCanonical ? pair[1] : pair[0]] = value;
  }
  return out;
}

/** `multiedit` input as MultiEdit's: each edit's own filePath must be absent or the file's. */
function multiEditInput(input: JsonObject): JsonObject | undefined {
  const file = input.filePath;
  const edits = input.edits;
  if (typeof file !== "string" || !Array.isArray(edits)) return undefined;
  if (Object.keys(input).some((k) => k !== "filePath" && k !== "edits")) return undefined;
  const ops: Json[] = [];
  for (const e of edits) {
    if (!isJsonObject(e)) return undefined;
    const { filePath, ...rest } = e;
    if (filePath !== undefined && filePath !== file) return undefined;
    const op = rename(rest, EDIT_OP, true);
    if (op === undefined) return undefined;
    ops.push(op);
  }
  return { file_path: file, edits: ops };
}

/** A native tool call as a canonical tool. */
export function toolFromNative(name: string, input: Json): Tool {
  const raw: Tool = { name: "Raw", tool_name: name, input };
  if (!isJsonObject(input)) return raw;
  let typed: Tool | undefined;
  if (name === "bash" || name === "read" || name === "write" || name === "edit") {
    const [canonical, map] = NATIVE[name];
    const renamed = rename(input, map, true);
    if (renamed !== undefined) typed = toolFromCanonical(canonical, renamed);
  } else if (name === "multiedit") {
    const renamed = multiEditInput(input);
    if (renamed !== undefined) typed = toolFromCanonical("MultiEdit", renamed);
  } else if (name === "apply_patch") {
    const keys = Object.keys(input);
    if (keys.length === 1 && typeof input.patchText === "string") {
      typed = patchToTool(input.patchText);
    }
  }
  return typed === undefined || typed.name === "Raw" ? raw : typed;
}

/** A canonical tool as OpenCode's name and input. */
export function toolToNative(tool: Tool): { name: string; input: JsonObject } {
  switch (tool.name) {
    case "Bash":
    case "Read":
    case "Write":
    case "Edit": {
      const name = NATIVE_NAME[tool.name];
      const input = toolToCanonical(tool).input;
      // OpenCode's bash has no background mode: run_in_background is not written.
      const { run_in_background: _, ...canonical } = isJsonObject(input) ? input : {};
      return { name, input: rename(canonical, NATIVE[name][1], false) ?? {} };
    }
    case "MultiEdit": {
      const edits: Json[] = tool.edits.map((op) => {
        const e: JsonObject = {
          filePath: tool.file_path,
          oldString: op.old_string,
          newString: op.new_string,
        };
        assignDefined(e, "replaceAll", op.replace_all);
        return e;
      });
      return { name: "multiedit", input: { filePath: tool.file_path, edits } };
    }
    case "Command": {
      // A user slash command is not a model tool; the codec writes it as text.
      const input: JsonObject = tool.args === undefined ? {} : { args: tool.args };
      return { name: tool.command, input };
    }
    case "Raw":
      // OpenCode's tool input is an object; anything else is wrapped.
      return {
        name: tool.tool_name,
        input: isJsonObject(tool.input) ? tool.input : { input: tool.input },
      };
    default:
      return tool satisfies never;
  }
}
