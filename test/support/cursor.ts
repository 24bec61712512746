/**
 * Cursor stores for tests, built from the documented format
 * (docs/formats/cursor.md, from the public readers it cites): agent
 * transcripts `<root>/projects/<slug>/agent-transcripts/<id>/<id>.jsonl`
 * (or flat `<id>.jsonl`), and chat stores `<root>/chats/<hash>/<id>/`
 * with `store.db` (tables `blobs(id, data)` and `meta(key, value)`) and
 * `meta.json`. No Cursor binary runs here, so these are the fixtures.
 */

import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../src/common.js";
import { createDatabase } from "../../src/sqlite.js";

export const TRANSCRIPT_ID = "e13fc9ba-0fe8-455e-b069-a0eb0b374502";
export const CHAT_ID = "4b1f0c3e-8a2d-4e6f-9b7c-2d5e8f1a3c60";
export const CWD = "/Users/ana/code/shop";
export const SLUG = "Users-ana-code-shop";

/** Every line kind the public readers show: string and block content, every block, a marker, unknowns. */
export function everyKindTranscript(): JsonObject[] {
  return [
    {
      role: "user",
      message: {
        content: [
          {
            type: "text",
            text: "<user_info>\nOS: darwin\nWorkspace Path: /Users/ana/code/shop\n</user_info>\n<user_query>\nWhy does npm test fail on the cart total?\n</user_query>",
          },
        ],
      },
    },
    {
      role: "assistant",
      message: {
        content: [
          { type: "thinking", thinking: "Run the tests first.", signature: "sig-1" },
          { type: "text", text: "Running the tests." },
          { type: "tool_use", id: "tu_1", name: "Shell", input: { command: "npm test", cwd: CWD } },
          { type: "tool_use", id: "tu_2", name: "Read", input: { path: "src/cart.ts" } },
        ],
      },
    },
    {
      role: "user",
      message: {
        content: [
          { type: "tool_result", tool_use_id: "tu_1", content: "1 failing", is_error: true },
          {
            type: "tool_result",
            tool_use_id: "tu_2",
            content: [{ type: "text", text: "export const TAX = 0.2;" }],
          },
        ],
      },
    },
    {
      role: "assistant",
      message: {
        content: [
          {
            type: "tool_use",
            id: "tu_3",
            name: "StrReplace",
            input: { path: "src/cart.ts", old_string: "0.2", new_string: "0.02" },
          },
          { type: "tool_use", id: "tu_4", name: "Grep", input: { pattern: "TAX" } },
          { type: "future_block", data: 1 },
        ],
      },
    },
    { type: "turn_ended", status: "completed" },
    { role: "system", message: { content: "You are Cursor's agent." } },
    { role: "assistant", message: { content: "Fixed: the tax constant was wrong." } },
    { role: "critic", message: { content: "an unknown role, kept" } },
  ];
}

/** The agent record as Cursor stores it in the `meta` table (key "0"). */
export function agentRecord(id: string, extra: JsonObject = {}): JsonObject {
  return {
    agentId: id,
    latestRootBlobId: "a".repeat(64),
    name: "Fix the cart total",
    mode: "default",
    createdAt: 1_754_000_000_000,
    workspacePath: CWD,
    lastUsedModel: "composer-2.5",
    approvalMode: "unrestricted",
    ...extra,
  };
}

export function chatJson(extra: JsonObject = {}): JsonObject {
  return {
    schemaVersion: 1,
    title: "Fix the cart total",
    createdAtMs: 1_754_000_000_000,
    updatedAtMs: 1_754_000_090_000,
    hasConversation: true,
    ...extra,
  };
}

/** Every blob kind the public readers show, plus protobuf bytes and unknowns. */
export function everyKindBlobs(): (JsonObject | Buffer)[] {
  return [
    { role: "system", content: "You are Cursor's agent." },
    {
      role: "user",
      content: "<user_info>\nOS: darwin\nWorkspace Path: /Users/ana/code/shop\n</user_info>",
    },
    {
      role: "user",
      content: [
        {
          type: "text",
          text: "<user_query>\nWhy does npm test fail on the cart total?\n</user_query>",
        },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw==" } },
      ],
      createdAt: 1_754_000_010_000,
    },
    Buffer.from([0x0a, 0x20, 0x12, 0x03, 0xff, 0xfe]),
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "Run the tests first.", signature: "sig-1" },
        { type: "redacted-reasoning", data: "AQID" },
        { type: "text", text: "Running the tests." },
        { type: "tool-call", toolCallId: "c1", toolName: "Shell", args: { command: "npm test" } },
        { type: "tool-call", toolCallId: "c2", toolName: "Read", args: { path: "src/cart.ts" } },
      ],
      createdAt: 1_754_000_020_000,
      providerOptions: { cursor: { modelName: "composer-2.5" } },
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "Shell",
          result: "1 failing",
          isError: true,
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "Read",
          result: "export const TAX = 0.2;",
        },
      ],
      createdAt: 1_754_000_030_000,
    },
    {
      role: "assistant",
      content: [
        {
          type: "tool-call",
          toolCallId: "c3",
          toolName: "StrReplace",
          args: { path: "src/cart.ts", oldString: "0.2", newString: "0.02" },
        },
        {
          type: "tool-call",
          toolCallId: "c4",
          toolName: "Write",
          args: { path: "NOTES.md", content: "tax fixed\n" },
        },
        { type: "tool-call", toolCallId: "c5", toolName: "mcp_github_search", args: { q: "tax" } },
      ],
      createdAt: 1_754_000_040_000,
      providerOptions: { cursor: { modelName: "gpt-5" } },
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c3", toolName: "StrReplace", result: { ok: true } },
        { type: "tool-result", toolCallId: "c4", toolName: "Write", result: "Wrote NOTES.md" },
        { type: "tool-result", toolCallId: "c5", toolName: "mcp_github_search", result: "[]" },
      ],
      createdAt: 1_754_000_050_000,
    },
    {
      role: "assistant",
      content: "Fixed: the tax constant was wrong.",
      createdAt: 1_754_000_060_000,
      providerOptions: { cursor: { modelName: "composer-2.5" } },
    },
    { role: "critic", content: "an unknown role, kept", createdAt: 1_754_000_070_000 },
  ];
}

export interface ChatFixture {
  id: string;
  cwd?: string;
  blobs?: (JsonObject | Buffer)[];
  agent?: JsonObject;
  /** The agent record hex-encoded (as observed) or as plain JSON text. */
  hexMeta?: boolean;
  /** meta.json's content; null leaves the file out. */
  chat?: JsonObject | null;
  /** prompt_history.json's content (an array of prompt strings [S]); absent leaves the file out. */
  prompts?: unknown;
}

/** One chat store under `<root>/chats/<md5(cwd)>/<id>/`; returns its folder. */
export function createCursorChat(root: string, fixture: ChatFixture): string {
  const cwd = fixture.cwd ?? CWD;
  const dir = join(root, "chats", createHash("md5").update(cwd).digest("hex"), fixture.id);
  mkdirSync(dir, { recursive: true });
  const db = createDatabase(join(dir, "store.db"));
  db.exec(
    "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);",
  );
  const insert = db.prepare("INSERT INTO blobs (id, data) VALUES (?, ?)");
  for (const blob of fixture.blobs ?? everyKindBlobs()) {
    const data = Buffer.isBuffer(blob) ? blob : Buffer.from(JSON.stringify(blob));
    insert.run(createHash("sha256").update(data).digest("hex"), data);
  }
  const agent = JSON.stringify(fixture.agent ?? agentRecord(fixture.id));
  db.prepare("INSERT INTO meta (key, value) VALUES ('0', ?)").run(
    fixture.hexMeta === false ? agent : Buffer.from(agent).toString("hex"),
  );
  db.close();
  if (fixture.chat !== null)
    writeFileSync(join(dir, "meta.json"), JSON.stringify(fixture.chat ?? chatJson()));
  if (fixture.prompts !== undefined)
    writeFileSync(join(dir, "prompt_history.json"), JSON.stringify(fixture.prompts));
  return dir;
}

/** One agent transcript, nested (`<id>/<id>.jsonl`, current) or flat (`<id>.jsonl`); returns its path. */
export function createCursorTranscript(
  root: string,
  id: string,
  lines: readonly JsonObject[] = everyKindTranscript(),
  options: { nested?: boolean; slug?: string } = {},
): string {
  const dir = join(root, "projects", options.slug ?? SLUG, "agent-transcripts");
  const nested = options.nested ?? true;
  const folder = nested ? join(dir, id) : dir;
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${id}.jsonl`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return path;
}
