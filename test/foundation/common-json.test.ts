/**
 * Common JSON: the bundled full example is reproduced byte for byte, the
 * shape and key order are txcript's, the reader normalizes Raw tools that
 * fit a typed tool, and malformed Common documents fail with the path.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Json } from "../../src/common.js";
import { commonToJson, readCommon, renderCommon } from "../../src/common-json.js";
import { convert, parseToCommon } from "../../src/convert.js";
import { ParseError } from "../../src/errors.js";
import { Checker, parseJson } from "../../src/json.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { ROOT } from "../support/cli.js";

const fixture = (name: string) => readFileSync(join(ROOT, "test/fixtures/common", name), "utf8");
/**
 * The text txcript prints: the document and one final newline (the bundled
 * copy of txcript's example was saved without that newline).
 */
const printed = (name: string) => `${fixture(name).replace(/\n$/, "")}\n`;
const read = (text: string): Transcript<Common> =>
  readCommon(new Checker("common", "c.json"), parseJson(text, "common", "c.json"));
const meta = { id: "s", timestamp: "2026-01-01T00:00:00Z" };
const TS = "2026-01-01T00:00:00Z";
const withBlocks = (content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ meta, messages: [{ role: "assistant", content, timestamp: TS, ...extra }] });
const withTool = (tool: unknown) => withBlocks([{ type: "tool_use", id: "a", tool }]);

describe("the full example", () => {
  it("Simple -> Common reproduces txcript's output byte for byte", () => {
    expect(convert(fixture("full.simple.json"), "simple", "common")).toBe(
      printed("full.common.json"),
    );
  });

  it("reading and rewriting full.common.json changes nothing", () => {
    expect(renderCommon(read(fixture("full.common.json")))).toBe(printed("full.common.json"));
  });

  it("covers every block, every tool, errors, JSON results, usage and stop reasons", () => {
    const t = read(fixture("full.common.json"));
    const blocks = t.body.flatMap((m) => m.content);
    expect(new Set(blocks.map((b) => b.type))).toEqual(
      new Set(["text", "image", "tool_use", "tool_result", "thinking"]),
    );
    const tools = blocks.flatMap((b) => (b.type === "tool_use" ? [b.tool.name] : []));
    expect(new Set(tools)).toEqual(
      new Set(["Command", "Bash", "Read", "Write", "Edit", "MultiEdit", "Raw"]),
    );
    expect(blocks.some((b) => b.type === "tool_result" && b.is_error)).toBe(true);
    expect(blocks.some((b) => b.type === "tool_result" && typeof b.content !== "string")).toBe(
      true,
    );
    expect(t.body.map((m) => m.stop_reason).filter(Boolean)).toEqual([
      "tool_use",
      "end_turn",
      "max_tokens",
    ]);
    // Messages without a timestamp took the session's.
    expect(t.body.every((m) => m.timestamp === t.meta.timestamp)).toBe(true);
  });
});

describe("shape and key order", () => {
  it("writes meta, messages and blocks in declaration order, opaque JSON sorted", () => {
    const t: Transcript<Common> = {
      meta: {
        model: "m",
        cli_version: "1",
        title: "t",
        git_branch: "b",
        cwd: "/c",
        timestamp: TS,
        id: "s",
      },
      body: [
        {
          usage: {
            cache_creation_input_tokens: 4,
            cache_read_input_tokens: 3,
            output_tokens: 2,
            input_tokens: 1,
          },
          stop_reason: { other: "refusal" },
          model: "m",
          timestamp: TS,
          content: [
            {
              is_error: true,
              content: { z: 1, a: { y: [{ d: 1, c: 2 }], b: 0 } },
              tool_use_id: "a",
              type: "tool_result",
            },
            {
              tool: { input: { z: 1, a: 2 }, tool_name: "X", name: "Raw" },
              id: "a",
              type: "tool_use",
            },
            { encrypted: "e", signature: "s", text: "t", type: "thinking" },
          ],
          role: "assistant",
        },
      ],
    };
    const json = commonToJson(t);
    expect(Object.keys(json)).toEqual(["meta", "messages"]);
    expect(Object.keys(json.meta as object)).toEqual([
      "id",
      "timestamp",
      "cwd",
      "git_branch",
      "title",
      "cli_version",
      "model",
    ]);
    const message = (json.messages as Record<string, Json>[])[0]!;
    expect(Object.keys(message)).toEqual([
      "role",
      "content",
      "timestamp",
      "model",
      "stop_reason",
      "usage",
    ]);
    expect(Object.keys(message.usage as object)).toEqual([
      "input_tokens",
      "output_tokens",
      "cache_read_input_tokens",
      "cache_creation_input_tokens",
    ]);
    expect(message.stop_reason).toEqual({ other: "refusal" });
    const [result, use, thinking] = message.content as Record<string, Json>[];
    expect(JSON.stringify(result)).toBe(
      '{"type":"tool_result","tool_use_id":"a","content":{"a":{"b":0,"y":[{"c":2,"d":1}]},"z":1},"is_error":true}',
    );
    expect(JSON.stringify(use)).toBe(
      '{"type":"tool_use","id":"a","tool":{"name":"Raw","tool_name":"X","input":{"a":2,"z":1}}}',
    );
    expect(Object.keys(thinking!)).toEqual(["type", "text", "signature", "encrypted"]);
  });

  it("pretty-prints with two spaces and a final newline", () => {
    const text = renderCommon({ meta, body: [] });
    expect(text).toBe(
      '{\n  "meta": {\n    "id": "s",\n    "timestamp": "2026-01-01T00:00:00Z"\n  },\n  "messages": []\n}\n',
    );
  });
});

describe("reading", () => {
  it("normalizes a Raw tool whose input fits a typed tool", () => {
    const t = read(
      withTool({ name: "Raw", tool_name: "Read", input: { file_path: "/a", limit: 5 } }),
    );
    expect(t.body[0]!.content[0]).toEqual({
      type: "tool_use",
      id: "a",
      tool: { name: "Read", file_path: "/a", limit: 5 },
    });
    const cmd = read(withTool({ name: "Raw", tool_name: "/review", input: { args: "x" } }));
    expect(cmd.body[0]!.content[0]).toMatchObject({
      tool: { name: "Command", command: "/review", args: "x" },
    });
    // And writes it typed.
    expect(renderCommon(t)).toContain('"name": "Read"');
  });

  it("keeps a Raw tool whose input does not fit, and reads a missing input as null", () => {
    const t = read(
      withTool({ name: "Raw", tool_name: "Read", input: { file_path: "/a", pages: "1-2" } }),
    );
    expect(t.body[0]!.content[0]).toMatchObject({
      tool: { name: "Raw", tool_name: "Read", input: { file_path: "/a", pages: "1-2" } },
    });
    const noInput = read(withTool({ name: "Raw", tool_name: "mcp__x__y" }));
    expect(noInput.body[0]!.content[0]).toMatchObject({ tool: { input: null } });
  });

  it("reads optional fields set to null as absent, as txcript does", () => {
    const t = read(
      JSON.stringify({
        meta: { ...meta, cwd: null, title: null },
        messages: [
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "a", tool: { name: "Bash", command: "ls", workdir: null } },
              { type: "tool_result", tool_use_id: "a", content: "x", is_error: false },
            ],
            timestamp: "2026-01-01T01:00:00+01:00",
            model: null,
            usage: null,
          },
        ],
      }),
    );
    expect(t).toEqual({
      meta,
      body: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "a", tool: { name: "Bash", command: "ls" } },
            { type: "tool_result", tool_use_id: "a", content: "x" },
          ],
          timestamp: TS,
        },
      ],
    });
  });

  it("reads a repeated tool_use id, which Simple then refuses on the way back", () => {
    const repeated = withBlocks([
      { type: "tool_use", id: "a", tool: { name: "Bash", command: "ls" } },
      { type: "tool_use", id: "a", tool: { name: "Bash", command: "pwd" } },
    ]);
    const t = read(repeated);
    expect(t.body[0]!.content.length).toBe(2);
    expect(() => convert(repeated, "common", "simple")).not.toThrow();
    expect(() => convert(convert(repeated, "common", "simple"), "simple", "common")).toThrow(
      'messages[0].content[1].id: tool_use id "a" is used twice',
    );
  });

  it("parseToCommon reads Common text through the same reader", () => {
    expect(parseToCommon(fixture("full.common.json"), "common")).toEqual(
      read(fixture("full.common.json")),
    );
  });
});

const TOOL_NAMES = "Bash, Read, Write, Edit, MultiEdit, Command, Raw";
const BLOCKS = "text, thinking, tool_use, tool_result, image, artifact";
const MALFORMED: [string, string, string][] = [
  ["an array at the top", "[]", "c.json: expected an object, got an array"],
  ["no meta", JSON.stringify({ messages: [] }), 'c.json: a Common document needs "meta"'],
  [
    "meta that is a string",
    JSON.stringify({ meta: "x", messages: [] }),
    'c.json: meta: expected an object, got "x"',
  ],
  [
    "meta without an id",
    JSON.stringify({ meta: { timestamp: TS }, messages: [] }),
    'c.json: meta: meta needs "id"',
  ],
  [
    "an empty session id",
    JSON.stringify({ meta: { id: "", timestamp: TS }, messages: [] }),
    "c.json: meta.id: a session id cannot be empty",
  ],
  [
    "meta without a timestamp",
    JSON.stringify({ meta: { id: "s" }, messages: [] }),
    'c.json: meta: meta needs "timestamp"',
  ],
  [
    "month 13",
    JSON.stringify({ meta: { id: "s", timestamp: "2026-13-01T00:00:00Z" }, messages: [] }),
    'c.json: meta.timestamp: expected an RFC 3339 timestamp, got "2026-13-01T00:00:00Z"',
  ],
  ["no messages", JSON.stringify({ meta }), 'c.json: a Common document needs "messages"'],
  [
    "string content (Simple's shorthand, not Common)",
    JSON.stringify({ meta, messages: [{ role: "user", content: "hi", timestamp: TS }] }),
    'c.json: messages[0].content: expected an array, got "hi"',
  ],
  [
    "a message without a timestamp",
    JSON.stringify({ meta, messages: [{ role: "user", content: [] }] }),
    'c.json: messages[0]: message needs "timestamp"',
  ],
  [
    "a tool name Common does not have",
    withTool({ name: "Glob", pattern: "*" }),
    `c.json: messages[0].content[0].tool.name: expected a tool name (${TOOL_NAMES}), got "Glob"`,
  ],
  [
    "a tool without a name",
    withTool({ command: "ls" }),
    'c.json: messages[0].content[0].tool: tool needs "name"',
  ],
  [
    "a typed tool with an extra key",
    withTool({ name: "Bash", command: "ls", timeout: 5 }),
    'c.json: messages[0].content[0].tool: unexpected key "timeout" for a Bash tool',
  ],
  [
    "a typed tool missing a field",
    withTool({ name: "Bash" }),
    'c.json: messages[0].content[0].tool: Bash tool needs "command"',
  ],
  [
    "a negative offset",
    withTool({ name: "Read", file_path: "/a", offset: -1 }),
    "c.json: messages[0].content[0].tool.offset: expected a non-negative integer, got -1",
  ],
  [
    "a command without its slash",
    withTool({ name: "Command", command: "review" }),
    'c.json: messages[0].content[0].tool.command: expected a command starting with "/", got "review"',
  ],
  [
    "a Raw tool with an empty name",
    withTool({ name: "Raw", tool_name: "", input: {} }),
    "c.json: messages[0].content[0].tool.tool_name: a tool name cannot be empty",
  ],
  [
    "a Raw tool with an extra key",
    withTool({ name: "Raw", tool_name: "X", input: {}, extra: 1 }),
    'c.json: messages[0].content[0].tool: unexpected key "extra" for a Raw tool',
  ],
  [
    "an edit without new_string",
    withTool({ name: "MultiEdit", file_path: "/a", edits: [{ old_string: "a" }] }),
    'c.json: messages[0].content[0].tool.edits[0]: edit needs "new_string"',
  ],
  [
    "an edit with an extra key",
    withTool({
      name: "MultiEdit",
      file_path: "/a",
      edits: [{ old_string: "a", new_string: "b", x: 1 }],
    }),
    'c.json: messages[0].content[0].tool.edits[0]: unexpected key "x" in an edit',
  ],
  [
    "a tool_use without a tool",
    withBlocks([{ type: "tool_use", id: "a" }]),
    'c.json: messages[0].content[0]: tool_use needs "tool"',
  ],
  [
    "a tool_use without an id",
    withBlocks([{ type: "tool_use", tool: { name: "Bash", command: "ls" } }]),
    'c.json: messages[0].content[0]: tool_use needs "id"',
  ],
  [
    "a tool_result without a tool_use_id",
    withBlocks([{ type: "tool_result", content: "x" }]),
    'c.json: messages[0].content[0]: tool_result needs "tool_use_id"',
  ],
  [
    "a tool_result without content",
    withBlocks([{ type: "tool_result", tool_use_id: "a" }]),
    'c.json: messages[0].content[0]: tool_result needs "content"',
  ],
  [
    "an artifact without a name",
    withBlocks([{ type: "artifact", artifact: { id: "a", source: { type: "text", text: "x" } } }]),
    'c.json: messages[0].content[0].artifact: artifact needs "name"',
  ],
  [
    "fractional usage",
    withBlocks([], { usage: { input_tokens: 1.5, output_tokens: 1 } }),
    "c.json: messages[0].usage.input_tokens: expected a non-negative integer, got 1.5",
  ],
  [
    "a block type Common does not have",
    withBlocks([{ type: "redacted_thinking", data: "x" }]),
    `c.json: messages[0].content[0].type: expected a block type (${BLOCKS}), got "redacted_thinking"`,
  ],
  [
    "invalid JSON",
    '{"meta": {"id": "s",\n "timestamp": 5',
    "c.json: line 2, column 16: invalid JSON (close brace expected)",
  ],
];

describe("malformed Common documents", () => {
  it.each(MALFORMED)("%s", (_what, text, message) => {
    expect(() => read(text)).toThrow(ParseError);
    expect(() => read(text)).toThrow(message);
    try {
      read(text);
    } catch (e) {
      expect((e as ParseError).message).toBe(message);
      expect((e as ParseError).harness).toBe("common");
    }
  });
});
