/**
 * Qwen Code sessions read as the CLI replays them: the real session 0.24.4
 * wrote (test/fixtures/qwen-code), the active chain (a branch left behind,
 * fragments of one record merged), the text form byte for byte, and the
 * detector telling Qwen's records from Claude Code's.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectForm } from "../../src/detect.js";
import { qwenCodec, qwenText } from "../../src/harness/qwen-code/index.js";
import { sampleOf } from "../../src/sniff.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "qwen-code", "basic.jsonl");
const text = readFileSync(FIXTURE, "utf8");
const SID = "7b0223dc-fbae-402e-9cac-d4b70d9c1bd1";

const rec = (uuid: string, parentUuid: string | null, type: string, extra: object) =>
  JSON.stringify({
    uuid,
    parentUuid,
    sessionId: SID,
    timestamp: "2026-12-05T10:00:00.000Z",
    type,
    ...extra,
  });
const userRec = (uuid: string, parent: string | null, t: string) =>
  rec(uuid, parent, "user", { message: { role: "user", parts: [{ text: t }] } });
const modelRec = (uuid: string, parent: string | null, t: string) =>
  rec(uuid, parent, "assistant", { model: "m", message: { role: "model", parts: [{ text: t }] } });
const read = (t: string) => qwenCodec.toCommon(qwenText.parse(t, "s.jsonl"));

describe("a session the real Qwen Code 0.24.4 wrote", () => {
  const t = read(text);

  it("reads its meta: id, start, cwd, version, model and the first prompt as title", () => {
    expect(t.meta).toEqual({
      id: SID,
      timestamp: "2026-12-05T23:51:01.552Z",
      cwd: "/tmp/txcript-real-qwen-scratch-f9ZKGu/project",
      title: "Set up",
      cli_version: "0.24.4",
      model: "mock-model",
    });
  });

  it("reads the conversation, leaving out telemetry and attribution records", () => {
    expect(t.body.map((m) => `${m.role}: ${m.content.map((b) => b.type).join(",")}`)).toEqual([
      "user: text",
      "assistant: thinking,text,tool_use",
      "user: tool_result",
      "assistant: text",
      "user: text",
      "assistant: text",
    ]);
    const call = t.body[1]!.content[2]!;
    expect(call).toEqual({
      type: "tool_use",
      id: "call_000002",
      tool: { name: "Bash", command: "ls -la" },
    });
    const result = t.body[2]!.content[0]!;
    expect(result.type === "tool_result" && String(result.content)).toContain("notes.txt");
    expect(result.type === "tool_result" && result.is_error).toBeUndefined();
    // usageMetadata: 10 prompt, 5 candidates + 4 thoughts.
    expect(t.body[1]!.usage).toEqual({ input_tokens: 10, output_tokens: 9 });
  });

  it("renders back byte for byte, and is detected as Qwen Code, not Claude Code", () => {
    expect(qwenText.render(qwenText.parse(text, FIXTURE))).toBe(text);
    const detected = detectForm(sampleOf(new TextEncoder().encode(text)));
    expect(detected?.form).toBe("qwen_code");
  });
});

describe("the active chain, as the CLI resumes it", () => {
  it("follows parentUuid back from the last record: a branch left behind is not read", () => {
    const t = read(
      [
        userRec("a", null, "first"),
        modelRec("b", "a", "abandoned answer"),
        modelRec("c", "a", "kept answer"),
        userRec("d", "c", "second"),
      ].join("\n"),
    );
    expect(t.body.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : ""))).toEqual([
      "first",
      "kept answer",
      "second",
    ]);
  });

  it("merges records written twice under one uuid (their parts appended)", () => {
    const t = read(
      [userRec("a", null, "hi"), modelRec("b", "a", "one"), modelRec("b", "a", "two")].join("\n"),
    );
    expect(t.body[1]!.content).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
  });

  it("hides the hook context the CLI appends to a prompt", () => {
    const hook =
      "<qwen:user-prompt-submit-context>\nsecret context\n</qwen:user-prompt-submit-context>";
    const line = rec("a", null, "user", {
      message: { role: "user", parts: [{ text: "do it" }, { text: hook }] },
    });
    expect(read(line).body[0]!.content).toEqual([{ type: "text", text: "do it" }]);
  });

  it("marks a result whose toolCallResult status is error", () => {
    const call = rec("b", "a", "assistant", {
      message: {
        role: "model",
        parts: [{ functionCall: { id: "c1", name: "read_file", args: { file_path: "/x" } } }],
      },
    });
    const res = rec("c", "b", "tool_result", {
      message: {
        role: "user",
        parts: [
          { functionResponse: { id: "c1", name: "read_file", response: { output: "nope" } } },
        ],
      },
      toolCallResult: { callId: "c1", status: "error" },
    });
    const t = read([userRec("a", null, "go"), call, res].join("\n"));
    expect(t.body[1]!.content[0]).toMatchObject({ tool: { name: "Read", file_path: "/x" } });
    expect(t.body[2]!.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      content: "nope",
      is_error: true,
    });
  });
});
