/**
 * Reading pi sessions: the active branch message by message (tools typed,
 * results paired, usage, stop reasons, the user's `!command`), what stays
 * out of Common, a byte-exact text round trip, hostile and truncated files,
 * and the store on real temporary directories (both layouts, forks, save,
 * conflict, delete).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { harness } from "../../src/harness/index.js";
import { PiStore } from "../../src/harness/pi/store.js";
import { everyKindLines, PI_CWD, PI_FILE, PI_ID, writePiSession } from "../support/pi.js";
import { hashTree, tempDir } from "../support/tmp.js";

const pi = harness("pi");
const text = `${everyKindLines().join("\n")}\n`;

describe("pi sessions read as Common", () => {
  const t = pi.codec.toCommon(pi.text.parse(text, PI_FILE));

  it("reads the header, the name and the first model", () => {
    expect(t.meta).toEqual({
      id: PI_ID,
      timestamp: "2026-09-14T08:30:00Z",
      cwd: PI_CWD,
      title: "Cart rounding",
      model: "claude-sonnet-4-5",
    });
  });

  it("follows the active branch, one message per pi message, results of a turn together", () => {
    expect(t.body.map((m) => `${m.role}:${m.content.map((b) => b.type).join("+")}`)).toEqual([
      "user:text",
      "assistant:thinking+text+tool_use",
      "user:tool_result",
      "assistant:tool_use+tool_use",
      "user:tool_result+tool_result",
      "user:text",
      "assistant:text",
    ]);
    expect(JSON.stringify(t.body)).not.toContain("wrong way");
    expect(JSON.stringify(t.body)).not.toContain("hidden");
  });

  it("types pi's tools on an exact fit and keeps the failure, usage and stop reasons", () => {
    const [, first, result, second, results, bang] = t.body;
    expect(first?.content[2]).toEqual({
      type: "tool_use",
      id: "toolu_01",
      tool: { name: "Bash", command: "npm test", timeout_ms: 60_000 },
    });
    expect(first?.content[0]).toEqual({
      type: "thinking",
      text: "Run the tests first.",
      signature: "sig-1",
    });
    expect(first?.stop_reason).toBe("tool_use");
    expect(first?.usage).toEqual({ input_tokens: 100, output_tokens: 20 });
    expect(result?.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01",
      content: "1 failing",
      is_error: true,
    });
    expect(second?.content.map((b) => (b.type === "tool_use" ? b.tool : b))).toEqual([
      { name: "Read", file_path: "src/cart.ts", offset: 3, limit: 10 },
      { name: "Edit", file_path: "src/cart.ts", old_string: "0.1", new_string: "0.01" },
    ]);
    expect(second?.usage).toEqual({
      input_tokens: 200,
      output_tokens: 30,
      cache_read_input_tokens: 50,
    });
    expect(results?.content.map((b) => (b.type === "tool_result" ? b.content : ""))).toEqual([
      "const RATE = 0.1;",
      "Edited.",
    ]);
    expect(bang?.content).toEqual([
      { type: "text", text: "Ran `git diff --stat`\n```\n1 file changed\n```" },
    ]);
  });

  it("renders the file back byte for byte, the skipped line and unknown kinds included", () => {
    expect(pi.text.render(pi.text.parse(text))).toBe(text);
    const crlf = text.replaceAll("\n", "\r\n").slice(0, -2);
    expect(pi.text.render(pi.text.parse(crlf))).toBe(crlf);
  });

  it("recognizes its own files and no other harness's", () => {
    const sample = (s: string) => ({ bytes: new TextEncoder().encode(s), text: s });
    expect(pi.text.detect?.(sample(text))).toBe("text");
    expect(pi.text.detect?.(sample('{"timestamp":"x","type":"session_meta","payload":{}}'))).toBe(
      undefined,
    );
  });
});

describe("hostile pi files", () => {
  it("refuses an empty file or one without pi's header in one line naming the file", () => {
    for (const bad of ["", "\n\n", '{"type":"message","id":"a"}\n', "[1,2]\n", "not json at all"]) {
      expect(() => pi.text.parse(bad, "/x/bad.jsonl")).toThrowError(/bad\.jsonl/);
    }
  });

  it("reads a file cut mid-line: the cut line is kept and skipped, the rest reads", () => {
    const cut = text.slice(0, text.length - 40);
    const t = pi.codec.toCommon(pi.text.parse(cut, "cut.jsonl"));
    expect(pi.text.render(pi.text.parse(cut))).toBe(cut);
    expect(t.body.length).toBeGreaterThan(3);
  });

  it("survives hostile entries: loops, missing parents, wrong types, deep nesting", () => {
    const lines = [
      JSON.stringify({ type: "session", version: 3, id: "x", timestamp: 5, cwd: 7 }),
      JSON.stringify({
        type: "message",
        id: "a",
        parentId: "b",
        message: { role: "user", content: 3 },
      }),
      JSON.stringify({
        type: "message",
        id: "b",
        parentId: "a",
        message: { role: "assistant", content: "hi", usage: "lots" },
      }),
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
      JSON.stringify({
        type: "message",
        id: "c",
        parentId: "b",
        message: { role: "toolResult", content: null },
      }),
      JSON.stringify({
        type: "message",
        id: "d",
        parentId: "c",
        message: {
          role: "assistant",
          content: [{ type: "toolCall", name: 5, arguments: "x" }],
          stopReason: "weird",
        },
      }),
    ];
    const t = pi.codec.toCommon(pi.text.parse(lines.join("\n"), "h.jsonl"));
    expect(t.meta.id).toBe("x");
    expect(t.body.at(-1)?.stop_reason).toEqual({ other: "weird" });
    expect(t.body.at(-1)?.content[0]).toEqual({
      type: "tool_use",
      id: "",
      tool: { name: "Raw", tool_name: "", input: "x" },
    });
  });
});

describe("the pi store", () => {
  it("lists sessions in project folders and flat, with forks, counting what view numbers", async () => {
    const root = tempDir("pi-store-");
    const path = writePiSession(root, everyKindLines());
    const forkId = "019a6c1e-0000-7000-8000-000000000001";
    const fork = everyKindLines(forkId);
    const header = JSON.parse(fork[0] ?? "{}");
    header.parentSession = path;
    fork[0] = JSON.stringify(header);
    writeFileSync(join(root, `2026-09-15T00-00-00-000Z_${forkId}.jsonl`), `${fork.join("\n")}\n`);
    writeFileSync(join(root, "2026-09-15T00-00-00-000Z_broken.jsonl"), '{"type":"message"}\n');
    const before = hashTree(root);
    const store = new PiStore({ root });
    const found = await store.discover();
    expect(
      found.sessions.map((s) => [s.id, s.message_count, s.forked_from, s.meta.cwd]).sort(),
    ).toEqual(
      [
        [PI_ID, 7, undefined, PI_CWD],
        [forkId, 7, PI_ID, PI_CWD],
      ].sort(),
    );
    expect(found.skipped).toHaveLength(1);
    expect(found.skipped[0]?.reason).toContain("header");
    expect(store.ids()).toEqual([forkId, PI_ID, "broken"].sort());
    expect(pi.codec.toCommon(store.load(PI_ID)).body).toHaveLength(7);
    expect(hashTree(root)).toEqual(before);
  });

  it("finds the root from pi's own variables", () => {
    const home = tempDir("pi-home-");
    expect(new PiStore({ env: { HOME: home } }).root).toBe(join(home, ".pi", "agent", "sessions"));
    expect(new PiStore({ env: { HOME: home, PI_CODING_AGENT_DIR: "~/agent" } }).root).toBe(
      join(home, "agent", "sessions"),
    );
    const flat = new PiStore({ env: { HOME: home, PI_CODING_AGENT_SESSION_DIR: "/s" } });
    expect([flat.root, flat.flat]).toEqual(["/s", true]);
  });

  it("saves where pi looks, refuses to overwrite, and deletes inside its root", () => {
    const root = tempDir("pi-save-");
    const store = new PiStore({ root });
    const t = pi.text.parse(text, PI_FILE);
    const saved = store.save(t);
    expect(saved.path).toBe(join(root, "--home-dana-shop--", PI_FILE));
    expect(readFileSync(saved.path, "utf8")).toBe(text);
    expect(() => store.save(t)).toThrowError(/already exists/);
    expect(store.delete(PI_ID)).toEqual([saved.path]);
    expect(store.ids()).toEqual([]);
    const relative = pi.codec.fromCommon({
      meta: { id: "r", timestamp: "2026-01-01T00:00:00Z", cwd: "rel" },
      body: [],
    });
    expect(() => store.save(relative)).toThrowError(/project directory/);
  });
});
