/**
 * The Cursor agent CLI's protobuf turn graph (docs/formats/cursor.md "The
 * turn graph"), read into JSON for the chat Body. Pure: the blobs come in
 * through a lookup. `meta.latestRootBlobId` names a root blob, an
 * `agent.v1.ConversationStateStructure` whose field 8 lists the turns'
 * blob ids; a turn blob is a `ConversationTurnStructure` (1: an agent turn
 * `{1: user message blob id, 2: step blob ids, 3: request id}`; 2: a shell
 * turn); a user message blob is `UserMessage {1: text, 2: message id}`; a
 * step blob is `ConversationStep` (1: `AssistantMessage {1: text}`, 2: a
 * `ToolCall`, 3: `ThinkingMessage {1: text, 2: duration_ms}`); a shell
 * call is `ShellToolCall {1: ShellArgs, 2: ShellResult}`. Blob ids
 * are 32 raw bytes (SHA-256), the blobs table's ids in hex. Anything not
 * in that shape is kept as a marker, never guessed at.
 */

import type { JsonObject } from "../../common.js";
import { assignDefined } from "../../json.js";
import { decode, type ProtoMessage } from "../../protobuf.js";

/** `agent.v1.ToolCall`'s `tool` oneof: field number to name (the tools' own `{1: args, 2: result}`). */
const TOOL_CALLS: ReadonlyMap<number, string> = new Map([
  [1, "shell"],
  [3, "delete"],
  [4, "glob"],
  [5, "grep"],
  [8, "read"],
  [9, "update_todos"],
  [10, "read_todos"],
  [12, "edit"],
  [13, "ls"],
  [14, "read_lints"],
  [15, "mcp"],
  [16, "sem_search"],
  [17, "create_plan"],
  [18, "web_search"],
  [19, "task"],
  [20, "list_mcp_resources"],
  [21, "read_mcp_resource"],
  [22, "apply_agent_diff"],
  [23, "ask_question"],
  [24, "fetch"],
  [25, "switch_mode"],
]);

/** A graph larger than this many turns or steps is read no further (hostile input). */
const MAX_NODES = 1_000_000;

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** A blob id field: 32 bytes, as the table's hex id; anything else is no id. */
function blobId(b: Uint8Array | undefined): string | undefined {
  return b !== undefined && b.length === 32 ? hex(b) : undefined;
}

/** `ShellResult`'s oneof `result`: field number to name. */
const SHELL_RESULTS: ReadonlyMap<number, string> = new Map([
  [1, "success"],
  [2, "failure"],
  [3, "timeout"],
  [4, "rejected"],
  [5, "spawn_error"],
  [7, "permission_denied"],
]);

/**
 * A `ShellResult` as JSON: its case; for `success` and `failure` (the same
 * first fields: 3 exit_code, 5 stdout, 6 stderr) the exit code and output.
 */
function shellResult(result: ProtoMessage): JsonObject | undefined {
  for (const [no, status] of SHELL_RESULTS) {
    const r = result.message(no);
    if (r === undefined) continue;
    const out: JsonObject = { status };
    if (no <= 2) {
      const code = r.uint(3);
      // int32: a negative exit code is a ten-byte varint, read as its low 32 bits.
      if (code !== undefined) out.exit_code = code > 0x7fffffff ? (code % 2 ** 32) - 2 ** 32 : code;
      const stdout = r.string(5);
      if (stdout) out.stdout = stdout;
      const stderr = r.string(6);
      if (stderr) out.stderr = stderr;
    }
    return out;
  }
  return undefined;
}

/** A `ToolCall` as JSON: its tool's name and field; a shell call's `ShellArgs` fields and result. */
function toolStep(call: ProtoMessage): JsonObject {
  for (let i = 0; i < call.length; i++) {
    const no = call.fieldNo(i);
    const name = TOOL_CALLS.get(no);
    if (name === undefined) continue;
    const step: JsonObject = { tool: name, field: no };
    if (no === 1) {
      // ShellToolCall {1: ShellArgs {1: command, 2: working_directory, 3: timeout, 4: tool_call_id}}.
      const args = call.message(1)?.message(1);
      const command = args?.string(1);
      assignDefined(step, "command", command);
      const dir = args?.string(2);
      if (dir) step.working_directory = dir;
      const id = args?.string(4);
      if (id) step.tool_call_id = id;
      // ShellToolCall {2: ShellResult}.
      const result = call.message(1)?.message(2);
      const r = result === undefined ? undefined : shellResult(result);
      assignDefined(step, "result", r);
    }
    return step;
  }
  return { tool: null, fields: [...Array(call.length).keys()].map((i) => call.fieldNo(i)) };
}

/** One step blob as JSON. */
function stepOf(bytes: Uint8Array): JsonObject {
  const step = decode(bytes);
  const assistant = step.message(1);
  if (assistant !== undefined) return { assistant: assistant.string(1) ?? "" };
  const thinking = step.message(3);
  if (thinking !== undefined) {
    const out: JsonObject = { thinking: thinking.string(1) ?? "" };
    const ms = thinking.uint(2);
    assignDefined(out, "duration_ms", ms);
    return out;
  }
  const call = step.message(2);
  if (call !== undefined) return toolStep(call);
  return { unknown: hex(bytes.subarray(0, 64)) };
}

/**
 * The turns of a chat's graph, oldest first, as JSON: `{user?: {text,
 * message_id?}, steps: [...], request_id?}` for an agent turn, `{shell:
 * true}` for a shell turn, `{missing: <id>}` for a blob the store does not
 * hold; a step is `{assistant}`, `{thinking, duration_ms?}`, `{tool,
 * field, command?, working_directory?, tool_call_id?}`, `{unknown}` or
 * `{missing}`. Undefined when the root is absent or holds no turn.
 */
export function turnGraph(
  rootId: string,
  blob: (id: string) => Uint8Array | undefined,
): JsonObject[] | undefined {
  const root = blob(rootId.toLowerCase());
  if (root === undefined) return undefined;
  const ids = decode(root).allBytes(8);
  if (ids.length === 0) return undefined;
  let nodes = 0;
  const turns: JsonObject[] = [];
  for (const raw of ids) {
    if (++nodes > MAX_NODES) break;
    const id = blobId(raw);
    const bytes = id === undefined ? undefined : blob(id);
    if (bytes === undefined) {
      turns.push({ missing: id ?? hex(raw) });
      continue;
    }
    const wrapper = decode(bytes);
    const agent = wrapper.message(1);
    if (agent === undefined) {
      turns.push(wrapper.has(2) ? { shell: true } : { unknown: hex(bytes.subarray(0, 64)) });
      continue;
    }
    const turn: JsonObject = {};
    const userId = blobId(agent.bytesOf(1));
    if (userId !== undefined) {
      const user = blob(userId);
      if (user === undefined) turn.user = { missing: userId };
      else {
        const m = decode(user);
        const u: JsonObject = { text: m.string(1) ?? "" };
        const messageId = m.string(2);
        if (messageId) u.message_id = messageId;
        turn.user = u;
      }
    }
    const steps: JsonObject[] = [];
    for (const s of agent.allBytes(2)) {
      if (++nodes > MAX_NODES) break;
      const sid = blobId(s);
      const sb = sid === undefined ? undefined : blob(sid);
      steps.push(sb === undefined ? { missing: sid ?? hex(s) } : stepOf(sb));
    }
    turn.steps = steps;
    const requestId = agent.string(3);
    if (requestId) turn.request_id = requestId;
    turns.push(turn);
  }
  return turns;
}
