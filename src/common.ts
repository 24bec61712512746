/**
 * The canonical model every harness converts through: session metadata,
 * messages of typed blocks, and typed tools with their normalization.
 *
 * The JSON shape (see `common-json.ts`) is the one skillsynchq/txcript emits,
 * so Common documents move between the two tools. Timestamps are kept as
 * normalized RFC 3339 UTC strings (see `time.ts`) so nanoseconds survive.
 */

import type { Timestamp } from "./time.js";

export type { Timestamp } from "./time.js";

/** Any JSON value: tool inputs and structured tool results stay opaque. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Session-level metadata, common to every harness. */
export interface Meta {
  /** Session id as the originating harness knows it. */
  id: string;
  /** When the session started. */
  timestamp: Timestamp;
  cwd?: string;
  git_branch?: string;
  title?: string;
  /** Version of the program that produced the session. */
  cli_version?: string;
  /** Primary model of the session. */
  model?: string;
}

export const ROLES = ["user", "assistant"] as const;
/** Tool results ride on user messages, per the Anthropic convention. */
export type Role = (typeof ROLES)[number];

export interface Message {
  role: Role;
  content: Block[];
  timestamp: Timestamp;
  model?: string;
  stop_reason?: StopReason;
  usage?: Usage;
}

export const STOP_REASONS = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "aborted",
  "error",
] as const;
/** Why an assistant turn ended; `other` keeps any harness-specific reason verbatim. */
export type StopReason = (typeof STOP_REASONS)[number] | { other: string };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface TextBlock {
  type: "text";
  text: string;
}
export interface ThinkingBlock {
  type: "thinking";
  text: string;
  /** Anthropic signature: replayable only in the conversation that made it. */
  signature?: string;
  /** Opaque encrypted reasoning (Codex `encrypted_content`). */
  encrypted?: string;
}
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  tool: Tool;
}
/** A string result is text; any other JSON value is structured output. */
export type ToolOutput = Json;
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ToolOutput;
  /** Present only when true. */
  is_error?: true;
}
export interface ImageSource {
  type: string;
  media_type: string;
  data: string;
}
export interface ImageBlock {
  type: "image";
  source: ImageSource;
}
export type ArtifactSource =
  | { type: "text"; text: string; media_type?: string }
  | { type: "base64"; data: string; media_type?: string }
  | { type: "path"; path: string; media_type?: string };
export interface Artifact {
  id: string;
  name: string;
  source: ArtifactSource;
}
export interface ArtifactBlock {
  type: "artifact";
  artifact: Artifact;
}

export const BLOCK_TYPES = [
  "text",
  "thinking",
  "tool_use",
  "tool_result",
  "image",
  "artifact",
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export type Block =
  | TextBlock
  | ThinkingBlock
  | ToolUseBlock
  | ToolResultBlock
  | ImageBlock
  | ArtifactBlock;

export interface EditOp {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface BashTool {
  name: "Bash";
  command: string;
  workdir?: string;
  timeout_ms?: number;
  description?: string;
  run_in_background?: boolean;
}
export interface ReadTool {
  name: "Read";
  file_path: string;
  /** 1-based first line. */
  offset?: number;
  limit?: number;
}
export interface WriteTool {
  name: "Write";
  file_path: string;
  content: string;
}
export interface EditTool {
  name: "Edit";
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}
export interface MultiEditTool {
  name: "MultiEdit";
  file_path: string;
  edits: EditOp[];
}
/** A slash command the user ran at the harness (`/review`), not a model tool call. */
export interface CommandTool {
  name: "Command";
  command: string;
  args?: string;
}
/** A slash command as the user typed it: `/review`, or `/review the diff` with its arguments. */
export function commandText(tool: CommandTool): string {
  return tool.args ? `${tool.command} ${tool.args}` : tool.command;
}
/** Everything else, kept losslessly: MCP tools, harness-private tools, ill-fitting input. */
export interface RawTool {
  name: "Raw";
  tool_name: string;
  input: Json;
}

export const TOOL_NAMES = ["Bash", "Read", "Write", "Edit", "MultiEdit", "Command", "Raw"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
export type Tool =
  | BashTool
  | ReadTool
  | WriteTool
  | EditTool
  | MultiEditTool
  | CommandTool
  | RawTool;

// ---------------------------------------------------------------------------
// Tool normalization.
//
// A typed tool is chosen only when the input fits its schema exactly: every
// key known, every value of the right type, no nulls. Anything else stays Raw
// with the untouched input, so normalization never loses a byte of meaning.

type FieldKind = "string" | "uint" | "bool" | "edits";
type FieldSpec = readonly (readonly [key: string, kind: FieldKind, required: boolean])[];

const BASH_FIELDS: FieldSpec = [
  ["command", "string", true],
  ["workdir", "string", false],
  ["timeout_ms", "uint", false],
  ["description", "string", false],
  ["run_in_background", "bool", false],
];
const READ_FIELDS: FieldSpec = [
  ["file_path", "string", true],
  ["offset", "uint", false],
  ["limit", "uint", false],
];
const WRITE_FIELDS: FieldSpec = [
  ["file_path", "string", true],
  ["content", "string", true],
];
const EDIT_FIELDS: FieldSpec = [
  ["file_path", "string", true],
  ["old_string", "string", true],
  ["new_string", "string", true],
  ["replace_all", "bool", false],
];
const EDIT_OP_FIELDS: FieldSpec = [
  ["old_string", "string", true],
  ["new_string", "string", true],
  ["replace_all", "bool", false],
];
const MULTI_EDIT_FIELDS: FieldSpec = [
  ["file_path", "string", true],
  ["edits", "edits", true],
];
const COMMAND_FIELDS: FieldSpec = [["args", "string", false]];

/** The field order of each typed tool, which is also its JSON key order. */
export const TOOL_FIELDS = {
  Bash: BASH_FIELDS,
  Read: READ_FIELDS,
  Write: WRITE_FIELDS,
  Edit: EDIT_FIELDS,
  MultiEdit: MULTI_EDIT_FIELDS,
  Command: COMMAND_FIELDS,
} as const;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fitsKind(value: Json | undefined, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "uint":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
    case "bool":
      return typeof value === "boolean";
    case "edits":
      return Array.isArray(value) && value.every((op) => fits(op, EDIT_OP_FIELDS));
    default:
      return kind satisfies never;
  }
}

/** True when `input` is an object whose keys and value types match `spec` exactly. */
function fits(input: Json, spec: FieldSpec): input is JsonObject {
  if (!isJsonObject(input)) return false;
  for (const key of Object.keys(input)) {
    if (!spec.some(([k]) => k === key)) return false;
  }
  for (const [key, kind, required] of spec) {
    const value = input[key];
    if (value === undefined) {
      if (required) return false;
      continue;
    }
    if (!fitsKind(value, kind)) return false;
  }
  return true;
}

/**
 * Copy the spec's fields out of `source` in spec order, skipping absent ones.
 * `source` is a typed tool or edit, or an input `fits` has checked against
 * `spec`: the table, not the type system, says which keys it has and what
 * they hold, hence the three casts.
 */
function pick(source: object, spec: FieldSpec): JsonObject {
  const out: JsonObject = {};
  const record = source as Readonly<Record<string, unknown>>; // cast: read by the table's keys
  for (const [key, kind] of spec) {
    const value = record[key];
    if (value === undefined) continue;
    out[key] =
      kind === "edits"
        ? (value as readonly EditOp[]).map((op) => pick(op, EDIT_OP_FIELDS)) // cast: an "edits" field
        : (value as Json); // cast: a string, uint or bool field
  }
  return out;
}

/**
 * Build a tool from a canonical (Claude-convention) name and input. Names
 * starting with `/` are user slash commands.
 */
export function toolFromCanonical(name: string, input: Json): Tool {
  const typed = (spec: FieldSpec): JsonObject | undefined =>
    fits(input, spec) ? input : undefined;
  if (name.startsWith("/")) {
    const args = typed(COMMAND_FIELDS);
    if (args) {
      const text = args.args;
      return typeof text === "string"
        ? { name: "Command", command: name, args: text }
        : { name: "Command", command: name };
    }
    return { name: "Raw", tool_name: name, input };
  }
  switch (name) {
    case "Bash":
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit": {
      const args = typed(TOOL_FIELDS[name]);
      // cast: `fits` checked every field against this tool's table.
      if (args) return { name, ...pick(args, TOOL_FIELDS[name]) } as Tool;
      return { name: "Raw", tool_name: name, input };
    }
    default:
      return { name: "Raw", tool_name: name, input };
  }
}

/** The inverse of `toolFromCanonical`: canonical name and input. */
export function toolToCanonical(tool: Tool): { name: string; input: Json } {
  switch (tool.name) {
    case "Command":
      return { name: tool.command, input: pick(tool, COMMAND_FIELDS) };
    case "Raw":
      return { name: tool.tool_name, input: tool.input };
    case "Bash":
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit":
      return { name: tool.name, input: pick(tool, TOOL_FIELDS[tool.name]) };
    default:
      return tool satisfies never;
  }
}

/** Re-normalize a tool (a Raw whose input fits a typed tool becomes typed). */
export function normalizeTool(tool: Tool): Tool {
  const { name, input } = toolToCanonical(tool);
  return toolFromCanonical(name, input);
}

/** The name a person would recognize: `Bash`, `/review`, `mcp__github__search`. */
export function toolDisplayName(tool: Tool): string {
  switch (tool.name) {
    case "Command":
      return tool.command;
    case "Raw":
      return tool.tool_name;
    default:
      return tool.name;
  }
}

/** Sum of all four counters. */
export function totalTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    usage.output_tokens +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0)
  );
}

export function stopReasonText(reason: StopReason): string {
  return typeof reason === "string" ? reason : reason.other;
}
