/**
 * Sessions the real OpenCode 1.18.33 wrote (test/fixtures/opencode/opencode.db,
 * made against a local chat-completions stand-in: a plain prompt, a turn of
 * bash/read/write/edit calls with a failing command and a failing read,
 * a second turn, an image attachment, a subagent task) read back exactly:
 * the listing, every message as Common, and the `opencode export` document
 * byte for byte (tools.export.json is what `opencode export` printed).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { renderCommon } from "../../src/common-json.js";
import { OpenCodeStore, openCodeCodec, openCodeText } from "../../src/harness/opencode/index.js";
import { copyOpenCodeFixture } from "../support/opencode.js";
import { hashTree, tempDir } from "../support/tmp.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "opencode");
const TOOLS = "ses_dc5706968ffewv6oHAOSJ6GSwm";
const PARENT = "ses_dc56fe836ffeIJ31c7z1gwwo2w";
const CHILD = "ses_dc56fd013ffe0MUtTm4WSV0b8Q";
const IMAGE = "ses_dc56fa3bdffeDS8uMlkEwP58Zt";

function fixtureStore(): { store: OpenCodeStore; root: string } {
  const root = tempDir("txcript-opencode-");
  copyOpenCodeFixture(root);
  return { store: new OpenCodeStore({ root, env: {} }), root };
}

describe("the database OpenCode 1.18.33 wrote", async () => {
  it("lists its seven sessions with titles, counts, lineage and the database as their file", async () => {
    const { store, root } = fixtureStore();
    const before = hashTree(root);
    const { sessions, skipped } = await store.discover();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.message_count, s.meta.title, s.parent_id])).toEqual([
      [IMAGE, 2, "Mock title", undefined],
      [PARENT, 4, "Mock title", undefined],
      [CHILD, 2, "Sub job (@general subagent)", PARENT],
      [TOOLS, 16, "Mock title", undefined],
      ["ses_dc570a51bffe9hiHEv8eA6rZcG", 2, "Mock title", undefined],
      ["ses_dc570f611ffeL5m8e0yhSljQz4", 2, "Mock title", undefined],
      ["ses_dc57139d7ffeedLlMbKb1yICWE", 2, "Mock title", undefined],
    ]);
    const tools = sessions.find((s) => s.id === TOOLS)!;
    expect(tools.meta).toEqual({
      id: TOOLS,
      timestamp: "2026-12-03T06:20:18.456Z",
      cwd: "/tmp/oc/home/work/proj",
      title: "Mock title",
      cli_version: "1.18.33",
      model: "mock-model",
    });
    expect(tools.updated).toBe("2026-12-03T06:20:38.519Z");
    expect(tools.path).toBe(join(root, "opencode.db"));
    for (const s of sessions) {
      expect(openCodeCodec.toCommon(store.load(s.id)).body).toHaveLength(s.message_count);
    }
    expect(store.ids()).toEqual(sessions.map((s) => s.id).sort());
    // Reading changed nothing and left no -wal or -shm behind.
    expect(hashTree(root)).toEqual(before);
  });

  it("reads the tool session message by message as Common", async () => {
    const { store } = fixtureStore();
    const common = openCodeCodec.toCommon(store.load(TOOLS));
    expect(renderCommon(common)).toBe(readFileSync(join(FIXTURES, "tools.common.json"), "utf8"));
    const body = common.body;
    expect(body.map((m) => m.role).join(" ")).toBe(
      "user assistant user assistant user assistant user assistant user assistant user assistant user assistant user assistant",
    );
    expect(body[1]!.content).toEqual([
      { type: "thinking", text: "I should run ls first." },
      { type: "text", text: "Let me look." },
      {
        type: "tool_use",
        id: "call_2_0",
        tool: { name: "Bash", command: "ls", description: "List files" },
      },
    ]);
    expect(body[1]!.usage).toEqual({
      input_tokens: 97,
      output_tokens: 12,
      cache_read_input_tokens: 5,
    });
    expect(body[1]!.stop_reason).toBe("tool_use");
    expect(body[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "call_2_0", content: "notes.txt\n" },
    ]);
    const tools = body.flatMap((m) => m.content).filter((b) => b.type === "tool_use");
    expect(tools.map((b) => (b.type === "tool_use" ? b.tool.name : ""))).toEqual([
      "Bash",
      "Read",
      "Write",
      "Edit",
      "Bash",
      "Read",
    ]);
    expect(body[5]!.content[0]).toEqual({
      type: "tool_use",
      id: "call_4_0",
      tool: {
        name: "Write",
        file_path: "/tmp/oc/home/work/proj/new.txt",
        content: "line one\nline two\n",
      },
    });
    // The command that exited 3 (OpenCode: completed, metadata.exit 3) and the failed read.
    expect(body[10]!.content).toEqual([
      { type: "tool_result", tool_use_id: "call_6_0", content: "(no output)", is_error: true },
    ]);
    expect(body[12]!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "call_7_0",
        content: "File not found: /tmp/oc/home/work/proj/missing.txt",
        is_error: true,
      },
    ]);
    expect(body[14]!.content).toEqual([{ type: "text", text: '"And now a second turn"' }]);
    expect(body[15]!.stop_reason).toBe("end_turn");
  });

  it("reads the attached image and the subagent's task call", async () => {
    const { store } = fixtureStore();
    const image = openCodeCodec.toCommon(store.load(IMAGE)).body[0]!;
    expect(image.content[2]).toEqual({
      type: "image",
      source: {
        type: "base64",
        media_type: "image/png",
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      },
    });
    const parent = openCodeCodec.toCommon(store.load(PARENT)).body;
    expect(parent[1]!.content[0]).toEqual({
      type: "tool_use",
      id: "call_11_0",
      tool: {
        name: "Raw",
        tool_name: "task",
        input: { description: "Sub job", prompt: "Count the files", subagent_type: "general" },
      },
    });
  });

  it("renders the session as `opencode export` printed it, byte for byte, and parses it back", async () => {
    const { store } = fixtureStore();
    const exported = readFileSync(join(FIXTURES, "tools.export.json"), "utf8");
    const loaded = store.load(TOOLS);
    expect(openCodeText.render(loaded)).toBe(exported);
    const parsed = openCodeText.parse(exported, "tools.export.json");
    expect(openCodeText.render(parsed)).toBe(exported);
    expect(openCodeCodec.toCommon(parsed)).toEqual(openCodeCodec.toCommon(loaded));
    // The rows an import would insert are the rows OpenCode wrote, times aside.
    const strip = (rows: Record<string, unknown>[]) =>
      rows.map(({ time_created: _, time_updated: __, ...rest }) => rest);
    expect(strip(parsed.body.messages.map((m) => m.row))).toEqual(
      strip(loaded.body.messages.map((m) => m.row)),
    );
    expect(parsed.body.messages.flatMap((m) => strip(m.parts))).toEqual(
      loaded.body.messages.flatMap((m) => strip(m.parts)),
    );
  });

  it("marks archived sessions in the listing", async () => {
    const { store, root } = fixtureStore();
    const db = new Database(join(root, "opencode.db"));
    db.prepare("UPDATE session SET time_archived = ? WHERE id = ?").run(1796280000000, TOOLS);
    db.close();
    const found = (await store.discover()).sessions;
    expect(found.find((s) => s.id === TOOLS)!.lane).toBe("archived");
    expect(found.filter((s) => s.lane === "archived")).toHaveLength(1);
  });
});
