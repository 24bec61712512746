/**
 * Reading Copilot CLI sessions: events message by message (reasoning,
 * tools typed, results grouped, a shell exit flagged, usage records), a
 * byte-exact text round trip, hostile and truncated files, the store's
 * reads on a real temporary directory, and a fast-check property.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError, UnsupportedError } from "../../src/errors.js";
import { CopilotStore } from "../../src/harness/copilot/store.js";
import { harness } from "../../src/harness/index.js";
import { shapedSessionArb } from "../cross/shaped.js";
import {
  COPILOT_CWD,
  COPILOT_ID,
  copilotEvents,
  createCopilotSessions,
} from "../support/copilot.js";
import { hashTree, tempDir } from "../support/tmp.js";

const copilot = harness("copilot");
const text = `${copilotEvents().join("\n")}\n`;

describe("Copilot CLI sessions read as Common", () => {
  const t = copilot.codec.toCommon(copilot.text.parse(text, `/x/${COPILOT_ID}/events.jsonl`));

  it("reads session.start and the first prompt", () => {
    expect(t.meta).toEqual({
      id: COPILOT_ID,
      timestamp: "2026-12-06T00:21:00Z",
      cwd: COPILOT_CWD,
      cli_version: "1.0.102",
      title: "Fix the cart total",
      model: "claude-sonnet-4.5",
    });
  });

  it("reads every message event, results of a turn together, a failed shell flagged", () => {
    expect(t.body.map((m) => `${m.role}:${m.content.map((b) => b.type).join("+")}`)).toEqual([
      "user:text",
      "assistant:thinking+text+tool_use",
      "user:tool_result",
      "assistant:tool_use+tool_use",
      "user:tool_result+tool_result",
      "assistant:text",
    ]);
    expect(t.body[0]?.content).toEqual([{ type: "text", text: "Fix the cart total" }]);
    expect(t.body[1]?.content[0]).toEqual({
      type: "thinking",
      text: "Tests first.",
      signature: "sig-1",
    });
    expect(t.body[1]?.content[2]).toEqual({
      type: "tool_use",
      id: "toolu_1",
      tool: { name: "Bash", command: "npm test", description: "Run tests" },
    });
    expect(t.body[2]?.content[0]).toMatchObject({ is_error: true, tool_use_id: "toolu_1" });
    expect(t.body[3]?.content.map((b) => (b.type === "tool_use" ? b.tool : b))).toEqual([
      { name: "Read", file_path: "src/cart.ts" },
      { name: "Edit", file_path: "src/cart.ts", old_string: "0.1", new_string: "0.01" },
    ]);
    expect(t.body.filter((m) => m.role === "assistant").map((m) => m.usage)).toEqual([
      { input_tokens: 100, output_tokens: 20 },
      { input_tokens: 200, output_tokens: 30 },
      { input_tokens: 300, output_tokens: 40 },
    ]);
  });

  it("renders the file back byte for byte", () => {
    expect(copilot.text.render(copilot.text.parse(text))).toBe(text);
  });
});

describe("hostile Copilot CLI files", () => {
  it("refuses a file without session.start in one line naming it", () => {
    for (const bad of ["", "{}\n", '{"type":"user.message","data":{}}\n', "[1]\n"]) {
      expect(() => copilot.text.parse(bad, "/x/bad/events.jsonl")).toThrowError(
        /bad\/events\.jsonl/,
      );
    }
  });

  it("reads a file cut mid-line, keeping the cut line", () => {
    const cut = text.slice(0, text.length - 50);
    expect(copilot.text.render(copilot.text.parse(cut))).toBe(cut);
    expect(copilot.codec.toCommon(copilot.text.parse(cut)).body.length).toBeGreaterThan(3);
  });

  it("never crashes on arbitrary events after a start", () => {
    const start = copilotEvents()[0] ?? "";
    const event = fc.record({
      type: fc.constantFrom(
        "user.message",
        "assistant.message",
        "tool.execution_complete",
        "session.usage_record",
        "x",
      ),
      data: fc.oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom("content", "toolRequests", "result", "usage", "attachments", "success"),
          fc.jsonValue(),
        ),
      ),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), (events) => {
        const body = [start, ...events.map((e) => JSON.stringify(e))].join("\n");
        expect(() =>
          copilot.codec.toCommon(copilot.text.parse(body, "e/events.jsonl")),
        ).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it("fromCommon is deterministic and its text parses back to the same Body", () => {
    fc.assert(
      fc.property(shapedSessionArb, (common) => {
        const once = copilot.codec.fromCommon(common);
        expect(copilot.codec.fromCommon(common)).toEqual(once);
        const back = copilot.text.parse(copilot.text.render(once), "s/events.jsonl");
        // The text form is the events file alone; workspace.yaml is the store's.
        expect([...back.body.lines]).toEqual([...once.body.lines]);
      }),
      { numRuns: 60 },
    );
  });

  it("a ParseError is one line", () => {
    try {
      copilot.text.parse("{not json\n", "x/events.jsonl");
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      expect(String((e as Error).message)).not.toContain("\n");
    }
  });
});

describe("the Copilot CLI store", () => {
  it("lists and loads session-state folders without changing them, and refuses delete", async () => {
    const root = tempDir("copilot-store-");
    createCopilotSessions(root, [COPILOT_ID]);
    const before = hashTree(root);
    const store = new CopilotStore({ root });
    const found = await store.discover();
    expect(found.sessions.map((s) => [s.id, s.message_count, s.meta.cwd])).toEqual([
      [COPILOT_ID, 6, COPILOT_CWD],
    ]);
    expect(store.ids()).toEqual([COPILOT_ID]);
    expect(copilot.codec.toCommon(store.load(COPILOT_ID)).body).toHaveLength(6);
    expect(() => store.delete()).toThrowError(UnsupportedError);
    expect(hashTree(root)).toEqual(before);
  });

  it("finds its home from COPILOT_HOME, else ~/.copilot", () => {
    expect(new CopilotStore({ env: { HOME: "/h" } }).root).toBe("/h/.copilot");
    expect(new CopilotStore({ env: { HOME: "/h", COPILOT_HOME: "/c" } }).root).toBe("/c");
  });
});
