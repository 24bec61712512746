/**
 * Crush stores for tests, built from the documented format
 * (docs/formats/crush.md): a global data directory with `projects.json`,
 * and each project's `<project>/.crush/crush.db` with the schema restated
 * in test/fixtures/crush/schema.sql, in WAL mode as Crush leaves it. No
 * Crush binary runs here (its npm package downloads it from GitHub at
 * install), so these are the fixtures.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Json, JsonObject } from "../../src/common.js";
import { createDatabase } from "../../src/sqlite.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "crush");
export const CRUSH_SCHEMA = readFileSync(join(FIXTURES, "schema.sql"), "utf8");

/** One part as Crush's message service wraps it: `{type, data}`. */
export const part = (type: string, data: Json): JsonObject => ({ type, data });

export interface CrushMessageFixture {
  id: string;
  role: string;
  /** Parts (wrapped), or the column's raw text. */
  parts: JsonObject[] | string;
  model?: string;
  provider?: string;
  created_at: number;
  finished_at?: number;
  is_summary_message?: boolean;
}

export interface CrushSessionFixture {
  id: string;
  parent_session_id?: string;
  title?: string;
  prompt_tokens?: number;
  completion_tokens?: number;
  cost?: number;
  created_at?: number;
  updated_at?: number;
  summary_message_id?: string;
  todos?: string;
  messages: CrushMessageFixture[];
}

/** `<dataDir>/crush.db` holding `sessions` (the schema may be replaced, for hostile tests). */
export function createCrushDatabase(
  dataDir: string,
  sessions: readonly CrushSessionFixture[] = [],
  schema = CRUSH_SCHEMA,
): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "crush.db");
  const db = createDatabase(path);
  db.pragma("journal_mode = WAL");
  db.exec(schema);
  if (sessions.length === 0) {
    db.close();
    return path;
  }
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, parent_session_id, title, prompt_tokens, completion_tokens, cost,
       updated_at, created_at, summary_message_id, todos) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, session_id, role, parts, model, provider, is_summary_message,
       created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of sessions) {
    const created = s.created_at ?? 1790848800;
    insertSession.run(
      s.id,
      s.parent_session_id ?? null,
      s.title ?? "",
      s.prompt_tokens ?? 0,
      s.completion_tokens ?? 0,
      s.cost ?? 0,
      s.updated_at ?? created + 60,
      created,
      s.summary_message_id ?? null,
      s.todos ?? null,
    );
    for (const m of s.messages) {
      insertMessage.run(
        m.id,
        s.id,
        m.role,
        typeof m.parts === "string" ? m.parts : JSON.stringify(m.parts),
        m.model ?? "",
        m.provider ?? null,
        m.is_summary_message ? 1 : 0,
        m.created_at,
        m.created_at,
        m.finished_at ?? null,
      );
    }
  }
  db.close();
  return path;
}

/**
 * A project `<project>/.crush/crush.db`, registered in `<root>/projects.json`
 * after the projects already there (Crush keeps the most recent first).
 */
export function createCrushProject(
  root: string,
  project: string,
  sessions: readonly CrushSessionFixture[] = [],
): string {
  const dataDir = join(project, ".crush");
  const path = createCrushDatabase(dataDir, sessions);
  const list = join(root, "projects.json");
  let projects: Json[] = [];
  try {
    const doc: unknown = JSON.parse(readFileSync(list, "utf8"));
    if (doc && typeof doc === "object" && "projects" in doc && Array.isArray(doc.projects))
      projects = doc.projects;
  } catch {
    // No list yet.
  }
  projects.push({ path: project, data_dir: dataDir, last_accessed: "2026-10-01T10:00:00Z" });
  mkdirSync(root, { recursive: true });
  writeFileSync(list, JSON.stringify({ projects }, null, 2));
  return path;
}

const stop = part("finish", { reason: "stop", time: 0 });
const T = 1790848800;

/**
 * A session with every part kind Crush's message service writes (and one
 * it does not know), a tool-result row, a summary message, a finish of
 * each interesting reason; and two child sessions: an agent-tool task and
 * a title generation.
 */
export function everyKindSessions(
  id = "5f0c3a52-6a1e-4c1b-9a51-3d1f0b6c2e11",
): CrushSessionFixture[] {
  return [
    {
      id,
      title: "Fix the failing test",
      prompt_tokens: 1200,
      completion_tokens: 340,
      cost: 0.0123,
      created_at: T,
      updated_at: T + 40,
      summary_message_id: "m6",
      todos: JSON.stringify([{ content: "fix", status: "completed", active_form: "Fixing" }]),
      messages: [
        {
          id: "m1",
          role: "user",
          model: "claude-sonnet-4-5",
          created_at: T,
          parts: [
            part("text", { text: "Why does the test fail?" }),
            part("binary", { Path: "shot.png", MIMEType: "image/png", Data: "iVBORw0KGgo=" }),
            part("binary", {
              Path: "notes.txt",
              MIMEType: "text/plain",
              Data: Buffer.from("remember the constant").toString("base64"),
            }),
            part("image_url", { url: "data:image/jpeg;base64,/9j/4AAQ", detail: "auto" }),
            part("image_url", { url: "https://example.com/a.png" }),
            part("shell_command", { command: "git status", output: "clean", exit_code: 0 }),
            stop,
          ],
        },
        {
          id: "m2",
          role: "assistant",
          model: "claude-sonnet-4-5",
          provider: "anthropic",
          created_at: T + 5,
          finished_at: T + 9,
          parts: [
            part("reasoning", {
              thinking: "Look at the test first.",
              signature: "sig-1",
              thought_signature: "",
              tool_id: "",
              responses_data: null,
              started_at: T + 5,
              finished_at: T + 6,
            }),
            part("text", { text: "Let me look." }),
            part("tool_call", {
              id: "toolu_1",
              name: "bash",
              input: JSON.stringify({ command: "npm test", description: "Run tests" }),
              provider_executed: false,
              finished: true,
            }),
            part("tool_call", {
              id: "toolu_2",
              name: "view",
              input: JSON.stringify({ file_path: "/srv/app/a.ts" }),
              provider_executed: false,
              finished: true,
            }),
            part("tool_call", {
              id: "toolu_3",
              name: "edit",
              input: JSON.stringify({
                file_path: "/srv/app/a.ts",
                old_string: "= 2",
                new_string: "= 1",
              }),
              provider_executed: false,
              finished: true,
            }),
            part("tool_call", {
              id: "toolu_4",
              name: "agent",
              input: JSON.stringify({ prompt: "find the callers" }),
              provider_executed: false,
              finished: true,
            }),
            part("tool_call", {
              id: "toolu_5",
              name: "mcp_github_search",
              input: "{not json",
              provider_executed: false,
              finished: false,
            }),
            part("finish", { reason: "tool_use", time: T + 9 }),
          ],
        },
        {
          id: "m3",
          role: "tool",
          created_at: T + 10,
          parts: [
            part("tool_result", {
              tool_call_id: "toolu_1",
              name: "bash",
              content: "1 failing",
              data: "",
              mime_type: "",
              metadata: JSON.stringify({ start_time: 1, end_time: 2 }),
              is_error: true,
            }),
            part("tool_result", {
              tool_call_id: "toolu_2",
              name: "view",
              content: "export const a = 2;",
              data: "",
              mime_type: "",
              metadata: "",
              is_error: false,
            }),
            part("tool_result", {
              tool_call_id: "toolu_3",
              name: "edit",
              content: "edited",
              data: "iVBORw0KGgo=",
              mime_type: "image/png",
              metadata: "",
              is_error: false,
            }),
            part("tool_result", {
              tool_call_id: "toolu_4",
              name: "agent",
              content: "two callers",
              data: "",
              mime_type: "",
              metadata: "",
              is_error: false,
            }),
            part("hologram", { shimmer: true }),
            stop,
          ],
        },
        {
          id: "m4",
          role: "assistant",
          model: "claude-sonnet-4-5",
          created_at: T + 15,
          parts: [
            part("text", { text: "Fixed: the constant was wrong." }),
            part("finish", { reason: "end_turn", time: T + 16 }),
          ],
        },
        {
          id: "m5",
          role: "assistant",
          model: "claude-sonnet-4-5",
          created_at: T + 20,
          parts: [part("finish", { reason: "canceled", time: T + 21 })],
        },
        {
          id: "m6",
          role: "assistant",
          model: "claude-sonnet-4-5",
          created_at: T + 30,
          is_summary_message: true,
          parts: [
            part("text", { text: "Summary: the constant in a.ts was fixed." }),
            part("finish", { reason: "end_turn", time: T + 31 }),
          ],
        },
        {
          id: "m7",
          role: "system",
          created_at: T + 32,
          parts: [part("text", { text: "system note" })],
        },
      ],
    },
    {
      id: `m2$$toolu_4`,
      parent_session_id: id,
      title: "find the callers",
      created_at: T + 11,
      messages: [
        {
          id: "c1",
          role: "user",
          created_at: T + 11,
          parts: [part("text", { text: "find the callers" }), stop],
        },
        {
          id: "c2",
          role: "assistant",
          model: "claude-haiku-4-5",
          created_at: T + 12,
          parts: [
            part("text", { text: "two callers" }),
            part("finish", { reason: "end_turn", time: T + 12 }),
          ],
        },
      ],
    },
    {
      id: `title-${id}`,
      parent_session_id: id,
      title: "Generate a title",
      created_at: T + 1,
      messages: [
        {
          id: "t1",
          role: "user",
          created_at: T + 1,
          parts: [part("text", { text: "Generate a title for: Why does the test fail?" }), stop],
        },
      ],
    },
  ];
}
