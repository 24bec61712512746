/**
 * Writing Copilot CLI sessions on real temporary directories: a saved copy
 * reads back (its title through workspace.yaml, hostile titles included, a
 * fast-check property), a failed command is written as the CLI records
 * one, saves are exclusive, a bad id is refused in one
 * line; and the reading gaps: a sub-agent's events stay out of the main
 * messages (its answer fills the spawning call's empty result), an image
 * interned as a `session.binary_asset` is read, the parent session is
 * lineage, and Claude Code's detector leaves a Copilot events file alone.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectForm } from "../../src/detect.js";
import { ConflictError } from "../../src/errors.js";
import { CopilotStore } from "../../src/harness/copilot/store.js";
import { harness } from "../../src/harness/index.js";
import { Lines } from "../../src/lines.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { COPILOT_ID, copilotEvents, createCopilotSessions } from "../support/copilot.js";
import { hashTree, tempDir } from "../support/tmp.js";

const copilot = harness("copilot");

function common(title: string, id = "3f0e3c9a-1b2c-4d5e-8f70-112233445566") {
  return {
    meta: { id, timestamp: "2026-12-06T00:00:00Z", cwd: "/w/p", title },
    body: [
      {
        role: "user" as const,
        content: [{ type: "text" as const, text: "hi" }],
        timestamp: "2026-12-06T00:00:01Z",
      },
    ],
  };
}

describe("the Copilot CLI store writes", () => {
  it("saves a session that loads back with its hostile title, exclusively", () => {
    const root = tempDir("copilot-write-");
    const store = new CopilotStore({ root });
    const title = `it's "quoted": # not a comment\nsecond: line`;
    const saved = store.save(copilot.codec.fromCommon(common(title)));
    const back = copilot.codec.toCommon(store.load(saved.id));
    expect(back.meta.title).toBe(title);
    expect(back.body).toHaveLength(1);
    const before = hashTree(root);
    expect(() => store.save(copilot.codec.fromCommon(common("other")))).toThrowError(ConflictError);
    expect(hashTree(root)).toEqual(before);
  });

  it("writes the events file whole, ending in a newline even when the Body's last line has none", () => {
    const root = tempDir("copilot-write-eol-");
    const store = new CopilotStore({ root });
    const body = copilot.codec.fromCommon(common("eol")).body;
    const last = body.lines.at(-1);
    expect(last).toBeDefined();
    const lines = [...[...body.lines].slice(0, -1), { text: last?.text ?? "", eol: "" as const }];
    const saved = store.save({
      meta: { id: "3f0e3c9a-1b2c-4d5e-8f70-112233445566", timestamp: "2026-12-06T00:00:00Z" },
      body: { ...body, lines: Lines.of(lines) },
    });
    const text = readFileSync(saved.path, "utf8");
    expect(text).toBe(`${lines.map((l) => l.text).join("\n")}\n`);
    expect(copilot.codec.toCommon(store.load(saved.id)).body).toHaveLength(1);
  });

  it("round-trips any title through workspace.yaml", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1 }).filter((s) => s.trim() !== ""),
        (title) => {
          const root = tempDir("copilot-title-");
          const store = new CopilotStore({ root });
          const saved = store.save(copilot.codec.fromCommon(common(title)));
          expect(store.load(saved.id).meta.title).toBe(title);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("writes a failed command as the CLI records one, another failed call as error.message", () => {
    const t: Transcript<Common> = {
      meta: { id: "3f0e3c9a-1b2c-4d5e-8f70-112233445567", timestamp: "2026-12-06T00:00:00Z" },
      body: [
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "c1",
              tool: { name: "Bash", command: "false" },
            },
            {
              type: "tool_use",
              id: "c2",
              tool: { name: "Read", file_path: "/w/p/missing.txt" },
            },
          ],
          timestamp: "2026-12-06T00:00:01Z",
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "exit 1", is_error: true },
            {
              type: "tool_result",
              tool_use_id: "c2",
              content: "no such file",
              is_error: true,
            },
          ],
          timestamp: "2026-12-06T00:00:02Z",
        },
      ],
    };
    const written = copilot.codec.fromCommon(t);
    const done = [...written.body.lines]
      .map((l) => JSON.parse(l.text) as { type: string; data: Record<string, unknown> })
      .filter((e) => e.type === "tool.execution_complete")
      .map((e) => e.data);
    expect(done).toEqual([
      {
        toolCallId: "c1",
        success: true,
        result: { content: "exit 1" },
        shellExecution: { exitCode: 1 },
      },
      { toolCallId: "c2", success: false, error: { message: "no such file" } },
    ]);
    expect(copilot.codec.toCommon(written).body[1]?.content).toEqual(t.body[1]?.content);
  });

  it("refuses an id that is not a path component, in one line", () => {
    const store = new CopilotStore({ root: tempDir("copilot-bad-") });
    expect(() => store.save(copilot.codec.fromCommon(common("t", "../x")))).toThrowError(
      /^[^\n]*$/,
    );
  });

  it("reads a broken workspace.yaml tolerantly: the title is the first prompt", () => {
    const root = tempDir("copilot-broken-");
    const [path] = createCopilotSessions(root, [COPILOT_ID]);
    writeFileSync(join(path ?? "", "..", "workspace.yaml"), "name: [unclosed\n\t: :");
    const t = new CopilotStore({ root }).load(COPILOT_ID);
    expect(t.meta.title).toBe("Fix the cart total");
  });
});

describe("Copilot CLI reading gaps", () => {
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    line({ type, data, id: type, timestamp: "2026-12-06T00:21:09.000Z", parentId: null, ...extra });

  it("keeps sub-agent events out and fills the task result with the sub-agent's answer", () => {
    const events = copilotEvents();
    const start = events[0] ?? "";
    const text = [
      start,
      ev("user.message", { content: "Delegate" }),
      ev("assistant.message", {
        content: "",
        toolRequests: [{ toolCallId: "task_1", name: "task", arguments: { prompt: "look" } }],
      }),
      ev("subagent.started", { toolCallId: "task_1", agentName: "explore" }, { agentId: "a1" }),
      ev("assistant.message", { content: "inner work", toolRequests: [] }, { agentId: "a1" }),
      ev("tool.execution_complete", { toolCallId: "x", success: true }, { agentId: "a1" }),
      ev(
        "assistant.message",
        { content: "The answer is 42.", toolRequests: [] },
        { agentId: "a1" },
      ),
      ev("tool.execution_complete", {
        toolCallId: "task_1",
        success: true,
        result: { content: "" },
      }),
      ev("assistant.message", { content: "Done.", toolRequests: [] }),
    ].join("\n");
    const t = copilot.codec.toCommon(copilot.text.parse(text, "s/events.jsonl"));
    expect(t.body.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(t.body[2]?.content[0]).toMatchObject({
      tool_use_id: "task_1",
      content: "The answer is 42.",
    });
    expect(JSON.stringify(t.body)).not.toContain("inner work");
  });

  it("reads an image interned by assetId, and the parent session as lineage", async () => {
    const start = JSON.parse(copilotEvents()[0] ?? "{}");
    start.data.detachedFromSpawningParentSessionId = "parent-1";
    const text = [
      JSON.stringify(start),
      ev("session.binary_asset", {
        assetId: "sha256:ab",
        type: "image",
        mimeType: "image/png",
        byteLength: 3,
        data: "AAEC",
      }),
      ev("user.message", {
        content: "see",
        attachments: [{ type: "blob", mimeType: "image/png", assetId: "sha256:ab" }],
      }),
    ].join("\n");
    const t = copilot.codec.toCommon(copilot.text.parse(text, "s/events.jsonl"));
    expect(t.body[0]?.content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "AAEC" },
    });
    const root = tempDir("copilot-parent-");
    const [path] = createCopilotSessions(root, [COPILOT_ID]);
    writeFileSync(path ?? "", `${text}\n`);
    const found = await new CopilotStore({ root }).discover();
    expect(found.sessions[0]?.parent_id).toBe("parent-1");
  });

  it("is detected as Copilot CLI, not Claude Code", () => {
    const [path] = createCopilotSessions(tempDir("copilot-detect-"), [COPILOT_ID]);
    const text = readFileSync(path ?? "", "utf8");
    expect(detectForm({ bytes: Buffer.from(text), text })?.form).toBe("copilot");
  });
});
