/**
 * Kiro CLI stores for tests, built from the documented format
 * (docs/formats/kiro.md, from Kiro CLI 2.2.1's source): `<root>/sessions/cli/
 * <id>.json` (SessionData) beside `<id>.jsonl` (one LogEntry per line). No
 * Kiro binary runs here, so these are the fixtures.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../src/common.js";

export interface KiroSessionFixture {
  id: string;
  session?: JsonObject;
  entries: JsonObject[];
}

/** SessionData as Kiro writes it (the shape of its session_v1_pre_metering fixture). */
export function sessionData(id: string, extra: JsonObject = {}): JsonObject {
  return {
    session_id: id,
    cwd: "/work/shop",
    created_at: "2026-03-30T19:55:35.130832Z",
    updated_at: "2026-03-30T20:05:00.000000Z",
    title: "Fix the cart total",
    session_state: {
      version: "v1",
      conversation_metadata: {
        user_turn_metadatas: [
          {
            message_ids: ["m1"],
            total_request_count: 2,
            end_reason: "UserTurnEnd",
            end_timestamp: "2026-03-30T19:56:10.000000Z",
            input_token_count: 1200,
            output_token_count: 300,
            context_usage_percentage: 4.5,
          },
        ],
        user_turn_start_request: null,
        last_request: null,
      },
      rts_model_state: {
        conversation_id: id,
        model_info: {
          model_name: "Claude Sonnet 4.5",
          model_id: "claude-sonnet-4.5",
          context_window_tokens: 200000,
        },
        context_usage_percentage: 4.5,
      },
      permissions: { trusted_tools: [], denied_tools: [] },
      agent_name: null,
    },
    ...extra,
  };
}

const v1 = (kind: string, data?: JsonObject): JsonObject =>
  data === undefined ? { version: "v1", kind } : { version: "v1", kind, data };

/** Every entry kind and content block kind Kiro CLI 2.2.1 writes, plus one it does not know. */
export function everyKindEntries(): JsonObject[] {
  return [
    v1("Prompt", {
      message_id: "m1",
      content: [
        { kind: "text", data: "npm test fails on the cart total" },
        {
          kind: "image",
          data: { format: "png", source: { kind: "bytes", data: [137, 80, 78, 71] } },
        },
      ],
      meta: { timestamp: 1774900540 },
    }),
    v1("AssistantMessage", {
      message_id: "m2",
      content: [
        {
          kind: "thinking",
          data: { text: "Run the tests first.", signature: "sig-1", redactedContent: [] },
        },
        { kind: "thinking", data: { text: "", signature: null, redactedContent: [1, 2, 3] } },
        { kind: "text", data: "Running the tests." },
        {
          kind: "toolUse",
          data: {
            toolUseId: "t1",
            name: "shell",
            input: { command: "npm test", working_dir: "/work/shop" },
          },
        },
        {
          kind: "toolUse",
          data: {
            toolUseId: "t2",
            name: "read",
            input: { operations: [{ mode: "Line", path: "cart.js" }] },
          },
        },
      ],
    }),
    v1("ToolResults", {
      message_id: "m3",
      content: [
        {
          kind: "toolResult",
          data: {
            toolUseId: "t1",
            content: [{ kind: "text", data: "1 failing" }],
            status: "error",
          },
        },
        {
          kind: "toolResult",
          data: {
            toolUseId: "t2",
            content: [{ kind: "json", data: { lines: 12 } }],
            status: "success",
          },
        },
      ],
      results: { t1: { tool: null, result: "Cancelled" } },
    }),
    v1("AssistantMessage", {
      message_id: "m4",
      content: [
        { kind: "text", data: "Fixed: the constant was wrong." },
        { kind: "hologram", data: 1 },
      ],
    }),
    v1("Compaction", {
      summary: "The user fixed the cart total.",
      strategy: {
        message_pairs_to_exclude: 1,
        context_window_percent_to_exclude: 0,
        truncate_large_messages: false,
        max_message_length: 0,
      },
      messages_snapshot: [],
    }),
    v1("Prompt", {
      message_id: "m5",
      content: [{ kind: "text", data: "never mind" }],
      meta: { timestamp: 1774900600 },
    }),
    v1("CancelledPrompt"),
    v1("Prompt", { message_id: "m6", content: [{ kind: "text", data: "a wrong turn" }] }),
    v1("AssistantMessage", {
      message_id: "m7",
      content: [{ kind: "text", data: "going the wrong way" }],
    }),
    v1("ResetTo", { target_index: 7 }),
    v1("Clear"),
    { version: "v1", kind: "Teleport", data: { to: "mars" } },
    { version: "v2", kind: "Prompt", data: {} },
  ];
}

/** `root/sessions/cli/<id>.json` and `<id>.jsonl` for each session. */
export function createKiroSessions(root: string, sessions: readonly KiroSessionFixture[]): string {
  const dir = join(root, "sessions", "cli");
  mkdirSync(dir, { recursive: true });
  for (const s of sessions) {
    if (s.session !== undefined)
      writeFileSync(join(dir, `${s.id}.json`), `${JSON.stringify(s.session, null, 2)}\n`);
    writeFileSync(
      join(dir, `${s.id}.jsonl`),
      s.entries.map((e) => `${JSON.stringify(e)}\n`).join(""),
    );
  }
  return dir;
}

export function everyKindSession(id = "f2946a26-3735-4b08-8d05-c928010302d5"): KiroSessionFixture {
  return { id, session: sessionData(id), entries: everyKindEntries() };
}
