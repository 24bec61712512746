/**
 * Common JSON: the serialized canonical model, byte-compatible with what
 * skillsynchq/txcript emits (snake_case keys in declaration order, opaque
 * JSON with sorted keys, two-space indentation), and its validating reader.
 * Parts of the reader (usage, stop reasons, images, artifacts) are shared
 * with the Simple document reader.
 */

import {
  type Artifact,
  type ArtifactSource,
  BLOCK_TYPES,
  type Block,
  type ImageSource,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  normalizeTool,
  ROLES,
  type Role,
  STOP_REASONS,
  type StopReason,
  TOOL_FIELDS,
  TOOL_NAMES,
  type Tool,
  toolFromCanonical,
  toolToCanonical,
  type Usage,
} from "./common.js";
import { assignDefined, type Checker, joinPath, sortKeys } from "./json.js";
import { firstKey } from "./sniff.js";
import type { Common, Sample, Transcript } from "./transcript.js";

// ---------------------------------------------------------------------------
// Writing

export function metaToJson(meta: Meta): JsonObject {
  const out: JsonObject = { id: meta.id, timestamp: meta.timestamp };
  assignDefined(out, "cwd", meta.cwd);
  assignDefined(out, "git_branch", meta.git_branch);
  assignDefined(out, "title", meta.title);
  assignDefined(out, "cli_version", meta.cli_version);
  assignDefined(out, "model", meta.model);
  return out;
}

function usageToJson(usage: Usage): JsonObject {
  const out: JsonObject = {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
  };
  assignDefined(out, "cache_read_input_tokens", usage.cache_read_input_tokens);
  assignDefined(out, "cache_creation_input_tokens", usage.cache_creation_input_tokens);
  return out;
}

export function toolToJson(tool: Tool): JsonObject {
  switch (tool.name) {
    case "Raw":
      return { name: "Raw", tool_name: tool.tool_name, input: sortKeys(tool.input) };
    case "Command": {
      const out: JsonObject = { name: "Command", command: tool.command };
      assignDefined(out, "args", tool.args);
      return out;
    }
    case "Bash":
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit": {
      // The canonical input holds the tool's fields in TOOL_FIELDS order.
      const { input } = toolToCanonical(tool);
      return isJsonObject(input) ? { name: tool.name, ...input } : { name: tool.name };
    }
    default:
      return tool satisfies never;
  }
}

function artifactSourceToJson(source: ArtifactSource): JsonObject {
  const out: JsonObject =
    source.type === "text"
      ? { type: "text", text: source.text }
      : source.type === "base64"
        ? { type: "base64", data: source.data }
        : { type: "path", path: source.path };
  assignDefined(out, "media_type", source.media_type);
  return out;
}

export function blockToJson(block: Block): JsonObject {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking": {
      const out: JsonObject = { type: "thinking", text: block.text };
      assignDefined(out, "signature", block.signature);
      assignDefined(out, "encrypted", block.encrypted);
      return out;
    }
    case "tool_use":
      return { type: "tool_use", id: block.id, tool: toolToJson(block.tool) };
    case "tool_result": {
      const out: JsonObject = {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        content: sortKeys(block.content),
      };
      if (block.is_error) out.is_error = true;
      return out;
    }
    case "image":
      return { type: "image", source: imageSourceToJson(block.source) };
    case "artifact":
      return {
        type: "artifact",
        artifact: {
          id: block.artifact.id,
          name: block.artifact.name,
          source: artifactSourceToJson(block.artifact.source),
        },
      };
    default:
      return block satisfies never;
  }
}

export function imageSourceToJson(source: ImageSource): JsonObject {
  return { type: source.type, media_type: source.media_type, data: source.data };
}

function stopReasonToJson(reason: StopReason): Json {
  return typeof reason === "string" ? reason : { other: reason.other };
}

/** A message in Common JSON; Simple documents pass their own block form. */
export function messageToJson(
  message: Message,
  block: (b: Block) => JsonObject = blockToJson,
): JsonObject {
  const out: JsonObject = {
    role: message.role,
    content: message.content.map((b) => block(b)),
    timestamp: message.timestamp,
  };
  assignDefined(out, "model", message.model);
  if (message.stop_reason !== undefined) out.stop_reason = stopReasonToJson(message.stop_reason);
  if (message.usage !== undefined) out.usage = usageToJson(message.usage);
  return out;
}

/** The Common JSON document: `{meta, messages}`. */
export function commonToJson(transcript: Transcript<Common>): JsonObject {
  return {
    meta: metaToJson(transcript.meta),
    messages: transcript.body.map((m) => messageToJson(m)),
  };
}

/** Common JSON text, pretty-printed as txcript prints it, with a final newline. */
export function renderCommon(transcript: Transcript<Common>): string {
  return `${JSON.stringify(commonToJson(transcript), null, 2)}\n`;
}

/**
 * `renderCommon`'s text in pieces, one message at a time, for output that
 * is a stream: the whole text of a huge session is never one string (V8
 * cannot hold a string much past 512 MiB). Joined, the pieces are exactly
 * `renderCommon`'s text.
 */
export function* renderCommonChunks(transcript: Transcript<Common>): Generator<string> {
  const head = `{\n  "meta": ${nestedJson(metaToJson(transcript.meta), "  ")},\n  "messages": [`;
  yield* messageListChunks(head, transcript.body);
}

/** Pretty JSON with every line after the first indented by `by`, to stand nested in a streamed document. */
function nestedJson(value: JsonObject, by: string): string {
  // JSON.stringify escapes newlines inside strings, so every "\n" is a line break.
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${by}`);
}

/**
 * A streamed document by piece number, each rendered on demand: piece 0
 * is the head (the whole document when there are no messages), piece
 * i + 1 message i, the last the close. A reader that pages through a huge
 * document renders only the pieces a page needs.
 */
export interface IndexedPieces {
  readonly count: number;
  piece(i: number): string;
}

/**
 * The rest of a streamed transcript document after `head` (which ends with
 * `"messages": [`): each message's JSON (its blocks by `block`) in the
 * list, then the close. Common JSON and the simple format both stream so.
 */
export function messageListPieces(
  head: string,
  body: readonly Message[],
  block?: (b: Block) => JsonObject,
): IndexedPieces {
  if (body.length === 0) return { count: 1, piece: () => `${head}]\n}\n` };
  const last = body.length + 1;
  return {
    count: body.length + 2,
    piece(i: number): string {
      if (i === 0) return `${head}\n`;
      if (i === last) return "  ]\n}\n";
      const message = body[i - 1];
      if (message === undefined) return "";
      const comma = i < body.length ? "," : "";
      return `    ${nestedJson(messageToJson(message, block), "    ")}${comma}\n`;
    },
  };
}

/** `messageListPieces` in order, for output that is a stream. */
function* messageListChunks(
  head: string,
  body: readonly Message[],
  block?: (b: Block) => JsonObject,
): Generator<string> {
  const pieces = messageListPieces(head, body, block);
  for (let i = 0; i < pieces.count; i++) yield pieces.piece(i);
}

// ---------------------------------------------------------------------------
// Reading (shared pieces first)

export function readRole(c: Checker, value: unknown, at: string): Role {
  const text = c.string(value, at).toLowerCase();
  const role = ROLES.find((r) => r === text);
  if (role === undefined) return c.expected(at, `a role ("user" or "assistant")`, value);
  return role;
}

function readUsage(c: Checker, value: unknown, at: string): Usage {
  const obj = c.object(value, at);
  const uint = (v: unknown, p: string) => c.uint(v, p);
  const usage: Usage = {
    input_tokens: c.required(obj, "input_tokens", at, "usage", uint),
    output_tokens: c.required(obj, "output_tokens", at, "usage", uint),
  };
  assignDefined(
    usage,
    "cache_read_input_tokens",
    c.optional(obj, "cache_read_input_tokens", at, uint),
  );
  assignDefined(
    usage,
    "cache_creation_input_tokens",
    c.optional(obj, "cache_creation_input_tokens", at, uint),
  );
  return usage;
}

function readStopReason(c: Checker, value: unknown, at: string): StopReason {
  const known = STOP_REASONS.find((r) => r === value);
  if (known !== undefined) return known;
  if (isJsonObject(value) && typeof value.other === "string") return { other: value.other };
  return c.expected(at, `a stop reason (${STOP_REASONS.join(", ")} or {"other": "..."})`, value);
}

function readImageSource(c: Checker, value: unknown, at: string): ImageSource {
  const obj = c.object(value, at);
  const str = (v: unknown, p: string) => c.string(v, p);
  return {
    type: c.required(obj, "type", at, "image source", str),
    media_type: c.required(obj, "media_type", at, "image source", str),
    data: c.required(obj, "data", at, "image source", str),
  };
}

function readArtifact(c: Checker, value: unknown, at: string): Artifact {
  const obj = c.object(value, at);
  const str = (v: unknown, p: string) => c.string(v, p);
  const sourceAt = joinPath(at, "source");
  const src = c.object(
    c.required(obj, "source", at, "artifact", (v) => v),
    sourceAt,
  );
  const kind = c.required(src, "type", sourceAt, "artifact source", str);
  let source: ArtifactSource;
  switch (kind) {
    case "text":
      source = { type: "text", text: c.required(src, "text", sourceAt, "text artifact", str) };
      break;
    case "base64":
      source = { type: "base64", data: c.required(src, "data", sourceAt, "base64 artifact", str) };
      break;
    case "path":
      source = { type: "path", path: c.required(src, "path", sourceAt, "path artifact", str) };
      break;
    default:
      return c.expected(joinPath(sourceAt, "type"), `"text", "base64" or "path"`, kind);
  }
  assignDefined(source, "media_type", c.optional(src, "media_type", sourceAt, str));
  return {
    id: c.required(obj, "id", at, "artifact", str),
    name: c.required(obj, "name", at, "artifact", str),
    source,
  };
}

/** The optional string fields of Meta, read from a document's top level. */
export function readMetaFields(
  c: Checker,
  obj: Record<string, unknown>,
  at: string,
): Partial<Meta> {
  const str = (v: unknown, p: string) => c.string(v, p);
  const meta: Partial<Meta> = {};
  assignDefined(meta, "cwd", c.optional(obj, "cwd", at, str));
  assignDefined(meta, "git_branch", c.optional(obj, "git_branch", at, str));
  assignDefined(meta, "title", c.optional(obj, "title", at, str));
  assignDefined(meta, "cli_version", c.optional(obj, "cli_version", at, str));
  assignDefined(meta, "model", c.optional(obj, "model", at, str));
  return meta;
}

/** A value inside a document JSON.parse read (see Checker.jsonObject). */
function readJsonValue(value: Json): Json {
  return value;
}

function readTool(c: Checker, value: unknown, at: string): Tool {
  const obj = c.jsonObject(value, at);
  const str = (v: unknown, p: string) => c.string(v, p);
  const name = c.required(obj, "name", at, "tool", str);
  const allowed = (keys: readonly string[]) => {
    for (const key of Object.keys(obj)) {
      if (key !== "name" && !keys.includes(key)) {
        c.fail(at, `unexpected key "${key}" for a ${name} tool`);
      }
    }
  };
  switch (name) {
    case "Raw": {
      allowed(["tool_name", "input"]);
      const toolName = c.required(obj, "tool_name", at, "Raw tool", str);
      // As in Simple documents: a nameless tool cannot be called or rendered anywhere.
      if (toolName === "") c.fail(joinPath(at, "tool_name"), "a tool name cannot be empty");
      const input = obj.input === undefined ? null : readJsonValue(obj.input);
      return normalizeTool({ name: "Raw", tool_name: toolName, input });
    }
    case "Command": {
      allowed(["command", "args"]);
      const command = c.required(obj, "command", at, "Command tool", str);
      if (!command.startsWith("/")) {
        c.expected(joinPath(at, "command"), `a command starting with "/"`, command);
      }
      const args = c.optional(obj, "args", at, str);
      return args === undefined ? { name: "Command", command } : { name: "Command", command, args };
    }
    case "Bash":
    case "Read":
    case "Write":
    case "Edit":
    case "MultiEdit": {
      const spec = TOOL_FIELDS[name];
      allowed(spec.map(([key]) => key));
      const out: JsonObject = {};
      for (const [key, kind, required] of spec) {
        const read = (v: unknown, p: string): Json => {
          switch (kind) {
            case "string":
              return c.string(v, p);
            case "uint":
              return c.uint(v, p);
            case "bool":
              return c.boolean(v, p);
            case "edits":
              return c.array(v, p).map((op, i) => readEditOp(c, op, joinPath(p, i)));
            default:
              return kind satisfies never;
          }
        };
        const v = required
          ? c.required(obj, key, at, `${name} tool`, read)
          : c.optional(obj, key, at, read);
        if (v !== undefined) out[key] = v;
      }
      // Every field is checked above; this builds the typed tool from them.
      return toolFromCanonical(name, out);
    }
    default:
      return c.expected(joinPath(at, "name"), `a tool name (${TOOL_NAMES.join(", ")})`, name);
  }
}

function readEditOp(c: Checker, value: unknown, at: string): JsonObject {
  const obj = c.object(value, at);
  const str = (v: unknown, p: string) => c.string(v, p);
  for (const key of Object.keys(obj)) {
    if (!["old_string", "new_string", "replace_all"].includes(key)) {
      c.fail(at, `unexpected key "${key}" in an edit`);
    }
  }
  const op: JsonObject = {
    old_string: c.required(obj, "old_string", at, "edit", str),
    new_string: c.required(obj, "new_string", at, "edit", str),
  };
  assignDefined(
    op,
    "replace_all",
    c.optional(obj, "replace_all", at, (v, p) => c.boolean(v, p)),
  );
  return op;
}

function readCommonBlock(c: Checker, value: unknown, at: string): Block {
  const obj = c.jsonObject(value, at);
  const str = (v: unknown, p: string) => c.string(v, p);
  const type = c.required(obj, "type", at, "block", str);
  switch (type) {
    case "tool_use":
      return {
        type,
        id: c.required(obj, "id", at, "tool_use", str),
        tool: c.required(obj, "tool", at, "tool_use", (v, p) => readTool(c, v, p)),
      };
    case "tool_result": {
      const block: Block = {
        type,
        tool_use_id: c.required(obj, "tool_use_id", at, "tool_result", str),
        content: c.required(obj, "content", at, "tool_result", readJsonValue),
      };
      if (c.optional(obj, "is_error", at, (v, p) => c.boolean(v, p))) block.is_error = true;
      return block;
    }
    default:
      return readContentBlock(c, obj, type, at);
  }
}

/**
 * The blocks Common JSON and Simple documents spell alike: text, thinking,
 * image, artifact. Tool calls and results differ between the two and are
 * read by each reader; any other type is an error naming the path.
 * `thinkingAlias` also accepts Anthropic's own spelling of the text key.
 */
export function readContentBlock(
  c: Checker,
  obj: Record<string, unknown>,
  type: string,
  at: string,
  options: { thinkingAlias?: boolean } = {},
): Block {
  const str = (v: unknown, p: string) => c.string(v, p);
  switch (type) {
    case "text":
      return { type, text: c.required(obj, "text", at, "text block", str) };
    case "thinking": {
      const key =
        options.thinkingAlias && obj.text === undefined && obj.thinking !== undefined
          ? "thinking"
          : "text";
      const block: Block = { type, text: c.required(obj, key, at, "thinking block", str) };
      assignDefined(block, "signature", c.optional(obj, "signature", at, str));
      assignDefined(block, "encrypted", c.optional(obj, "encrypted", at, str));
      return block;
    }
    case "image":
      return {
        type,
        source: c.required(obj, "source", at, "image", (v, p) => readImageSource(c, v, p)),
      };
    case "artifact":
      return {
        type,
        artifact: c.required(obj, "artifact", at, "artifact", (v, p) => readArtifact(c, v, p)),
      };
    default:
      return c.expected(joinPath(at, "type"), `a block type (${BLOCK_TYPES.join(", ")})`, type);
  }
}

function readCommonMessage(c: Checker, value: unknown, at: string): Message {
  const obj = c.object(value, at);
  const message: Message = {
    role: c.required(obj, "role", at, "message", (v, p) => readRole(c, v, p)),
    content: c.required(obj, "content", at, "message", (v, p) =>
      c.array(v, p).map((b, i) => readCommonBlock(c, b, joinPath(p, i))),
    ),
    timestamp: c.required(obj, "timestamp", at, "message", (v, p) => c.timestamp(v, p)),
  };
  readMessageExtras(c, obj, at, message);
  return message;
}

/** A message's optional model, stop reason and usage, onto `into` (Common and Simple read them alike). */
export function readMessageExtras(
  c: Checker,
  obj: Readonly<Record<string, unknown>>,
  at: string,
  into: Pick<Message, "model" | "stop_reason" | "usage">,
): void {
  assignDefined(
    into,
    "model",
    c.optional(obj, "model", at, (v, p) => c.string(v, p)),
  );
  assignDefined(
    into,
    "stop_reason",
    c.optional(obj, "stop_reason", at, (v, p) => readStopReason(c, v, p)),
  );
  assignDefined(
    into,
    "usage",
    c.optional(obj, "usage", at, (v, p) => readUsage(c, v, p)),
  );
}

/** Common JSON as txcript writes it: an object whose first key is `meta`. */
export function detectCommon(sample: Sample): boolean {
  return firstKey(sample) === "meta" && /"messages"\s*:/.test(sample.text);
}

/** Read a parsed Common JSON document. Raw tools that fit a typed tool are normalized. */
export function readCommon(c: Checker, value: unknown): Transcript<Common> {
  const doc = c.object(value, "");
  const metaObj = c.object(
    c.required(doc, "meta", "", "a Common document", (v) => v),
    "meta",
  );
  const meta: Meta = {
    id: c.required(metaObj, "id", "meta", "meta", (v, p) => c.string(v, p)),
    timestamp: c.required(metaObj, "timestamp", "meta", "meta", (v, p) => c.timestamp(v, p)),
    ...readMetaFields(c, metaObj, "meta"),
  };
  if (meta.id === "") c.fail("meta.id", "a session id cannot be empty");
  const body = c.required(doc, "messages", "", "a Common document", (v, p) =>
    c.array(v, p).map((m, i) => readCommonMessage(c, m, joinPath(p, i))),
  );
  return { meta, body };
}
