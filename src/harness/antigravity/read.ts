import type {
  Block,
  Json,
  JsonObject,
  Message,
  StopReason,
  ToolResultBlock,
  ToolUseBlock,
  Usage,
} from "../../common.js";
import { assignDefined } from "../../json.js";
import { decode, type ProtoMessage } from "../../protobuf.js";
import { nonEmpty } from "../../strings.js";
import type { Timestamp } from "../../time.js";
import type { Common, Transcript } from "../../transcript.js";
import type { AntigravityBody } from "./body.js";
import {
  type DecodedStep,
  decodeStep,
  genMetadataEnum,
  genMetadataModel,
  isBlank,
  modelName,
  parseBounded,
  stepCreatedAt,
  stepModelEnum,
  stepPayload,
  uriToPath,
  userInputText,
} from "./decode.js";
import { mergedMeta } from "./meta.js";
import {
  ActionResult,
  ActionResultEdit,
  ActionSpec,
  ActionSpecCommand,
  ActionSpecCreateFile,
  Any,
  BOOKKEEPING_STEP_TYPES,
  ChatToolCall,
  CommandOutput,
  CortexErrorDetails,
  CortexStepAgencyToolCall,
  CortexStepCodeAction,
  CortexStepErrorMessage,
  CortexStepFind,
  CortexStepGeneric,
  CortexStepGrepSearch,
  CortexStepListDirectory,
  CortexStepMcpTool,
  CortexStepMetadata,
  CortexStepPlannerResponse,
  CortexStepRunCommand,
  CortexStepUserInput,
  CortexStepViewFile,
  GenericResult,
  ImageData,
  IN_FLIGHT_STATUSES,
  ListDirectoryResult,
  Media,
  ModelUsageStats,
  StopReason as NativeStop,
  PathScope,
  STOP_PREFIX,
  Step,
  StepStatus,
  StepType,
  TOOL_RESPONSE_TYPE,
  ToolResponse,
} from "./schema.js";
import { nativeTool } from "./tools.js";

// ---------------------------------------------------------------------------
// toCommon

export function toCommon(transcript: Transcript<AntigravityBody>): Transcript<Common> {
  const body = transcript.body;
  const meta = mergedMeta(body, transcript.meta);
  const models = new Map<number, string>();
  // A Body read to be shown gives its rows one at a time (body.ts, `streams`).
  const { streams } = body;
  const byIdx = (a: { idx: number }, b: { idx: number }) => a.idx - b.idx;
  for (const row of streams?.gen_metadata ?? [...body.gen_metadata].sort(byIdx)) {
    const n = genMetadataEnum(row);
    const name = genMetadataModel(row);
    if (n !== undefined && name !== undefined) models.set(n, name);
  }
  const steps = streams?.steps ?? [...body.steps].sort(byIdx);
  const messages: Message[] = [];
  const answered = new Set<string>();
  // The open user message collecting consecutive tool results.
  let results: Message | undefined;
  const emit = (message: Message | undefined) => {
    if (message === undefined) return;
    messages.push(message);
    results = undefined;
  };
  for (const row of steps) {
    const d = decodeStep(row);
    switch (row.step_type) {
      case StepType.USER_INPUT:
        emit(userMessage(d, meta.timestamp));
        continue;
      case StepType.PLANNER_RESPONSE:
        emit(plannerMessage(d, meta.timestamp, models));
        continue;
    }
    if (BOOKKEEPING_STEP_TYPES.has(row.step_type)) continue;
    const result = toolResult(d);
    if (result === undefined) {
      if (row.step_type === StepType.ERROR_MESSAGE) emit(errorMessage(d, meta.timestamp));
      continue;
    }
    // A call answered twice (a replayed step) keeps its first result.
    if (answered.has(result.tool_use_id)) continue;
    answered.add(result.tool_use_id);
    if (results === undefined) {
      results = { role: "user", content: [result], timestamp: createdAt(d, meta.timestamp) };
      messages.push(results);
    } else {
      results.content.push(result);
    }
  }
  return { meta, body: messages };
}

/** A step's created-at, else the session's. Formatted only for steps that start a message. */
function createdAt(d: DecodedStep, fallback: Timestamp): Timestamp {
  return stepCreatedAt(d.meta) ?? fallback;
}

function userMessage(d: DecodedStep, fallback: Timestamp): Message | undefined {
  const input = stepPayload(d);
  const content: Block[] = [];
  const text = userInputText(input);
  if (text !== undefined) content.push({ type: "text", text });
  let n = 0;
  for (const image of input.messages(CortexStepUserInput.images)) {
    n++;
    const data = image.string(ImageData.base64_data);
    const mime = nonEmpty(image.string(ImageData.mime_type)) ?? "image/png";
    if (data !== undefined && data !== "") {
      content.push({ type: "image", source: { type: "base64", media_type: mime, data } });
      continue;
    }
    const uri = nonEmpty(image.string(ImageData.uri));
    if (uri !== undefined) content.push(pathArtifact(d, n, uri, mime));
  }
  for (const media of input.messages(CortexStepUserInput.media)) {
    n++;
    const mime = nonEmpty(media.string(Media.mime_type)) ?? "application/octet-stream";
    const bytes = media.bytesOf(Media.payload);
    const uri = nonEmpty(media.string(Media.uri));
    if (bytes !== undefined && bytes.length > 0) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
      if (mime.startsWith("image/")) {
        content.push({ type: "image", source: { type: "base64", media_type: mime, data } });
      } else {
        content.push({
          type: "artifact",
          artifact: {
            id: `media-${d.row.idx}-${n}`,
            name: uri === undefined ? `media-${n}` : basename(uriToPath(uri)),
            source: { type: "base64", data, media_type: mime },
          },
        });
      }
    } else if (uri !== undefined) {
      content.push(pathArtifact(d, n, uri, mime));
    }
  }
  if (content.length === 0) return undefined;
  return { role: "user", content, timestamp: createdAt(d, fallback) };
}

function pathArtifact(d: DecodedStep, n: number, uri: string, mime: string): Block {
  const path = uriToPath(uri);
  return {
    type: "artifact",
    artifact: {
      id: `media-${d.row.idx}-${n}`,
      name: basename(path),
      source: { type: "path", path, media_type: mime },
    },
  };
}

function basename(path: string): string {
  const parts = path.split(/[/\\]/);
  return parts[parts.length - 1] || path;
}

function plannerMessage(
  d: DecodedStep,
  fallback: Timestamp,
  models: ReadonlyMap<number, string>,
): Message | undefined {
  const planner = stepPayload(d);
  const content: Block[] = [];
  const thinking =
    nonBlank(planner.string(CortexStepPlannerResponse.thinking)) ??
    nonBlank(planner.string(CortexStepPlannerResponse.raw_thinking));
  if (thinking !== undefined) {
    const block: Block = { type: "thinking", text: thinking };
    const signature = nonEmpty(planner.string(CortexStepPlannerResponse.thinking_signature));
    assignDefined(block, "signature", signature);
    content.push(block);
  }
  const text =
    nonBlank(planner.string(CortexStepPlannerResponse.response)) ??
    nonBlank(planner.string(CortexStepPlannerResponse.modified_response));
  if (text !== undefined) content.push({ type: "text", text });
  let n = 0;
  for (const call of planner.messages(CortexStepPlannerResponse.tool_calls)) {
    content.push(toolUse(call, d.row.idx, n++));
  }
  if (content.length === 0) return undefined;

  const message: Message = { role: "assistant", content, timestamp: createdAt(d, fallback) };
  const model = stepModelEnum(d.meta);
  if (model !== undefined) message.model = models.get(model) ?? modelName(model);
  const stop = planner.uint(CortexStepPlannerResponse.stop_reason);
  if (stop !== undefined) message.stop_reason = stopFromNative(stop);
  const usage = readUsage(d.meta.message(CortexStepMetadata.model_usage));
  assignDefined(message, "usage", usage);
  return message;
}

function readUsage(stats: ProtoMessage | undefined): Usage | undefined {
  if (stats === undefined) return undefined;
  const input = stats.uint(ModelUsageStats.input_tokens) ?? 0;
  const output = stats.uint(ModelUsageStats.output_tokens) ?? 0;
  if (input === 0 && output === 0) return undefined;
  const usage: Usage = { input_tokens: input, output_tokens: output };
  const read = stats.uint(ModelUsageStats.cache_read_tokens) ?? 0;
  if (read > 0) usage.cache_read_input_tokens = read;
  const write = stats.uint(ModelUsageStats.cache_write_tokens) ?? 0;
  if (write > 0) usage.cache_creation_input_tokens = write;
  return usage;
}

const STOP_FROM_NATIVE = new Map<number, StopReason>([
  [NativeStop.END_TURN, "end_turn"],
  [NativeStop.MAX_TOKENS, "max_tokens"],
  [NativeStop.TOOL_USE, "tool_use"],
  [NativeStop.ERROR, "error"],
  [NativeStop.ABORTED, "aborted"],
]);

function stopFromNative(n: number): StopReason {
  return STOP_FROM_NATIVE.get(n) ?? { other: `${STOP_PREFIX}${n}` };
}

export function stopToNative(reason: StopReason): number | undefined {
  if (typeof reason !== "string") {
    const m = new RegExp(`^${STOP_PREFIX}(\\d{1,15})$`).exec(reason.other);
    return m ? Number(m[1]) : undefined;
  }
  switch (reason) {
    case "end_turn":
    case "stop_sequence": // agy has no separate value: it ends the turn
      return NativeStop.END_TURN;
    case "max_tokens":
      return NativeStop.MAX_TOKENS;
    case "tool_use":
      return NativeStop.TOOL_USE;
    case "error":
      return NativeStop.ERROR;
    case "aborted":
      return NativeStop.ABORTED;
    default:
      return reason satisfies never;
  }
}

/** A `ChatToolCall` as a tool_use block. */
function toolUse(call: ProtoMessage, idx: number, n: number): ToolUseBlock {
  const id = nonEmpty(call.string(ChatToolCall.id)) ?? `call-${idx}-${n}`;
  const name =
    nonEmpty(call.string(ChatToolCall.name)) ??
    nonEmpty(call.string(ChatToolCall.original_name)) ??
    "unknown";
  return { type: "tool_use", id, tool: nativeTool(name, readArguments(call)) };
}

/** `arguments_json`: parsed when it is JSON, else kept as the original string. */
function readArguments(call: ProtoMessage): Json {
  const text = call.string(ChatToolCall.arguments_json);
  if (text === undefined) return {};
  const parsed = parseBounded(text);
  return parsed === undefined ? text : parsed.value;
}

/** The tool call a step executes, with its settled result; undefined while in flight. */
export function toolResult(d: DecodedStep): ToolResultBlock | undefined {
  const call = d.meta.message(CortexStepMetadata.tool_call);
  if (call === undefined) return undefined;
  const id = nonEmpty(call.string(ChatToolCall.id));
  if (id === undefined) return undefined;
  const status = d.row.status;
  if (IN_FLIGHT_STATUSES.has(status)) return undefined;
  const out = resultContent(d, nonEmpty(call.string(ChatToolCall.name)));
  const errorText = errorDetailsText(d);
  const block: ToolResultBlock = {
    type: "tool_result",
    tool_use_id: id,
    content: errorText ?? out.content,
  };
  if (
    out.error ||
    errorText !== undefined ||
    status === StepStatus.ERROR ||
    status === StepStatus.CANCELED ||
    status === StepStatus.INTERRUPTED
  ) {
    block.is_error = true;
  }
  return block;
}

/** An ERROR_MESSAGE step that answers no call: the turn that failed, as an assistant message. */
function errorMessage(d: DecodedStep, fallback: Timestamp): Message | undefined {
  const text = detailsText(stepPayload(d).message(CortexStepErrorMessage.error));
  if (text === undefined) return undefined;
  const timestamp = createdAt(d, fallback);
  return { role: "assistant", content: [{ type: "text", text }], timestamp, stop_reason: "error" };
}

/** `CortexErrorDetails` text: the model-facing message, then full, short, user-facing. */
function detailsText(details: ProtoMessage | undefined): string | undefined {
  if (details === undefined) return undefined;
  for (const no of [
    CortexErrorDetails.model_error_message,
    CortexErrorDetails.full_error,
    CortexErrorDetails.short_error,
    CortexErrorDetails.user_error_message,
  ]) {
    const text = nonBlank(details.string(no));
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The step's error details: the `error_details` column, else Step field 31. */
function errorDetailsText(d: DecodedStep): string | undefined {
  const column = d.row.error_details;
  const bytes = column !== null && column.length > 0 ? column : d.step.bytesOf(Step.error);
  return bytes === undefined ? undefined : detailsText(decode(bytes));
}

interface Output {
  content: Json;
  error: boolean;
}

/** 1.2.0 puts a command's exit status in the GENERIC result text (sample: tools session). */
const EXIT_LINE = /^\s*The command exited with code (-?\d+)\./;

/** The result a tool step carries, by step kind. */
function resultContent(d: DecodedStep, callName: string | undefined): Output {
  const p = stepPayload(d);
  switch (d.row.step_type) {
    case StepType.VIEW_FILE:
      return ok(
        firstNonEmpty(
          p.string(CortexStepViewFile.content),
          p.string(CortexStepViewFile.raw_content),
        ),
      );
    case StepType.RUN_COMMAND: {
      const combined = p.message(CortexStepRunCommand.combined_output);
      const text = firstNonEmpty(
        combined?.string(CommandOutput.full),
        combined?.string(CommandOutput.truncated),
        p.message(CortexStepRunCommand.stdout)?.string(CommandOutput.full),
        p.string(CortexStepRunCommand.output),
      );
      return { content: text, error: (p.int32(CortexStepRunCommand.exit_code) ?? 0) !== 0 };
    }
    case StepType.LIST_DIRECTORY: {
      const entries: Json[] = p.messages(CortexStepListDirectory.results).map((e) => {
        const entry: JsonObject = { name: e.string(ListDirectoryResult.name) ?? "" };
        if (e.uint(ListDirectoryResult.is_dir) === 1) entry.is_dir = true;
        const size = e.uint(ListDirectoryResult.size_bytes);
        assignDefined(entry, "size_bytes", size);
        return entry;
      });
      const dir = p.string(CortexStepListDirectory.directory_uri);
      return ok({ path: dir === undefined ? "" : uriToPath(dir), entries });
    }
    case StepType.GREP_SEARCH: {
      const error = nonBlank(p.string(CortexStepGrepSearch.grep_error));
      if (error !== undefined) return { content: error, error: true };
      return ok(p.string(CortexStepGrepSearch.raw_output) ?? "");
    }
    case StepType.FIND: {
      const error = nonBlank(p.string(CortexStepFind.error));
      if (error !== undefined) return { content: error, error: true };
      return ok(p.string(CortexStepFind.raw_output) ?? "");
    }
    case StepType.CODE_ACTION: {
      const spec = p.message(CortexStepCodeAction.action_spec);
      const create = spec?.message(ActionSpec.create_file);
      const edited = p
        .message(CortexStepCodeAction.action_result)
        ?.message(ActionResult.edit)
        ?.string(ActionResultEdit.absolute_uri);
      const specUri =
        create?.message(ActionSpecCreateFile.path)?.string(PathScope.absolute_uri) ??
        spec
          ?.message(ActionSpec.command)
          ?.message(ActionSpecCommand.file)
          ?.string(PathScope.absolute_uri);
      const file = uriToPath(nonEmpty(edited) ?? specUri ?? "");
      return ok(create !== undefined ? { file, created: true } : { file, edited: true });
    }
    case StepType.MCP_TOOL:
      return ok(p.string(CortexStepMcpTool.result_string) ?? "");
    case StepType.GENERIC: {
      const text = p.message(CortexStepGeneric.result)?.string(GenericResult.result) ?? "";
      const exit = callName === "run_command" ? EXIT_LINE.exec(text) : null;
      return { content: jsonOrText(text), error: exit !== null && Number(exit[1]) !== 0 };
    }
    case StepType.AGENCY_TOOL_CALL: {
      const texts: string[] = [];
      for (const any of p.messages(CortexStepAgencyToolCall.responses)) {
        if (!(any.string(Any.type_url) ?? "").endsWith(TOOL_RESPONSE_TYPE)) continue;
        texts.push(decode(any.bytesOf(Any.value)).string(ToolResponse.result_json) ?? "");
      }
      const [only] = texts;
      if (texts.length === 1 && only !== undefined) return ok(jsonOrText(only));
      return ok(texts.length === 0 ? "" : texts.map(jsonOrText));
    }
    case StepType.ERROR_MESSAGE:
      return {
        content: detailsText(p.message(CortexStepErrorMessage.error)) ?? "",
        error: true,
      };
    default:
      // A kind this version does not model: the call keeps an (empty) result.
      return ok("");
  }
}

const ok = (content: Json): Output => ({ content, error: false });

/** Result text that is a JSON object or array comes back as JSON; anything else is text. */
function jsonOrText(text: string): Json {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  const value = parseBounded(text)?.value;
  return typeof value === "object" && value !== null ? value : text;
}

function firstNonEmpty(...texts: (string | undefined)[]): string {
  for (const t of texts) if (t !== undefined && t !== "") return t;
  return "";
}

function nonBlank(text: string | undefined): string | undefined {
  return isBlank(text) ? undefined : text;
}
