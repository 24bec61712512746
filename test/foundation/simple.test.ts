/**
 * Simple documents: every fidelity level, FIFO pairing, deterministic ids
 * and timestamps, and the full Common model rendered back.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block, Message, ToolUseBlock } from "../../src/common.js";
import { parseSimple, renderSimple } from "../../src/harness/simple.js";
import { EPOCH } from "../../src/time.js";
import { ROOT } from "../support/cli.js";

const doc = (value: unknown) => JSON.stringify(value);
const parse = (value: unknown) => parseSimple(doc(value), "doc.json");
const blocks = (messages: Message[]): Block[] => messages.flatMap((m) => m.content);
const toolUses = (messages: Message[]) =>
  blocks(messages).filter((b): b is ToolUseBlock => b.type === "tool_use");
const resultIds = (messages: Message[]) =>
  blocks(messages).flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("fidelity levels", () => {
  it("L0: string content, roles matched case-insensitively", () => {
    const t = parse({
      messages: [
        { role: "user", content: "fix the off-by-one" },
        { role: "ASSISTANT", content: "Fixed." },
        { role: "User", content: "" },
      ],
    });
    expect(t.body).toEqual([
      { role: "user", content: [{ type: "text", text: "fix the off-by-one" }], timestamp: EPOCH },
      { role: "assistant", content: [{ type: "text", text: "Fixed." }], timestamp: EPOCH },
      { role: "user", content: [{ type: "text", text: "" }], timestamp: EPOCH },
    ]);
    expect(t.meta.id).toMatch(UUID);
    expect(t.meta.timestamp).toBe(EPOCH);
    expect(Object.keys(t.meta).sort()).toEqual(["id", "timestamp"]);
  });

  it("L0: an empty conversation is a valid document", () => {
    const t = parse({ messages: [] });
    expect(t.body).toEqual([]);
    expect(t.meta.timestamp).toBe(EPOCH);
  });

  it("L1: blocks, typed and raw tools, slash commands, FIFO results", () => {
    const t = parse({
      messages: [
        {
          role: "user",
          content: [{ type: "tool_use", name: "/review", input: { args: "--fast" } }],
        },
        { role: "user", content: [{ type: "tool_result", content: "review started" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", text: "npm test covers it." },
            { type: "text", text: "Running." },
            { type: "tool_use", name: "Bash", input: { command: "npm test" } },
            { type: "tool_use", name: "mcp__github__search", input: { q: "flaky" } },
            { type: "tool_use", name: "Glob" },
            { type: "tool_use", name: "Bash", input: null },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", content: "42 passed" },
            { type: "tool_result", content: { hits: 3 }, is_error: false },
            { type: "tool_result", content: ["a.ts"], is_error: true },
            { type: "tool_result", content: null },
          ],
        },
      ],
    });
    const uses = toolUses(t.body);
    expect(uses.map((u) => u.tool)).toEqual([
      { name: "Command", command: "/review", args: "--fast" },
      { name: "Bash", command: "npm test" },
      { name: "Raw", tool_name: "mcp__github__search", input: { q: "flaky" } },
      // A missing input is an empty object of arguments; an explicit null stays null.
      { name: "Raw", tool_name: "Glob", input: {} },
      { name: "Raw", tool_name: "Bash", input: null },
    ]);
    expect(resultIds(t.body)).toEqual(uses.map((u) => u.id));
    const results = blocks(t.body).filter((b) => b.type === "tool_result");
    expect(results.map((r) => ("is_error" in r ? r.is_error : "absent"))).toEqual([
      "absent",
      "absent",
      "absent",
      true,
      "absent",
    ]);
    expect(results.map((r) => r.type === "tool_result" && r.content)).toEqual([
      "review started",
      "42 passed",
      { hits: 3 },
      ["a.ts"],
      null,
    ]);
    expect(t.body[2]!.content.slice(0, 2)).toEqual([
      { type: "thinking", text: "npm test covers it." },
      { type: "text", text: "Running." },
    ]);
  });

  it("L2: the session model and per-message models", () => {
    const t = parse({
      model: "claude-opus-5",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "Hello.", model: "claude-sonnet-5" },
        { role: "assistant", content: "Again." },
      ],
    });
    expect(t.meta.model).toBe("claude-opus-5");
    expect(t.body.map((m) => m.model)).toEqual([undefined, "claude-sonnet-5", undefined]);
    expect("model" in t.body[2]!).toBe(false);
  });

  it("L3 and L4: session metadata and identity", () => {
    const t = parse({
      id: "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41",
      timestamp: "2026-08-18T12:00:00+02:00",
      cwd: "/Users/alice/src/myproj",
      git_branch: "main",
      title: "Pagination fix",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(t.meta).toEqual({
      id: "0b9f6c1e-2a7d-4e3b-9f10-5c2d8e7a6b41",
      timestamp: "2026-08-18T10:00:00Z",
      cwd: "/Users/alice/src/myproj",
      git_branch: "main",
      title: "Pagination fix",
    });
    expect(t.body[0]!.timestamp).toBe("2026-08-18T10:00:00Z");
  });

  it("L5: usage and per-message timestamps", () => {
    const t = parse({
      messages: [
        { role: "user", content: "go", timestamp: "2026-08-18T10:00:00Z" },
        {
          role: "assistant",
          content: "Done.",
          timestamp: "2026-08-18T10:00:12.345678Z",
          usage: { input_tokens: 900, output_tokens: 80, cache_read_input_tokens: 800 },
        },
      ],
    });
    expect(t.body[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Done." }],
      timestamp: "2026-08-18T10:00:12.345678Z",
      usage: { input_tokens: 900, output_tokens: 80, cache_read_input_tokens: 800 },
    });
  });

  it("L6: stop reasons, signatures, encrypted reasoning, images, cli_version, artifacts", () => {
    const t = parse({
      cli_version: "2.1.117",
      messages: [
        {
          role: "user",
          content: [
            {
              type: "image",
              source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
            },
          ],
        },
        {
          role: "assistant",
          stop_reason: "tool_use",
          content: [
            { type: "thinking", text: "Check first.", signature: "EqQBCkYIBxgCKkB" },
            { type: "thinking", text: "", encrypted: "gAAAAB..." },
          ],
        },
        { role: "assistant", stop_reason: { other: "refusal" }, content: "no" },
        {
          role: "assistant",
          stop_reason: "max_tokens",
          content: [
            {
              type: "artifact",
              artifact: {
                id: "a1",
                name: "plan.md",
                source: { type: "text", text: "# Plan", media_type: "text/markdown" },
              },
            },
          ],
        },
      ],
    });
    expect(t.meta.cli_version).toBe("2.1.117");
    expect(t.body.map((m) => m.stop_reason)).toEqual([
      undefined,
      "tool_use",
      { other: "refusal" },
      "max_tokens",
    ]);
    expect(t.body[0]!.content[0]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
    expect(t.body[1]!.content).toEqual([
      { type: "thinking", text: "Check first.", signature: "EqQBCkYIBxgCKkB" },
      { type: "thinking", text: "", encrypted: "gAAAAB..." },
    ]);
    expect(t.body[3]!.content[0]).toEqual({
      type: "artifact",
      artifact: {
        id: "a1",
        name: "plan.md",
        source: { type: "text", text: "# Plan", media_type: "text/markdown" },
      },
    });
  });

  it("every stop reason is read", () => {
    for (const reason of [
      "end_turn",
      "tool_use",
      "max_tokens",
      "stop_sequence",
      "aborted",
      "error",
    ]) {
      const t = parse({ messages: [{ role: "assistant", content: "x", stop_reason: reason }] });
      expect(t.body[0]!.stop_reason).toBe(reason);
    }
  });

  it("accepts Anthropic's `thinking` key for the text of a thinking block", () => {
    const t = parse({
      messages: [
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Anthropic shape", signature: "sig" },
            { type: "thinking", text: "text wins", thinking: "ignored" },
          ],
        },
      ],
    });
    expect(t.body[0]!.content).toEqual([
      { type: "thinking", text: "Anthropic shape", signature: "sig" },
      { type: "thinking", text: "text wins" },
    ]);
  });

  it("ignores unknown keys and reads null optional fields as absent", () => {
    const t = parse({
      version: 3,
      id: null,
      title: null,
      messages: [
        {
          role: "assistant",
          id: "msg_1",
          content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }],
          model: null,
          usage: null,
          stop_reason: null,
          timestamp: null,
        },
      ],
    });
    expect(t.body[0]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      timestamp: EPOCH,
    });
    expect(t.meta.title).toBeUndefined();
    expect(t.meta.id).toMatch(UUID);
  });

  it("reads the bundled examples", () => {
    for (const path of [
      "examples/simple/fix-flaky-test.json",
      "test/fixtures/common/full.simple.json",
    ]) {
      const t = parseSimple(readFileSync(join(ROOT, path), "utf8"), path);
      expect(t.body.length).toBeGreaterThan(2);
      expect(toolUses(t.body).length).toBeGreaterThan(0);
    }
  });
});

describe("pairing tool results with calls", () => {
  it("id-less results take the oldest unanswered call, across messages", () => {
    const t = parse({
      messages: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", name: "A" },
            { type: "tool_use", name: "B" },
          ],
        },
        { role: "user", content: [{ type: "tool_result", content: "a" }] },
        { role: "assistant", content: [{ type: "tool_use", name: "C" }] },
        {
          role: "user",
          content: [
            { type: "tool_result", content: "b" },
            { type: "tool_result", content: "c" },
          ],
        },
      ],
    });
    const ids = Object.fromEntries(
      toolUses(t.body).map((u) => [u.tool.name === "Raw" ? u.tool.tool_name : "", u.id]),
    );
    const byContent = Object.fromEntries(
      blocks(t.body).flatMap((b) => (b.type === "tool_result" ? [[b.content, b.tool_use_id]] : [])),
    );
    expect(byContent).toEqual({ a: ids.A, b: ids.B, c: ids.C });
  });

  it("explicit ids pair out of order and are taken out of the FIFO queue", () => {
    const t = parse({
      messages: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "a", name: "A" },
            { type: "tool_use", name: "B" },
            { type: "tool_use", id: "c", name: "C" },
            { type: "tool_use", name: "D" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c", content: "for c" },
            { type: "tool_result", content: "oldest unanswered: a" },
            { type: "tool_result", content: "then B" },
            { type: "tool_result", tool_use_id: "nowhere", content: "dangling, kept" },
            { type: "tool_result", content: "then D" },
          ],
        },
      ],
    });
    const [a, b, c, d] = toolUses(t.body).map((u) => u.id);
    expect([a, c]).toEqual(["a", "c"]);
    expect(resultIds(t.body)).toEqual(["c", "a", b, "nowhere", d]);
  });

  it("a result may answer a call explicitly before FIFO would reach it", () => {
    const t = parse({
      messages: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "x", name: "X" },
            { type: "tool_use", id: "y", name: "Y" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "x", content: "1" },
            { type: "tool_result", content: "2" },
          ],
        },
      ],
    });
    expect(resultIds(t.body)).toEqual(["x", "y"]);
  });
});

describe("deterministic ids and timestamps", () => {
  const idless = {
    messages: [
      { role: "user", content: "run it" },
      {
        role: "assistant",
        content: [{ type: "tool_use", name: "Bash", input: { command: "ls" } }],
      },
      { role: "user", content: [{ type: "tool_result", content: "a b" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "." },
          { type: "tool_use", name: "Glob" },
        ],
      },
    ],
  };

  it("the same document gets the same session id and tool ids every time", () => {
    const first = parse(idless);
    const second = parse(structuredClone(idless));
    expect(second).toEqual(first);
    expect(first.meta.id).toMatch(UUID);
    const ids = toolUses(first.body).map((u) => u.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).not.toBe("");
  });

  it("a different document gets a different session id", () => {
    const other = structuredClone(idless);
    other.messages[0]!.content = "run it again";
    expect(parse(other).meta.id).not.toBe(parse(idless).meta.id);
  });

  it("explicit ids never collide with synthetic ones", () => {
    // Take the ids the parser would mint, then claim them explicitly elsewhere.
    const minted = toolUses(parse(idless).body).map((u) => u.id);
    const claimed = structuredClone(idless) as { messages: { role: string; content: unknown }[] };
    claimed.messages.unshift({
      role: "assistant",
      content: minted.map((id) => ({ type: "tool_use", id, name: "Earlier" })),
    });
    claimed.messages.push({
      role: "assistant",
      content: minted.map((id) => ({ type: "tool_use", id: `${id}_2`, name: "Later" })),
    });
    const uses = toolUses(parse(claimed).body);
    const ids = uses.map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The explicit ids are kept exactly.
    expect(ids.slice(0, minted.length)).toEqual(minted);
    expect(ids.slice(-minted.length)).toEqual(minted.map((id) => `${id}_2`));
  });

  it("random mixes of explicit and missing ids give unique ids, explicit ones kept", () => {
    const explicit = fc.option(fc.constantFrom("t1", "t2", "toolu_1", "x"), { nil: undefined });
    fc.assert(
      fc.property(fc.array(fc.array(explicit, { maxLength: 4 }), { maxLength: 6 }), (shape) => {
        // Drop repeated explicit ids: a repeat is an error, tested elsewhere.
        const seen = new Set<string>();
        const messages = shape.map((ids) => ({
          role: "assistant",
          content: ids.map((id) => {
            const keep = id !== undefined && !seen.has(id);
            if (keep) seen.add(id);
            return keep ? { type: "tool_use", id, name: "T" } : { type: "tool_use", name: "T" };
          }),
        }));
        const t = parse({ messages });
        const ids = toolUses(t.body).map((u) => u.id);
        expect(new Set(ids).size).toBe(ids.length);
        const given = messages.flatMap((m) => m.content.map((b) => ("id" in b ? b.id : undefined)));
        given.forEach((id, i) => {
          if (id !== undefined) expect(ids[i]).toBe(id);
        });
        expect(parse({ messages }).body).toEqual(t.body);
      }),
      { numRuns: 300 },
    );
  });

  it("a message without a timestamp inherits the previous message's, then the session's", () => {
    const t = parse({
      timestamp: "2026-08-18T10:00:00Z",
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: "b", timestamp: "2026-08-18T10:00:05.123456789Z" },
        { role: "user", content: "c" },
        { role: "assistant", content: "d", timestamp: "2026-08-18T09:00:00Z" },
        { role: "user", content: "e" },
      ],
    });
    expect(t.meta.timestamp).toBe("2026-08-18T10:00:00Z");
    expect(t.body.map((m) => m.timestamp)).toEqual([
      "2026-08-18T10:00:00Z",
      "2026-08-18T10:00:05.123456789Z",
      "2026-08-18T10:00:05.123456789Z",
      "2026-08-18T09:00:00Z",
      "2026-08-18T09:00:00Z",
    ]);
  });

  it("a session without a timestamp takes its earliest message's, whatever its position", () => {
    const t = parse({
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: "b", timestamp: "2026-08-18T10:05:00Z" },
        { role: "user", content: "c", timestamp: "2026-08-18T12:01:00+02:00" },
      ],
    });
    expect(t.meta.timestamp).toBe("2026-08-18T10:01:00Z");
    expect(t.body.map((m) => m.timestamp)).toEqual([
      "2026-08-18T10:01:00Z",
      "2026-08-18T10:05:00Z",
      "2026-08-18T10:01:00Z",
    ]);
  });

  it("with no timestamp anywhere everything is at the epoch", () => {
    const t = parse(idless);
    expect(t.meta.timestamp).toBe(EPOCH);
    expect(new Set(t.body.map((m) => m.timestamp))).toEqual(new Set([EPOCH]));
  });
});

describe("rendering", () => {
  const full = parseSimple(
    readFileSync(join(ROOT, "test/fixtures/common/full.simple.json"), "utf8"),
    "full.simple.json",
  );

  it("writes every timestamp, every field, tools in the canonical convention", () => {
    const rendered = JSON.parse(renderSimple(full));
    expect(Object.keys(rendered)).toEqual([
      "id",
      "timestamp",
      "cwd",
      "git_branch",
      "title",
      "model",
      "messages",
    ]);
    for (const m of rendered.messages) expect(typeof m.timestamp).toBe("string");
    expect(rendered.messages[1].content[0]).toEqual({
      type: "tool_use",
      id: "cmd1",
      name: "/review",
      input: { args: "--fast" },
    });
    const bash = rendered.messages[3].content[2];
    expect(bash).toEqual({
      type: "tool_use",
      id: "t1",
      name: "Bash",
      input: {
        command: "npm test -- login",
        description: "Run the login test",
        run_in_background: true,
        timeout_ms: 120000,
        workdir: "/home/al/my_app",
      },
    });
    // Opaque JSON is written with sorted keys, as txcript writes it.
    expect(Object.keys(bash.input)).toEqual(Object.keys(bash.input).sort());
    expect(rendered.messages[3].usage).toEqual({
      input_tokens: 1200,
      output_tokens: 80,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 10,
    });
  });

  it("parse(render(t)) gives back the same transcript, and render is stable", () => {
    const text = renderSimple(full);
    expect(parseSimple(text)).toEqual(full);
    expect(renderSimple(parseSimple(text))).toBe(text);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("writes cli_version and is_error only when present", () => {
    const t = parse({
      cli_version: "1.2.0",
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "a", name: "A" }] },
        { role: "user", content: [{ type: "tool_result", content: "x", is_error: false }] },
      ],
    });
    const rendered = JSON.parse(renderSimple(t));
    expect(rendered.cli_version).toBe("1.2.0");
    expect(rendered.messages[1].content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "a",
      content: "x",
    });
  });
});
