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
import { encode } from "../../src/protobuf.js";
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

/** The SHA-256 of a blob: its id in the table (hex) and as the graph names it (32 bytes). */
function idOf(data: Uint8Array): Buffer {
  return createHash("sha256").update(data).digest();
}

/**
 * A turn graph as the agent CLI stores it (docs/formats/cursor.md "The turn
 * graph", field numbers from Cursor's own protobuf descriptors): a root
 * `ConversationStateStructure` {8: turn ids}, turns `ConversationTurnStructure`
 * {1: AgentConversationTurnStructure {1: user message id, 2: step ids, 3:
 * request id}} or {2: a shell turn}, `UserMessage` {1: text, 2: id} and
 * `ConversationStep` {1: AssistantMessage {1: text}, 2: ToolCall, 3:
 * ThinkingMessage {1: text, 2: duration_ms}}. One step id names no blob.
 */
export function graphBlobs(): { blobs: Buffer[]; root: string } {
  const blobs: Buffer[] = [];
  const put = (data: Uint8Array): Buffer => {
    const b = Buffer.from(data);
    blobs.push(b);
    return idOf(b);
  };
  const user = (text: string, id: string) => put(encode((w) => w.string(1, text).string(2, id)));
  const assistant = (text: string) => put(encode((w) => w.message(1, (m) => m.string(1, text))));
  const thinking = (text: string) =>
    put(encode((w) => w.message(3, (m) => m.string(1, text).uint(2, 1200))));
  // ToolCall {1: ShellToolCall {1: ShellArgs {1: command, 2: working_directory, 3: timeout,
  // 4: tool_call_id}, 2: ShellResult {2: ShellFailure {1: command, 3: exit_code, 5: stdout, 6: stderr}}}}.
  const shell = put(
    encode((w) =>
      w.message(2, (c) =>
        c.message(1, (s) =>
          s
            .message(1, (a) =>
              a.string(1, "npm test").string(2, CWD).uint(3, 30000).string(4, "tc-1"),
            )
            .message(2, (r) =>
              r.message(2, (f) =>
                f.string(1, "npm test").uint(3, 1).string(5, "1 failing").string(6, "npm ERR!"),
              ),
            ),
        ),
      ),
    ),
  );
  // ToolCall {8: ReadToolCall {1: args}}: no Common fit, Raw.
  const read = put(
    encode((w) =>
      w.message(2, (c) => c.message(8, (r) => r.message(1, (a) => a.string(1, "src/cart.ts")))),
    ),
  );
  const turn = (userId: Buffer | undefined, steps: Buffer[], request?: string) =>
    put(
      encode((w) =>
        w.message(1, (t) => {
          if (userId !== undefined) t.bytes(1, userId);
          for (const s of steps) t.bytes(2, s);
          if (request !== undefined) t.string(3, request);
        }),
      ),
    );
  const missing = idOf(Buffer.from("a step the store no longer holds"));
  const turns = [
    turn(
      user("Why does npm test fail?", "m-1"),
      [thinking("Run the tests."), assistant("Running them."), shell, read, missing],
      "req-1",
    ),
    // A shell turn (the user ran a command): kept, no message.
    put(encode((w) => w.message(2, (s) => s.bytes(1, Buffer.alloc(32, 1))))),
    turn(user("Fix it", "m-2"), [assistant("Fixed: the tax constant was wrong.")]),
  ];
  const root = encode((w) => {
    w.bytes(1, idOf(Buffer.from("{}")));
    for (const t of turns) w.bytes(8, t);
    w.message(5, (d) => d.uint(1, 12000).uint(2, 200000));
  });
  const rootId = put(root).toString("hex");
  return { blobs, root: rootId };
}
