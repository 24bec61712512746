/**
 * Goose stores for tests, built from the documented format
 * (docs/formats/goose.md): `sessions/sessions.db` with schema v9
 * (test/fixtures/goose/schema-v9.sql) and legacy `sessions/<id>.jsonl`
 * files. No Goose binary runs here, so these are the fixtures.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "../../src/common.js";
import { createDatabase } from "../../src/sqlite.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "goose");
export const GOOSE_SCHEMA = readFileSync(join(FIXTURES, "schema-v9.sql"), "utf8");

export interface GooseSessionFixture {
  id: string;
  name?: string;
  working_dir?: string;
  created_at?: string;
  updated_at?: string;
  session_type?: string;
  model?: string;
  tokens?: { input: number; output: number; total: number };
  /** Goose `Message` JSON: role, created (epoch seconds), content, metadata. */
  messages: JsonObject[];
}

/** `root/sessions/sessions.db` holding `sessions`, in WAL mode as Goose leaves it (sqlx, journal WAL). */
export function createGooseDatabase(
  root: string,
  sessions: readonly GooseSessionFixture[] = [],
  schema = GOOSE_SCHEMA,
): string {
  const dir = join(root, "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "sessions.db");
  const db = createDatabase(path);
  db.pragma("journal_mode = WAL");
  db.exec(schema);
  if (sessions.length === 0) {
    db.close();
    return path;
  }
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, name, working_dir, created_at, updated_at, session_type,
       input_tokens, output_tokens, total_tokens, accumulated_input_tokens,
       accumulated_output_tokens, accumulated_total_tokens, provider_name, model_config_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const s of sessions) {
    const t = s.tokens;
    insertSession.run(
      s.id,
      s.name ?? "",
      s.working_dir ?? "/srv/app",
      s.created_at ?? "2026-10-01 10:00:00",
      s.updated_at ?? "2026-10-01 10:05:00",
      s.session_type ?? "user",
      t?.input ?? null,
      t?.output ?? null,
      t?.total ?? null,
      t?.input ?? null,
      t?.output ?? null,
      t?.total ?? null,
      s.model === undefined ? null : "anthropic",
      s.model === undefined ? null : JSON.stringify({ model_name: s.model, context_limit: null }),
    );
    for (const m of s.messages) {
      insertMessage.run(
        typeof m.id === "string" ? m.id : null,
        s.id,
        String(m.role),
        JSON.stringify(m.content),
        typeof m.created === "number" ? m.created : 0,
        m.metadata === undefined ? null : JSON.stringify(m.metadata),
      );
    }
  }
  db.close();
  return path;
}

/** A legacy `root/sessions/<id>.jsonl`: the metadata line, then one message per line. */
export function writeGooseLegacy(
  root: string,
  id: string,
  session: JsonObject,
  messages: JsonObject[],
): string {
  const dir = join(root, "sessions");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, [session, ...messages].map((o) => `${JSON.stringify(o)}\n`).join(""));
  return path;
}

const visible = { userVisible: true, agentVisible: true };

/** A session with every content kind Goose's `MessageContent` serialises, and one it does not know. */
export function everyKindSession(id = "20261001_1"): GooseSessionFixture {
  return {
    id,
    name: "Fix the failing test",
    model: "claude-sonnet-4-5",
    tokens: { input: 1200, output: 340, total: 1540 },
    messages: [
      {
        id: "msg_1",
        role: "user",
        created: 1790848800,
        metadata: visible,
        content: [
          { type: "text", text: "Why does the test fail?" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
      },
      {
        id: "msg_2",
        role: "assistant",
        created: 1790848805,
        metadata: visible,
        content: [
          { type: "thinking", thinking: "Look at the test first.", signature: "sig-1" },
          { type: "redactedThinking", data: "b64-redacted" },
          { type: "text", text: "Let me look." },
          {
            type: "toolRequest",
            id: "toolu_1",
            toolCall: {
              status: "success",
              value: { name: "developer__shell", arguments: { command: "npm test" } },
            },
          },
          {
            type: "toolRequest",
            id: "toolu_2",
            toolCall: {
              status: "success",
              value: {
                name: "developer__text_editor",
                arguments: { command: "view", path: "/srv/app/a.ts" },
              },
            },
          },
          {
            type: "toolRequest",
            id: "toolu_3",
            toolCall: { status: "error", error: "Could not interpret tool use parameters" },
          },
        ],
      },
      {
        id: "msg_3",
        role: "user",
        created: 1790848810,
        metadata: { userVisible: false, agentVisible: true },
        content: [
          {
            type: "toolResponse",
            id: "toolu_1",
            toolResult: {
              status: "success",
              value: {
                content: [
                  { type: "text", text: "1 failing", annotations: { audience: ["assistant"] } },
                  { type: "text", text: "1 failing (shown)", annotations: { audience: ["user"] } },
                ],
                isError: false,
              },
            },
          },
          // A legacy response: the content list itself as the value.
          {
            type: "toolResponse",
            id: "toolu_2",
            toolResult: {
              status: "success",
              value: [{ type: "text", text: "export const a = 1;" }],
            },
          },
          {
            type: "toolResponse",
            id: "toolu_3",
            toolResult: { status: "error", error: "bad parameters" },
          },
        ],
      },
      {
        id: "msg_4",
        role: "assistant",
        created: 1790848815,
        metadata: visible,
        content: [
          {
            type: "toolRequest",
            id: "toolu_4",
            toolCall: {
              status: "success",
              value: {
                name: "developer__text_editor",
                arguments: {
                  command: "str_replace",
                  path: "/srv/app/a.ts",
                  old_str: "1",
                  new_str: "2",
                },
              },
            },
          },
          {
            type: "frontendToolRequest",
            id: "toolu_5",
            toolCall: {
              status: "success",
              value: { name: "browser__open", arguments: { url: "http://localhost" } },
            },
          },
          {
            type: "toolConfirmationRequest",
            id: "toolu_4",
            toolName: "developer__text_editor",
            arguments: {},
            prompt: "Allow?",
          },
          {
            type: "actionRequired",
            data: {
              actionType: "toolConfirmation",
              id: "toolu_4",
              toolName: "developer__text_editor",
              arguments: {},
              prompt: null,
            },
          },
          { type: "systemNotification", notificationType: "inlineMessage", msg: "Compacting" },
          { type: "jsonRenderSpec", spec: "{}" },
          { type: "hologram", beam: 3 },
        ],
      },
      {
        id: "msg_5",
        role: "user",
        created: 1790848820,
        metadata: visible,
        content: [
          {
            type: "toolResponse",
            id: "toolu_4",
            toolResult: {
              status: "success",
              value: { content: [{ type: "text", text: "edited" }], isError: false },
            },
          },
          {
            type: "toolResponse",
            id: "toolu_5",
            toolResult: {
              status: "success",
              value: {
                content: [{ type: "image", data: "R0lGOD", mimeType: "image/gif" }],
                isError: true,
              },
            },
          },
        ],
      },
      {
        id: "msg_6",
        role: "assistant",
        created: 1790848825,
        metadata: visible,
        content: [{ type: "text", text: "Fixed: the constant was wrong." }],
      },
    ],
  };
}
