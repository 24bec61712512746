/**
 * Every protobuf field number and enum value the Antigravity codec uses,
 * named after agy's own messages and fields, each with its provenance:
 *
 * - `seed`: the seed document (`seed/antigravity.md`, agy 1.0.16 descriptors);
 * - `wire §X`: the field reference (`spec/antigravity-wire.md`), section X;
 * - `sample`: the agy 1.2.0 brain mirrors in test/fixtures/agy-samples.
 *
 * Nothing here is guessed: a number the references do not give is not used,
 * and its bytes are kept verbatim in the Body. `SCHEMA` lists every entry
 * for the format documentation and its tests.
 */

type Fields = Record<string, readonly [no: number, provenance: string]>;
type Numbers<T extends Fields> = { readonly [K in keyof T]: T[K][0] };

export interface SchemaEntry {
  message: string;
  field: string;
  no: number;
  provenance: string;
}

/** Every named number, in declaration order. */
export const SCHEMA: SchemaEntry[] = [];

function message<T extends Fields>(name: string, fields: T): Numbers<T> {
  const out: Record<string, number> = {};
  for (const [field, [no, provenance]] of Object.entries(fields)) {
    out[field] = no;
    SCHEMA.push({ message: name, field, no, provenance });
  }
  // cast: the loop gave every field of T its number, which is what Numbers<T> says.
  return Object.freeze(out) as Numbers<T>;
}

const SEED = "seed";
const W_STEP = "wire §gemini_coder.Step";
const W_META = "wire §CortexStepMetadata";
const W_PAYLOAD = "wire §Payload messages";
const W_MORE = "wire §More kinds and enums";
const W_TRAJ = "wire §CortexTrajectoryMetadata";

// ---------------------------------------------------------------------------
// gemini_coder.Step (steps.step_payload)

export const Step = message("gemini_coder.Step", {
  step_type: [1, `${SEED}; ${W_STEP}`],
  status: [4, `${SEED}; ${W_STEP}`],
  metadata: [5, `${SEED}; ${W_STEP}`],
  code_action: [10, W_STEP],
  grep_search: [13, W_STEP],
  view_file: [14, W_STEP],
  list_directory: [15, W_STEP],
  user_input: [19, `${SEED} (real step); ${W_STEP}`],
  planner_response: [20, W_STEP],
  error_message: [24, W_MORE],
  run_command: [28, W_STEP],
  checkpoint: [30, W_STEP],
  error: [31, W_MORE],
  find: [34, W_MORE],
  mcp_tool: [47, W_STEP],
  task_boundary: [93, W_STEP],
  ephemeral_message: [103, W_STEP],
  conversation_history: [111, W_STEP],
  system_message: [114, W_STEP],
  agency_tool_call: [116, W_MORE],
  generic: [140, W_STEP],
  task_details: [148, W_MORE],
});

/** `CortexStepType` values the codec distinguishes (the `step_type` column and Step.1). */
export const StepType = message("CortexStepType", {
  CODE_ACTION: [5, W_STEP],
  GREP_SEARCH: [7, W_STEP],
  VIEW_FILE: [8, W_STEP],
  LIST_DIRECTORY: [9, W_STEP],
  USER_INPUT: [14, `${SEED}; ${W_STEP}`],
  PLANNER_RESPONSE: [15, W_STEP],
  ERROR_MESSAGE: [17, W_MORE],
  RUN_COMMAND: [21, W_STEP],
  CHECKPOINT: [23, W_STEP],
  FIND: [25, W_MORE],
  MCP_TOOL: [38, W_STEP],
  TASK_BOUNDARY: [81, W_STEP],
  EPHEMERAL_MESSAGE: [90, W_STEP],
  CONVERSATION_HISTORY: [98, W_STEP],
  SYSTEM_MESSAGE: [101, W_STEP],
  AGENCY_TOOL_CALL: [103, W_MORE],
  GENERIC: [132, `${W_STEP}; sample (every 1.2.0 tool step)`],
});

/** The Step field holding each step type's payload message. */
export const PAYLOAD_FIELD: ReadonlyMap<number, number> = new Map([
  [StepType.CODE_ACTION, Step.code_action],
  [StepType.GREP_SEARCH, Step.grep_search],
  [StepType.VIEW_FILE, Step.view_file],
  [StepType.LIST_DIRECTORY, Step.list_directory],
  [StepType.USER_INPUT, Step.user_input],
  [StepType.PLANNER_RESPONSE, Step.planner_response],
  [StepType.ERROR_MESSAGE, Step.error_message],
  [StepType.RUN_COMMAND, Step.run_command],
  [StepType.CHECKPOINT, Step.checkpoint],
  [StepType.FIND, Step.find],
  [StepType.MCP_TOOL, Step.mcp_tool],
  [StepType.TASK_BOUNDARY, Step.task_boundary],
  [StepType.EPHEMERAL_MESSAGE, Step.ephemeral_message],
  [StepType.CONVERSATION_HISTORY, Step.conversation_history],
  [StepType.SYSTEM_MESSAGE, Step.system_message],
  [StepType.AGENCY_TOOL_CALL, Step.agency_tool_call],
  [StepType.GENERIC, Step.generic],
]);

/** The payload field of a step type txcript writes: each one it writes has one (an invariant). */
export function payloadField(type: number): number {
  const field = PAYLOAD_FIELD.get(type);
  if (field === undefined) throw new Error(`step type ${type} has no payload field`);
  return field;
}

/** Display names of step types, as the 1.2.0 brain mirror spells them (`type`). */
export const STEP_TYPE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(StepType).map(([name, no]) => [no, name]),
);

/** Bookkeeping kinds: never messages (their text is context, not conversation). */
export const BOOKKEEPING_STEP_TYPES: ReadonlySet<number> = new Set([
  StepType.CHECKPOINT,
  StepType.EPHEMERAL_MESSAGE,
  StepType.CONVERSATION_HISTORY,
  StepType.SYSTEM_MESSAGE,
]);

/** `CortexStepStatus`. */
export const StepStatus = message("CortexStepStatus", {
  PENDING: [1, `${SEED}; ${W_STEP}`],
  RUNNING: [2, `${W_MORE}; sample`],
  DONE: [3, `${SEED}; ${W_STEP}; sample`],
  INVALID: [4, W_MORE],
  CLEARED: [5, W_MORE],
  CANCELED: [6, `${SEED}; ${W_STEP}`],
  ERROR: [7, `${SEED}; ${W_STEP}; sample`],
  GENERATING: [8, W_MORE],
  WAITING: [9, W_MORE],
  QUEUED: [11, W_MORE],
  INTERRUPTED: [12, W_MORE],
});

export const STATUS_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(StepStatus).map(([name, no]) => [no, name]),
);

/** Statuses of a step still in flight: its tool has no result yet. */
export const IN_FLIGHT_STATUSES: ReadonlySet<number> = new Set([
  StepStatus.PENDING,
  StepStatus.RUNNING,
  StepStatus.GENERATING,
  StepStatus.WAITING,
  StepStatus.QUEUED,
]);

/** `CortexStepSource`. */
export const StepSource = message("CortexStepSource", {
  MODEL: [2, `${W_META}; ${W_MORE}; sample`],
  USER_IMPLICIT: [3, W_MORE],
  USER_EXPLICIT: [4, `${SEED} (real step); ${W_META}; sample`],
  SYSTEM: [5, `${W_META}; ${W_MORE}; sample`],
  SYSTEM_SDK: [6, W_MORE],
});

export const SOURCE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(StepSource).map(([name, no]) => [no, name]),
);

// ---------------------------------------------------------------------------
// Envelope

export const CortexStepMetadata = message("exa.cortex_pb.CortexStepMetadata", {
  created_at: [1, `${SEED} (real step); ${W_META}`],
  source: [3, `${SEED} (real step); ${W_META}`],
  tool_call: [4, `${SEED}; ${W_META}`],
  completed_at: [8, W_MORE],
  model_usage: [9, W_META],
  generator_model: [11, W_META],
  execution_id: [12, W_META],
  requested_model: [13, W_MORE],
  step_info: [20, W_META],
  field_21: [21, `${W_META} (observed 1; meaning unknown)`],
  model_info: [24, W_MORE],
});

export const ModelUsageStats = message("exa.codeium_common_pb.ModelUsageStats", {
  model: [1, W_META],
  input_tokens: [2, W_META],
  output_tokens: [3, W_META],
  cache_write_tokens: [4, W_META],
  cache_read_tokens: [5, W_META],
  thinking_output_tokens: [9, W_MORE],
  response_output_tokens: [10, W_MORE],
  response_id: [11, W_MORE],
});

export const StepInfo = message("CortexStepMetadata.step_info", {
  trajectory_id: [1, W_META],
  step_index: [2, W_META],
  turn_index: [3, W_META],
  conversation_id: [4, W_META],
});

export const ChatToolCall = message("exa.codeium_common_pb.ChatToolCall", {
  id: [1, `${SEED}; ${W_PAYLOAD}`],
  name: [2, `${SEED}; ${W_PAYLOAD}`],
  arguments_json: [3, `${SEED}; ${W_PAYLOAD}`],
  thought_signature: [6, W_MORE],
  thinking_signature: [7, W_MORE],
  original_name: [9, `${W_PAYLOAD}; ${W_MORE}`],
});

export const CortexErrorDetails = message("exa.cortex_pb.CortexErrorDetails", {
  user_error_message: [1, `${W_PAYLOAD}; ${W_MORE}`],
  short_error: [2, `${W_PAYLOAD}; ${W_MORE}`],
  full_error: [3, W_MORE],
  model_error_message: [9, `${W_PAYLOAD}; ${W_MORE}`],
});

// ---------------------------------------------------------------------------
// Payloads

export const CortexStepUserInput = message("exa.cortex_pb.CortexStepUserInput", {
  query: [1, W_PAYLOAD],
  user_response: [2, `${SEED} (real step); ${W_PAYLOAD}`],
  items: [3, `${SEED} (real step); ${W_PAYLOAD}`],
  images: [5, W_PAYLOAD],
  media: [9, W_MORE],
});

export const TextItem = message("CortexStepUserInput.items", {
  text: [1, `${SEED} (real step); ${W_PAYLOAD}`],
});

export const ImageData = message("CortexStepUserInput.images", {
  base64_data: [1, W_PAYLOAD],
  mime_type: [2, W_PAYLOAD],
  uri: [4, W_MORE],
});

export const Media = message("CortexStepUserInput.media", {
  mime_type: [1, W_MORE],
  payload: [2, W_MORE],
  uri: [5, W_MORE],
});

export const CortexStepPlannerResponse = message("exa.cortex_pb.CortexStepPlannerResponse", {
  response: [1, W_PAYLOAD],
  thinking: [3, W_PAYLOAD],
  thinking_signature: [4, W_PAYLOAD],
  thinking_redacted: [5, W_MORE],
  message_id: [6, W_PAYLOAD],
  tool_calls: [7, W_PAYLOAD],
  modified_response: [8, W_PAYLOAD],
  thinking_duration: [11, W_MORE],
  stop_reason: [12, W_PAYLOAD],
  raw_thinking: [16, W_MORE],
});

/** `StopReason` values of `CortexStepPlannerResponse.stop_reason`. */
export const StopReason = message("exa.codeium_common_pb.StopReason", {
  END_TURN: [2, W_PAYLOAD],
  MAX_TOKENS: [3, W_PAYLOAD],
  TOOL_USE: [10, W_PAYLOAD],
  ERROR: [13, W_PAYLOAD],
  ABORTED: [16, W_PAYLOAD],
});

export const CortexStepRunCommand = message("exa.cortex_pb.CortexStepRunCommand", {
  cwd: [2, W_PAYLOAD],
  output: [4, W_PAYLOAD],
  stderr: [5, W_MORE],
  exit_code: [6, W_PAYLOAD],
  field_11: [11, `${W_PAYLOAD} (observed 1; meaning unknown)`],
  wait_ms_before_async: [12, W_PAYLOAD],
  stdout: [19, W_MORE],
  combined_output: [21, `${W_PAYLOAD}; ${W_MORE}`],
  command_line: [23, W_PAYLOAD],
  proposed_command_line: [25, W_PAYLOAD],
});

/** `CortexStepRunCommand.combined_output` and `.stdout`. */
export const CommandOutput = message("CortexStepRunCommand.combined_output", {
  full: [1, `${W_PAYLOAD}; ${W_MORE}`],
  truncated: [2, W_MORE],
});

export const CortexStepViewFile = message("exa.cortex_pb.CortexStepViewFile", {
  absolute_uri: [1, W_PAYLOAD],
  start_line: [2, W_PAYLOAD],
  end_line: [3, W_PAYLOAD],
  content: [4, W_PAYLOAD],
  raw_content: [9, W_PAYLOAD],
  num_lines: [11, W_PAYLOAD],
  num_bytes: [12, W_PAYLOAD],
});

export const CortexStepListDirectory = message("exa.cortex_pb.CortexStepListDirectory", {
  directory_uri: [1, W_PAYLOAD],
  results: [3, W_PAYLOAD],
});

export const ListDirectoryResult = message("CortexStepListDirectory.results", {
  name: [1, W_PAYLOAD],
  is_dir: [2, W_PAYLOAD],
  size_bytes: [4, W_PAYLOAD],
});

export const CortexStepGrepSearch = message("exa.cortex_pb.CortexStepGrepSearch", {
  raw_output: [3, W_PAYLOAD],
  grep_error: [5, W_PAYLOAD],
});

export const CortexStepFind = message("exa.cortex_pb.CortexStepFind", {
  pattern: [1, W_MORE],
  error: [8, W_MORE],
  raw_output: [11, W_MORE],
});

export const CortexStepCodeAction = message("exa.cortex_pb.CortexStepCodeAction", {
  action_spec: [1, W_PAYLOAD],
  action_result: [2, W_PAYLOAD],
  field_4: [4, `${W_PAYLOAD} (observed 1; meaning unknown)`],
});

export const ActionSpec = message("exa.cortex_pb.ActionSpec", {
  command: [1, W_PAYLOAD],
  create_file: [2, W_PAYLOAD],
});

export const ActionSpecCommand = message("ActionSpec.command", {
  field_2: [2, `${W_PAYLOAD} (observed 1)`],
  file: [4, W_PAYLOAD],
  field_8: [8, `${W_PAYLOAD} (observed 1)`],
  replacement_chunk: [9, W_PAYLOAD],
});

export const ReplacementChunk = message("ActionSpec.command.chunk", {
  target_content: [1, W_PAYLOAD],
  replacement_content: [2, W_PAYLOAD],
  allow_multiple: [3, W_PAYLOAD],
});

export const ActionSpecCreateFile = message("ActionSpec.create_file", {
  content: [1, W_PAYLOAD],
  path: [2, W_PAYLOAD],
  field_4: [4, `${W_PAYLOAD} (observed 1)`],
});

export const PathScope = message("exa.cortex_pb.PathScope", {
  absolute_uri: [5, W_PAYLOAD],
});

export const ActionResult = message("exa.cortex_pb.ActionResult", {
  edit: [1, W_PAYLOAD],
});

export const ActionResultEdit = message("ActionResult.edit", {
  absolute_uri: [8, W_PAYLOAD],
  original_content: [10, W_PAYLOAD],
  created: [11, W_PAYLOAD],
});

export const CortexStepMcpTool = message("exa.cortex_pb.CortexStepMcpTool", {
  result_string: [3, W_PAYLOAD],
});

export const CortexStepGeneric = message("exa.cortex_pb.CortexStepGeneric", {
  result: [2, `${W_PAYLOAD}; ${W_MORE} (1.2.0 drift)`],
});

export const GenericResult = message("CortexStepGeneric.result", {
  result: [1, `${W_PAYLOAD}; sample (the model-facing text the mirror shows)`],
});

export const CortexStepCheckpoint = message("exa.cortex_pb.CortexStepCheckpoint", {
  user_intent: [4, W_PAYLOAD],
  field_9: [9, `${W_PAYLOAD} (a varint; meaning unknown)`],
  title: [10, W_PAYLOAD],
});

export const CortexStepErrorMessage = message("exa.cortex_pb.CortexStepErrorMessage", {
  error: [3, W_MORE],
});

export const CortexStepAgencyToolCall = message("exa.cortex_pb.CortexStepAgencyToolCall", {
  function_name: [2, W_MORE],
  responses: [4, W_MORE],
});

export const Any = message("google.protobuf.Any", {
  type_url: [1, W_MORE],
  value: [2, W_MORE],
});

/** The `Any.type_url` suffix of an agency tool response. */
export const TOOL_RESPONSE_TYPE = "antigravity.localharness.ToolResponse";

export const ToolResponse = message("antigravity.localharness.ToolResponse", {
  tool_name: [1, W_MORE],
  result_json: [2, W_MORE],
});

/** SYSTEM_MESSAGE (114), EPHEMERAL_MESSAGE (103), CONVERSATION_HISTORY (111) payloads. */
export const BookkeepingText = message("CortexStepSystemMessage", {
  message: [1, `${W_MORE}; sample (resumed session restart notice)`],
});

// ---------------------------------------------------------------------------
// Other tables

export const CortexTrajectoryMetadata = message("exa.cortex_pb.CortexTrajectoryMetadata", {
  workspace: [1, `${SEED}; ${W_TRAJ}`],
  created_at: [2, `${SEED}; ${W_TRAJ}`],
  agent_script: [4, W_MORE],
  parent_conversation_id: [5, W_MORE],
  conversation_id: [6, `${W_TRAJ} (the root conversation id per ${W_MORE})`],
  workspace_uri: [7, W_TRAJ],
  nesting_depth: [17, W_MORE],
  project: [18, `${W_TRAJ}; ${W_MORE}`],
});

export const Workspace = message("CortexTrajectoryMetadata.workspace", {
  uri: [1, W_TRAJ],
  uri_2: [2, W_TRAJ],
  git_branch: [4, `${SEED}; ${W_TRAJ}`],
});

export const CortexTrajectoryReference = message("exa.cortex_pb.CortexTrajectoryReference", {
  trajectory_id: [1, W_MORE],
  step_index: [2, W_MORE],
  type: [5, W_MORE],
  conversation_id: [6, W_MORE],
});

export const TrajectoryReferenceType = message("CortexTrajectoryReference.type", {
  FORK: [2, W_MORE],
  SUBAGENT_FORK: [6, W_MORE],
});

export const GenMetadata = message("gen_metadata.data", {
  chat_model_metadata: [1, W_MORE],
});

export const ChatModelMetadata = message("exa.codeium_common_pb.ChatModelMetadata", {
  usage: [4, W_MORE],
  response_model_name: [19, W_MORE],
  display_name: [21, W_MORE],
});

/** Constants agy writes that the codec reproduces. */
export const TRAJECTORY_TYPE_CLI = 4; // wire §SQLite schema (observed)
export const TRAJECTORY_SOURCE_CLI = 17; // wire §SQLite schema (observed)
export const MAIN_BLOB_ID = "main"; // seed; wire §CortexTrajectoryMetadata
export const DEFAULT_PROJECT = "default-cli-project"; // wire §CortexTrajectoryMetadata (observed)
/** The desktop app's: source 1, and its project id for a conversation outside any project. */
export const TRAJECTORY_SOURCE_DESKTOP = 1; // docs/formats/antigravity.md §Surfaces [SM-D]
export const DESKTOP_PROJECT = "outside-of-project"; // docs/formats/antigravity.md §Surfaces [SM-D]
export const CLI_WAIT_MS_BEFORE_ASYNC = 2000; // seed caveats; wire §Native tools
/** Model enum numbers surface as `model-<n>`. */
export const MODEL_PREFIX = "model-"; // seed; wire §toCommon details
/** Unknown stop reasons surface as `stop-<n>`. */
export const STOP_PREFIX = "stop-"; // seed; wire §Payload messages
