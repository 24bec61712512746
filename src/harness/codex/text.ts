/**
 * The Codex text codec: the text form of a Codex session is the rollout
 * JSONL itself. `parse` splits it into the verbatim Body and reads the
 * session metadata from the `session_meta` line (and the model in effect
 * at the first model response); `render` joins the lines back, byte for byte.
 * No I/O: the store supplies titles from `session_index.jsonl`.
 */

import { isJsonObject, type Meta } from "../../common.js";
import { ParseError } from "../../errors.js";
import { assignDefined } from "../../json.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine, isJsonLines, startsWithBytes, ZSTD_MAGIC } from "../../sniff.js";
import { oneLineTitle, PROMPT_TITLE_MAX } from "../../strings.js";
import { EPOCH, normalizeTimestamp, type Timestamp } from "../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import {
  type CodexBody,
  joinLines,
  type Lines,
  readEnvelope,
  SCAFFOLDING_PREFIXES,
  splitLines,
} from "./body.js";

/** What the `session_meta` line says, read tolerantly. */
export interface SessionMetaInfo {
  /** Index of the line in the Body. */
  line: number;
  id: string;
  /** `payload.timestamp`, else the line's own timestamp. */
  timestamp: Timestamp | undefined;
  cwd: string | undefined;
  cli_version: string | undefined;
  git_branch: string | undefined;
  /** `payload.source`: "cli", "exec", "vscode", ... or "subagent". */
  source: string | undefined;
  parent_id: string | undefined;
  forked_from: string | undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function timestampOf(value: unknown): Timestamp | undefined {
  return typeof value === "string" ? normalizeTimestamp(value) : undefined;
}

/**
 * Read a `session_meta` payload. Undefined when the line is not one or has
 * no string id (Codex cannot use such a file either).
 */
function readSessionMeta(text: string, line: number): SessionMetaInfo | undefined {
  const env = readEnvelope(text);
  if (env?.type !== "session_meta") return undefined;
  const p = env.payload;
  const id = nonEmptyString(p.id);
  if (id === undefined) return undefined;
  const git = p.git;
  const branch = isJsonObject(git) ? nonEmptyString(git.branch) : undefined;
  // Newer builds record a subagent's source as {subagent: {...}} with its parent thread.
  let source: string | undefined;
  let parent: string | undefined = nonEmptyString(p.parent_thread_id);
  if (typeof p.source === "string") source = p.source;
  else if (isJsonObject(p.source) && "subagent" in p.source) {
    source = "subagent";
    const agent = p.source.subagent;
    const spawn = isJsonObject(agent) ? agent.thread_spawn : undefined;
    if (isJsonObject(spawn)) parent ??= nonEmptyString(spawn.parent_thread_id);
  }
  return {
    line,
    id,
    timestamp: timestampOf(p.timestamp) ?? timestampOf(env.timestamp),
    cwd: nonEmptyString(p.cwd),
    cli_version: nonEmptyString(p.cli_version),
    git_branch: branch,
    source,
    parent_id: parent,
    forked_from: nonEmptyString(p.forked_from_id),
  };
}

/** The first `session_meta` line of a Body (Codex takes the first as the session's own). */
export function findSessionMeta(lines: Lines): SessionMetaInfo | undefined {
  let i = -1;
  for (const { text } of lines) {
    i++;
    // Cheap pre-check: parsing every line of a long rollout to find the head is wasteful.
    if (!text.includes('"session_meta"')) continue;
    const info = readSessionMeta(text, i);
    if (info) return info;
  }
  return undefined;
}

const RESPONSE_KINDS = new Set([
  "reasoning",
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
]);

/**
 * The session's model: the `turn_context` model in effect at the first
 * model response (else the first `turn_context` model at all). A session
 * whose first response came before any turn_context has none.
 */
export function firstModel(lines: Lines): string | undefined {
  let current: string | undefined;
  let first: string | undefined;
  for (const line of lines) {
    const t = line.text;
    const context = t.includes('"turn_context"');
    if (!context && !t.includes('"response_item"')) continue;
    const env = readEnvelope(t);
    if (env?.type === "turn_context") {
      const model = nonEmptyString(env.payload.model);
      if (model) {
        current = model;
        first ??= model;
      }
    } else if (env?.type === "response_item") {
      const p = env.payload;
      const kind = typeof p.type === "string" ? p.type : "";
      if (RESPONSE_KINDS.has(kind) || (kind === "message" && p.role === "assistant"))
        return current;
    }
  }
  return first;
}

/** `{"timestamp":"…"` at the head of a line: Codex writes the envelope's time first. */
const LINE_TIME = /^\s*\{\s*"timestamp"\s*:\s*"([^"\\]{1,64})"/;

/** The time of the last line that carries one: when the session was last active. */
export function lastEventTime(lines: Lines): Timestamp | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const raw = LINE_TIME.exec(lines.text(i).slice(0, 160))?.[1];
    const t = raw === undefined ? undefined : normalizeTimestamp(raw);
    if (t !== undefined) return t;
  }
  return undefined;
}

/** Titles longer than this are cut (at a word) with an ellipsis. */
const TITLE_MAX = PROMPT_TITLE_MAX;

/** The user's first prompt, on one line: Codex's own title for a thread nobody named. */
export function firstPrompt(lines: Lines): string | undefined {
  for (const line of lines) {
    const t = line.text;
    if (!t.includes('"user_message"') && !t.includes('"role":"user"')) continue;
    const env = readEnvelope(t);
    if (env === undefined) continue;
    const p = env.payload;
    let text: string | undefined;
    if (env.type === "event_msg" && p.type === "user_message") text = nonEmptyString(p.message);
    else if (env.type === "response_item" && p.type === "message" && p.role === "user") {
      const parts = Array.isArray(p.content) ? p.content : [];
      text = parts
        .map((c) => (isJsonObject(c) && typeof c.text === "string" ? c.text : ""))
        .join(" ");
    }
    const oneLine = text === undefined ? undefined : oneLineTitle(text, TITLE_MAX);
    if (!oneLine || SCAFFOLDING_PREFIXES.some((prefix) => oneLine.startsWith(prefix))) continue;
    return oneLine;
  }
  return undefined;
}

/** Session metadata from the Body: session_meta fields and the first model. */
export function metaFromBody(lines: Lines, origin?: string): Meta {
  const info = findSessionMeta(lines);
  if (!info) {
    throw new ParseError(
      "codex",
      lines.length === 0
        ? "the rollout is empty"
        : "no session_meta line with an id: not a Codex rollout",
      { file: origin },
    );
  }
  const meta: Meta = { id: info.id, timestamp: info.timestamp ?? EPOCH };
  assignDefined(meta, "cwd", info.cwd);
  assignDefined(meta, "git_branch", info.git_branch);
  assignDefined(meta, "cli_version", info.cli_version);
  assignDefined(meta, "model", firstModel(lines));
  return meta;
}

function parseCodex(text: string, origin?: string): Transcript<CodexBody> {
  checkLineCount(text, "codex", origin);
  return parseCodexLines(splitLines(text), origin);
}

/** `parseCodex` of lines already split (a rollout's, over its bytes). */
export function parseCodexLines(lines: Lines, origin?: string): Transcript<CodexBody> {
  return { meta: metaFromBody(lines, origin), body: { lines } };
}

function renderCodex(transcript: Transcript<CodexBody>): string {
  return joinLines(transcript.body.lines);
}

/** The rollout line kinds, each `{"timestamp", "type", "payload"}`. */
const ROLLOUT_LINE =
  /"type"\s*:\s*"(?:session_meta|response_item|event_msg|turn_context|compacted)"/;

/** A zstd file is a compressed rollout (the store reads it); JSON Lines of rollout items the text form. */
function detectCodex(sample: Sample): Recognized | undefined {
  if (startsWithBytes(sample, ZSTD_MAGIC)) return "store-file";
  const line = firstLine(sample);
  return isJsonLines(sample) && ROLLOUT_LINE.test(line) && line.includes('"payload"')
    ? "text"
    : undefined;
}

export const codexText: TextCodec<CodexBody> = {
  parse: parseCodex,
  parseLines: parseCodexLines,
  render: renderCodex,
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectCodex,
};
