/**
 * Cline's store on real temporary folders, with files shaped as Cline 3.0.65
 * writes them (docs/formats/cline.md: a main session, a subagent and a
 * teammate in its folder, an older `tasks/` session, hostile files):
 * discovery, lineage, the environment overrides, save and resume of a copy,
 * and the one-line refusals.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConflictError, UnsupportedError } from "../../src/errors.js";
import { ClineStore } from "../../src/harness/cline/store.js";
import { harness } from "../../src/harness/index.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const ID = "1796526140940_c44wn";
const CWD = "/home/dana/notes";
const T0 = Date.parse("2026-12-06T03:02:21.000Z");

function messagesFile(sessionId: string, agent: string, messages: unknown[], origin: object = {}) {
  return `${JSON.stringify(
    {
      version: 1,
      updated_at: "2026-12-06T03:02:26.595Z",
      agent,
      sessionId,
      origin: { source: "cli", mode: "user", sessionId, version: "3.0.65", ...origin },
      messages,
      system_prompt: "You are Cline",
    },
    null,
    2,
  )}\n`;
}

const MAIN = [
  {
    id: "u1",
    role: "user",
    content: [
      { type: "text", text: '<user_input mode="act">Set up the notes project</user_input>' },
    ],
    ts: T0,
  },
  {
    id: "a1",
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Look first." },
      { type: "text", text: "I'll look around first." },
      { type: "tool_use", id: "call_1", name: "run_commands", input: { commands: ["ls"] } },
    ],
    ts: T0 + 1000,
    modelInfo: { id: "claude-sonnet-4-5", provider: "anthropic" },
    metrics: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 50, cacheWriteTokens: 0 },
  },
  {
    id: "u2",
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "call_1", name: "run_commands", content: "notes.txt\n" },
    ],
    ts: T0 + 2000,
  },
  {
    id: "a2",
    role: "assistant",
    content: [
      {
        type: "tool_use",
        id: "call_2",
        name: "apply_patch",
        input: {
          input: "*** Begin Patch\n*** Add File: /home/dana/notes/a.txt\n+hi\n*** End Patch",
        },
      },
      {
        type: "tool_use",
        id: "call_3",
        name: "read_files",
        input: { files: [{ path: "/x", start_line: 2, end_line: 4 }] },
      },
      { type: "tool_use", id: "call_4", name: "spawn_agent", input: { task: "look" } },
    ],
    ts: T0 + 3000,
    modelInfo: { id: "claude-sonnet-4-5", provider: "anthropic" },
  },
  {
    id: "u3",
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "call_2", name: "apply_patch", content: "ok" },
      {
        type: "tool_result",
        tool_use_id: "call_3",
        name: "read_files",
        content: [{ type: "text", text: "b" }],
      },
      {
        type: "tool_result",
        tool_use_id: "call_4",
        name: "spawn_agent",
        content: "boom",
        is_error: true,
      },
    ],
    ts: T0 + 4000,
  },
  { id: "a3", role: "assistant", content: [{ type: "text", text: "Done." }], ts: T0 + 5000 },
];

const MANIFEST = {
  version: 1,
  session_id: ID,
  source: "cli",
  pid: 1,
  started_at: "2026-12-06T03:02:21.065Z",
  status: "running",
  interactive: false,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  cwd: CWD,
  workspace_root: CWD,
  enable_tools: true,
  enable_spawn: true,
  enable_teams: true,
  prompt: "Set up the notes project",
  metadata: { title: "Notes setup" },
};

/** A data folder with a main session, its subagent and teammate, an older task, and hostile files. */
function seed(data: string) {
  const dir = join(data, "sessions", ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${ID}.messages.json`), messagesFile(ID, "lead", MAIN));
  writeFileSync(
    join(dir, `${ID}.json`),
    JSON.stringify({ ...MANIFEST, messages_path: join(dir, `${ID}.messages.json`) }),
  );
  const sub = [
    { role: "user", content: "look", ts: T0 + 3100 },
    { role: "assistant", content: [{ type: "text", text: "Looked." }], ts: T0 + 3200 },
  ];
  writeFileSync(
    join(dir, "agent_7.messages.json"),
    messagesFile(`${ID}__agent_7`, "subagent", sub, { parentThreadId: ID, subagent: "agent_7" }),
  );
  writeFileSync(
    join(dir, "mate__task1.messages.json"),
    messagesFile(`${ID}__teamtask__mate__task1`, "teammate", sub, { parentThreadId: ID }),
  );
  const legacy = join(data, "tasks", "1712345678901");
  mkdirSync(legacy, { recursive: true });
  writeFileSync(
    join(legacy, "api_conversation_history.json"),
    JSON.stringify([
      { role: "user", content: [{ type: "text", text: "<task>\nFix the bug\n</task>" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
        ],
      },
    ]),
  );
  const bad = join(data, "sessions", "1796526140999_bad00");
  mkdirSync(bad, { recursive: true });
  writeFileSync(join(bad, "1796526140999_bad00.messages.json"), '{"version": 1, "messages": [');
  const wrong = join(data, "sessions", "1796526140998_wrong");
  mkdirSync(wrong, { recursive: true });
  writeFileSync(join(wrong, "1796526140998_wrong.messages.json"), '{"version": 1}');
}

describe("Cline store", () => {
  it("lists main sessions, subagents (with their parent) and older tasks; skips broken files in one line", async () => {
    const data = tempDir("txcript-cline-");
    seed(data);
    const store = new ClineStore({ root: data, env: {} });
    const { sessions, skipped } = await store.discover();
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect([...byId.keys()].sort()).toEqual(
      [ID, `${ID}__agent_7`, `${ID}__teamtask__mate__task1`, "1712345678901"].sort(),
    );
    const main = byId.get(ID)!;
    expect(main.meta).toMatchObject({
      cwd: CWD,
      title: "Notes setup",
      model: "claude-sonnet-4-5",
      cli_version: "3.0.65",
    });
    expect(main.message_count).toBe(6);
    expect(main.running).toBe(true);
    expect(main.fingerprint.files).toHaveLength(2);
    expect(byId.get(`${ID}__agent_7`)?.parent_id).toBe(ID);
    expect(byId.get(`${ID}__teamtask__mate__task1`)?.parent_id).toBe(ID);
    expect(byId.get("1712345678901")?.lane).toBe("legacy");
    expect(skipped).toHaveLength(2);
    for (const s of skipped) expect(s.reason).not.toContain("\n");
    expect(store.ids()).toContain(`${ID}__agent_7`);
  });

  it("reads a session message by message: prompt unwrapped, canonical tools, results paired, usage", () => {
    const data = tempDir("txcript-cline-");
    seed(data);
    const h = harness("cline");
    const t = h.codec.toCommon(new ClineStore({ root: data, env: {} }).load(ID));
    expect(t.body.map((m) => `${m.role}:${m.content.map((b) => b.type).join("+")}`)).toEqual([
      "user:text",
      "assistant:thinking+text+tool_use",
      "user:tool_result",
      "assistant:tool_use+tool_use+tool_use",
      "user:tool_result+tool_result+tool_result",
      "assistant:text",
    ]);
    expect(t.body[0]?.content[0]).toEqual({ type: "text", text: "Set up the notes project" });
    const tools = t.body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [b.tool] : [])),
    );
    expect(tools).toEqual([
      { name: "Bash", command: "ls" },
      { name: "Write", file_path: "/home/dana/notes/a.txt", content: "hi\n" },
      { name: "Read", file_path: "/x", offset: 2, limit: 3 },
      { name: "Raw", tool_name: "spawn_agent", input: { task: "look" } },
    ]);
    const results = t.body[4]!.content;
    expect(results[1]).toEqual({ type: "tool_result", tool_use_id: "call_3", content: "b" });
    expect(results[2]).toMatchObject({ is_error: true, content: "boom" });
    expect(t.body[1]?.usage).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      cache_read_input_tokens: 50,
    });
    expect(t.body[1]?.timestamp).toBe("2026-12-06T03:02:22Z");
  });

  it("follows CLINE_DIR, CLINE_DATA_DIR and CLINE_SESSION_DATA_DIR", async () => {
    const home = tempDir("txcript-cline-home-");
    seed(join(home, ".cline", "data"));
    const byDefault = await new ClineStore({ env: { HOME: home } }).discover();
    expect(byDefault.sessions.map((s) => s.id)).toContain(ID);
    const dir = tempDir("txcript-cline-dir-");
    seed(join(dir, "data"));
    expect(
      (await new ClineStore({ env: { HOME: home, CLINE_DIR: dir } }).discover()).sessions.map(
        (s) => s.path,
      )[0],
    ).toContain(dir);
    const data = tempDir("txcript-cline-data-");
    seed(data);
    expect(new ClineStore({ env: { HOME: home, CLINE_DATA_DIR: data } }).roots[0]).toBe(
      join(data, "sessions"),
    );
    const sessions = tempDir("txcript-cline-sessions-");
    expect(
      new ClineStore({
        env: { HOME: home, CLINE_DATA_DIR: data, CLINE_SESSION_DATA_DIR: sessions },
      }).roots,
    ).toEqual([sessions, join(data, "tasks")]);
  });

  it("saves a copy as a folder Cline loads (messages file + manifest naming it), never over another", () => {
    const data = tempDir("txcript-cline-");
    seed(data);
    const h = harness("cline");
    const src = new ClineStore({ root: data, env: {} });
    const common = h.codec.toCommon(src.load(ID));
    const copy = h.codec.fromCommon({
      ...common,
      meta: { ...common.meta, id: "1796526999999_copy1" },
    });
    const saved = src.save(copy);
    expect(saved.path).toBe(
      join(data, "sessions", "1796526999999_copy1", "1796526999999_copy1.messages.json"),
    );
    const manifest = JSON.parse(
      readFileSync(
        join(data, "sessions", "1796526999999_copy1", "1796526999999_copy1.json"),
        "utf8",
      ),
    );
    expect(manifest).toMatchObject({
      session_id: "1796526999999_copy1",
      cwd: CWD,
      workspace_root: CWD,
      messages_path: saved.path,
      status: "completed",
    });
    expect(JSON.parse(readFileSync(saved.path, "utf8")).manifest).toBeUndefined();
    const back = h.codec.toCommon(src.load("1796526999999_copy1"));
    expect(back.body).toHaveLength(common.body.length);
    expect(back.meta).toMatchObject({ cwd: CWD, title: "Notes setup" });
    expect(() => src.save(copy)).toThrow(ConflictError);
    expect(src.delete("1796526999999_copy1")).toContain(saved.path);
    expect(() => src.load("1796526999999_copy1")).toThrow(/no Cline session/);
  });

  it("refuses to write or delete an older tasks/ session, in one line", () => {
    const data = tempDir("txcript-cline-");
    seed(data);
    const store = new ClineStore({ root: data, env: {} });
    expect(() => store.delete("1712345678901")).toThrow(UnsupportedError);
    expect(() => store.save(store.load("1712345678901"))).toThrow(UnsupportedError);
  });

  it("through the CLI: list, view and continue --with cline, which prints the resume command", () => {
    const home = tempDir("txcript-cline-cli-");
    seed(join(home, ".cline", "data"));
    const env = { HOME: home };
    const listed = txcript(["list", "--json", "--from", "cline"], { env });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(ID);
    const view = txcript(["view", ID, "--from", "cline"], { env });
    expect(view.stdout).toContain("Set up the notes project");
    const cont = txcript(["continue", ID, "--from", "cline", "--with", "cline", "--no-resume"], {
      env,
    });
    expect(cont.status, cont.stderr).toBe(0);
    expect(cont.stdout + cont.stderr).toContain("cline --id");
  });
});
