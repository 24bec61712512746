/**
 * Kiro agent-engine (KAS) sessions for tests, built from the documented
 * format (docs/formats/kiro.md "The agent engine": the 23-member
 * `payload.type` union and `session.json`'s schema, as public readers of
 * Kiro CLI 2.15.1 and 2.21.4 record them). No Kiro binary runs here, so
 * these are the fixtures: `<root>/sessions/<bucket>/<id>/session.json` and
 * `messages.jsonl`, one `{id, timestamp, payload}` a line.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../src/common.js";

export const AGENT_ID = "sess_5b0c8f3e-2d7a-4c1e-9f6b-3a8d1e2c4b70";
/** A workspace bucket: 16 hex characters of SHA-256 over the workspace paths. */
export const BUCKET = "0f3a9c2e71b4d856";

export interface KiroAgentFixture {
  id: string;
  bucket?: string;
  session?: JsonObject;
  rows: JsonObject[];
  /** Text appended to messages.jsonl as it is (a cut last line, a bad line). */
  tail?: string;
  /** Subagent transcripts, `sub-executions/<name>.jsonl`: rows, or text as it is. */
  subs?: Record<string, JsonObject[] | string>;
}

export function agentSessionJson(id: string, extra: JsonObject = {}): JsonObject {
  return {
    schemaVersion: "1.0.0",
    dataModelVersion: 1,
    id,
    title: "Fix the cart total",
    agentMode: "vibe",
    workspacePaths: ["/work/shop"],
    createdAt: "2026-07-29T10:00:00.000Z",
    lastModifiedAt: "2026-07-29T10:05:00.000Z",
    status: "idle",
    modelId: "claude-sonnet-4.5",
    createdReason: "human",
    ...extra,
  };
}

let clock = 0;
/** A persisted message: `{id, timestamp, payload}` in Kiro's key order. */
export function row(id: string, payload: JsonObject, second = clock++): JsonObject {
  const s = String(second % 60).padStart(2, "0");
  const m = String(Math.floor(second / 60) % 60).padStart(2, "0");
  return { id, timestamp: `2026-07-29T10:${m}:${s}.000Z`, payload };
}

/** Every payload kind Kiro's schema names, one row each or more, plus one it does not. */
export function everyAgentRow(): JsonObject[] {
  clock = 1;
  const e1 = "exec-1";
  return [
    row("u1", {
      type: "user",
      content: "npm test fails on the cart total",
      source: "chat",
      images: [{ data: "iVBORw==", mimeType: "image/png" }],
      contextItems: [{ name: "cart.js", content: "const TAX = 1.2" }],
    }),
    row("r-turn-start", { type: "turn_start", executionId: e1 }),
    row("r-pending", {
      type: "pending_interaction",
      interactionType: "tool_approval",
      toolCallId: "t1",
      question: "Run npm test?",
      options: [{ optionId: "accept", name: "Accept", kind: "allow_once" }],
      executionId: e1,
    }),
    row("r-context", {
      type: "session_metadata",
      key: "contextUsage",
      value: { usagePercentage: 4.5 },
      executionId: e1,
    }),
    row("r-resolved", {
      type: "interaction_resolved",
      toolCallId: "t1",
      outcome: "selected",
      selectedOption: "accept",
      executionId: e1,
    }),
    row("a1", {
      type: "assistant",
      content: "Run the ",
      operationType: "Reasoning",
      executionId: e1,
      reasoningSignature: "sig-1",
      reasoningModelId: "claude-opus-4.5",
    }),
    row("a2", {
      type: "assistant",
      content: "tests first.",
      operationType: "Reasoning",
      executionId: e1,
    }),
    row("a3", { type: "assistant", content: "Running ", operationType: "Say", executionId: e1 }),
    row("a4", { type: "assistant", content: "the tests.", operationType: "Say", executionId: e1 }),
    row("c1", {
      type: "tool_call",
      toolCallId: "t1",
      toolName: "execute_bash",
      args: { command: "npm test" },
      status: "approved",
      title: "Run the tests",
      kind: "execute",
      executionId: e1,
    }),
    row("c2", {
      type: "tool_result",
      toolCallId: "t1",
      content: "1 failing",
      success: false,
      durationMs: 1200,
      executionId: e1,
    }),
    row("c3", {
      type: "tool_call",
      toolCallId: "t2",
      toolName: "fs_read",
      args: { path: "cart.js" },
      status: "completed",
      kind: "read",
      executionId: e1,
    }),
    row("c4", {
      type: "tool_result",
      toolCallId: "t2",
      content: "const TAX = 1.2",
      success: true,
      executionId: e1,
    }),
    row("h1", {
      type: "ContextualHookInvoked",
      hookId: "/home/ana/.kiro/hooks/lint.json#hook-0",
      operationId: "op-1",
      name: "lint",
      hookActionType: "runCommand",
      status: "completed",
      command: "npm run lint",
      output: "lint ok",
      exitCode: 0,
      executionId: e1,
    }),
    row("s1", {
      type: "sub_agent_start",
      parentExecutionId: e1,
      subSessionId: "sub-1",
      subAgentName: "researcher",
      prompt: "find the tax constant",
      explanation: "look it up",
    }),
    row("s2", {
      type: "sub_agent_progress",
      parentExecutionId: e1,
      subSessionId: "sub-1",
      message: "searching",
    }),
    row("s3", {
      type: "sub_agent_complete",
      parentExecutionId: e1,
      subSessionId: "sub-1",
      response: "TAX is in cart.js",
      status: "success",
    }),
    row("r-steering", { type: "steering_inclusion", documents: ["product.md"], executionId: e1 }),
    row("a5", {
      type: "assistant",
      content: "Fixed: the constant was wrong.",
      operationType: "Say",
      executionId: e1,
    }),
    row(`${e1}-usage`, {
      type: "usage_summary",
      promptTurnSummaries: [{ unit: "credit", unitPlural: "credits", usage: 0.1 }],
      elapsedTime: 5000,
      status: "success",
      executionId: e1,
    }),
    row(`${e1}-complete`, {
      type: "session_event",
      category: "session_pause",
      context: { executionId: e1, status: "success" },
    }),
    row(`${e1}-turn-end`, { type: "turn_end", stopReason: "end_turn", executionId: e1 }),
    row(`session_start_${AGENT_ID}`, {
      type: "session_start",
      agentType: "vibe",
      content: "bootstrap context",
      forcedRole: false,
      messageId: "m0",
    }),
    // A turn withdrawn by /rewind's revert: gone from Common.
    row("u2", { type: "user", content: "a wrong turn", source: "chat" }),
    row("r2", { type: "turn_start", executionId: "exec-2" }),
    row("a6", { type: "assistant", content: "going the wrong way", executionId: "exec-2" }),
    row("r3", { type: "turn_end", stopReason: "cancelled", executionId: "exec-2" }),
    row("tomb-1", {
      type: "tombstone",
      kind: "checkpoint_revert",
      effectiveFromMessageId: "u2",
      metadata: { affectedFiles: [], totalFiles: 0 },
    }),
    row("t-revert", { type: "tool_revert", toolCallId: "t1" }),
    row("note", { type: "agent_note", content: "cart.js was restored" }),
    row("sys", { type: "system", content: "a system line" }),
    // /compact: the summary is what the model sees next; earlier turns stay.
    row("tomb-2", { type: "tombstone", kind: "summarization", effectiveFromMessageId: "u1" }),
    row("summary", {
      type: "assistant",
      content: "The user fixed the cart total.",
      operationType: "Summary",
    }),
    row("mode", { type: "mode_change", fromMode: "vibe", toMode: "spec", reason: "user" }),
    row("err", { type: "error", message: "ModelThrottleError", code: "throttled" }),
    row("odd", { type: "teleport", to: "mars" }),
    row("nameless", { kind: "no type here" }),
  ];
}

/** `root/sessions/<bucket>/<id>/session.json` and `messages.jsonl` for each session. */
export function createKiroAgentSessions(root: string, sessions: readonly KiroAgentFixture[]): void {
  for (const s of sessions) {
    const dir = join(root, "sessions", s.bucket ?? BUCKET, s.id);
    mkdirSync(dir, { recursive: true });
    if (s.session !== undefined)
      writeFileSync(join(dir, "session.json"), `${JSON.stringify(s.session, null, 2)}\n`);
    const text = s.rows.map((r) => `${JSON.stringify(r)}\n`).join("");
    writeFileSync(join(dir, "messages.jsonl"), text + (s.tail ?? ""));
    for (const [name, sub] of Object.entries(s.subs ?? {})) {
      mkdirSync(join(dir, "sub-executions"), { recursive: true });
      const body =
        typeof sub === "string" ? sub : sub.map((r) => `${JSON.stringify(r)}\n`).join("");
      writeFileSync(join(dir, "sub-executions", `${name}.jsonl`), body);
    }
  }
}

export function everyKindAgentSession(id = AGENT_ID): KiroAgentFixture {
  return { id, session: agentSessionJson(id), rows: everyAgentRow() };
}

/** The sub-execution id the fixture's `sub_agent_start` names (its file's name). */
export const SUB_ID = "sub-1";

/**
 * A subagent's transcript as KAS 2.15.1 writes it [KAS spec 3.4]: the same
 * envelope, body rows only (assistant, tool_call, tool_result,
 * steering_inclusion, a nested subagent's start and completion), each
 * stamped with `payload.subExecutionId`; no user, turn or usage rows.
 */
export function subAgentRows(sub = SUB_ID): JsonObject[] {
  clock = 200;
  const x = { subExecutionId: sub };
  return [
    row("x-steer", { type: "steering_inclusion", documents: ["product.md"], ...x }),
    row("x-a1", { type: "assistant", content: "Looking ", operationType: "Reasoning", ...x }),
    row("x-a2", { type: "assistant", content: "for TAX.", operationType: "Say", ...x }),
    row("x-c1", {
      type: "tool_call",
      toolCallId: "x-t1",
      toolName: "execute_bash",
      args: { command: "grep -n TAX cart.js" },
      status: "completed",
      kind: "execute",
      _meta: { kiro: { agentSubtaskId: sub } },
      ...x,
    }),
    row("x-c2", {
      type: "tool_result",
      toolCallId: "x-t1",
      content: "1:const TAX = 1.2",
      success: true,
      durationMs: 30,
      ...x,
    }),
    row("x-s1", {
      type: "sub_agent_start",
      parentExecutionId: "exec-sub",
      subSessionId: "sub-2",
      subAgentName: "checker",
      prompt: "check the rate",
      explanation: "second opinion",
    }),
    row("x-s2", {
      type: "sub_agent_complete",
      parentExecutionId: "exec-sub",
      subSessionId: "sub-2",
      response: "",
      status: "error",
      errorMessage: "timed out",
    }),
    row("x-a3", { type: "assistant", content: "TAX is in cart.js", operationType: "Say", ...x }),
  ];
}
