/**
 * What of a session's tool text the index keeps: words, not encoded blobs
 * (base64 images and files in tool calls and tool output).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Json } from "../../src/common.js";
import { chunksOf, withoutBlobs } from "../../src/index/text.js";
import type { Common, Transcript } from "../../src/transcript.js";

const AT = "2026-01-02T03:04:05Z";
/** 4 KiB of a PNG's base64: what an image read by a tool looks like in its output. */
const PNG = `iVBORw0KGgoAAAANSUhEUgAA${"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw==".repeat(85)}`;

function session(output: Json, input: { [key: string]: Json }): Transcript<Common> {
  return {
    meta: { id: "s1", timestamp: AT },
    body: [
      { role: "user", content: [{ type: "text", text: "look at the screenshot" }], timestamp: AT },
      {
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id: "t1",
            tool: { name: "Raw", tool_name: "upload", input },
          },
        ],
        timestamp: AT,
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: output }],
        timestamp: AT,
      },
    ],
  };
}

describe("tool text in the index", () => {
  it("keeps the words around a base64 blob and leaves the blob out", () => {
    const t = session(
      [{ type: "text", text: `saved screenshot.png data:image/png;base64,${PNG} done quokka` }],
      { path: "shot.png", data: PNG },
    );
    const chunks = chunksOf(t, 0);
    const output = chunks.find((c) => c.kind === "tool_output")?.body ?? "";
    const call = chunks.find((c) => c.kind === "tool_call")?.body ?? "";
    expect(output).toContain("saved screenshot.png data:image/png;base64,");
    expect(output).toMatch(/ done quokka$/);
    expect(output).not.toContain(PNG.slice(30, 90));
    expect(call).toContain("shot.png");
    expect(call).not.toContain(PNG.slice(30, 90));
    expect(output.length + call.length).toBeLessThan(400);
  });

  it("leaves text without a long run as it is, and keeps everything outside the runs, in order", () => {
    const b64 = fc.constantFrom(..."ABCXYZabcxyz0189+/=-_");
    const other = fc.constantFrom(..." .,:;\n\t()é字");
    fc.assert(
      fc.property(fc.array(fc.oneof(b64, other), { maxLength: 900 }), (chars) => {
        const text = chars.join("");
        const out = withoutBlobs(text);
        if (!/[A-Za-z0-9+/=_-]{256,}/.test(text)) expect(out).toBe(text);
        const outside = (s: string) => s.replace(/[A-Za-z0-9+/=_-]+/g, "");
        expect(outside(out).replaceAll(" ", "")).toBe(outside(text).replaceAll(" ", ""));
        expect(out.length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves out the base64 of any data of 192 bytes or more, whichever alphabet", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 192, maxLength: 4000 }),
        fc.boolean(),
        fc.stringMatching(/^[a-z ]{0,40}$/),
        (bytes, url, words) => {
          const run = Buffer.from(bytes).toString(url ? "base64url" : "base64");
          fc.pre(/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run));
          fc.pre(/[A-Za-z0-9]{24}/.test(run));
          expect(withoutBlobs(`${words} ${run} ${words}`)).toBe(`${words}   ${words}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps long prose, paths and code in tool output", () => {
    const prose = "the build failed in checkout.ts line 42 ".repeat(200);
    const path = `/home/dev/${"Deep2/".repeat(60)}file.ts`;
    const ident = `${"someVeryLong_identifier2".repeat(12)}`;
    const hex = "0123456789abcdef".repeat(32);
    for (const text of [prose, path, ident, hex]) expect(withoutBlobs(text)).toBe(text);
  });
});
