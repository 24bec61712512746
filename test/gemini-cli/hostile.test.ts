/**
 * Malformed, truncated, hostile and huge Gemini CLI input: a one-line
 * ParseError naming the file, or the CLI's documented tolerant reading
 * (bad lines skipped, a cut-off last line ignored); never a crash, a hang, a
 * partial write or a change to the source. Plus fast-check properties: any
 * mix of lines parses or fails cleanly and renders back byte for byte, and
 * whatever fromCommon writes is a fixed point of the text form.
 */

import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError, TxcriptError } from "../../src/errors.js";
import {
  countMessages,
  geminiCodec,
  geminiText,
  replay,
} from "../../src/harness/gemini-cli/index.js";
import { readSessionLines } from "../../src/harness/gemini-cli/store.js";
import { shapedSessionArb } from "../cross/shaped.js";
import { hashTree } from "../support/tmp.js";
import {
  emptyHome,
  FILES,
  FIXTURE,
  fixtureHome,
  gemini,
  jsonl,
  metaLine,
  put,
  store,
  user,
} from "./support.js";

const ID = "9d2c6b1e-5a4f-4c1e-8b2a-3f6d7e8a9b0c";
const read = (text: string) => geminiCodec.toCommon(geminiText.parse(text, "bad.jsonl"));

describe("malformed and truncated input", () => {
  it.each([
    ["an empty file", "", "the session file is empty"],
    ["blank lines", "\n\n  \n", "the session file is empty"],
    ["not JSON", "hello\nworld\n", "not a Gemini CLI session"],
    ["a JSON array", "[1,2,3]", "not a Gemini CLI session"],
    [
      "a Claude Code line",
      '{"type":"user","sessionId":"x","message":{}}\n',
      "not a Gemini CLI session",
    ],
    [
      "a truncated legacy document",
      `{"sessionId":"${ID}","projectHash":"ab","messages":[{"id":"m1",`,
      "not a Gemini CLI session",
    ],
    ["binary", "\u0000\u0001\u0002\uFFFD", "not a Gemini CLI session"],
  ])("%s is a one-line ParseError naming the file", (_, text, detail) => {
    let error: unknown;
    try {
      geminiText.parse(text, "bad.jsonl");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as Error).message).toContain("bad.jsonl: ");
    expect((error as Error).message).toContain(detail);
    expect((error as Error).message).not.toContain("\n");
  });

  it("a file cut off mid-line reads every complete record and renders back as it was", async () => {
    const full = readFileSync(join(FIXTURE, FILES.failing), "utf8");
    const cut = full.slice(0, full.lastIndexOf('"type":"gemini"') + 5);
    const t = geminiText.parse(cut, "cut.jsonl");
    expect(geminiText.render(t)).toBe(cut);
    expect(geminiCodec.toCommon(t).body.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("records of the wrong shape are read as far as they make sense", async () => {
    const t = read(
      jsonl(
        metaLine(ID),
        { id: "u1", type: "user", content: 42 },
        { id: "u2", type: "user", content: { text: "an object, not a list" } },
        { id: "u3", type: "user", content: ["a bare string part", null, 7, { text: 5 }] },
        gemini("g1", null, {
          toolCalls: "nope",
          thoughts: [1, "x", null],
          tokens: { input: "9", output: -1 },
        }),
        gemini("g2", [{ functionCall: "not an object" }, { functionCall: { args: "a string" } }], {
          toolCalls: [{ id: "c9", result: { functionResponse: { id: "c9" } }, status: "error" }],
        }),
        { id: "__proto__", type: "user", content: [{ text: "proto" }] },
        { $set: null },
        { $set: { messages: "not a list", summary: 5 } },
        { $rewindTo: 42 },
        { id: "g3", type: "mystery", content: "future record kind" },
      ),
    );
    expect(t.meta.title).toBe("an object, not a list");
    expect(t.body.map((m) => m.content.map((b) => b.type).join(","))).toEqual([
      "text",
      "text",
      "tool_use",
      "text",
    ]);
    expect(t.body[2]!.content[0]).toMatchObject({
      tool: { name: "Raw", tool_name: "function", input: "a string" },
    });
  });

  it("ids that would be paths are read, but never saved or looked up", async () => {
    const hostile = jsonl(metaLine("../../etc/passwd"), user("u", "hi"), gemini("g", "yo"));
    expect(geminiText.parse(hostile, "h.jsonl").meta.id).toBe("../../etc/passwd");
    const root = emptyHome();
    const t = geminiText.parse(hostile, "h.jsonl");
    expect(() => store(root).save({ ...t, meta: { ...t.meta, cwd: "/w" } })).toThrow(TxcriptError);
    expect(() => store(root).load("../x")).toThrow(/unsafe id/);
    expect(hashTree(root)).toEqual({});
  });
});

describe("hostile and huge stores", () => {
  it("discovery skips what it cannot read, with a reason, and changes nothing", async () => {
    const root = fixtureHome();
    put(root, "tmp/junk/chats/session-2026-01-01T00-00-deadbeef.jsonl", "\u0000garbage\n");
    writeFileSync(
      join(root, "tmp/junk/chats/session-2026-01-01T00-01-0badf00d.jsonl"),
      Buffer.from([0xff, 0xfe, 0x00]),
    );
    mkdirSync(join(root, "tmp/junk/chats/session-2026-01-01T00-02-aaaaaaaa.jsonl"), {
      recursive: true,
    });
    symlinkSync(
      "/nonexistent/target",
      join(root, "tmp/junk/chats/session-2026-01-01T00-03-bbbbbbbb.jsonl"),
    );
    symlinkSync(root, join(root, "tmp/junk/chats/loop"));
    writeFileSync(join(root, "projects.json"), "{ not json");
    const before = hashTree(root);
    const found = await store(root).discover();
    expect(found.sessions).toHaveLength(4);
    expect(found.skipped.map((s) => s.reason).sort()).toEqual([
      "dangling symbolic link",
      "no metadata with a sessionId and projectHash, and not a JSON session document: not a Gemini CLI session",
      "the session is not valid UTF-8",
    ]);
    // Without projects.json the markers still name every project.
    expect(
      found.sessions.every((s) => s.meta.cwd?.startsWith("/tmp/gemini-fixture/home/proj/")),
    ).toBe(true);
    expect(hashTree(root)).toEqual(before);
  });

  it("a file past the size limit is refused with its name, before it is read", async () => {
    const root = emptyHome();
    const path = put(
      root,
      "tmp/a/chats/session-x-12345678.jsonl",
      jsonl(metaLine(ID), user("u", "x".repeat(5000))),
    );
    expect(() => readSessionLines(path, 1024)).toThrow(/is larger than 1024 bytes/);
    expect(() => readSessionLines(path, 1024)).toThrow(path);
  });

  it("an unreadable registry or marker is not fatal", async () => {
    const root = fixtureHome();
    chmodSync(join(root, "projects.json"), 0o000);
    const found = await store(root).discover();
    chmodSync(join(root, "projects.json"), 0o644);
    expect(found.sessions).toHaveLength(4);
  });

  it("a 20,000-record session and a deeply nested record read without a crash", async () => {
    const lines: unknown[] = [metaLine(ID)];
    for (let i = 0; i < 10_000; i++) {
      lines.push(
        user(`u${i}`, `prompt ${i}`),
        gemini(`g${i}`, `answer ${i}`, { tokens: { input: i, output: 1, cached: 0 } }),
      );
    }
    lines.push(`{"id":"deep","type":"user","content":${"[".repeat(50_000)}${"]".repeat(50_000)}}`);
    const t = read(jsonl(...lines));
    expect(t.body).toHaveLength(20_000);
    expect(t.body.at(-1)!.content).toEqual([{ type: "text", text: "answer 9999" }]);
  });
});

describe("properties", () => {
  const callId = fc.constantFrom("c1", "c2");
  const partsArb = fc.array(
    fc.oneof(
      fc.record({ text: fc.string() }),
      fc.record({ text: fc.string(), thought: fc.boolean() }),
      fc.record({
        functionCall: fc.record({
          id: callId,
          name: fc.constantFrom("read_file", "glob"),
          args: fc.json(),
        }),
      }),
      fc.record({
        functionResponse: fc.record({ id: callId, name: fc.constant("glob"), response: fc.json() }),
      }),
      fc.record({
        inlineData: fc.record({ mimeType: fc.constant("image/png"), data: fc.base64String() }),
      }),
      fc.record({ fileData: fc.json() }),
    ),
    { maxLength: 3 },
  );
  const callArb = fc.record({
    id: callId,
    name: fc.constant("run_shell_command"),
    args: fc.json(),
    result: fc.option(partsArb, { nil: undefined }),
    status: fc.constantFrom("success", "error"),
  });
  const line = fc.oneof(
    fc.constant(JSON.stringify(metaLine(ID))),
    fc.string(),
    fc.json(),
    fc
      .record({
        id: fc.constantFrom("a", "b", "c"),
        type: fc.constantFrom("user", "gemini", "info"),
        content: fc.oneof(fc.string(), fc.json(), partsArb),
        toolCalls: fc.array(callArb, { maxLength: 2 }),
      })
      .map((r) => JSON.stringify(r)),
    fc.constantFrom('{"$rewindTo":"b"}', '{"$set":{"summary":"t"}}', '{"$set":{"messages":[]}}'),
  );

  it("any mix of lines parses or fails with a ParseError, converts without throwing, and renders byte for byte", async () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom("\n", "\r\n"),
        (lines, eol) => {
          const text = lines.join(eol);
          let parsed: ReturnType<typeof geminiText.parse>;
          try {
            parsed = geminiText.parse(text, "p.jsonl");
          } catch (e) {
            expect(e).toBeInstanceOf(ParseError);
            return;
          }
          expect(geminiText.render(parsed)).toBe(text);
          // What listings count is what view shows.
          const conversation = replay(parsed.body.lines);
          expect(conversation && countMessages(conversation)).toBe(
            geminiCodec.toCommon(parsed).body.length,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("what fromCommon writes is a fixed point: written again from what it reads, byte for byte", async () => {
    fc.assert(
      fc.property(shapedSessionArb, (c) => {
        const once = geminiText.render(geminiCodec.fromCommon(c));
        const back = geminiCodec.toCommon(geminiText.parse(once, "w.jsonl"));
        const twice = geminiText.render(geminiCodec.fromCommon(back));
        expect(geminiCodec.toCommon(geminiText.parse(twice, "w2.jsonl"))).toEqual(back);
      }),
      { numRuns: 60 },
    );
  });
});
