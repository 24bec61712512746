/**
 * Reading Gemini CLI sessions: the real files Gemini CLI 0.61.0 wrote (a
 * plain exchange, shell/read/write/replace calls over four resumed runs, a
 * failing command, a three-turn conversation with a thought) read back
 * exactly, through the store and through the text form; and the CLI's
 * replay rules on hand-written files: same-id replacement in place, `$set`
 * checkpoints, `$rewindTo`, bad lines, the legacy JSON document, subagents,
 * pre-0.29 hash folders, hidden context, de-duplicated responses.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Block, Message } from "../../src/common.js";
import { geminiCodec, geminiText, projectHash } from "../../src/harness/gemini-cli/index.js";
import type { Common, Transcript } from "../../src/transcript.js";
import {
  emptyHome,
  FILES,
  FIXTURE,
  gemini,
  IDS,
  jsonl,
  metaLine,
  PROJ,
  put,
  store,
  user,
} from "./support.js";

const read = (text: string, origin = "x.jsonl"): Transcript<Common> =>
  geminiCodec.toCommon(geminiText.parse(text, origin));

/** role and a one-line sketch of each block, to compare long sessions at a glance. */
function sketch(body: Message[]): string[] {
  const b = (x: Block): string => {
    switch (x.type) {
      case "text":
        return `text:${x.text.slice(0, 30)}`;
      case "thinking":
        return `thinking:${x.text}`;
      case "tool_use":
        return `use:${x.tool.name === "Raw" ? `Raw(${x.tool.tool_name})` : x.tool.name}`;
      case "tool_result":
        return `result${x.is_error ? "!" : ""}`;
      default:
        return x.type;
    }
  };
  return body.map((m) => `${m.role} ${m.content.map(b).join(", ")}`);
}

describe("real Gemini CLI 0.61.0 sessions", () => {
  const s = store(FIXTURE);

  it("a plain exchange reads back exactly, with the cwd from projects.json and the title from the prompt", async () => {
    expect(geminiCodec.toCommon(s.load(IDS.hello))).toEqual({
      meta: {
        id: IDS.hello,
        timestamp: "2026-12-03T06:27:01.641Z",
        cwd: `${PROJ}/my_app`,
        title: "say hello",
        model: "gemini-3.8-flash",
      },
      body: [
        {
          role: "user",
          content: [{ type: "text", text: "say hello" }],
          timestamp: "2026-12-03T06:27:01.762Z",
        },
        {
          role: "assistant",
          content: [{ type: "text", text: "Stub reply to: say hello" }],
          timestamp: "2026-12-03T06:27:01.882Z",
          model: "gemini-3.8-flash",
          // input 102, output 7 + 3 thinking tokens
          usage: { input_tokens: 102, output_tokens: 10 },
        },
      ],
    });
  });

  it("a failing command reads back exactly: Bash, its output, and the non-zero exit as an error", async () => {
    const id = "run_shell_command__run_shell_command_1796279226292_0";
    expect(geminiCodec.toCommon(s.load(IDS.failing)).body).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "SHELL:ls /nonexistent-dir-for-fixture" }],
        timestamp: "2026-12-03T06:27:06.256Z",
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Running it." },
          {
            type: "tool_use",
            id,
            tool: {
              name: "Bash",
              command: "ls /nonexistent-dir-for-fixture",
              description: "stub command",
            },
          },
        ],
        timestamp: "2026-12-03T06:27:06.828Z",
        model: "gemini-3.8-flash",
        usage: { input_tokens: 104, output_tokens: 10 },
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: id,
            content:
              "<untrusted_context>\nOutput: ls: cannot access '/nonexistent-dir-for-fixture': No such file or directory\nExit Code: 2\nProcess Group PGID: 28095\n</untrusted_context>",
            is_error: true,
          },
        ],
        timestamp: "2026-12-03T06:27:07.038Z",
      },
      {
        role: "assistant",
        content: [
          {
            type: "text",
            text: 'Tool run_shell_command finished: {"output":"<untrusted_context>\\nOutput: ls: cannot access \'/',
          },
        ],
        timestamp: "2026-12-03T06:27:07.119Z",
        model: "gemini-3.8-flash",
        usage: { input_tokens: 105, output_tokens: 10 },
      },
    ]);
  });

  it("three turns over two resumes: the thought, every prompt once, original times and usage kept through the checkpoints", async () => {
    const t = geminiCodec.toCommon(s.load(IDS.multi));
    expect(sketch(t.body)).toEqual([
      "user text:THINK about the answer",
      "assistant thinking:**Weighing it** I should answer briefly., text:Thought about it: 42.",
      "user text:and a second question",
      "assistant text:Stub reply to: and a second qu",
      "user text:third and last",
      "assistant text:Stub reply to: third and last",
    ]);
    expect(t.body.map((m) => m.timestamp)).toEqual([
      "2026-12-03T06:29:03.882Z",
      "2026-12-03T06:29:03.968Z",
      "2026-12-03T06:29:07.197Z",
      "2026-12-03T06:29:07.253Z",
      "2026-12-03T06:29:10.382Z",
      "2026-12-03T06:29:10.433Z",
    ]);
    expect(t.body.filter((m) => m.role === "assistant").map((m) => m.usage)).toEqual([
      { input_tokens: 119, output_tokens: 10 },
      { input_tokens: 121, output_tokens: 10 },
      { input_tokens: 123, output_tokens: 10 },
    ]);
  });

  it("shell, read_file, write_file and replace over four runs: typed where they fit, each answered once", async () => {
    const t = geminiCodec.toCommon(s.load(IDS.tools));
    expect(t.meta).toEqual({
      id: IDS.tools,
      timestamp: "2026-12-03T06:28:06.958Z",
      cwd: `${PROJ}/tools`,
      title: "SHELL:echo hi from shell",
      model: "gemini-3.8-flash",
    });
    expect(sketch(t.body)).toEqual([
      "user text:SHELL:echo hi from shell",
      "assistant text:Running it., use:Bash",
      "user result",
      "assistant text:Tool run_shell_command finishe",
      "user text:READ:/tmp/gemini-fixture/home/",
      "assistant use:Read",
      "user result",
      'assistant text:Tool read_file finished: {"out',
      "user text:WRITE:/tmp/gemini-fixture/home",
      "assistant use:Write",
      "user result",
      'assistant text:Tool write_file finished: {"ou',
      "user text:REPLACE:/tmp/gemini-fixture/ho",
      // replace carries the required `instruction`, which no Edit field holds
      "assistant use:Raw(replace)",
      "user result",
      'assistant text:Tool replace finished: {"outpu',
    ]);
    const tools = t.body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [b.tool] : [])),
    );
    expect(tools).toEqual([
      { name: "Bash", command: "echo hi from shell", description: "stub command" },
      { name: "Read", file_path: `${PROJ}/tools/notes.txt`, offset: 1, limit: 2 },
      { name: "Write", file_path: `${PROJ}/tools/out.txt`, content: "written by stub\n" },
      {
        name: "Raw",
        tool_name: "replace",
        input: {
          file_path: `${PROJ}/tools/notes.txt`,
          old_string: "stub",
          new_string: "STUB",
          instruction: "capitalize",
        },
      },
    ]);
    // Times never run backwards, though checkpoints stamped the older records with the resume time.
    const times = t.body.map((m) => Date.parse(m.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(t.body.filter((m) => m.role === "assistant").every((m) => m.usage)).toBe(true);
  });

  it("discovery lists the four sessions with the cwd, title and count the CLI shows; ids come from the files", async () => {
    const found = await s.discover();
    expect(found.skipped).toEqual([]);
    const rows = found.sessions
      .map((d) => [d.id, d.meta.cwd, d.meta.title, d.message_count, d.lane])
      .sort();
    expect(rows).toEqual([
      [IDS.tools, `${PROJ}/tools`, "SHELL:echo hi from shell", 16, "main"],
      [IDS.failing, `${PROJ}/failing`, "SHELL:ls /nonexistent-dir-for-fixture", 4, "main"],
      [IDS.hello, `${PROJ}/my_app`, "say hello", 2, "main"],
      [IDS.multi, `${PROJ}/multi_turn`, "THINK about the answer", 6, "main"],
    ]);
    for (const d of found.sessions) {
      expect(d.message_count).toBe(geminiCodec.toCommon(s.load(d.id)).body.length);
    }
    expect(s.ids()).toEqual(Object.values(IDS).sort());
  });

  it.each(Object.entries(FILES))(
    "%s: the text form renders byte for byte and reads as the store does",
    (key, rel) => {
      const text = readFileSync(join(FIXTURE, rel), "utf8");
      const parsed = geminiText.parse(text, rel);
      expect(geminiText.render(parsed)).toBe(text);
      // The cwd comes from the session's own <session_context> when no store is at hand.
      expect(read(text)).toEqual(geminiCodec.toCommon(s.load(IDS[key as keyof typeof IDS])));
    },
  );
});

describe("the CLI's replay rules", () => {
  const ID = "9d2c6b1e-5a4f-4c1e-8b2a-3f6d7e8a9b0c";

  it("a later line with the same id replaces the record where it first stood", async () => {
    const t = read(
      jsonl(
        metaLine(ID),
        user("u1", "first"),
        gemini("g1", "draft"),
        user("u2", "second"),
        gemini("g1", "final answer"),
      ),
    );
    expect(sketch(t.body)).toEqual([
      "user text:first",
      "assistant text:final answer",
      "user text:second",
    ]);
  });

  it("$rewindTo drops that record and all after it; an unknown id drops everything", async () => {
    const base = [metaLine(ID), user("u1", "keep"), gemini("g1", "kept"), user("u2", "gone")];
    expect(sketch(read(jsonl(...base, { $rewindTo: "u2" }, user("u3", "again"))).body)).toEqual([
      "user text:keep",
      "assistant text:kept",
      "user text:again",
    ]);
    expect(read(jsonl(...base, { $rewindTo: "nope" })).body).toEqual([]);
  });

  it("ids whose hashes collide stay two records (replaced, rewound and checkpointed apart)", async () => {
    // FNV-1a (32 bits) gives these two ids the same hash: the replay's table must tell them apart.
    const [a, b] = ["id43zxx", "idbpadx"];
    const lines = [metaLine(ID), user(a, "first"), gemini(b, "draft"), user("u2", "second")];
    expect(sketch(read(jsonl(...lines, gemini(b, "final"))).body)).toEqual([
      "user text:first",
      "assistant text:final",
      "user text:second",
    ]);
    expect(sketch(read(jsonl(...lines, { $rewindTo: b }, user("u3", "again"))).body)).toEqual([
      "user text:first",
      "user text:again",
    ]);
    const checkpoint = { $set: { messages: [user(b, "b first"), user(a, "then a")] } };
    expect(sketch(read(jsonl(...lines, checkpoint, gemini(a, "a again"))).body)).toEqual([
      "user text:b first",
      "assistant text:a again",
    ]);
  });

  it("$set merges metadata; a messages array is a checkpoint that replaces the list", async () => {
    const t = read(
      jsonl(
        metaLine(ID),
        user("u1", "old"),
        {
          $set: {
            summary: "Fix the \u001b[31mflaky\u001b[0m test",
            lastUpdated: "2026-08-10T13:00:00.000Z",
          },
        },
        { $set: { messages: [user("c1", "from the checkpoint"), gemini("c2", "reply")] } },
        user("u3", "after"),
      ),
    );
    expect(t.meta.title).toBe("Fix the flaky test");
    expect(sketch(t.body)).toEqual([
      "user text:from the checkpoint",
      "assistant text:reply",
      "user text:after",
    ]);
  });

  it("lines that are not JSON records are skipped, as the CLI skips them", async () => {
    const t = read(
      jsonl(metaLine(ID), "{not json", "", "42", '["an array"]', user("u1", "hi"), '{"id": 7}'),
    );
    expect(sketch(t.body)).toEqual(["user text:hi"]);
  });

  it("info, error and warning records and injected context are not conversation", async () => {
    const t = read(
      jsonl(
        metaLine(ID),
        user(
          "ctx",
          "<session_context>\n- **Workspace Directories:**\n  - /w/app\n</session_context>",
        ),
        user("hook", "  <hook_context>extra</hook_context>"),
        { id: "i1", timestamp: "2026-08-10T12:00:01.000Z", type: "info", content: "Resumed" },
        { id: "e1", timestamp: "2026-08-10T12:00:01.000Z", type: "error", content: "quota" },
        { id: "w1", timestamp: "2026-08-10T12:00:01.000Z", type: "warning", content: "slow" },
        user("u1", "real prompt"),
      ),
    );
    expect(t.meta.cwd).toBe("/w/app");
    expect(t.meta.title).toBe("real prompt");
    expect(sketch(t.body)).toEqual(["user text:real prompt"]);
  });

  it("a functionResponse recorded in toolCalls, a user record and a checkpoint turn counts once", async () => {
    const fr = {
      functionResponse: { id: "c1", name: "run_shell_command", response: { output: "ok" } },
    };
    const t = read(
      jsonl(
        metaLine(ID),
        user("u1", "go"),
        gemini("g1", "", {
          toolCalls: [
            {
              id: "c1",
              name: "run_shell_command",
              args: { command: "ls" },
              result: [fr],
              status: "success",
            },
          ],
        }),
        { id: "g1_response", timestamp: "2026-08-10T12:00:03.000Z", type: "user", content: [fr] },
        { id: "u2", timestamp: "2026-08-10T12:00:03.000Z", type: "user", content: [fr] },
      ),
    );
    expect(t.body.slice(1)).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "c1", tool: { name: "Bash", command: "ls" } }],
        timestamp: "2026-08-10T12:00:02Z",
        model: "gemini-2.5-pro",
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "c1", content: "ok" }],
        timestamp: "2026-08-10T12:00:02Z",
      },
    ]);
  });

  it("content holding functionCall and thought parts is taken as is; errors, cancellations and images are read", async () => {
    const t = read(
      jsonl(
        metaLine(ID),
        {
          id: "u1",
          timestamp: "2026-08-10T12:00:01.000Z",
          type: "user",
          content: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "iVBOR" } }],
        },
        gemini("g1", [
          { text: "**Plan** read it", thought: true, thoughtSignature: "sig" },
          { functionCall: { id: "c1", name: "read_file", args: { file_path: "/a", end_line: 5 } } },
          {
            functionCall: { id: "c2", name: "write_file", args: { file_path: "/b", content: "x" } },
          },
        ]),
        {
          id: "u2",
          timestamp: "2026-08-10T12:00:03.000Z",
          type: "user",
          content: [
            {
              functionResponse: {
                id: "c1",
                name: "read_file",
                response: { error: "no such file" },
              },
            },
            {
              functionResponse: {
                id: "c2",
                name: "write_file",
                response: { output: "done", extra: 1 },
              },
            },
          ],
        },
      ),
    );
    expect(t.body.map((m) => m.content)).toEqual([
      [
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
      ],
      [
        { type: "thinking", text: "**Plan** read it" },
        { type: "tool_use", id: "c1", tool: { name: "Read", file_path: "/a", limit: 5 } },
        { type: "tool_use", id: "c2", tool: { name: "Write", file_path: "/b", content: "x" } },
      ],
      [
        { type: "tool_result", tool_use_id: "c1", content: "no such file", is_error: true },
        { type: "tool_result", tool_use_id: "c2", content: { output: "done", extra: 1 } },
      ],
    ]);
  });

  it("the legacy single JSON document (up to v0.38) is read", async () => {
    const doc = {
      sessionId: ID,
      projectHash: projectHash("/home/al/my_app"),
      startTime: "2026-08-10T12:00:00.000Z",
      lastUpdated: "2026-08-10T12:00:06.000Z",
      messages: [
        {
          id: "m1",
          timestamp: "2026-08-10T12:00:00.000Z",
          type: "user",
          content: [{ text: "Run the tests" }],
        },
        {
          id: "m2",
          timestamp: "2026-08-10T12:00:02.000Z",
          type: "gemini",
          content: "Running the suite.",
          model: "gemini-2.5-pro",
          thoughts: [
            {
              subject: "Plan",
              description: "Use npm test.",
              timestamp: "2026-08-10T12:00:01.500Z",
            },
          ],
          tokens: { input: 900, output: 30, cached: 100, thoughts: 12, tool: 0, total: 942 },
          toolCalls: [
            {
              id: "run_shell_command__a1",
              name: "run_shell_command",
              args: { command: "npm test", description: "Run tests", dir_path: "/home/al/my_app" },
              status: "success",
              timestamp: "2026-08-10T12:00:05.000Z",
              result: [
                {
                  functionResponse: {
                    id: "run_shell_command__a1",
                    name: "run_shell_command",
                    response: { output: "3 passing" },
                  },
                },
              ],
            },
          ],
        },
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const parsed = geminiText.parse(text, "session.json");
    expect(geminiText.render(parsed)).toBe(text);
    const t = geminiCodec.toCommon(parsed);
    expect(t.meta).toEqual({
      id: ID,
      timestamp: "2026-08-10T12:00:00Z",
      title: "Run the tests",
      model: "gemini-2.5-pro",
    });
    expect(t.body.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "**Plan** Use npm test." },
          { type: "text", text: "Running the suite." },
          {
            type: "tool_use",
            id: "run_shell_command__a1",
            tool: {
              name: "Bash",
              command: "npm test",
              workdir: "/home/al/my_app",
              description: "Run tests",
            },
          },
        ],
        timestamp: "2026-08-10T12:00:02Z",
        model: "gemini-2.5-pro",
        usage: { input_tokens: 800, output_tokens: 42, cache_read_input_tokens: 100 },
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "run_shell_command__a1", content: "3 passing" },
        ],
        timestamp: "2026-08-10T12:00:05Z",
      },
    ]);
  });

  it("tool arguments map to canonical tools only on exact fits", async () => {
    const call = (name: string, args: unknown) =>
      read(
        jsonl(
          metaLine(ID),
          user("u", "go"),
          gemini("g", [{ functionCall: { id: "c", name, args } }]),
        ),
      ).body[1]!.content[0];
    expect(
      call("run_shell_command", { command: "ls", dir_path: "/w", is_background: true }),
    ).toEqual({
      type: "tool_use",
      id: "c",
      tool: { name: "Bash", command: "ls", workdir: "/w", run_in_background: true },
    });
    expect(call("read_file", { file_path: "/a", start_line: 3, end_line: 7 })).toMatchObject({
      tool: { name: "Read", file_path: "/a", offset: 3, limit: 5 },
    });
    expect(
      call("replace", { file_path: "/a", old_string: "x", new_string: "y", allow_multiple: true }),
    ).toMatchObject({
      tool: { name: "Edit", file_path: "/a", old_string: "x", new_string: "y", replace_all: true },
    });
    for (const [name, args] of [
      ["run_shell_command", { command: "ls", delay_ms: 5 }],
      ["run_shell_command", { command: "ls", directory: "/w" }],
      ["read_file", { absolute_path: "/a" }],
      ["read_file", { file_path: "/a", offset: 0, limit: 10 }],
      ["read_file", { file_path: "/a", start_line: 9, end_line: 2 }],
      ["read_file", { file_path: "/a", start_line: 0 }],
      ["replace", { file_path: "/a", old_string: "x", new_string: "y", expected_replacements: 2 }],
      ["write_file", { file_path: "/a" }],
      ["glob", { pattern: "*.ts" }],
    ] as const) {
      expect(call(name, args), name).toEqual({
        type: "tool_use",
        id: "c",
        tool: { name: "Raw", tool_name: name, input: args },
      });
    }
  });
});

describe("the store's projects", () => {
  const ID = "9d2c6b1e-5a4f-4c1e-8b2a-3f6d7e8a9b0c";

  it("a pre-0.29 sha256 folder is named by its root's hash; a marker names a folder projects.json lacks", async () => {
    const root = emptyHome();
    put(root, "projects.json", JSON.stringify({ projects: { "/w/old": "old" } }));
    put(
      root,
      `tmp/${projectHash("/w/old")}/chats/session-2026-08-10T12-00-9d2c6b1e.json`,
      JSON.stringify({ ...metaLine(ID), messages: [user("u1", "from 0.28")] }, null, 2),
    );
    put(root, "tmp/adopted/.project_root", "/w/adopted\n");
    put(
      root,
      "tmp/adopted/chats/session-2026-08-10T12-00-11111111.jsonl",
      jsonl(metaLine("11111111-2222-4333-8444-555555555555"), user("u1", "marker")),
    );
    const found = (await store(root).discover()).sessions.map((d) => [d.id, d.meta.cwd]).sort();
    expect(found).toEqual([
      ["11111111-2222-4333-8444-555555555555", "/w/adopted"],
      [ID, "/w/old"],
    ]);
  });

  it("subagent sessions under chats/<parent>/ are listed as the parent's children", async () => {
    const root = emptyHome();
    put(root, "tmp/app/.project_root", "/w/app");
    put(
      root,
      "tmp/app/chats/session-2026-08-10T12-00-9d2c6b1e.jsonl",
      jsonl(metaLine(ID), user("u", "main")),
    );
    const sub = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
    put(
      root,
      `tmp/app/chats/${ID}/${sub}.jsonl`,
      jsonl(metaLine(sub, { kind: "subagent" }), user("u", "investigate"), gemini("g", "found it")),
    );
    const s = store(root);
    const child = (await s.discover()).sessions.find((d) => d.id === sub)!;
    expect(child).toMatchObject({ lane: "subagent", parent_id: ID, message_count: 2 });
    expect(child.meta.cwd).toBe("/w/app");
    expect(s.ids()).toEqual([ID, sub].sort());
  });

  it("of two files holding one id, the CLI's pick wins: the one with conversation, then the last updated", async () => {
    const root = emptyHome();
    put(root, "tmp/app/.project_root", "/w/app");
    put(
      root,
      "tmp/app/chats/session-2026-08-10T12-00-9d2c6b1e.jsonl",
      jsonl(metaLine(ID), user("u", "the real one"), gemini("g", "yes")),
    );
    // What 0.61 leaves when a session is resumed in a later minute: metadata and context only.
    put(
      root,
      "tmp/app/chats/session-2026-08-10T13-05-9d2c6b1e.jsonl",
      jsonl(metaLine(ID, { lastUpdated: "2026-08-10T13:05:00.000Z" }), {
        $set: { messages: [user("ctx", "<session_context>x</session_context>")] },
      }),
    );
    const s = store(root);
    const found = await s.discover();
    expect(found.sessions.map((d) => [d.id, d.message_count])).toEqual([[ID, 2]]);
    expect(found.skipped.map((k) => k.reason)).toEqual([
      "no conversation in it (the CLI does not list it either)",
    ]);
    expect(sketch(geminiCodec.toCommon(s.load(ID)).body)).toEqual([
      "user text:the real one",
      "assistant text:yes",
    ]);
  });
});
