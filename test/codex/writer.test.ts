/**
 * Writing Codex rollouts from the canonical model: the resume rules of
 * `codex resume <id>` hold, output is deterministic, and our own reader
 * gets back what both sides carry, field by field.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCommon } from "../../src/common-json.js";
import { codexCodec } from "../../src/harness/codex/codec.js";
import { codexText } from "../../src/harness/codex/text.js";
import { Checker } from "../../src/json.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { ROOT } from "../support/cli.js";
import { realisticSession, resumeProblems } from "./support.js";

const write = (t: Transcript<Common>) => codexText.render(codexCodec.fromCommon(t));
const reread = (text: string) => codexCodec.toCommon(codexText.parse(text, "written.jsonl"));
const fullCommon = (): Transcript<Common> =>
  readCommon(
    new Checker("common"),
    JSON.parse(readFileSync(join(ROOT, "test/fixtures/common/full.common.json"), "utf8")),
  );

describe("a realistic 50-message session written as a rollout", () => {
  const session = realisticSession();
  const text = write(session);

  it("satisfies every resume rule", () => {
    expect(session.body).toHaveLength(50);
    expect(resumeProblems(text, session.meta.id)).toEqual([]);
  });

  it("is deterministic: the same session gives the same bytes", () => {
    expect(write(realisticSession())).toBe(text);
  });

  it("reads back message for message, field for field", () => {
    const back = reread(text);
    expect(back.body).toEqual(session.body);
    expect(back.meta).toEqual({
      id: session.meta.id,
      timestamp: session.meta.timestamp,
      cwd: "/home/al/my_app",
      git_branch: "main",
      model: "gpt-5-codex",
      title: "The login test is flaky; here is the CI screenshot.",
    });
  });

  it("writes shells as shell_command and single-file edits as apply_patch", () => {
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const calls = lines.filter(
      (l) => l.payload.type === "function_call" || l.payload.type === "custom_tool_call",
    );
    const names = new Set(calls.map((l) => l.payload.name));
    expect(names).toEqual(
      new Set(["shell_command", "Read", "apply_patch", "mcp__github__search_issues"]),
    );
    const ends = lines.filter((l) => l.payload.type === "exec_command_end");
    expect(ends.length).toBe(calls.filter((l) => l.payload.name === "shell_command").length);
    expect(ends.filter((l) => l.payload.exit_code === 1).length).toBeGreaterThan(0);
  });

  it("writes one turn per user prompt, each with turn_context, token_count and task_complete", () => {
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const kinds = (t: string) => lines.filter((l) => l.payload.type === t || l.type === t).length;
    expect(kinds("task_started")).toBe(1);
    expect(kinds("task_complete")).toBe(1);
    // One turn_context per model in effect (the session switches model once).
    expect(lines.filter((l) => l.type === "turn_context").map((l) => l.payload.model)).toEqual([
      "gpt-5-codex",
      "gpt-5.1-codex-max",
    ]);
    expect(kinds("token_count")).toBe(25);
  });
});

describe("the full Common example", () => {
  const t = fullCommon();
  const text = write(t);

  it("satisfies every resume rule", () => {
    expect(resumeProblems(text, t.meta.id)).toEqual([]);
  });

  it("never writes encrypted reasoning or signatures", () => {
    expect(text).not.toContain("gAAAAB");
    expect(text).not.toContain("EqQBCkYIBxgCKkB");
  });

  it("carries what Codex holds: texts, image, typed tools, results, error flag, models", () => {
    const back = reread(text).body;
    const user0 = back[0];
    expect(user0?.content).toEqual(t.body[0]?.content);
    const tools = back.flatMap((m) => m.content.filter((b) => b.type === "tool_use"));
    const original = t.body.flatMap((m) => m.content.filter((b) => b.type === "tool_use"));
    // Every call but the /command comes back with its id; Read, Write, Edit,
    // MultiEdit, Raw and the ill-fitting Bash exactly.
    expect(tools.map((b) => (b as { id: string }).id)).toEqual([
      "t1",
      "t2",
      "t3",
      "t4",
      "t5",
      "t6",
      "t7",
    ]);
    for (const id of ["t2", "t3", "t4", "t5", "t6", "t7"]) {
      expect(tools.find((b) => (b as { id: string }).id === id)).toEqual(
        original.find((b) => (b as { id: string }).id === id),
      );
    }
    const results = back.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
    expect(results.find((r) => r.tool_use_id === "t1")).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      content: "1 failing",
      is_error: true,
    });
    expect(results.find((r) => r.tool_use_id === "t6")?.content).toEqual([
      { type: "text", text: "3 issues" },
    ]);
    expect(back.filter((m) => m.role === "assistant").map((m) => m.model)).toEqual([
      "claude-opus-5",
      "gemini-3.8-flash",
      "gemini-3.8-flash",
    ]);
  });
});

describe("writer edge cases", () => {
  const base = (
    body: Common,
    meta: Partial<Transcript<Common>["meta"]> = {},
  ): Transcript<Common> => ({
    meta: {
      id: "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41",
      timestamp: "2026-08-10T12:00:00Z",
      ...meta,
    },
    body,
  });
  const ts = "2026-08-10T12:00:01Z";

  it("invents no output for a call the source left unanswered (Codex adds an aborted one itself)", () => {
    // A call with no result: Codex inserts an "aborted" output itself; we write none.
    const text = write(
      base([
        { role: "user", content: [{ type: "text", text: "go" }], timestamp: ts },
        {
          role: "assistant",
          timestamp: ts,
          model: "gpt-5-codex",
          content: [{ type: "tool_use", id: "c1", tool: { name: "Bash", command: "ls" } }],
        },
      ]),
    );
    expect(resumeProblems(text)).toEqual(["call c1 has no output"]);
  });

  it("writes a session of only assistant messages inside a turn, with no turn_context when no model is known", () => {
    const text = write(
      base([{ role: "assistant", timestamp: ts, content: [{ type: "text", text: "hello" }] }]),
    );
    expect(resumeProblems(text)).toEqual([
      "turn " +
        JSON.parse(text.split("\n")[1]!).payload.turn_id +
        " has assistant items but no turn_context",
    ]);
    expect(reread(text).body).toEqual([
      { role: "assistant", timestamp: ts, content: [{ type: "text", text: "hello" }] },
    ]);
  });

  it("writes an empty session as a bare session_meta", () => {
    const text = write(base([]));
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(resumeProblems(text)).toEqual([]);
    expect(reread(text).body).toEqual([]);
  });

  it("keeps Write and Edit that apply_patch cannot carry exactly in their canonical form", () => {
    const tools = [
      { name: "Write" as const, file_path: "/a.txt", content: "no final newline" },
      { name: "Write" as const, file_path: "/b.txt", content: "crlf\r\n" },
      { name: "Write" as const, file_path: " /spaced ", content: "x\n" },
      {
        name: "Edit" as const,
        file_path: "/c.ts",
        old_string: "a",
        new_string: "b",
        replace_all: true,
      },
      { name: "Edit" as const, file_path: "/d.ts", old_string: "a\r\n", new_string: "b" },
    ];
    const body: Common = [
      {
        role: "assistant",
        timestamp: ts,
        model: "m",
        content: tools.map((tool, i) => ({ type: "tool_use" as const, id: `c${i}`, tool })),
      },
    ];
    const text = write(base(body));
    expect(text).not.toContain("apply_patch");
    expect(reread(text).body[0]?.content).toEqual(body[0]?.content);
  });

  it("round-trips Write and Edit through apply_patch, including empty and blank-line content", () => {
    const tools = [
      { name: "Write" as const, file_path: "/e.txt", content: "" },
      { name: "Write" as const, file_path: "/f.txt", content: "\n\n*** End Patch\n+plus\n" },
      { name: "Edit" as const, file_path: "/g.ts", old_string: "", new_string: "x\n" },
      {
        name: "Edit" as const,
        file_path: "/h.ts",
        old_string: "@@ a\n*** End Patch",
        new_string: " b\n-c",
      },
    ];
    const body: Common = [
      {
        role: "assistant",
        timestamp: ts,
        model: "m",
        content: tools.map((tool, i) => ({ type: "tool_use" as const, id: `c${i}`, tool })),
      },
    ];
    const text = write(base(body));
    expect(text.match(/"name":"apply_patch"/g)).toHaveLength(4);
    expect(reread(text).body[0]?.content).toEqual(body[0]?.content);
  });
});
