/**
 * Deep and wide JSON (issue 11, items 1 and 8): the depth check costs
 * memory by depth, never by width, and names the path; JSON nested far too
 * deep inside a Claude Code or Codex line, a Simple document or Common JSON
 * gives a one-line error naming the file or a documented tolerant reading
 * (the line or the arguments kept as text), never a stack overflow.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderCommon } from "../../src/common-json.js";
import { parseToCommon } from "../../src/convert.js";
import { TxcriptError } from "../../src/errors.js";
import { MAX_JSON_DEPTH, tooDeep } from "../../src/json.js";
import { renderHtml, renderMarkdown } from "../../src/render/index.js";
import { renderText } from "../../src/render/text.js";
import type { TextForm } from "../../src/transcript.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

/** Depth of a JSON value by plain recursion (the reference; fine on small values). */
function depth(v: unknown): number {
  if (typeof v !== "object" || v === null) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depth));
}

describe("tooDeep", () => {
  it("agrees with recursion, and its path leads to a value nested too deep", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 7 }), (v, max) => {
        const path = tooDeep(v, max);
        expect(path !== undefined).toBe(depth(v) > max);
        if (path === undefined) return;
        expect(path).toHaveLength(max);
        let at: unknown = v;
        for (const key of path) at = (at as Record<string | number, unknown>)[key];
        expect(depth(at)).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});

/** `[[[ … ]]]` `levels` deep (or `{"k":{…}}`), as text: JSON.parse copes, recursion would not. */
function nested(levels: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(levels)}1${"]".repeat(levels)}`
    : `${'{"k":'.repeat(levels)}1${"}".repeat(levels)}`;
}

const SID = "3e3e3e3e-0000-4000-8000-00000000d33b";
const TS = "2026-11-30T09:15:00.000Z";

/** A session in form `form` carrying `blob` (JSON text) where a tool input or argument goes. */
function carrying(form: TextForm, blob: string): string {
  switch (form) {
    case "claude_code":
      return `${[
        `{"type":"user","sessionId":"${SID}","uuid":"u1","timestamp":"${TS}","cwd":"/p","message":{"role":"user","content":"hi"}}`,
        `{"type":"assistant","sessionId":"${SID}","uuid":"a1","parentUuid":"u1","timestamp":"${TS}","message":{"id":"m1","role":"assistant","model":"x","content":[{"type":"tool_use","id":"t1","name":"Deep","input":{"v":${blob}}}]}}`,
      ].join("\n")}\n`;
    case "codex":
      return `${[
        `{"timestamp":"${TS}","type":"session_meta","payload":{"id":"${SID}","timestamp":"${TS}","cwd":"/p"}}`,
        `{"timestamp":"${TS}","type":"response_item","payload":{"type":"function_call","name":"deep","call_id":"c1","arguments":${JSON.stringify(blob)}}}`,
        `{"timestamp":"${TS}","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":${blob}}]}}`,
      ].join("\n")}\n`;
    case "simple":
      return `{"id":"${SID}","timestamp":"${TS}","messages":[{"role":"assistant","content":[{"type":"tool_use","name":"Deep","input":{"v":${blob}}}]}]}`;
    case "common":
      return `{"meta":{"id":"${SID}","timestamp":"${TS}"},"body":[{"role":"assistant","timestamp":"${TS}","content":[{"type":"tool_use","id":"t","tool":{"name":"Raw","tool_name":"x","input":${blob}}}]}]}`;
    default:
      throw new Error(`no sample for ${form}`);
  }
}

describe("JSON nested too deep inside a session", () => {
  const forms: TextForm[] = ["claude_code", "codex", "simple", "common"];
  it("reads tolerantly or fails with an error naming the file; never overflows the stack", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...forms),
        fc.oneof(
          fc.integer({ min: MAX_JSON_DEPTH - 3, max: MAX_JSON_DEPTH + 3 }),
          fc.integer({ min: 5_000, max: 100_000 }),
        ),
        fc.constantFrom("array" as const, "object" as const),
        (form, levels, kind) => {
          let common: ReturnType<typeof parseToCommon>;
          try {
            common = parseToCommon(carrying(form, nested(levels, kind)), form, "/x/session.file");
          } catch (error) {
            expect(error).toBeInstanceOf(TxcriptError);
            expect((error as Error).message).toMatch(
              /^\/x\/session\.file: .*nested deeper than 512/,
            );
            return;
          }
          // What was read renders without recursing into the blob.
          const input = { meta: common.meta, messages: common.body };
          expect(renderText(input).length).toBeGreaterThan(0);
          expect(renderMarkdown({ transcript: common }).length).toBeGreaterThan(0);
          expect(renderHtml({ transcript: common }).length).toBeGreaterThan(0);
          expect(renderCommon(common).length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the CLI shows a Claude Code and a Codex session holding 100,000 levels", () => {
    const home = tempDir("txcript-deep-");
    const blob = nested(100_000, "array");
    const claude = join(home, ".claude", "projects", "-p");
    const codex = join(home, ".codex", "sessions", "2026", "11", "30");
    for (const [dir, name, form] of [
      [claude, `${SID}.jsonl`, "claude_code"],
      [codex, `rollout-2026-11-30T09-15-00-${SID}.jsonl`, "codex"],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), carrying(form, blob));
      const r = txcript(["view", SID, "--from", form], { env: { HOME: home } });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
    }
  });
});

describe("a Simple document 505 levels deep and 2,000,000 wide", () => {
  it("is refused in one line naming the file and the path, within a small heap", () => {
    const dir = tempDir("txcript-wide-");
    const file = join(dir, "wide.json");
    const wide = `${"[".repeat(505)}${"0,".repeat(2_000_000)}${nested(20, "array")}${"]".repeat(505)}`;
    writeFileSync(
      file,
      `{"messages":[{"role":"user","content":[{"type":"tool_use","name":"x","input":${wide}}]}]}`,
    );
    const r = txcript(["view", file], { env: { NODE_OPTIONS: "--max-old-space-size=256" } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^txcript: ${file}: messages\\[0\\]\\.content\\[0\\]\\.input\\[0\\]…: JSON nested deeper than 512 levels\\n$`,
      ),
    );
  });
});
