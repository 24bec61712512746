/**
 * Bad Simple documents: each fails with one ParseError whose message names
 * the file, the JSON path (or line and column) and what was expected.
 * Hostile and huge documents parse correctly or fail the same clear way;
 * none crashes.
 */

import { describe, expect, it } from "vitest";
import type { Message } from "../../src/common.js";
import { ParseError, type TxcriptError } from "../../src/errors.js";
import { parseSimple, renderSimple } from "../../src/harness/simple.js";
import { MAX_JSON_DEPTH } from "../../src/json.js";

const json = (value: unknown) => JSON.stringify(value);
const one = (content: unknown) => json({ messages: [{ role: "assistant", content }] });
const call = { role: "assistant", content: [{ type: "tool_use", name: "A" }] };
const STOPS = `end_turn, tool_use, max_tokens, stop_sequence, aborted, error or {"other": "..."}`;
const BLOCKS = "text, thinking, tool_use, tool_result, image, artifact";

/** [what, document text, the exact message]. */
const MALFORMED: [string, string, string][] = [
  [
    "invalid JSON (line and column)",
    '{"messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "user" "content": "x"}\n]}',
    "doc.json: line 3, column 19: invalid JSON (comma expected)",
  ],
  [
    "truncated JSON",
    '{"messages": [{"role": "user", "content": "hi"',
    "doc.json: line 1, column 47: invalid JSON (close brace expected)",
  ],
  [
    "a trailing comma",
    '{"messages": [],}',
    "doc.json: line 1, column 17: invalid JSON (property name expected)",
  ],
  [
    "a comment",
    '// exported\n{"messages": []}',
    "doc.json: line 1, column 1: invalid JSON (invalid comment token)",
  ],
  [
    "two documents",
    '{"messages": []}\n{"messages": []}',
    "doc.json: line 2, column 1: invalid JSON (end of file expected)",
  ],
  [
    "a raw NUL inside a string",
    '{"messages": [{"role": "user", "content": "a\u0000b"}]}',
    "doc.json: line 1, column 43: invalid JSON (invalid character)",
  ],
  ["empty input", "  \n", "doc.json: invalid JSON: the input is empty"],
  ["an array at the top", "[]", "doc.json: expected an object, got an array"],
  ["a string at the top", '"messages"', 'doc.json: expected an object, got "messages"'],
  ["null at the top", "null", "doc.json: expected an object, got null"],
  ["no messages", '{"title": "x"}', 'doc.json: a Simple document needs "messages"'],
  [
    "messages not an array",
    '{"messages": {}}',
    "doc.json: messages: expected an array, got an object",
  ],
  [
    "a message that is a string",
    '{"messages": ["hi"]}',
    'doc.json: messages[0]: expected an object, got "hi"',
  ],
  [
    "a message without a role",
    '{"messages": [{"content": "hi"}]}',
    'doc.json: messages[0]: message needs "role"',
  ],
  [
    "a bad role",
    '{"messages": [{"role": "user", "content": "ok"}, {"role": "system", "content": "hi"}]}',
    'doc.json: messages[1].role: expected a role ("user" or "assistant"), got "system"',
  ],
  [
    "a role that is a number",
    '{"messages": [{"role": 1, "content": "hi"}]}',
    "doc.json: messages[0].role: expected a string, got 1",
  ],
  [
    "a message without content",
    '{"messages": [{"role": "user"}]}',
    'doc.json: messages[0]: message needs "content"',
  ],
  [
    "null content",
    '{"messages": [{"role": "user", "content": null}]}',
    "doc.json: messages[0].content: expected a string or an array of blocks, got null",
  ],
  [
    "a single block instead of an array",
    '{"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]}',
    "doc.json: messages[0].content: expected a string or an array of blocks, got an object",
  ],
  [
    "a block that is a string",
    one(["hi"]),
    'doc.json: messages[0].content[0]: expected an object, got "hi"',
  ],
  [
    "a block without a type",
    one([{ text: "hi" }]),
    'doc.json: messages[0].content[0]: block needs "type"',
  ],
  [
    "a bad block type",
    one([
      { type: "text", text: "ok" },
      { type: "document", text: "hi" },
    ]),
    `doc.json: messages[0].content[1].type: expected a block type (${BLOCKS}), got "document"`,
  ],
  [
    "a text block without text",
    one([{ type: "text" }]),
    'doc.json: messages[0].content[0]: text block needs "text"',
  ],
  [
    "text that is a number",
    one([{ type: "text", text: 5 }]),
    "doc.json: messages[0].content[0].text: expected a string, got 5",
  ],
  [
    "a thinking block without text",
    one([{ type: "thinking", signature: "s" }]),
    'doc.json: messages[0].content[0]: thinking block needs "text"',
  ],
  [
    "a signature that is a number",
    one([{ type: "thinking", text: "t", signature: 1 }]),
    "doc.json: messages[0].content[0].signature: expected a string, got 1",
  ],
  [
    "a tool_use without a name",
    one([{ type: "tool_use", input: {} }]),
    'doc.json: messages[0].content[0]: tool_use needs "name"',
  ],
  [
    "an empty tool name",
    one([{ type: "tool_use", name: "", input: {} }]),
    "doc.json: messages[0].content[0].name: a tool name cannot be empty",
  ],
  [
    "a tool id that is a number",
    one([{ type: "tool_use", name: "Bash", id: 7 }]),
    "doc.json: messages[0].content[0].id: expected a string, got 7",
  ],
  [
    "duplicate tool ids",
    json({
      messages: [
        { role: "assistant", content: [{ type: "tool_use", name: "A", id: "x" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "." },
            { type: "tool_use", name: "B", id: "x" },
          ],
        },
      ],
    }),
    'doc.json: messages[1].content[1].id: tool_use id "x" is used twice',
  ],
  [
    "a tool_result without content",
    json({
      messages: [
        call,
        call,
        call,
        {
          role: "user",
          content: [
            { type: "text", text: "." },
            { type: "tool_result", tool_use_id: "x" },
          ],
        },
      ],
    }),
    'doc.json: messages[3].content[1]: tool_result needs "content"',
  ],
  [
    "an id-less result with nothing to pair",
    json({ messages: [{ role: "user", content: [{ type: "tool_result", content: "ok" }] }] }),
    'doc.json: messages[0].content[0]: tool_result has no "tool_use_id" and no unanswered tool_use precedes it',
  ],
  [
    "more id-less results than calls",
    json({
      messages: [
        call,
        {
          role: "user",
          content: [
            { type: "tool_result", content: "1" },
            { type: "tool_result", content: "2" },
          ],
        },
      ],
    }),
    'doc.json: messages[1].content[1]: tool_result has no "tool_use_id" and no unanswered tool_use precedes it',
  ],
  [
    "is_error that is a string",
    json({
      messages: [
        call,
        { role: "user", content: [{ type: "tool_result", content: "ok", is_error: "yes" }] },
      ],
    }),
    'doc.json: messages[1].content[0].is_error: expected true or false, got "yes"',
  ],
  [
    "an image without a source",
    one([{ type: "image" }]),
    'doc.json: messages[0].content[0]: image needs "source"',
  ],
  [
    "an image source without data",
    one([{ type: "image", source: { type: "base64", media_type: "image/png" } }]),
    'doc.json: messages[0].content[0].source: image source needs "data"',
  ],
  [
    "an artifact of an unknown kind",
    one([
      { type: "artifact", artifact: { id: "a", name: "n", source: { type: "url", url: "x" } } },
    ]),
    'doc.json: messages[0].content[0].artifact.source.type: expected "text", "base64" or "path", got "url"',
  ],
  [
    "usage without output_tokens",
    '{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": 1}}]}',
    'doc.json: messages[0].usage: usage needs "output_tokens"',
  ],
  [
    "negative usage",
    '{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": -1, "output_tokens": 2}}]}',
    "doc.json: messages[0].usage.input_tokens: expected a non-negative integer, got -1",
  ],
  [
    "fractional usage",
    '{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": 1, "output_tokens": 2.5}}]}',
    "doc.json: messages[0].usage.output_tokens: expected a non-negative integer, got 2.5",
  ],
  [
    "usage as a string",
    '{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": "1", "output_tokens": 2}}]}',
    'doc.json: messages[0].usage.input_tokens: expected a non-negative integer, got "1"',
  ],
  [
    "a bad stop_reason",
    '{"messages": [{"role": "assistant", "content": "x", "stop_reason": "done"}]}',
    `doc.json: messages[0].stop_reason: expected a stop reason (${STOPS}), got "done"`,
  ],
  [
    "an other stop_reason that is not a string",
    '{"messages": [{"role": "assistant", "content": "x", "stop_reason": {"other": 1}}]}',
    `doc.json: messages[0].stop_reason: expected a stop reason (${STOPS}), got an object`,
  ],
  [
    "February 30",
    '{"messages": [{"role": "assistant", "content": "x", "timestamp": "2026-02-30T00:00:00Z"}]}',
    'doc.json: messages[0].timestamp: expected an RFC 3339 timestamp, got "2026-02-30T00:00:00Z"',
  ],
  [
    "epoch seconds for a timestamp",
    '{"messages": [{"role": "assistant", "content": "x", "timestamp": 1786363200}]}',
    "doc.json: messages[0].timestamp: expected an RFC 3339 timestamp, got 1786363200",
  ],
  [
    "a bad session timestamp",
    '{"timestamp": "yesterday", "messages": []}',
    'doc.json: timestamp: expected an RFC 3339 timestamp, got "yesterday"',
  ],
  ["a numeric session id", '{"id": 5, "messages": []}', "doc.json: id: expected a string, got 5"],
  [
    "an empty session id",
    '{"id": "", "messages": []}',
    "doc.json: id: a session id cannot be empty",
  ],
  ["a numeric cwd", '{"cwd": 5, "messages": []}', "doc.json: cwd: expected a string, got 5"],
  [
    "a numeric model",
    '{"messages": [{"role": "assistant", "content": "x", "model": 5}]}',
    "doc.json: messages[0].model: expected a string, got 5",
  ],
];

describe("malformed documents fail with their exact one-line message", () => {
  it("there are at least 15 of them", () => {
    expect(MALFORMED.length).toBeGreaterThanOrEqual(15);
  });

  it.each(MALFORMED)("%s", (_what, text, message) => {
    let error: unknown;
    try {
      parseSimple(text, "doc.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toBe(message);
    expect((error as ParseError).message).not.toContain("\n");
    expect((error as ParseError).harness).toBe("simple");
    expect((error as ParseError).file).toBe("doc.json");
  });

  it("without an origin the message starts at the path", () => {
    expect(() => parseSimple('{"messages": [{"role": "bot", "content": "x"}]}')).toThrow(
      /^messages\[0\]\.role: expected a role/,
    );
  });

  it("keeps the JSON syntax error as the cause", () => {
    try {
      parseSimple("{", "doc.json");
      expect.unreachable();
    } catch (e) {
      expect((e as TxcriptError).cause).toBeInstanceOf(SyntaxError);
      expect((e as TxcriptError).at).toBe("line 1, column 2");
    }
  });
});

describe("hostile strings", () => {
  it("NUL, escapes, lone surrogates and bidi controls come through unchanged", () => {
    const strings = [
      "a\u0000b",
      "\ud800",
      "x\udfffy",
      "\u202eevil",
      "\u001b[2J",
      "\r\n\t",
      "👩‍👩‍👧",
    ];
    const t = parseSimple(
      json({ title: "\u0000", messages: strings.map((s) => ({ role: "user", content: s })) }),
    );
    expect(t.meta.title).toBe("\u0000");
    expect(t.body.map((m) => (m.content[0] as { text: string }).text)).toEqual(strings);
    const rendered = renderSimple(t);
    // Lone surrogates are written as escapes, so the output is valid UTF-8.
    expect(rendered).toContain("\\ud800");
    expect(rendered).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])/u);
    expect(parseSimple(rendered)).toEqual(t);
  });

  it("raw lone surrogates in the text itself, with no id to derive from", () => {
    const text = `{"messages": [{"role": "user", "content": "a\ud800b"}]}`;
    const t = parseSimple(text);
    expect(t.meta.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseSimple(text).meta.id).toBe(t.meta.id);
    expect((t.body[0]!.content[0] as { text: string }).text).toBe("a\ud800b");
  });

  it("a 5 MB single-line string", () => {
    const big = "x".repeat(5_000_000);
    const t = parseSimple(json({ messages: [{ role: "user", content: big }] }));
    expect((t.body[0]!.content[0] as { text: string }).text.length).toBe(5_000_000);
  });

  it("an error past a very long line still names its line and column", () => {
    const text = `{"messages": [{"role": "user", "content": "${"y".repeat(1_000_000)}"}]\n,]`;
    expect(() => parseSimple(text, "long.json")).toThrow(
      "long.json: line 2, column 2: invalid JSON (property name expected)",
    );
  });

  it("__proto__ and constructor keys in tool input are data, not prototypes", () => {
    const text =
      '{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "X", "input": {"__proto__": {"polluted": 1}, "constructor": "c"}}]}]}';
    const t = parseSimple(text);
    const tool = (t.body[0]!.content[0] as { tool: { input: Record<string, unknown> } }).tool;
    expect(Object.keys(tool.input)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const again = JSON.parse(renderSimple(t)).messages[0].content[0].input;
    expect(Object.keys(again)).toEqual(["__proto__", "constructor"]);
  });
});

describe("deeply nested input", () => {
  const nested = (levels: number) =>
    `{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "X", "input": ${"[".repeat(levels)}${"]".repeat(levels)}}]}]}`;
  // The document, its message array, the message, the content array and the block come first.
  const around = 5;

  it("10,000 levels: a clear error, not a stack overflow", () => {
    expect(() => parseSimple(nested(10_000), "deep.json")).toThrow(
      new ParseError("simple", `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, {
        file: "deep.json",
        at: "messages[0].content[0].input[0]…",
      }),
    );
  });

  it("exactly at the limit: read, rendered and read back", () => {
    const t = parseSimple(nested(MAX_JSON_DEPTH - around));
    let input = (t.body[0]!.content[0] as { tool: { input: unknown } }).tool.input;
    let depth = 0;
    while (Array.isArray(input)) {
      depth++;
      input = input[0];
    }
    expect(depth).toBe(MAX_JSON_DEPTH - around);
    expect(parseSimple(renderSimple(t))).toEqual(t);
  });

  it("one level past the limit: refused", () => {
    expect(() => parseSimple(nested(MAX_JSON_DEPTH - around + 1))).toThrow(ParseError);
  });

  it("deep objects are refused the same way", () => {
    const deep = `{"messages": [{"role": "user", "content": [{"type": "text", "text": "x", "extra": ${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}]}]}`;
    expect(() => parseSimple(deep, "deep.json")).toThrow(
      "deep.json: messages[0].content[0].extra.a…: JSON nested deeper than",
    );
  });
});

describe("huge documents", () => {
  it("50,000 messages with id-less pairs parse, pair and round trip", () => {
    const messages: unknown[] = [];
    for (let i = 0; i < 25_000; i++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", name: "Bash", input: { command: `echo ${i}` } }],
      });
      messages.push({ role: "user", content: [{ type: "tool_result", content: `${i}` }] });
    }
    const t = parseSimple(json({ timestamp: "2026-01-01T00:00:00Z", messages }));
    expect(t.body.length).toBe(50_000);
    const last = t.body.at(-2) as Message;
    const lastResult = t.body.at(-1) as Message;
    expect(lastResult.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: (last.content[0] as { id: string }).id,
      content: "24999",
    });
    const ids = new Set(
      t.body.flatMap((m) => m.content.map((b) => (b.type === "tool_use" ? b.id : ""))),
    );
    expect(ids.size).toBe(25_001); // 25,000 ids and the "" of the results
    expect(parseSimple(renderSimple(t))).toEqual(t);
  });

  it("a 20,000-block message", () => {
    const content = Array.from({ length: 20_000 }, (_, i) => ({ type: "text", text: String(i) }));
    const t = parseSimple(json({ messages: [{ role: "user", content }] }));
    expect(t.body[0]!.content.length).toBe(20_000);
  });
});
