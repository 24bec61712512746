/**
 * Random coding sessions in the shape the matrix carries: prompts (text,
 * sometimes an image), then assistant turns of thinking, text and calls
 * (Bash, Read, Write, Edit, Raw), each answered in the next user message.
 * Texts, tools, results, models, usage, stop reasons and timestamps are
 * arbitrary (test/support/arbitraries.ts), hostile strings included.
 */

import fc from "fast-check";
import type { Block, Json, Message, Meta, Tool } from "../../src/common.js";
import type { Common, Transcript } from "../../src/transcript.js";
import {
  imageSourceArb,
  jsonArb,
  pathArb,
  sessionIdArb,
  stopReasonArb,
  textArb,
  timestampArb,
  toolArb,
  usageArb,
} from "../support/arbitraries.js";

const text = textArb();
const modelArb = fc.constantFrom("claude-opus-4-5", "gpt-5-codex", "gemini-3-pro", "model-1018");
/** Tools a coding session carries; Raw calls named after a harness's own shell or patch tool are left to each harness's tests. */
const carriedTool = toolArb.filter(
  (t) =>
    t.name !== "Command" &&
    t.name !== "MultiEdit" &&
    !(
      t.name === "Raw" &&
      /^(apply_patch|exec_command|shell|shell_command|container\.exec|local_shell|run_command|view_file|write_to_file|replace_file_content|run_shell_command|read_file|write_file|replace)$/.test(
        t.tool_name,
      )
    ),
);
const resultArb: fc.Arbitrary<Json> = fc.oneof(
  text,
  jsonArb(),
  fc.array(
    text.map((t) => ({ type: "text", text: t })),
    { minLength: 1, maxLength: 2 },
  ),
);

const callArb = fc.record({
  tool: carriedTool,
  result: fc.option(resultArb, { nil: undefined }),
  error: fc.boolean(),
});

const assistantArb = fc.record(
  {
    thinking: fc.record(
      {
        text,
        signature: fc.stringMatching(/^[A-Za-z0-9+/=]{8,24}$/),
        encrypted: fc.base64String({ minLength: 4, maxLength: 24 }),
      },
      { requiredKeys: ["text"] },
    ),
    text,
    calls: fc.array(callArb, { maxLength: 3 }),
    model: modelArb,
    stop: stopReasonArb,
    usage: usageArb,
    at: timestampArb,
    resultsAt: timestampArb,
  },
  { requiredKeys: ["calls", "at", "resultsAt"] },
);

const turnArb = fc.record({
  prompt: text.filter((t) => t.trim() !== ""),
  image: fc.option(
    imageSourceArb.filter((s) => s.type === "base64"),
    { nil: undefined },
  ),
  at: timestampArb,
  assistants: fc.array(assistantArb, { minLength: 1, maxLength: 3 }),
});

export const shapedSessionArb: fc.Arbitrary<Transcript<Common>> = fc
  .record(
    {
      id: sessionIdArb,
      timestamp: timestampArb,
      cwd: pathArb,
      git_branch: fc.constantFrom("main", "fix/x", "détaché"),
      title: text,
      cli_version: fc.constantFrom("0.58.0", "2.1.117", "1.2.0"),
      model: modelArb,
      turns: fc.array(turnArb, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ["id", "timestamp", "turns"] },
  )
  .map(({ turns, ...m }) => {
    const meta = m as Meta;
    const body: Message[] = [];
    let n = 0;
    for (const t of turns) {
      const content: Block[] = [{ type: "text", text: t.prompt }];
      if (t.image) content.push({ type: "image", source: t.image });
      body.push({ role: "user", content, timestamp: t.at });
      for (const a of t.assistants) {
        const blocks: Block[] = [];
        if (a.thinking) blocks.push({ type: "thinking", ...a.thinking });
        if (a.text !== undefined) blocks.push({ type: "text", text: a.text });
        const calls = a.calls.map((c) => ({ ...c, id: `call_${++n}` }));
        for (const c of calls) blocks.push({ type: "tool_use", id: c.id, tool: c.tool as Tool });
        const msg: Message = { role: "assistant", content: blocks, timestamp: a.at };
        if (a.model !== undefined) msg.model = a.model;
        if (a.stop !== undefined) msg.stop_reason = a.stop;
        if (a.usage !== undefined) msg.usage = a.usage;
        body.push(msg);
        const results: Block[] = calls
          .filter((c) => c.result !== undefined)
          .map((c) =>
            c.error
              ? {
                  type: "tool_result",
                  tool_use_id: c.id,
                  content: c.result as Json,
                  is_error: true,
                }
              : { type: "tool_result", tool_use_id: c.id, content: c.result as Json },
          );
        if (results.length > 0)
          body.push({ role: "user", content: results, timestamp: a.resultsAt });
      }
    }
    return { meta, body };
  });
