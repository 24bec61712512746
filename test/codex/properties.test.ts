/**
 * Property tests for the Codex codec and text codec: lines survive
 * byte-exact, the writer always produces a resumable rollout, one pass
 * through Codex reaches a fixed point (what Codex carries survives every
 * further pass), usage totals are conserved, and arbitrary lines never crash
 * the reader.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Json, type Message, totalTokens } from "../../src/common.js";
import { joinLines, splitLines } from "../../src/harness/codex/body.js";
import { codexCodec } from "../../src/harness/codex/codec.js";
import { codexText } from "../../src/harness/codex/text.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { jsonArb, textArb, transcriptArb } from "../support/arbitraries.js";
import { resumeProblems } from "./support.js";

const write = (t: Transcript<Common>) => codexText.render(codexCodec.fromCommon(t));
const read = (text: string) => codexCodec.toCommon(codexText.parse(text));
/** Whether an assistant message leaves response items (text, calls, readable thinking). */
const leavesItems = (m: Message): boolean =>
  m.content.some(
    (b) =>
      b.type === "text" ||
      b.type === "tool_use" ||
      b.type === "artifact" ||
      (b.type === "thinking" && b.text !== ""),
  );

const META =
  '{"timestamp":"2026-08-11T09:00:00.000Z","type":"session_meta","payload":{"id":"0199aa00-1111-7222-8333-944455556666","timestamp":"2026-08-11T09:00:00.000Z","cwd":"/w","originator":"x","cli_version":"1","source":"cli","model_provider":"openai","base_instructions":null}}';

describe("Codex properties", () => {
  it("splitting into lines and joining them gives back every string", () => {
    const pieces = fc.array(
      fc.oneof(fc.constantFrom("\n", "\r\n", "\r", "\r\r\n", ""), textArb()),
      {
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(pieces, (parts) => {
        const text = parts.join("");
        expect(joinLines(splitLines(text))).toBe(text);
        expect(codexText.render(codexText.parse(`${META}\n${text}`))).toBe(`${META}\n${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it("every written rollout satisfies the resume rules, but for calls the source left unanswered and unknown models", () => {
    fc.assert(
      fc.property(transcriptArb({ loneSurrogates: true }), (t) => {
        const text = write(t);
        expect(write(t)).toBe(text);
        // A result answers a call only when it comes after it (Codex drops earlier ones).
        const called = new Set<string>();
        const answered = new Set<string>();
        for (const m of t.body) {
          for (const b of m.content) {
            if (b.type === "tool_use") called.add(b.id);
            if (b.type === "tool_result" && called.has(b.tool_use_id)) answered.add(b.tool_use_id);
          }
        }
        const problems = resumeProblems(text).filter((p) => {
          const unanswered = /^call (.*) has no output$/.exec(p);
          if (unanswered && !answered.has(unanswered[1] as string)) return false;
          // A turn whose calls come before any model is known has no turn_context to write.
          if (/ has assistant items but no turn_context$/.test(p)) return false;
          return true;
        });
        expect(problems).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("one pass through Codex is a fixed point: a second pass changes nothing", () => {
    fc.assert(
      fc.property(transcriptArb({ loneSurrogates: true }), (t) => {
        const once = read(write(t));
        const twice = read(write(once));
        expect(twice).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });

  it("conserves every message's total token count and keeps user text in order", () => {
    fc.assert(
      fc.property(transcriptArb(), (t) => {
        // Counts whose OpenAI-side sum passes 2^53 cannot be written exactly (documented).
        fc.pre(t.body.every((m) => !m.usage || Number.isSafeInteger(totalTokens(m.usage))));
        const back = read(write(t));
        const totals = (c: Common) =>
          c.filter((m) => m.role === "assistant" && m.usage).map((m) => totalTokens(m.usage!));
        expect(totals(back.body)).toEqual(totals(t.body.filter(leavesItems)));
        const userTexts = (c: Common) =>
          c.flatMap((m) =>
            m.role === "user"
              ? m.content.flatMap((b) =>
                  b.type === "text" &&
                  !/^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<permissions instructions>)/.test(
                    b.text,
                  )
                    ? [b.text]
                    : [],
                )
              : [],
          );
        // Commands and artifacts add user text of their own; the originals stay in order.
        const got = userTexts(back.body);
        let at = 0;
        for (const text of userTexts(t.body)) {
          at = got.indexOf(text, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at++;
        }
      }),
      { numRuns: 200 },
    );
  });

  it("reads any sequence of envelope-shaped lines without throwing", () => {
    const payloadType = fc.constantFrom(
      "message",
      "reasoning",
      "function_call",
      "function_call_output",
      "custom_tool_call",
      "custom_tool_call_output",
      "local_shell_call",
      "web_search_call",
      "token_count",
      "exec_command_end",
      "web_search_end",
      "task_complete",
      "user_message",
      "weird",
    );
    const field = fc.constantFrom(
      "role",
      "content",
      "call_id",
      "name",
      "arguments",
      "input",
      "output",
      "summary",
      "encrypted_content",
      "action",
      "info",
      "aggregated_output",
      "exit_code",
      "model",
      "query",
    );
    const lineArb = fc.record({
      timestamp: fc.oneof(fc.constant("2026-08-11T09:00:00.000Z"), jsonArb(1)),
      type: fc.constantFrom(
        "response_item",
        "event_msg",
        "turn_context",
        "compacted",
        "session_meta",
        "x",
      ),
      payload: fc
        .tuple(payloadType, fc.dictionary(field, jsonArb(2), { maxKeys: 6 }))
        .map(([type, rest]) => ({ ...rest, type }) as Json),
    });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 20 }), (lines) => {
        const text = [META, ...lines.map((l) => JSON.stringify(l))].join("\n");
        const t = read(text);
        for (const m of t.body) expect(m.content.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
