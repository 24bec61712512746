/**
 * Writing Common as Claude Code: the output meets every resume rule, reads
 * back through our own reader, and loses exactly what the format doc says.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block, Message, Meta, Tool } from "../../src/common.js";
import { UnsupportedError } from "../../src/errors.js";
import { claudeCodeCodec, WRITER_VERSION } from "../../src/harness/claude-code/codec.js";
import { ClaudeCodeStore } from "../../src/harness/claude-code/store.js";
import { claudeCodeText } from "../../src/harness/claude-code/text.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { transcriptArb } from "../support/arbitraries.js";
import { hashTree, tempDir } from "../support/tmp.js";
import { resumeViolations } from "./resume-rules.js";
import { at, CWD, META, realisticSession, result, SID, tool } from "./session.js";

function write(t: Transcript<Common>): string {
  return claudeCodeText.render(claudeCodeCodec.fromCommon(t));
}
function reread(text: string): Transcript<Common> {
  return claudeCodeCodec.toCommon(claudeCodeText.parse(text, "written.jsonl"));
}
function records(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("writing a session Claude Code resumes", () => {
  it("meets every resume rule on a realistic 50-message session", () => {
    const t = realisticSession();
    expect(t.body).toHaveLength(50);
    const text = write(t);
    expect(resumeViolations(text, SID)).toEqual([]);
    const lines = records(text);
    // The title and the last prompt ride on bookkeeping lines that name real lines.
    expect(lines.at(-1)).toEqual({ type: "custom-title", customTitle: META.title, sessionId: SID });
    expect(lines.at(-2)).toMatchObject({ type: "last-prompt", sessionId: SID });
    expect(lines.filter((r) => r.cwd !== undefined).every((r) => r.cwd === CWD)).toBe(true);
  });

  it("reads back what it wrote, field by field", () => {
    const t = realisticSession();
    const back = reread(write(t));
    expect(back.body).toEqual(t.body);
    expect(back.meta).toEqual({ ...META, cli_version: WRITER_VERSION });
  });

  it("is deterministic: the same Common gives the same bytes", () => {
    expect(write(realisticSession())).toBe(write(realisticSession()));
  });

  it("checks the checker: each resume rule catches its violation", () => {
    const good = write(realisticSession());
    const lines = good.trimEnd().split("\n");
    const swap = (i: number, f: (r: Record<string, unknown>) => void) => {
      const copy = [...lines];
      const r = JSON.parse(copy[i]!) as Record<string, unknown>;
      f(r);
      copy[i] = JSON.stringify(r);
      return `${copy.join("\n")}\n`;
    };
    expect(
      resumeViolations(
        swap(2, (r) => (r.sessionId = "other")),
        SID,
      ).join(),
    ).toMatch(/sessionId/);
    expect(
      resumeViolations(
        swap(3, (r) => (r.parentUuid = null)),
        SID,
      ).join(),
    ).toMatch(/linear chain/);
    expect(
      resumeViolations(
        swap(2, (r) => {
          ((r.message as { content: unknown[] }).content[0] as Record<string, unknown>).content = {
            bare: true,
          };
        }),
        SID,
      ).join(),
    ).toMatch(/bare value/);
    const dropped = [...lines];
    dropped.splice(2, 1);
    expect(resumeViolations(`${dropped.join("\n")}\n`, SID).join()).toMatch(
      /no result in the next message/,
    );
  });
});

describe("what Common -> Claude Code changes (docs: What conversion loses)", () => {
  const session = (body: Message[], meta: Partial<Meta> = {}): Transcript<Common> => ({
    meta: { ...META, ...meta },
    body: [{ role: "user", content: [{ type: "text", text: "go" }], timestamp: at(0) }, ...body],
  });
  const a = (content: Block[], extra: Partial<Message> = {}): Message => ({
    role: "assistant",
    content,
    timestamp: at(1),
    ...extra,
  });
  const userMsg = (content: Block[]): Message => ({ role: "user", content, timestamp: at(2) });

  it("writes reasoning without an Anthropic signature as plain text, and drops encrypted-only reasoning", () => {
    const t = session([
      a([
        { type: "thinking", text: "foreign reasoning" },
        { type: "text", text: "a" },
      ]),
      a([{ type: "thinking", text: "gemini thought", signature: "CiQBjz1rX" }], {
        model: "gemini-3.8-pro",
      }),
      a(
        [
          { type: "thinking", text: "", encrypted: "gAAAAB" },
          { type: "text", text: "b" },
        ],
        {
          model: "gpt-6-codex",
        },
      ),
      a(
        [
          { type: "thinking", text: "mine", signature: "EqQB" },
          { type: "text", text: "c" },
        ],
        {
          model: "claude-opus-5",
        },
      ),
    ]);
    const text = write(t);
    expect(resumeViolations(text, SID)).toEqual([]);
    expect(
      reread(text)
        .body.slice(1)
        .map((m) => m.content),
    ).toEqual([
      [
        { type: "text", text: "foreign reasoning" },
        { type: "text", text: "a" },
      ],
      [{ type: "text", text: "gemini thought" }],
      [{ type: "text", text: "b" }],
      [
        { type: "thinking", text: "mine", signature: "EqQB" },
        { type: "text", text: "c" },
      ],
    ]);
  });

  it("puts each result right after its call, invents an error result for a call that has none, and keeps stray results as text", () => {
    const t = session([
      a([
        tool("t1", { name: "Bash", command: "ls" }),
        tool("t2", { name: "Bash", command: "pwd" }),
      ]),
      a([{ type: "text", text: "meanwhile" }]),
      userMsg([result("t2", "/home"), { type: "text", text: "and also" }]),
      userMsg([result("ghost", "nobody asked")]),
    ]);
    const text = write(t);
    expect(resumeViolations(text, SID)).toEqual([]);
    const body = reread(text).body;
    expect(body[2]!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "t1",
        content: "No result was recorded for this tool call.",
        is_error: true,
      },
      { type: "tool_result", tool_use_id: "t2", content: "/home" },
    ]);
    expect(body.slice(3).map((m) => m.content)).toEqual([
      [{ type: "text", text: "meanwhile" }],
      [{ type: "text", text: "and also" }],
      [{ type: "text", text: "[result of tool call ghost]\nnobody asked" }],
    ]);
  });

  it("flattens a bare JSON result to its compact text, keeps Anthropic blocks", () => {
    const blocks = [{ type: "text", text: "3 issues" }];
    const t = session([
      a([
        tool("t1", { name: "Raw", tool_name: "X", input: {} }),
        tool("t2", { name: "Raw", tool_name: "Y", input: {} }),
      ]),
      userMsg([result("t1", { file: "a.ts", created: true }), result("t2", blocks)]),
    ]);
    const back = reread(write(t)).body;
    expect(back[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: '{"file":"a.ts","created":true}' },
      { type: "tool_result", tool_use_id: "t2", content: blocks },
    ]);
  });

  it("writes slash commands as local_command records; their ids become the lines' uuids", () => {
    const t = session([
      userMsg([
        tool("cmd1", { name: "Command", command: "/review", args: "--fast </command-args>" }),
      ]),
      userMsg([result("cmd1", "review started </local-command-stdout> still output")]),
      userMsg([tool("cmd2", { name: "Command", command: "/clear", args: "" })]),
      userMsg([result("cmd2", "failed", true)]),
    ]);
    const text = write(t);
    expect(resumeViolations(text, SID)).toEqual([]);
    const sys = records(text).filter((r) => r.type === "system");
    expect(sys.map((r) => r.subtype)).toEqual([
      "local_command",
      "local_command",
      "local_command",
      "local_command",
    ]);
    const body = reread(text).body.slice(1);
    const ids = [0, 2].map((i) => (body[i]!.content[0] as { id: string }).id);
    expect(ids.map((id) => /^[0-9a-f-]{36}$/.test(id))).toEqual([true, true]);
    expect(body.map((m) => m.content)).toEqual([
      [
        {
          type: "tool_use",
          id: ids[0],
          tool: { name: "Command", command: "/review", args: "--fast </command-args>" },
        },
      ],
      [
        {
          type: "tool_result",
          tool_use_id: ids[0],
          content: "review started </local-command-stdout> still output",
        },
      ],
      // An empty argument string reads back as no arguments.
      [{ type: "tool_use", id: ids[1], tool: { name: "Command", command: "/clear" } }],
      [{ type: "tool_result", tool_use_id: ids[1], content: "failed", is_error: true }],
    ]);
  });

  it("gives a non-UUID session, tool ids and tool names the shapes Claude Code and the API accept", () => {
    const t = session(
      [
        a([
          tool("call:1.2", { name: "Raw", tool_name: "default_api:run shell", input: ["argv"] }),
          tool("t/2", { name: "Raw", tool_name: "apply_patch", input: "*** Begin Patch" }),
        ]),
        userMsg([result("call:1.2", "ok"), result("t/2", "done")]),
      ],
      { id: "sess_Gx81" },
    );
    const written = claudeCodeCodec.fromCommon(t);
    const sid = written.meta.id;
    expect(sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(claudeCodeCodec.fromCommon(t).meta.id).toBe(sid);
    const text = claudeCodeText.render(written);
    expect(resumeViolations(text, sid)).toEqual([]);
    const back = reread(text).body;
    const calls = back[1]!.content as Extract<Block, { type: "tool_use" }>[];
    expect(calls.map((c) => c.tool)).toEqual([
      { name: "Raw", tool_name: "default_api_run_shell", input: { input: ["argv"] } },
      { name: "Raw", tool_name: "apply_patch", input: { input: "*** Begin Patch" } },
    ]);
    expect(back[2]!.content.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(
      calls.map((c) => c.id),
    );
    expect(calls.every((c) => /^toolu_[0-9a-f]{32}$/.test(c.id))).toBe(true);
  });

  it("turns a Bash workdir into a cd prefix, or drops it when it is the session's cwd", () => {
    const t = session([
      a([
        tool("t1", { name: "Bash", command: "make", workdir: "/srv/other dir" }),
        tool("t2", { name: "Bash", command: "ls", workdir: CWD, timeout_ms: 5000 }),
      ]),
      userMsg([result("t1", ""), result("t2", "a")]),
    ]);
    const calls = reread(write(t)).body[1]!.content.map((b) => (b as { tool: Tool }).tool);
    expect(calls).toEqual([
      { name: "Bash", command: "cd '/srv/other dir' && make" },
      { name: "Bash", command: "ls", timeout_ms: 5000 },
    ]);
  });

  it("keeps user images and documents, and describes what only the other side of the API carries", () => {
    const t = session([
      userMsg([
        {
          type: "artifact",
          artifact: { id: "a1", name: "plan.md", source: { type: "text", text: "# Plan" } },
        },
        {
          type: "artifact",
          artifact: { id: "a2", name: "out.bin", source: { type: "path", path: "/tmp/out.bin" } },
        },
      ]),
      a([
        { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
        {
          type: "artifact",
          artifact: { id: "a3", name: "report.md", source: { type: "text", text: "done" } },
        },
        { type: "text", text: "   " },
      ]),
    ]);
    const back = reread(write(t)).body;
    expect(back[1]!.content).toEqual([
      {
        type: "artifact",
        artifact: {
          id: expect.any(String),
          name: "plan.md",
          source: { type: "text", text: "# Plan", media_type: "text/plain" },
        },
      },
      { type: "text", text: "[artifact: out.bin] (/tmp/out.bin)" },
    ]);
    expect(back[2]!.content).toEqual([
      { type: "text", text: "[image: image/png]" },
      { type: "text", text: "[artifact: report.md]\ndone" },
    ]);
  });

  it("truncates timestamps to milliseconds, fills absent cache counters with 0, and drops empty messages", () => {
    const t = session([
      a([{ type: "text", text: "x" }], {
        timestamp: "2026-08-10T12:00:01.123456789Z",
        usage: { input_tokens: 5, output_tokens: 6 },
      }),
      a([{ type: "text", text: "" }]),
    ]);
    const back = reread(write(t)).body;
    expect(back).toHaveLength(2);
    expect(back[1]!.timestamp).toBe("2026-08-10T12:00:01.123Z");
    expect(back[1]!.usage).toEqual({
      input_tokens: 5,
      output_tokens: 6,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it("starts the session at its first line and stamps the writer's version", () => {
    const back = reread(
      write(session([], { timestamp: "2026-08-01T00:00:00Z", cli_version: "1.2.0" })),
    );
    expect(back.meta.timestamp).toBe(at(0));
    expect(back.meta.cli_version).toBe(WRITER_VERSION);
  });

  it("refuses values nested too deeply for JSON with a clear error", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const t = session([
      userMsg([{ type: "text", text: "first" }]),
      a([tool("t1", { name: "Raw", tool_name: "X", input: { v: deep as never } })]),
    ]);
    // The lines are made as they are written: the value fails the write, as one UnsupportedError.
    const body = claudeCodeCodec.fromCommon(t);
    expect(() => claudeCodeText.render(body)).toThrow(UnsupportedError);
    expect(() => claudeCodeText.render(body)).toThrow(/nested too deeply/);
    // A save that fails part way (its temporary file open, lines made before the bad one) leaves nothing behind.
    const h = tempDir("txcript-cc-deep-");
    const store = new ClaudeCodeStore({ env: { HOME: h } });
    expect(() => store.save(body)).toThrow(/nested too deeply/);
    expect(Object.values(hashTree(h)).filter((v) => v !== "dir")).toEqual([]);
  });
});

describe("properties", () => {
  it("any Common transcript is written as a session that meets the resume rules", () => {
    fc.assert(
      fc.property(transcriptArb({ loneSurrogates: true }), (t) => {
        const withPrompt: Transcript<Common> = {
          meta: t.meta,
          body: [
            {
              role: "user",
              content: [{ type: "text", text: "start" }],
              timestamp: t.meta.timestamp,
            },
            ...t.body,
          ],
        };
        const written = claudeCodeCodec.fromCommon(withPrompt);
        const text = claudeCodeText.render(written);
        expect(resumeViolations(text, written.meta.id)).toEqual([]);
        // Our reader takes back every message that still has content, in order.
        const back = reread(text);
        expect(back.meta.id).toBe(written.meta.id);
        expect(back.body[0]!.content).toEqual([{ type: "text", text: "start" }]);
      }),
      { numRuns: 300 },
    );
  });

  it("typed tools survive Common -> Claude Code -> Common unchanged", () => {
    fc.assert(
      fc.property(transcriptArb(), (t) => {
        const typed = t.body.flatMap((m) =>
          m.content.flatMap((b) =>
            b.type === "tool_use" && ["Read", "Write", "Edit", "MultiEdit"].includes(b.tool.name)
              ? [b.tool]
              : [],
          ),
        );
        const back = reread(
          write({
            meta: t.meta,
            body: [
              { role: "user", content: [{ type: "text", text: "s" }], timestamp: t.meta.timestamp },
              ...t.body,
            ],
          }),
        );
        const backTyped = back.body.flatMap((m) =>
          m.content.flatMap((b) =>
            b.type === "tool_use" && ["Read", "Write", "Edit", "MultiEdit"].includes(b.tool.name)
              ? [b.tool]
              : [],
          ),
        );
        expect(backTyped).toEqual(typed);
      }),
      { numRuns: 200 },
    );
  });
});
