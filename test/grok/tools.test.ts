/**
 * Grok Build's tool calls typed into Common, from session folders built
 * from its public source (docs/formats/grok.md "Tools"): a call registered
 * under its wire name with the model's arguments, refined by an update
 * carrying a display title and the typed `ToolInput` (`variant`), with
 * `_meta["x.ai/tool"]` naming the wire tool. Bash, ReadFile, SearchReplace
 * and Write become Bash, Read, Edit and Write on an exact fit; everything
 * else stays Raw under its wire name. Also: a property that no field is
 * ever dropped by the typing, and the CLI through the built binary.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonObject, type Tool, toolToCanonical } from "../../src/common.js";
import { GrokStore } from "../../src/harness/grok/store.js";
import { toolFromGrok } from "../../src/harness/grok/tools.js";
import { harness } from "../../src/harness/index.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const grok = harness("grok");
const ID = "0199e0a1-7c2b-7d4e-9f10-3a5b6c7d8e10";
const GROUP = "%2Fdata%2Fprojects%2Fdemo";

let ms = 1_784_388_056_000;
function line(update: JsonObject): string {
  ms += 10;
  return JSON.stringify({
    timestamp: Math.floor(ms / 1000),
    method: "session/update",
    params: { sessionId: ID, update, _meta: { eventId: `ev-${ms}`, agentTimestampMs: ms } },
  });
}

/** `CanonicalToolMeta` as `stamp_tool_meta` merges it into a call's `_meta`. */
function identity(name: string, kind: string, label: string, input?: JsonObject): JsonObject {
  const meta: JsonObject = {
    version: 1,
    name,
    kind,
    namespace: "grok_build",
    label,
    read_only: false,
  };
  if (input !== undefined) meta.input = input;
  return { "x.ai/tool": meta };
}

/**
 * One call as Grok Build writes it: `tool_call` (wire name as title, kind
 * `other`, the model's arguments), then the refining `tool_call_update`
 * (display title, kind, the typed input), then the finished update.
 */
function call(
  id: string,
  wire: string,
  args: JsonObject,
  refined: { title: string; kind: string; label: string; input: JsonObject } | undefined,
  output: string,
): string[] {
  const lines = [
    line({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: wire,
      kind: "other",
      status: "pending",
      rawInput: args,
      _meta: identity(wire, refined?.kind ?? "other", refined?.label ?? "Tool"),
    }),
  ];
  if (refined !== undefined)
    lines.push(
      line({
        sessionUpdate: "tool_call_update",
        toolCallId: id,
        title: refined.title,
        kind: refined.kind,
        rawInput: refined.input,
        _meta: identity(wire, refined.kind, refined.label, { path: "x" }),
      }),
    );
  lines.push(
    line({
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: output } }],
      _meta: { durationMs: 12 },
    }),
  );
  return lines;
}

function session(root: string): void {
  ms = 1_784_388_056_000;
  const bash = { command: "cargo test", description: "Run the tests" };
  const lines = [
    line({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "fix it" } }),
    ...call(
      "c-bash",
      "run_terminal_cmd",
      bash,
      {
        title: "Execute `cargo test`",
        kind: "execute",
        label: "Run Command",
        input: { variant: "Bash", ...bash, timeout: 60000, is_background: false },
      },
      "ok",
    ),
    ...call(
      "c-read",
      "read_file",
      { target_file: "src/lib.rs", offset: 10, limit: 20 },
      {
        title: "Read `src/lib.rs`",
        kind: "read",
        label: "Read",
        input: { variant: "ReadFile", target_file: "src/lib.rs", offset: 10, limit: 20 },
      },
      "fn main() {}",
    ),
    ...call(
      "c-edit",
      "search_replace",
      { file_path: "src/lib.rs", old_string: "a", new_string: "b" },
      {
        title: "Edit `src/lib.rs`",
        kind: "edit",
        label: "Edit",
        input: {
          variant: "SearchReplace",
          file_path: "src/lib.rs",
          old_string: "a",
          new_string: "b",
          replace_all: false,
        },
      },
      "edited",
    ),
    ...call(
      "c-write",
      "write",
      { file_path: "NOTES.md", content: "# notes\n" },
      {
        title: "Write `NOTES.md`",
        kind: "edit",
        label: "Write",
        input: { variant: "Write", file_path: "NOTES.md", content: "# notes\n" },
      },
      "written",
    ),
    // No Common fit: Raw under the wire name, the typed input kept as it is.
    ...call(
      "c-grep",
      "grep",
      { pattern: "TODO" },
      {
        title: "Grep `TODO`",
        kind: "search",
        label: "Search",
        input: { variant: "Grep", pattern: "TODO", case_insensitive: false, multiline: false },
      },
      "src/lib.rs:1",
    ),
    // A negative offset (from the end) has no Common meaning: Raw.
    ...call(
      "c-tail",
      "read_file",
      { target_file: "log.txt", offset: -20 },
      {
        title: "Read `log.txt`",
        kind: "read",
        label: "Read",
        input: { variant: "ReadFile", target_file: "log.txt", offset: -20 },
      },
      "last lines",
    ),
    // Never refined (rejected before parsing): Raw under the wire name, the model's arguments.
    ...call("c-task", "task", { description: "look around", prompt: "find X" }, undefined, "done"),
    line({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Fixed." } }),
  ];
  const dir = join(root, "sessions", GROUP, ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "updates.jsonl"), `${lines.join("\n")}\n`);
}

function toolsOf(root: string): Map<string, Tool> {
  const t = grok.codec.toCommon(new GrokStore({ root }).load(ID));
  const out = new Map<string, Tool>();
  for (const m of t.body)
    for (const b of m.content) if (b.type === "tool_use") out.set(b.id, b.tool);
  return out;
}

describe("Grok Build tool calls", () => {
  it("types Bash, ReadFile, SearchReplace and Write; keeps the rest Raw by wire name", () => {
    const root = tempDir("grok-tools-");
    session(root);
    const tools = toolsOf(root);
    expect(tools.get("c-bash")).toEqual({
      name: "Bash",
      command: "cargo test",
      description: "Run the tests",
      timeout_ms: 60000,
    });
    expect(tools.get("c-read")).toEqual({
      name: "Read",
      file_path: "src/lib.rs",
      offset: 10,
      limit: 20,
    });
    expect(tools.get("c-edit")).toEqual({
      name: "Edit",
      file_path: "src/lib.rs",
      old_string: "a",
      new_string: "b",
      replace_all: false,
    });
    expect(tools.get("c-write")).toEqual({
      name: "Write",
      file_path: "NOTES.md",
      content: "# notes\n",
    });
    expect(tools.get("c-grep")).toEqual({
      name: "Raw",
      tool_name: "grep",
      input: { variant: "Grep", pattern: "TODO", case_insensitive: false, multiline: false },
    });
    expect(tools.get("c-tail")).toMatchObject({ name: "Raw", tool_name: "read_file" });
    expect(tools.get("c-task")).toEqual({
      name: "Raw",
      tool_name: "task",
      input: { description: "look around", prompt: "find X" },
    });
  });

  it("keeps a call Raw when its typed input holds a field Common would drop, or odd values", () => {
    const raw = (input: JsonObject) =>
      toolFromGrok({
        title: "Execute",
        rawInput: input,
        _meta: identity("bash", "execute", "Run Command"),
      });
    for (const input of [
      { variant: "Bash", command: "ls", description: "d", shell: "zsh" },
      { variant: "Bash", command: 7, description: "d" },
      { variant: "Bash", command: "ls", is_background: "yes" },
      { variant: "ReadFile", target_file: "a", pages: "1-2" },
      { variant: "ReadFile", target_file: "a", offset: 1.5 },
      { variant: "SearchReplace", file_path: "a", old_string: "x" },
      { variant: "Write", file_path: "a", content: "b", mode: "0644" },
      { variant: "__proto__", command: "ls" },
    ])
      expect(raw(input)).toEqual({ name: "Raw", tool_name: "bash", input });
    // A background command keeps that it ran in the background.
    expect(
      raw({ variant: "Bash", command: "serve", description: "d", is_background: true }),
    ).toEqual({ name: "Bash", command: "serve", description: "d", run_in_background: true });
  });

  it("never drops a field: a typed tool's canonical input holds every typed input value", () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const input = fc.record(
      {
        variant: fc.constantFrom("Bash", "ReadFile", "SearchReplace", "Write", "Grep", "Task"),
        command: value,
        description: value,
        timeout: value,
        is_background: value,
        target_file: value,
        offset: value,
        limit: value,
        file_path: value,
        old_string: value,
        new_string: value,
        replace_all: value,
        content: value,
        extra: value,
      },
      { requiredKeys: ["variant"] },
    );
    fc.assert(
      fc.property(input, (rawInput) => {
        const tool = toolFromGrok({ rawInput });
        if (tool.name === "Raw") {
          expect(tool.input).toEqual(rawInput);
          return;
        }
        const values = Object.values(toolToCanonical(tool).input ?? {});
        for (const [k, v] of Object.entries(rawInput)) {
          if (k === "variant" || (k === "is_background" && v === false)) continue;
          expect(values).toContainEqual(v);
        }
      }),
    );
  });

  it("shows typed calls through the built binary", () => {
    const root = tempDir("grok-tools-cli-");
    session(root);
    const env = { TXCRIPT_GROK_ROOT: root, TXCRIPT_CACHE: join(tempDir("grok-cache-"), "c") };
    const view = txcript(["view", ID, "--no-pager"], { env });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("cargo test");
    expect(view.stdout).toContain("src/lib.rs");
    const simple = txcript(["export", ID, "--format", "simple"], { env });
    expect(simple.status).toBe(0);
    for (const name of ["Bash", "Read", "Edit", "Write"])
      expect(simple.stdout).toContain(`"name": "${name}"`);
  });
});
