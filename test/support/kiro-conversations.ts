/**
 * Kiro CLI's older-engine database for tests, built from the documented
 * format (docs/formats/kiro.md "The SQLite engine", from the
 * amazon-q-developer-cli source it cites): `data.sqlite3` with
 * `conversations_v2` (migration 008) and `conversations` (migration 007),
 * each `value` a serialized `ConversationState`. No Kiro binary runs here,
 * so these are the fixtures.
 */

import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonObject } from "../../src/common.js";
import { createDatabase, type Db } from "../../src/sqlite.js";

export const CONV_ID = "5f6a7b8c-1111-4222-8333-444455556666";
export const OLD_CONV_ID = "5f6a7b8c-0000-4000-8000-000000000000";
export const CONV_CWD = "/srv/app";
export const OLD_CWD = "/srv/old";
export const CONV_CREATED = 1_748_764_800_000;

/** Where the older engine keeps its database under a home folder (Linux). */
export function kiroDatabasePath(home: string): string {
  return join(home, ".local", "share", "kiro-cli", "data.sqlite3");
}

const env = { env_state: { operating_system: "linux", current_working_directory: CONV_CWD } };

function user(
  content: JsonObject,
  timestamp: string | null = null,
  images: JsonObject[] | null = null,
): JsonObject {
  return { additional_context: "", env_context: env, content, timestamp, images };
}

/** A PNG's first bytes, as serde writes `Vec<u8>`: a list of numbers. */
export const PNG_BYTES = [137, 80, 78, 71, 13, 10, 26, 10];

/** The prompt the conversation was left with, not yet answered (`next_message`). */
export const PENDING_PROMPT = "and now the tests?";

/** Every user content and assistant variant the source shows, and unknown ones. */
export function everyKindConversation(id = CONV_ID): JsonObject {
  return {
    conversation_id: id,
    next_message: user({ Prompt: { prompt: PENDING_PROMPT } }, "2025-06-01T10:07:00.000+02:00"),
    history: [
      {
        user: user(
          { Prompt: { prompt: "Why does the build fail?" } },
          "2025-06-01T10:00:00.000+02:00",
          // `ImageBlock`s: format and `{"Bytes": [...]}`; an `Unknown` source is left out.
          [
            { format: "Png", source: { Bytes: PNG_BYTES } },
            { format: "Jpeg", source: "Unknown" },
          ],
        ),
        assistant: {
          ToolUse: {
            message_id: "m1",
            content: "Let me build it.",
            // `ReasoningContentForHistory`: text, signature, redacted bytes, the model that wrote it.
            thinking: {
              text: "A type error, probably.",
              signature: "sig-1",
              redacted_content: [],
              model_id: "claude-sonnet-4.5",
            },
            tool_uses: [
              {
                id: "t1",
                name: "execute_bash",
                orig_name: "execute_bash",
                args: { command: "npm run build" },
                orig_args: { command: "npm run build" },
              },
            ],
          },
        },
        request_metadata: null,
      },
      {
        user: user({
          ToolUseResults: {
            tool_use_results: [
              { tool_use_id: "t1", content: [{ Text: "error TS2322" }], status: "Error" },
            ],
          },
        }),
        assistant: {
          ToolUse: {
            message_id: "m2",
            content: "",
            tool_uses: [
              {
                id: "t2",
                name: "fs_read",
                orig_name: "fs_read",
                args: { operations: [{ mode: "Line", path: "src/a.ts" }] },
                orig_args: { operations: [{ mode: "Line", path: "src/a.ts" }] },
              },
            ],
          },
        },
      },
      {
        user: user({
          ToolUseResults: {
            tool_use_results: [
              {
                tool_use_id: "t2",
                content: [{ Json: { lines: ["let n: number = 'x'"] } }],
                status: "Success",
              },
            ],
          },
        }),
        assistant: {
          Response: {
            message_id: "m3",
            content: "Fixed the type of n.",
            thinking: { text: "", signature: null, redacted_content: [1, 2, 3] },
          },
        },
      },
      {
        user: user(
          {
            CancelledToolUses: {
              prompt: "stop, use tsc instead",
              tool_use_results: [
                {
                  tool_use_id: "t3",
                  content: [{ Text: "Tool use was cancelled by the user" }],
                  status: "Error",
                },
              ],
            },
          },
          "2025-06-01T10:05:00.000+02:00",
        ),
        assistant: { Response: { message_id: null, content: "Running tsc." } },
      },
      // Variants no source shows: kept in the Body, no message.
      { user: user({ FuturePrompt: { x: 1 } }), assistant: { Teleport: { to: "mars" } } },
    ],
    valid_history_range: [0, 5],
    // The human-readable echo of the history: not read while the history says something.
    transcript: ["> Why does the build fail?", "Let me build it.\n[Tool uses: execute_bash]"],
    tools: {},
    context_manager: null,
    context_message_length: null,
    latest_summary: null,
    model_info: { model_id: "claude-sonnet-4", model_name: "Claude Sonnet 4" },
  };
}

/** A conversation of earlier builds: `[user, assistant]` pairs and the older `model`. */
export function olderConversation(): JsonObject {
  return {
    conversation_id: OLD_CONV_ID,
    history: [
      [
        user({ Prompt: { prompt: "List the files" } }, "2025-03-01T09:00:00Z"),
        { Response: { message_id: "o1", content: "a.ts and b.ts" } },
      ],
    ],
    model: "CLAUDE_3_7_SONNET_20250219_V1_0",
  };
}

/** The database, both tables, a row that is not a conversation, and a settings table never read. */
export function createKiroDatabase(path: string, options: { wal?: boolean } = {}): Db {
  mkdirSync(dirname(path), { recursive: true });
  const db = createDatabase(path);
  if (options.wal) db.pragma("journal_mode = WAL");
  db.exec(
    "CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT);" +
      "CREATE TABLE conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id));" +
      "CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB);",
  );
  db.prepare("INSERT INTO state (key, value) VALUES ('auth.token', 'secret-kiro-token')").run();
  const v2 = db.prepare(
    "INSERT INTO conversations_v2 (key, conversation_id, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  v2.run(
    CONV_CWD,
    CONV_ID,
    JSON.stringify(everyKindConversation()),
    CONV_CREATED,
    CONV_CREATED + 300_000,
  );
  v2.run("/srv/broken", "broken-id", "{not json", CONV_CREATED, CONV_CREATED);
  db.prepare("INSERT INTO conversations (key, value) VALUES (?, ?)").run(
    OLD_CWD,
    JSON.stringify(olderConversation()),
  );
  // The same conversation left in the older table by a migration: conversations_v2's wins.
  db.prepare("INSERT INTO conversations (key, value) VALUES (?, ?)").run(
    "/srv/dup",
    JSON.stringify({ ...everyKindConversation(), history: [] }),
  );
  return db;
}

/**
 * A conversation after `/clear`: no history, the transcript its only
 * record (`> ` prompts, multi-line as `> \n`; replies with their `[Tool
 * uses: …]` line; a marker that is not read), and a `next_message` that
 * repeats nothing.
 */
export function clearedConversation(id: string): JsonObject {
  return {
    conversation_id: id,
    next_message: null,
    history: [],
    transcript: [
      "> Why does> \nit fail?",
      "It fails on a type.\n[Tool uses: none]",
      "[Forgot last 1 message]",
      "> ",
    ],
  };
}

/** A conversation whose `next_message` repeats its last entry's user: shown once. */
export function echoedConversation(id: string): JsonObject {
  const asked = user({ Prompt: { prompt: "Say hi" } }, "2025-06-02T08:00:00Z");
  return {
    conversation_id: id,
    next_message: asked,
    history: [{ user: asked, assistant: { Response: { message_id: "e1", content: "hi" } } }],
    transcript: ["> Say hi", "hi\n[Tool uses: none]"],
  };
}
