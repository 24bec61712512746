/**
 * Gemini CLI and Qwen Code copies answer every call the way the CLIs
 * answer their own: `functionResponse.response` is `{"output": <text>}`, or
 * `{"error": <text>}` for a failure (Gemini CLI's `convertToFunctionResponse`;
 * Qwen Code is its fork), whatever shape the source's result had (text,
 * text blocks, a JSON object or array, a number). Reading back gives the
 * result's text (docs/conversions.md, g6 and q7).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Json, Message } from "../../src/common.js";
import { commonToText, harness, textToCommon } from "../../src/harness/index.js";
import { resultText } from "../../src/harness/shared/results.js";
import { timestampFromMillis } from "../../src/time.js";
import type { Common, Transcript } from "../../src/transcript.js";

const at = (s: number) => timestampFromMillis(Date.UTC(2026, 10, 2, 9, 0, s));

function session(content: Json, isError: boolean): Transcript<Common> {
  const body: Message[] = [
    { role: "user", content: [{ type: "text", text: "go" }], timestamp: at(0) },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "c1", tool: { name: "Bash", command: "cat x.json" } }],
      timestamp: at(1),
    },
    {
      role: "user",
      content: [
        isError
          ? { type: "tool_result", tool_use_id: "c1", content, is_error: true }
          : { type: "tool_result", tool_use_id: "c1", content },
      ],
      timestamp: at(2),
    },
    { role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: at(3) },
  ];
  return {
    meta: { id: "9a1e2c3d-0000-4000-8000-000000000001", timestamp: at(0), cwd: "/srv/p" },
    body,
  };
}

/** Every functionResponse part anywhere in the written records. */
function responses(text: string): unknown[] {
  const found: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "functionResponse" && x !== null && typeof x === "object" && "response" in x)
          found.push(x.response);
        walk(x);
      }
    }
  };
  for (const line of text.split("\n")) if (line.trim() !== "") walk(JSON.parse(line));
  return found;
}

const SHAPES: [string, Json][] = [
  ["text", "a.txt\nb.txt"],
  [
    "text blocks",
    [
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ],
  ],
  ["a JSON object", { files: ["a.txt"], count: 1 }],
  ["an object that looks like a response", { output: "x" }],
  ["an object with output and more", { output: "x", exit: 0 }],
  ["a JSON array", [1, "two", { three: 3 }]],
  ["a number", 42],
];

describe.each(["gemini_cli", "qwen_code"] as const)("%s: functionResponse.response", (id) => {
  const h = harness(id);
  it.each(SHAPES)("%s: {output: text}, or {error: text} when it failed", (_, content) => {
    for (const isError of [false, true]) {
      const text = commonToText(h, session(content, isError));
      const found = responses(text);
      expect(found.length).toBeGreaterThan(0);
      const key = isError ? "error" : "output";
      for (const r of found) expect(r).toEqual({ [key]: resultText(content) });
      const back = textToCommon(h, text).body.flatMap((m) =>
        m.content.filter((b) => b.type === "tool_result"),
      );
      expect(back).toHaveLength(1);
      expect(back[0]?.content).toBe(resultText(content));
    }
  });

  it("any JSON result: exactly one key, output or error, holding a string", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (content, isError) => {
        for (const r of responses(commonToText(h, session(content as Json, isError)))) {
          expect(r).not.toBeNull();
          expect(Object.keys(r as object)).toEqual([isError ? "error" : "output"]);
          expect(typeof Object.values(r as object)[0]).toBe("string");
        }
      }),
      { numRuns: 200 },
    );
  });
});
