/**
 * The OpenCode codec: database rows (the Body) <-> Common. Pure: no I/O,
 * no clock, no randomness.
 *
 * Reading (toCommon): messages in OpenCode's order; a user message's text
 * and file parts make one user message; an assistant message (one model
 * step) is cut after each run of tool parts, because OpenCode keeps a call
 * and its result in one `tool` part: the calls end an assistant message and
 * their results (from each part's `state`) follow as a user message.
 * Completed state -> result; `error` -> error result; `pending`/`running`
 * (a call that never finished) -> the error result OpenCode itself replays,
 * "[Tool execution was interrupted]". Usage, model and stop reason ride on
 * the last piece of the step. Bookkeeping parts (step-start/finish,
 * snapshot, patch, agent, subtask, retry, compaction) carry nothing.
 *
 * Writing (fromCommon): each Common message becomes one OpenCode message,
 * results fold into the tool part of their call. Ids are OpenCode-shaped
 * and ascend as OpenCode's do (ids.ts). See docs/formats/opencode.md.
 */

import type {
  Artifact,
  Block,
  ImageSource,
  Json,
  JsonObject,
  Message,
  Meta,
  StopReason,
  ToolResultBlock,
  Usage,
} from "../../../common.js";
import { assignDefined, defined } from "../../../json.js";
import { nonEmpty } from "../../../strings.js";
import { type Timestamp, timestampFromMillis, timestampMillis } from "../../../time.js";
import type { Codec, Common, Transcript } from "../../../transcript.js";
import { obj, str } from "../fields.js";
import { resultText } from "../results.js";
import {
  GLOBAL_PROJECT,
  num,
  type OpenCodeBody,
  type OpenCodeMessage,
  partKind,
  type Row,
  readData,
  text,
} from "./body.js";
import type { OpenCodeFlavor } from "./flavor.js";
import { AscendingIds, isOpenCodeId, sessionId, sessionKeys } from "./ids.js";
import { firstModel, metaFromSession, promptOf } from "./text.js";
import { toolFromNative, toolToNative } from "./tools.js";

/** What OpenCode replays for a call that never finished (message-v2 `toModelMessages`). */
const INTERRUPTED = "[Tool execution was interrupted]";

/** The key under a tool state's `metadata` where txcript keeps a non-text result verbatim. */
const RESULT_KEY = "txcript";

// ---------------------------------------------------------------------------
// Reading

function millis(v: Json | undefined): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 8.64e15 ? v : undefined;
}
function count(v: Json | undefined): number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : 0;
}
function at(ms: number | undefined, fallback: Timestamp): Timestamp {
  return ms === undefined ? fallback : timestampFromMillis(Math.trunc(ms));
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;

function fileBlock(part: JsonObject, partId: string): Block {
  // partKind has checked that a file part's url is a string.
  const url = str(part, "url") ?? "";
  const mime = str(part, "mime") ?? "";
  const m = DATA_URL.exec(url);
  const base64 = m !== null && (m[2] ?? "").split(";").includes("base64");
  const payload = m === null ? url : url.slice(m[0].length);
  const media = mime || m?.[1] || "application/octet-stream";
  if (media.startsWith("image/")) {
    const source: ImageSource = base64
      ? { type: "base64", media_type: media, data: payload }
      : { type: "url", media_type: media, data: url };
    return { type: "image", source };
  }
  const name = nonEmpty(str(part, "filename")) ?? "file";
  let artifact: Artifact;
  if (base64) {
    artifact = {
      id: partId,
      name,
      source: {
        type: "base64",
        data: payload,
        media_type: media,
      },
    };
  } else if (url.startsWith("file://")) {
    let path = url.slice("file://".length);
    try {
      path = decodeURIComponent(path);
    } catch {
      // Keep the raw text of a badly escaped URL.
    }
    artifact = { id: partId, name, source: { type: "path", path, media_type: media } };
  } else {
    artifact = { id: partId, name, source: { type: "text", text: url, media_type: media } };
  }
  return { type: "artifact", artifact };
}

function blockOf(part: JsonObject, partId: string): Block | undefined {
  switch (part.type) {
    case "text":
      return { type: "text", text: str(part, "text") ?? "" };
    case "reasoning": {
      const b: Block = { type: "thinking", text: str(part, "text") ?? "" };
      // Anthropic's signature, as the AI SDK keeps it in the provider metadata.
      const signature = str(obj(obj(part.metadata)?.anthropic), "signature");
      if (signature !== undefined && signature !== "") b.signature = signature;
      return b;
    }
    case "file":
      return fileBlock(part, partId);
    default:
      return undefined;
  }
}

/** A tool part's result, with when it arrived. */
function resultOf(
  part: JsonObject,
  callId: string,
  fallback: Timestamp,
): { block: ToolResultBlock; at: Timestamp } {
  const state = obj(part.state);
  const time = obj(state?.time);
  const when = at(millis(time?.end) ?? millis(time?.start), fallback);
  const kept = obj(obj(state?.metadata)?.[RESULT_KEY])?.content;
  const content = (value: Json | undefined): Json => {
    const shown =
      typeof value === "string"
        ? value
        : value === undefined || value === null
          ? ""
          : resultText(value);
    // txcript's verbatim copy of a structured result, unless the text was changed since.
    return kept !== undefined && resultText(kept) === shown ? kept : shown;
  };
  switch (state?.status) {
    case "completed": {
      const block: ToolResultBlock = {
        type: "tool_result",
        tool_use_id: callId,
        content: content(state.output),
      };
      // OpenCode completes a shell call whatever its exit status; a failed command is an error.
      const exit = obj(state.metadata)?.exit;
      if (part.tool === "bash" && typeof exit === "number" && exit !== 0) block.is_error = true;
      return { block, at: when };
    }
    case "error":
      return {
        block: {
          type: "tool_result",
          tool_use_id: callId,
          content: content(state.error),
          is_error: true,
        },
        at: when,
      };
    default:
      return {
        block: { type: "tool_result", tool_use_id: callId, content: INTERRUPTED, is_error: true },
        at: when,
      };
  }
}

/** AI SDK finish reasons (plus txcript's "aborted") as Common stop reasons; others stay `other`. */
const FINISH = new Map<string, StopReason>([
  ["stop", "end_turn"],
  ["tool-calls", "tool_use"],
  ["length", "max_tokens"],
  ["error", "error"],
  ["aborted", "aborted"],
]);

function stopReasonOf(info: JsonObject): StopReason | undefined {
  const finish = str(info, "finish");
  if (finish !== undefined && finish !== "") return FINISH.get(finish) ?? { other: finish };
  const error = obj(info.error);
  if (error === undefined) return undefined;
  return str(error, "name") === "MessageAbortedError" ? "aborted" : "error";
}

function usageOf(info: JsonObject): Usage | undefined {
  const tokens = obj(info.tokens);
  if (tokens === undefined) return undefined;
  const cache = obj(tokens.cache);
  const input = count(tokens.input);
  // Common has no reasoning counter: reasoning is output, as Anthropic counts it.
  const output = count(tokens.output) + count(tokens.reasoning);
  const read = count(cache?.read);
  const write = count(cache?.write);
  if (input + output + read + write === 0) return undefined;
  const usage: Usage = { input_tokens: input, output_tokens: output };
  if (read > 0) usage.cache_read_input_tokens = read;
  if (write > 0) usage.cache_creation_input_tokens = write;
  return usage;
}

function startOf(part: JsonObject): number | undefined {
  return millis(obj(part.time)?.start) ?? millis(obj(obj(part.state)?.time)?.start);
}

function readMessage(message: OpenCodeMessage, sessionStart: Timestamp, out: Message[]): void {
  const info = readData(message.row);
  const role = str(info, "role");
  if (info === undefined || (role !== "user" && role !== "assistant")) return;
  const created = at(
    millis(obj(info.time)?.created) ?? num(message.row, "time_created"),
    sessionStart,
  );
  const parts = message.parts.map((row) => ({ id: text(row, "id") ?? "", data: readData(row) }));
  if (role === "user") {
    const content: Block[] = [];
    for (const p of parts) {
      if (p.data === undefined || partKind(p.data) !== "block") continue;
      const b = blockOf(p.data, p.id);
      if (b !== undefined) content.push(b);
    }
    if (content.length > 0) out.push({ role: "user", content, timestamp: created });
    return;
  }
  const model = nonEmpty(str(info, "modelID"));
  const pieces: Message[] = [];
  let cur: Block[] = [];
  let curAt = created;
  let results: ToolResultBlock[] = [];
  let resultsAt = created;
  const flush = () => {
    if (cur.length > 0) {
      const m: Message = { role: "assistant", content: cur, timestamp: curAt };
      assignDefined(m, "model", model);
      pieces.push(m);
    }
    if (results.length > 0) pieces.push({ role: "user", content: results, timestamp: resultsAt });
    cur = [];
    results = [];
  };
  for (const p of parts) {
    const data = p.data;
    const kind = partKind(data);
    if (kind === "skip" || data === undefined) continue;
    if (kind === "block" && results.length > 0) {
      flush();
      curAt = at(startOf(data), resultsAt);
    }
    if (kind === "block") {
      const b = blockOf(data, p.id);
      if (b !== undefined) cur.push(b);
      continue;
    }
    const callId = nonEmpty(str(data, "callID")) ?? p.id;
    const input = obj(obj(data.state)?.input) ?? {};
    const name = nonEmpty(str(data, "tool")) ?? "unknown";
    cur.push({ type: "tool_use", id: callId, tool: toolFromNative(name, input) });
    const r = resultOf(data, callId, curAt);
    if (results.length === 0) resultsAt = r.at;
    results.push(r.block);
  }
  flush();
  // Usage and the stop reason belong to the step: its last assistant piece.
  const last = pieces.filter((m) => m.role === "assistant").at(-1);
  if (last !== undefined) {
    const stop = stopReasonOf(info);
    assignDefined(last, "stop_reason", stop);
    const usage = usageOf(info);
    assignDefined(last, "usage", usage);
  }
  out.push(...pieces);
}

function openCodeToCommon(transcript: Transcript<OpenCodeBody>): Transcript<Common> {
  const meta = metaFromSession(
    transcript.body.session,
    firstModel(transcript.body),
    promptOf(transcript.body),
  );
  const body: Message[] = [];
  for (const message of transcript.body.messages) readMessage(message, meta.timestamp, body);
  return { meta, body };
}

// ---------------------------------------------------------------------------
// Writing

/**
 * The provider txcript names on the messages it writes. OpenCode resumes
 * with the model of the session's last message when that provider is
 * configured, and fails when it is not ("ProviderModelNotFoundError", seen
 * with 1.18.33 and `anthropic`): a provider nobody configures makes it fall
 * back to the user's default model, and the model's name is still kept.
 */
const WRITER_PROVIDER = "txcript";

const FINISH_OUT = new Map<string, string>([
  ["end_turn", "stop"],
  ["tool_use", "tool-calls"],
  ["max_tokens", "length"],
  ["stop_sequence", "stop"],
  ["aborted", "aborted"],
  ["error", "error"],
]);

function finishOf(reason: StopReason): string {
  return typeof reason === "string" ? (FINISH_OUT.get(reason) ?? reason) : reason.other;
}

function dataUrl(media: string, data: string): string {
  return `data:${media};base64,${data}`;
}

function filePart(b: Block): JsonObject | undefined {
  if (b.type === "image") {
    const s = b.source;
    const url = s.type === "base64" ? dataUrl(s.media_type, s.data) : s.data;
    return { type: "file", mime: s.media_type || "image/png", url };
  }
  if (b.type === "artifact") {
    const s = b.artifact.source;
    const mime = s.media_type ?? "application/octet-stream";
    const url =
      s.type === "base64"
        ? dataUrl(mime, s.data)
        : s.type === "text"
          ? dataUrl(mime, Buffer.from(s.text, "utf8").toString("base64"))
          : `file://${encodeURI(s.path)}`;
    return { type: "file", mime, filename: b.artifact.name, url };
  }
  return undefined;
}

interface Pending {
  data: JsonObject;
  input: JsonObject;
  start: number;
  answered: boolean;
}

/** An object with keys, else undefined. */
function some(o: JsonObject): JsonObject | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}

/**
 * A call's state once answered. A shell command is `completed` whatever its
 * exit, as OpenCode 1.18.33 records it: the output also under
 * `metadata.output`, the exit status under `metadata.exit` (a failed one as 1:
 * Common keeps no exit code) and the command as the title. Any other failed
 * call is `error`, as OpenCode records a tool that throws.
 */
function fold(call: Pending, r: ToolResultBlock, ms: number): void {
  call.answered = true;
  const shown = typeof r.content === "string" ? r.content : resultText(r.content);
  const time = { start: call.start, end: ms };
  const shell = call.data.tool === "bash";
  // A structured result is kept verbatim beside its text, for the way back.
  const kept: JsonObject =
    typeof r.content === "string" ? {} : { [RESULT_KEY]: { content: r.content } };
  const command = call.input.command;
  call.data.state =
    r.is_error && !shell
      ? {
          status: "error",
          input: call.input,
          error: shown,
          time,
          ...defined({ metadata: some(kept) }),
        }
      : {
          status: "completed",
          input: call.input,
          output: shown,
          title: shell && typeof command === "string" ? command : "",
          metadata: shell
            ? { output: shown, exit: r.is_error ? 1 : 0, truncated: false, ...kept }
            : kept,
          time,
        };
}

/** `New session - <ISO>`: OpenCode's own default title, read back as none. */
function defaultTitle(ms: number): string {
  return `New session - ${new Date(ms).toISOString()}`;
}

function familyFromCommon(agent: string, transcript: Transcript<Common>): Transcript<OpenCodeBody> {
  const { meta } = transcript;
  const start = timestampMillis(meta.timestamp);
  const id = openCodeSessionId(meta);
  const ids = new AscendingIds([id]);
  const cwd = meta.cwd ?? "";
  const calls = new Map<string, Pending>();
  const built: { row: Row; info: JsonObject; parts: { row: Row; data: JsonObject }[] }[] = [];
  let lastUser: string | undefined;
  let rowTime = start;
  const totals = { input: 0, output: 0, read: 0, write: 0 };

  transcript.body.forEach((m, i) => {
    const ms = timestampMillis(m.timestamp);
    const parts: JsonObject[] = [];
    for (const b of m.content) {
      if (b.type === "tool_result") {
        const call = calls.get(b.tool_use_id);
        // A result with no call before it (or a second one) has nowhere to go.
        if (m.role === "user" && call !== undefined && !call.answered) fold(call, b, ms);
        continue;
      }
      if (b.type === "text") {
        if (b.text === "") continue;
        const p: JsonObject = { type: "text", text: b.text };
        if (m.role === "assistant") p.time = { start: ms, end: ms };
        parts.push(p);
      } else if (b.type === "thinking") {
        // Foreign reasoning goes as plain reasoning: no provider metadata, no signature.
        if (m.role === "assistant" && b.text !== "") {
          parts.push({ type: "reasoning", text: b.text, time: { start: ms, end: ms } });
        }
      } else if (b.type === "tool_use") {
        if (b.tool.name === "Command" || m.role === "user") {
          if (b.tool.name === "Command") {
            const args = b.tool.args === undefined || b.tool.args === "" ? "" : ` ${b.tool.args}`;
            parts.push({ type: "text", text: `${b.tool.command}${args}` });
          }
          continue;
        }
        const native = toolToNative(b.tool);
        const data: JsonObject = {
          type: "tool",
          tool: native.name,
          callID: b.id,
          state: {
            status: "error",
            input: native.input,
            error: INTERRUPTED,
            time: { start: ms, end: ms },
          },
        };
        if (!calls.has(b.id))
          calls.set(b.id, { data, input: native.input, start: ms, answered: false });
        parts.push(data);
      } else {
        const p = filePart(b);
        if (p !== undefined) parts.push(p);
      }
    }
    if (parts.length === 0) return;
    // Row times strictly grow, so OpenCode's ORDER BY time_created, id is
    // the session's order whatever the timestamps do; each message's own
    // time stays in its data.
    rowTime = built.length === 0 ? Math.max(rowTime, ms) : Math.max(ms, rowTime + 1);
    const base = ids.reserve(ms, 1 + parts.length);
    const messageId = ids.id("msg", base, i);
    const model = m.model ?? meta.model;
    let info: JsonObject;
    if (m.role === "user") {
      lastUser = messageId;
      // No `model`: OpenCode resumes with the last user message's model, and
      // fails when its provider is not configured; without one it takes the
      // user's default (observed with 1.18.33).
      info = { role: "user", time: { created: ms }, agent };
    } else {
      const u = m.usage;
      const tokens = {
        input: u?.input_tokens ?? 0,
        output: u?.output_tokens ?? 0,
        reasoning: 0,
        cache: {
          read: u?.cache_read_input_tokens ?? 0,
          write: u?.cache_creation_input_tokens ?? 0,
        },
      };
      totals.input += tokens.input;
      totals.output += tokens.output;
      totals.read += tokens.cache.read;
      totals.write += tokens.cache.write;
      info = {
        parentID: lastUser ?? "",
        role: "assistant",
        mode: agent,
        agent,
        path: { cwd, root: cwd },
        cost: 0,
        tokens,
        modelID: model ?? "",
        providerID: WRITER_PROVIDER,
        time: { created: ms, completed: ms },
      };
      if (m.stop_reason !== undefined) info.finish = finishOf(m.stop_reason);
    }
    const row: Row = {
      id: messageId,
      session_id: id,
      time_created: rowTime,
      time_updated: ms,
      data: "",
    };
    built.push({
      row,
      info,
      parts: parts.map((data, j) => ({
        row: {
          id: ids.id("prt", base + 1n + BigInt(j), `${i}.${j}`),
          message_id: messageId,
          session_id: id,
          time_created: rowTime,
          time_updated: ms,
          data: "",
        },
        data,
      })),
    });
  });

  const messages: OpenCodeMessage[] = built.map((b) => {
    b.row.data = JSON.stringify(b.info);
    return {
      row: b.row,
      parts: b.parts.map((p) => {
        p.row.data = JSON.stringify(p.data);
        return p.row;
      }),
    };
  });
  const last = transcript.body.at(-1);
  const updated = Math.max(start, last === undefined ? start : timestampMillis(last.timestamp));
  const session: Row = {
    id,
    project_id: GLOBAL_PROJECT,
    parent_id: null,
    slug: `txcript-${id.slice(-8).toLowerCase()}`,
    directory: cwd,
    path: "",
    title: meta.title ?? defaultTitle(start),
    version: meta.cli_version ?? "",
    share_url: null,
    cost: 0,
    tokens_input: totals.input,
    tokens_output: totals.output,
    tokens_reasoning: 0,
    tokens_cache_read: totals.read,
    tokens_cache_write: totals.write,
    agent,
    // No session model either: 1.18.33 resumes with it and fails on an
    // unconfigured provider. The model stays on the assistant messages.
    model: null,
    time_created: start,
    time_updated: updated,
    time_compacting: null,
    time_archived: null,
  };
  return { meta: { ...meta, id }, body: { session, messages } };
}

/** The id a session gets in OpenCode: its own when it is OpenCode-shaped, else one derived from it. */
export function openCodeSessionId(meta: Meta): string {
  return isOpenCodeId(meta.id, "ses")
    ? meta.id
    : sessionId(timestampMillis(meta.timestamp), sessionKeys(meta.id));
}

/** The codec of a member of the family: its rows are OpenCode's, its sessions name its own agent. */
export function familyCodec(flavor: Pick<OpenCodeFlavor, "agent">): Codec<OpenCodeBody> {
  return {
    toCommon: openCodeToCommon,
    fromCommon: (transcript) => familyFromCommon(flavor.agent, transcript),
  };
}
