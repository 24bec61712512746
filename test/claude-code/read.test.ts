/**
 * Reading Claude Code sessions into Common: split responses, branches,
 * titles, slash commands, tools, and the tolerant handling of drift.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block, Message, Tool } from "../../src/common.js";
import { ParseError } from "../../src/errors.js";
import { claudeCodeCodec } from "../../src/harness/claude-code/codec.js";
import { claudeCodeText } from "../../src/harness/claude-code/text.js";
import type { Common, Transcript } from "../../src/transcript.js";
import {
  assistant,
  basicSession,
  CWD,
  jsonl,
  type Rec,
  SID,
  system,
  text,
  toolResult,
  toolUse,
  u,
  user,
} from "./lines.js";

function read(source: string): Transcript<Common> {
  return claudeCodeCodec.toCommon(claudeCodeText.parse(source, "fixture.jsonl"));
}

const texts = (m: Message | undefined) =>
  (m?.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : []));
const allTexts = (c: Common) => c.flatMap((m) => texts(m));

describe("reading a Claude Code session", () => {
  it("merges the lines of one split response and counts its usage once", () => {
    const { meta, body } = read(basicSession());
    expect(body.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const response = body[1]!;
    expect(response.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(response.content[0]).toEqual({ type: "thinking", text: "Use npm.", signature: "sig-A" });
    expect(response.stop_reason).toBe("tool_use");
    expect(response.usage).toEqual({
      input_tokens: 1200,
      output_tokens: 41,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 30,
    });
    // Three lines repeated the usage; the session total counts it once.
    const output = body.reduce((n, m) => n + (m.usage?.output_tokens ?? 0), 0);
    expect(output).toBe(41 + 9);
    expect(response.timestamp).toBe("2026-08-10T12:00:02Z");
    expect(meta).toEqual({
      id: SID,
      timestamp: "2026-08-10T12:00:01Z",
      cwd: CWD,
      git_branch: "main",
      title: "Run the tests",
      cli_version: "2.1.200",
      model: "claude-sonnet-4-5",
    });
  });

  it("maps Bash's timeout to timeout_ms and keeps Claude's own keys for the other tools", () => {
    const { body } = read(basicSession());
    const call = body[1]!.content[2] as Extract<Block, { type: "tool_use" }>;
    expect(call).toEqual({
      type: "tool_use",
      id: "toolu_01",
      tool: { name: "Bash", command: "npm test", timeout_ms: 60000, description: "Run tests" },
    });
    expect(body[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_01", content: "3 passing" },
    ]);
  });

  it("keeps tools whose input does not fit the typed schema as Raw, untouched", () => {
    const inputs: [string, unknown, Tool][] = [
      [
        "Bash",
        { command: "rm -rf build", dangerouslyDisableSandbox: true },
        {
          name: "Raw",
          tool_name: "Bash",
          input: { command: "rm -rf build", dangerouslyDisableSandbox: true },
        },
      ],
      // Other writers emit Common's own keys in a Claude Bash: every key fits, so it is a Bash.
      ["Bash", { command: "ls", timeout_ms: 5 }, { name: "Bash", command: "ls", timeout_ms: 5 }],
      [
        "Bash",
        { command: "npm test", workdir: "/srv/app", description: "Run the tests" },
        { name: "Bash", command: "npm test", workdir: "/srv/app", description: "Run the tests" },
      ],
      [
        "Bash",
        { command: "make", workdir: "/srv/app", timeout: 9000, run_in_background: true },
        {
          name: "Bash",
          command: "make",
          workdir: "/srv/app",
          timeout_ms: 9000,
          run_in_background: true,
        },
      ],
      // Both timeouts: which one is meant is unknown, so the input is kept as it is.
      [
        "Bash",
        { command: "ls", timeout: 5, timeout_ms: 6 },
        { name: "Raw", tool_name: "Bash", input: { command: "ls", timeout: 5, timeout_ms: 6 } },
      ],
      // A key no canonical Bash has keeps the whole input Raw.
      [
        "Bash",
        { command: "ls", workdir: "/srv", shell: "zsh" },
        { name: "Raw", tool_name: "Bash", input: { command: "ls", workdir: "/srv", shell: "zsh" } },
      ],
      [
        "Read",
        { file_path: "/a.pdf", pages: "1-3" },
        { name: "Raw", tool_name: "Read", input: { file_path: "/a.pdf", pages: "1-3" } },
      ],
      ["Read", { file_path: "/a.ts", offset: 3 }, { name: "Read", file_path: "/a.ts", offset: 3 }],
      [
        "Glob",
        { pattern: "**/*.ts" },
        { name: "Raw", tool_name: "Glob", input: { pattern: "**/*.ts" } },
      ],
      [
        "MultiEdit",
        { file_path: "/a", edits: [{ old_string: "x", new_string: "y" }] },
        { name: "MultiEdit", file_path: "/a", edits: [{ old_string: "x", new_string: "y" }] },
      ],
    ];
    const records: Rec[] = [user(1, null, "go")];
    inputs.forEach(([name, input], i) => {
      records.push(assistant(2 + 2 * i, 1 + 2 * i, `msg_${i}`, [toolUse(`t${i}`, name, input)]));
      records.push(user(3 + 2 * i, 2 + 2 * i, [toolResult(`t${i}`, "ok")]));
    });
    const { body } = read(jsonl(records));
    const tools = body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [b.tool] : [])),
    );
    expect(tools).toEqual(inputs.map(([, , tool]) => tool));
  });

  it("follows the live branch when a prompt was edited and drops the dead one", () => {
    const source = jsonl([
      user(1, null, "first prompt"),
      assistant(2, 1, "msg_a", [text("first answer")], { stop: "end_turn" }),
      user(3, 2, "second prompt, abandoned"),
      assistant(4, 3, "msg_b", [text("answer on the dead branch")], { stop: "end_turn" }),
      // The user rewound to after line 2 and asked again.
      user(5, 2, "second prompt, edited"),
      assistant(6, 5, "msg_c", [text("live answer")], { stop: "end_turn" }),
    ]);
    const { body } = read(source);
    expect(allTexts(body)).toEqual([
      "first prompt",
      "first answer",
      "second prompt, edited",
      "live answer",
    ]);
  });

  it("keeps parallel tool results that hang off their own calls' lines", () => {
    const source = jsonl([
      user(1, null, "read both"),
      assistant(2, 1, "msg_p", [toolUse("tA", "Read", { file_path: "/a" })]),
      assistant(3, 2, "msg_p", [toolUse("tB", "Read", { file_path: "/b" })], { stop: "tool_use" }),
      // Each result's parent is the line of its own call: a sibling of the chain.
      user(4, 2, [toolResult("tA", "content of a")]),
      user(5, 3, [toolResult("tB", "content of b")]),
      assistant(6, 5, "msg_q", [text("Both read.")], { stop: "end_turn" }),
    ]);
    const { body } = read(source);
    expect(body.map((m) => m.content.map((b) => b.type).join(","))).toEqual([
      "text",
      "tool_use,tool_use",
      "tool_result",
      "tool_result",
      "text",
    ]);
    const results = body.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_result" ? [b.content] : [])),
    );
    expect(results).toEqual(["content of a", "content of b"]);
  });

  it("follows a compaction boundary back to the history before it", () => {
    const source = jsonl([
      user(1, null, "before compact"),
      assistant(2, 1, "msg_1", [text("old answer")], { stop: "end_turn" }),
      {
        ...system(3, null, "compact_boundary", "Conversation compacted"),
        logicalParentUuid: u(2),
      },
      user(4, 3, "This session is being continued from a previous conversation.", {
        isCompactSummary: true,
      }),
      user(5, 4, "after compact"),
      assistant(6, 5, "msg_2", [text("new answer")], { stop: "end_turn" }),
    ]);
    expect(allTexts(read(source).body)).toEqual([
      "before compact",
      "old answer",
      "This session is being continued from a previous conversation.",
      "after compact",
      "new answer",
    ]);
  });

  it("keeps lines whose parent is missing rather than truncating the history", () => {
    const source = jsonl([
      user(1, null, "kept although orphaned"),
      assistant(2, 1, "msg_1", [text("reply")]),
      user(3, 99, "parent never written"),
      assistant(4, 3, "msg_2", [text("last")]),
    ]);
    expect(allTexts(read(source).body)).toEqual([
      "kept although orphaned",
      "reply",
      "parent never written",
      "last",
    ]);
  });

  it("skips sidechain (subagent) lines and duplicated uuids", () => {
    const source = jsonl([
      user(1, null, "main prompt"),
      { ...user(2, null, "subagent prompt"), isSidechain: true },
      { ...assistant(3, 2, "msg_s", [text("subagent answer")]), isSidechain: true },
      assistant(4, 1, "msg_m", [text("main answer")]),
      assistant(4, 1, "msg_m", [text("main answer")]),
    ]);
    expect(allTexts(read(source).body)).toEqual(["main prompt", "main answer"]);
  });

  it("takes the title from custom-title over ai-title over summary, the latest of each", () => {
    const title = (...records: Rec[]) => read(jsonl([user(1, null, "hi"), ...records])).meta.title;
    expect(title({ type: "summary", summary: "S", leafUuid: u(1) })).toBe("S");
    expect(
      title(
        { type: "summary", summary: "S", leafUuid: u(1) },
        { type: "ai-title", aiTitle: "A1" },
        { type: "ai-title", aiTitle: "A2" },
      ),
    ).toBe("A2");
    expect(
      title(
        { type: "custom-title", customTitle: "C1" },
        { type: "ai-title", aiTitle: "A" },
        { type: "custom-title", customTitle: "C2" },
      ),
    ).toBe("C2");
    // No title line (`claude -p`): the first prompt, as Codex and Gemini CLI name theirs.
    expect(title()).toBe("hi");
  });

  it("maps slash-command records, old and new style, to /command tools paired with their output", () => {
    const source = jsonl([
      user(1, null, "<local-command-caveat>Caveat: generated locally.</local-command-caveat>", {
        isMeta: true,
      }),
      // Older releases: user lines.
      user(
        2,
        1,
        "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>",
      ),
      user(3, 2, "<local-command-stdout>Set model to opus</local-command-stdout>"),
      // Newer releases: system lines, tags in another order.
      system(
        4,
        3,
        "local_command",
        "<command-message>doctor</command-message>\n<command-name>/doctor</command-name>\n<command-args></command-args>",
      ),
      system(5, 4, "local_command", "<local-command-stderr>doctor failed</local-command-stderr>"),
      // Prose that merely mentions a tag stays prose.
      user(6, 5, "what does <command-name> mean?"),
    ]);
    const { body } = read(source);
    expect(body.map((m) => m.content)).toEqual([
      [{ type: "tool_use", id: u(2), tool: { name: "Command", command: "/model", args: "opus" } }],
      [{ type: "tool_result", tool_use_id: u(2), content: "Set model to opus" }],
      [{ type: "tool_use", id: u(4), tool: { name: "Command", command: "/doctor" } }],
      [{ type: "tool_result", tool_use_id: u(4), content: "doctor failed", is_error: true }],
      [{ type: "text", text: "what does <command-name> mean?" }],
    ]);
  });

  it("reads images and documents, and drops blocks Common cannot hold", () => {
    const source = jsonl([
      user(1, null, [
        text("look"),
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
        {
          type: "document",
          title: "spec.pdf",
          source: { type: "base64", media_type: "application/pdf", data: "JVBERi0" },
        },
      ]),
      assistant(2, 1, "msg_1", [
        { type: "redacted_thinking", data: "EmwKAhgB" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "x" } },
        text("seen"),
      ]),
    ]);
    const { body } = read(source);
    expect(body[0]!.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBOR" },
    });
    expect(body[0]!.content[2]).toMatchObject({
      type: "artifact",
      artifact: {
        name: "spec.pdf",
        source: { type: "base64", data: "JVBERi0", media_type: "application/pdf" },
      },
    });
    expect(body[1]!.content).toEqual([{ type: "text", text: "seen" }]);
  });

  it("maps stop reasons: Anthropic's own as themselves, others kept verbatim", () => {
    const source = jsonl([
      user(1, null, "a"),
      assistant(2, 1, "m1", [text("x")], { stop: "max_tokens" }),
      assistant(3, 2, "m2", [text("y")], { stop: "refusal" }),
      assistant(4, 3, "m3", [text("z")], { stop: null }),
    ]);
    const { body } = read(source);
    expect(body.slice(1).map((m) => m.stop_reason)).toEqual([
      "max_tokens",
      { other: "refusal" },
      undefined,
    ]);
  });

  it("reads string content as text, and a model of <synthetic> is not the session's model", () => {
    const source = jsonl([
      user(1, null, "hello"),
      assistant(2, 1, "m1", [text("API Error: overloaded")], { model: "<synthetic>" }),
      assistant(3, 2, "m2", [text("ok")], { model: "claude-opus-5" }),
    ]);
    const t = read(source);
    expect(t.meta.model).toBe("claude-opus-5");
    expect(t.body[0]!.content).toEqual([{ type: "text", text: "hello" }]);
  });
});

describe("drift and damage (documented tolerant reading)", () => {
  it("skips invalid, unknown and malformed lines and reads the rest", () => {
    const good = basicSession().split("\n");
    const source = [
      good[0],
      "{ this is not json",
      JSON.stringify({ type: "brand-new-line-type", payload: [1, 2, 3] }),
      JSON.stringify({ ...user(50, null, "x"), message: 42 }),
      JSON.stringify([1, 2]),
      ...good.slice(1),
      '{"type":"user","message":{"role":"user","content":"trunc', // a crash mid-write
    ].join("\n");
    expect(read(source).body).toEqual(read(basicSession()).body);
  });

  it("refuses text with no Claude Code record, naming the file and line", () => {
    expect(() => claudeCodeText.parse("", "empty.jsonl")).toThrow(ParseError);
    expect(() => claudeCodeText.parse("", "empty.jsonl")).toThrow(/empty\.jsonl: .*empty/);
    expect(() => claudeCodeText.parse("\n\nnot json\n", "x.jsonl")).toThrow(
      /x\.jsonl: not a Claude Code session: no line is a record \(line 3 is not a JSON object\)/,
    );
    expect(() => claudeCodeText.parse('{"messages":[]}', "simple.json")).toThrow(
      /without a string "type"/,
    );
  });

  it("does not let __proto__ keys in tool input reach any prototype", () => {
    const line = `{"type":"assistant","uuid":"${u(2)}","parentUuid":null,"sessionId":"${SID}","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls","__proto__":{"polluted":true},"timeout":5}}]}}`;
    const { body } = read(`${line}\n`);
    const tool = (body[0]!.content[0] as Extract<Block, { type: "tool_use" }>).tool;
    expect(tool.name).toBe("Raw");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf((tool as { input: object }).input)).toBe(Object.prototype);
  });

  it("reads a huge line, and skips a line nested too deep, without crashing", () => {
    const big = "x".repeat(20 * 1024 * 1024);
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const source = [
      JSON.stringify(user(1, null, "go")),
      JSON.stringify(assistant(2, 1, "m", [toolUse("t", "Read", { file_path: "/big" })])),
      JSON.stringify(user(3, 2, [toolResult("t", big)])),
      JSON.stringify(assistant(4, 3, "n", [toolUse("d", "Deep", {})])).replace(
        '"input":{}',
        `"input":{"v":${deep}}`,
      ),
    ].join("\n");
    const { body } = read(source);
    expect((body[2]!.content[0] as { content: string }).content.length).toBe(big.length);
    // Nested deeper than MAX_JSON_DEPTH: read as an invalid line (kept verbatim,
    // skipped in the conversation), since rendering it would overflow the stack.
    expect(body).toHaveLength(3);
  });
});

describe("properties of the text form and the reader", () => {
  const record = fc.oneof(
    fc.constantFrom(
      user(1, null, "hi"),
      assistant(2, 1, "m", [text("x"), toolUse("t", "Bash", { command: "ls" })]),
      user(3, 2, [toolResult("t", "out")]),
      system(4, 3, "local_command", "<local-command-stdout>x</local-command-stdout>"),
      { type: "summary", summary: "s", leafUuid: u(1) },
    ),
    fc.record({
      type: fc.constantFrom("user", "assistant", "system", "summary", "custom-title", "odd"),
      uuid: fc.constantFrom(u(1), u(2), u(3), u(9)),
      parentUuid: fc.constantFrom(null, u(1), u(2), u(3), u(8)),
      message: fc.jsonValue(),
      content: fc.jsonValue(),
      isSidechain: fc.boolean(),
    }),
  );
  const line = fc.oneof(
    record.map((r) => JSON.stringify(r)),
    fc.string(),
    fc.constantFrom("", "{", "[]", "null", "\ufeff{}", '{"type":"user"}'),
  );
  const soup = fc.tuple(
    fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { maxLength: 12 }),
    fc.option(line),
  );

  it("renders any parsed text back byte for byte, and reading it never throws anything but ParseError", () => {
    fc.assert(
      fc.property(soup, ([lines, last]) => {
        const source =
          lines.map(([l, eol]) => l.replace(/[\r\n]/g, "") + eol).join("") + (last ?? "");
        let parsed: ReturnType<typeof claudeCodeText.parse>;
        try {
          parsed = claudeCodeText.parse(source, "soup.jsonl");
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
          return;
        }
        expect(claudeCodeText.render(parsed)).toBe(source);
        const common = claudeCodeCodec.toCommon(parsed);
        for (const m of common.body) expect(m.content.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
