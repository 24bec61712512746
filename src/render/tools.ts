/**
 * What a tool call did, for people: a shell command with its directory, a
 * file read, a write, an edit as a diff, a search, or (for anything else)
 * the tool's name with its arguments. Typed tools map directly; Raw tools
 * whose input has a recognizable shape (agy 1.2's GENERIC `run_command`,
 * `view_file`, `replace_file_content`…, Codex's `exec_command` and
 * `apply_patch`, MCP shells) are read by their well-known keys, so a page
 * shows `$ ls` rather than argument JSON. Pure.
 */

import { isJsonObject, type Json, type JsonObject, type Tool } from "../common.js";
import { defined } from "../json.js";

export interface EditHunk {
  old: string;
  new: string;
}

export type CallView =
  | {
      kind: "shell";
      tool: string;
      command: string;
      cwd?: string;
      note?: string;
      background?: boolean;
    }
  | { kind: "read"; tool: string; path: string; lines?: string }
  | { kind: "write"; tool: string; path: string; content: string }
  | { kind: "edit"; tool: string; path: string; hunks: EditHunk[]; all?: boolean }
  | { kind: "patch"; tool: string; patch: string }
  | { kind: "list"; tool: string; path: string }
  | { kind: "search"; tool: string; query: string; path?: string }
  | { kind: "command"; tool: string; command: string; args?: string }
  | { kind: "raw"; tool: string; summary?: string; input: Json };

const str = (o: JsonObject, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === "string") return v;
  }
  return undefined;
};
const num = (o: JsonObject, key: string): number | undefined => {
  const v = o[key];
  return typeof v === "number" && Number.isSafeInteger(v) ? v : undefined;
};

/** `3-9`, `3-`, `-9`, or undefined. */
function lineRange(first?: number, last?: number): string | undefined {
  if (first === undefined && last === undefined) return undefined;
  return `${first ?? 1}-${last ?? ""}`;
}

/** A shell argv ([bash, -lc, X] reads as X) or a command string. */
function commandOf(value: Json | undefined): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v): v is string => typeof v === "string")) {
    const argv = value;
    const [shell, flag, script] = argv;
    if (argv.length === 3 && /^(ba|z)?sh$/.test(shell ?? "") && /^-l?c$/.test(flag ?? ""))
      return script;
    return argv
      .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))
      .join(" ");
  }
  return undefined;
}

/** The short human summary some harnesses attach (agy `toolSummary`, Claude `description`). */
function summaryOf(o: JsonObject): string | undefined {
  return str(o, "toolSummary", "description", "Description", "toolAction");
}

function rawView(name: string, input: Json): CallView {
  if (typeof input === "string" && /\*\*\* Begin Patch/.test(input)) {
    return { kind: "patch", tool: name, patch: input };
  }
  if (!isJsonObject(input)) return { kind: "raw", tool: name, input };
  const o = input;
  const summary = summaryOf(o);
  const note = defined({ note: summary });
  // Shell tools: agy run_command, Codex exec_command/shell, MCP shells.
  const command = commandOf(o.CommandLine ?? o.command ?? o.cmd);
  if (command !== undefined) {
    const cwd = str(o, "Cwd", "workdir", "cwd", "working_directory", "dir_path");
    return { kind: "shell", tool: name, command, ...defined({ cwd }), ...note };
  }
  const patch = typeof o.patch === "string" ? o.patch : o.input;
  if (typeof patch === "string" && /\*\*\* Begin Patch/.test(patch))
    return { kind: "patch", tool: name, patch };
  const file = str(
    o,
    "AbsolutePath",
    "TargetFile",
    "file_path",
    "absolute_path",
    "path",
    "filePath",
  );
  if (file !== undefined) {
    const oldText = str(o, "TargetContent", "old_string", "oldString");
    const newText = str(o, "ReplacementContent", "new_string", "newString");
    if (oldText !== undefined && newText !== undefined) {
      return { kind: "edit", tool: name, path: file, hunks: [{ old: oldText, new: newText }] };
    }
    const chunks = o.ReplacementChunks ?? o.edits;
    if (Array.isArray(chunks) && chunks.length > 0) {
      const hunks: EditHunk[] = [];
      for (const c of chunks) {
        if (!isJsonObject(c)) break;
        const a = str(c, "TargetContent", "old_string");
        const b = str(c, "ReplacementContent", "new_string");
        if (a === undefined || b === undefined) break;
        hunks.push({ old: a, new: b });
      }
      if (hunks.length === chunks.length) return { kind: "edit", tool: name, path: file, hunks };
    }
    const content = str(o, "CodeContent", "content");
    if (content !== undefined) return { kind: "write", tool: name, path: file, content };
    const lines = lineRange(
      num(o, "StartLine") ?? num(o, "offset"),
      num(o, "EndLine") ??
        ((s, l) => (l !== undefined ? (s ?? 1) + l - 1 : undefined))(
          num(o, "offset"),
          num(o, "limit"),
        ),
    );
    if (/view|read|cat/i.test(name)) {
      return { kind: "read", tool: name, path: file, ...defined({ lines }) };
    }
  }
  const dir = str(o, "DirectoryPath", "dir_path");
  if (dir !== undefined && /list|ls/i.test(name)) return { kind: "list", tool: name, path: dir };
  const query = str(o, "Query", "pattern", "query");
  if (query !== undefined && /grep|search|find|glob/i.test(name)) {
    const where = str(o, "SearchPath", "SearchDirectory", "path");
    return { kind: "search", tool: name, query, ...defined({ path: where }) };
  }
  return { kind: "raw", tool: name, input, ...defined({ summary }) };
}

/** How a page shows one tool call. */
export function callView(tool: Tool): CallView {
  switch (tool.name) {
    case "Bash":
      return {
        kind: "shell",
        tool: "Bash",
        command: tool.command,
        ...defined({ cwd: tool.workdir }),
        ...defined({ note: tool.description }),
        ...(tool.run_in_background ? { background: true } : {}),
      };
    case "Read": {
      const lines = lineRange(
        tool.offset,
        tool.limit !== undefined ? (tool.offset ?? 1) + tool.limit - 1 : undefined,
      );
      return { kind: "read", tool: "Read", path: tool.file_path, ...(lines ? { lines } : {}) };
    }
    case "Write":
      return { kind: "write", tool: "Write", path: tool.file_path, content: tool.content };
    case "Edit":
      return {
        kind: "edit",
        tool: "Edit",
        path: tool.file_path,
        hunks: [{ old: tool.old_string, new: tool.new_string }],
        ...(tool.replace_all ? { all: true } : {}),
      };
    case "MultiEdit":
      return {
        kind: "edit",
        tool: "MultiEdit",
        path: tool.file_path,
        hunks: tool.edits.map((e) => ({ old: e.old_string, new: e.new_string })),
      };
    case "Command":
      return {
        kind: "command",
        tool: tool.command,
        command: tool.command,
        ...defined({ args: tool.args }),
      };
    case "Raw":
      return rawView(tool.tool_name, tool.input);
    default:
      return tool satisfies never;
  }
}

/** A unified-diff body for an edit: every old line `-`, every new line `+`. */
export function diffText(hunks: readonly EditHunk[]): string {
  const out: string[] = [];
  hunks.forEach((h, i) => {
    if (hunks.length > 1) out.push(`@@ edit ${i + 1} @@`);
    if (h.old !== "") out.push(...h.old.split("\n").map((l) => `-${l}`));
    if (h.new !== "") out.push(...h.new.split("\n").map((l) => `+${l}`));
  });
  return out.join("\n");
}

const EXT_LANG: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  rs: "rust",
  go: "go",
  json: "json",
  jsonl: "json",
  md: "markdown",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  yml: "yaml",
  yaml: "yaml",
  toml: "ini",
  ini: "ini",
  css: "css",
  html: "xml",
  xml: "xml",
  svg: "xml",
  sql: "sql",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  java: "java",
  kt: "kotlin",
  rb: "ruby",
  php: "php",
  swift: "swift",
  diff: "diff",
  patch: "diff",
  dockerfile: "dockerfile",
  makefile: "makefile",
};

/** The highlighter language for a file, by extension (or well-known name). */
export function languageOf(path: string): string | undefined {
  const name = path.split(/[\\/]/).pop()?.toLowerCase() ?? "";
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : name;
  // Own keys only: a file named `constructor` has no language.
  return Object.hasOwn(EXT_LANG, ext) ? EXT_LANG[ext] : undefined;
}
