/**
 * Codex tool calls <-> canonical tools.
 *
 * Reading: the shell tools (`exec_command`, `shell`/`container.exec`,
 * `shell_command`, `local_shell_call`) become Bash, with an argv of the form
 * [bash|sh|zsh, -lc|-c, X] collapsed to X; `apply_patch` with a single Add
 * File becomes Write and with a single bare one-hunk Update File becomes
 * Edit; any other name goes through `toolFromCanonical`, so canonical calls
 * txcript wrote (`Read`, `Edit` with replace_all, ...) come back typed, and
 * everything else stays Raw with its untouched input.
 *
 * Writing: Bash becomes `shell_command`; Write and Edit become `apply_patch`
 * when the envelope carries them exactly, else keep their canonical name
 * and JSON input, as do Read and MultiEdit; Raw keeps its name and input.
 */

import { quote } from "shell-quote";
import {
  type BashTool,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { patchToTool, toolToPatch } from "../shared/patch.js";

/**
 * Execution hints of Codex's shell tools that no canonical Bash field holds
 * (how long to wait for output, output caps, pty, login shell, sandbox
 * escalation and its justification). They are dropped on reading; any other
 * unknown key keeps the call Raw.
 */
const SHELL_HINT_KEYS = [
  "yield_time_ms",
  "max_output_tokens",
  "shell",
  "login",
  "tty",
  "justification",
  "sandbox_permissions",
  "with_escalated_permissions",
] as const;

const SHELLS = new Set(["bash", "sh", "zsh"]);

/** ["bash", "-lc", X] -> X; any other argv is shell-quoted into one command line. */
function argvToCommand(argv: readonly string[]): string {
  const [shell, flag, script] = argv;
  if (argv.length === 3 && shell !== undefined && flag !== undefined && script !== undefined) {
    const base = shell.slice(shell.lastIndexOf("/") + 1);
    if (SHELLS.has(base) && (flag === "-lc" || flag === "-c")) return script;
  }
  return quote([...argv]);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string");
}

/** Bash from a shell call's arguments, or undefined when a key does not fit. */
function shellToBash(
  args: JsonObject,
  commandKey: string,
  workdirKey: string,
  timeoutKeys: readonly string[],
): BashTool | undefined {
  const known = new Set<string>([commandKey, workdirKey, ...timeoutKeys, ...SHELL_HINT_KEYS]);
  for (const key of Object.keys(args)) if (!known.has(key)) return undefined;
  const raw = args[commandKey];
  let command: string;
  if (typeof raw === "string") command = raw;
  else if (isStringArray(raw)) command = argvToCommand(raw);
  else return undefined;
  const bash: BashTool = { name: "Bash", command };
  const workdir = args[workdirKey];
  if (workdir !== undefined && workdir !== null) {
    if (typeof workdir !== "string") return undefined;
    bash.workdir = workdir;
  }
  for (const key of timeoutKeys) {
    const t = args[key];
    if (t === undefined || t === null) continue;
    if (typeof t !== "number" || !Number.isSafeInteger(t) || t < 0) return undefined;
    bash.timeout_ms = t;
  }
  return bash;
}

/** A `function_call` (name + JSON-string arguments) as a canonical tool. */
export function functionCallToTool(
  name: string,
  argumentsText: unknown,
  parsed: Json | undefined,
): Tool {
  if (parsed === undefined) {
    // Arguments that are not JSON stay exactly as written.
    return {
      name: "Raw",
      tool_name: name,
      input: typeof argumentsText === "string" ? argumentsText : null,
    };
  }
  if (isJsonObject(parsed)) {
    let bash: BashTool | undefined;
    switch (name) {
      case "exec_command":
        bash = shellToBash(parsed, "cmd", "workdir", ["timeout_ms"]);
        break;
      case "shell":
      case "container.exec":
        bash = isStringArray(parsed.command)
          ? shellToBash(parsed, "command", "workdir", ["timeout_ms", "timeout"])
          : undefined;
        break;
      case "shell_command":
        bash =
          typeof parsed.command === "string"
            ? shellToBash(parsed, "command", "workdir", ["timeout_ms", "timeout"])
            : undefined;
        break;
      case "apply_patch": {
        const input = parsed.input;
        if (typeof input === "string" && Object.keys(parsed).length === 1) {
          const tool = patchToTool(input);
          return tool.name === "Raw" ? { name: "Raw", tool_name: name, input: parsed } : tool;
        }
        break;
      }
    }
    if (bash) return bash;
    if (
      ["exec_command", "shell", "container.exec", "shell_command", "apply_patch"].includes(name)
    ) {
      return { name: "Raw", tool_name: name, input: parsed };
    }
  }
  return toolFromCanonical(name, parsed);
}

/** A `custom_tool_call` (freeform string input) as a canonical tool. */
export function customCallToTool(name: string, input: string): Tool {
  if (name === "apply_patch") return patchToTool(input);
  return { name: "Raw", tool_name: name, input };
}

/** A `local_shell_call` action as a canonical tool. */
export function localShellToTool(action: Json | undefined): Tool {
  const raw: Tool = { name: "Raw", tool_name: "local_shell", input: action ?? null };
  if (!isJsonObject(action)) return raw;
  const known = ["type", "command", "timeout_ms", "working_directory", "env", "user"];
  if (action.type !== "exec" || Object.keys(action).some((k) => !known.includes(k))) return raw;
  // A command run with its own environment or as another user is more than Bash says.
  if ((action.env ?? null) !== null || (action.user ?? null) !== null) return raw;
  if (!isStringArray(action.command)) return raw;
  const bash: BashTool = { name: "Bash", command: argvToCommand(action.command) };
  const dir = action.working_directory ?? null;
  if (dir !== null) {
    if (typeof dir !== "string") return raw;
    bash.workdir = dir;
  }
  const t = action.timeout_ms ?? null;
  if (t !== null) {
    if (typeof t !== "number" || !Number.isSafeInteger(t) || t < 0) return raw;
    bash.timeout_ms = t;
  }
  return bash;
}

/** What a canonical tool is written as. */
export type CodexCall =
  | { kind: "function"; name: string; arguments: string; bash?: BashTool }
  | { kind: "custom"; name: string; input: string };

/** OpenAI function names allow [A-Za-z0-9_-], at most 64 characters. */
function codexToolName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  return clean === "" ? "tool" : clean;
}

export function toolToCodexCall(tool: Tool): CodexCall {
  switch (tool.name) {
    case "Bash": {
      // shell_command carries command, workdir and timeout_ms; description and
      // run_in_background have no Codex field.
      const args: JsonObject = { command: tool.command };
      assignDefined(args, "workdir", tool.workdir);
      assignDefined(args, "timeout_ms", tool.timeout_ms);
      return {
        kind: "function",
        name: "shell_command",
        arguments: JSON.stringify(args),
        bash: tool,
      };
    }
    case "Write":
    case "Edit": {
      const patch = toolToPatch(tool);
      if (patch !== undefined) return { kind: "custom", name: "apply_patch", input: patch };
      break;
    }
    case "Raw":
      if (typeof tool.input === "string") {
        return { kind: "custom", name: codexToolName(tool.tool_name), input: tool.input };
      }
      break;
    case "Read":
    case "MultiEdit":
    case "Command":
      break;
    default:
      return tool satisfies never;
  }
  const { name, input } = toolToCanonical(tool);
  return { kind: "function", name: codexToolName(name), arguments: JSON.stringify(input) };
}
