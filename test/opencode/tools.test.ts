/**
 * OpenCode's tools and the canonical ones: typed only on an exact fit,
 * `apply_patch` read as Codex's, `multiedit` only when every edit is the
 * file's, everything else Raw with its name and input untouched; and the
 * way back writes OpenCode's own names and keys.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Tool } from "../../src/common.js";
import { toolFromNative, toolToNative } from "../../src/harness/shared/opencode/tools.js";
import { uniquePrefixWidth } from "../../src/id-forms.js";
import { toolArb } from "../support/arbitraries.js";

describe("OpenCode tools -> canonical", () => {
  it.each([
    [
      "bash",
      { command: "npm test", timeout: 60000, description: "Run tests", workdir: "/w" },
      {
        name: "Bash",
        command: "npm test",
        timeout_ms: 60000,
        description: "Run tests",
        workdir: "/w",
      },
    ],
    [
      "read",
      { filePath: "/w/a.ts", offset: 10, limit: 5 },
      { name: "Read", file_path: "/w/a.ts", offset: 10, limit: 5 },
    ],
    [
      "write",
      { filePath: "/w/a", content: "x\n" },
      { name: "Write", file_path: "/w/a", content: "x\n" },
    ],
    [
      "edit",
      { filePath: "/w/a", oldString: "a", newString: "b", replaceAll: true },
      { name: "Edit", file_path: "/w/a", old_string: "a", new_string: "b", replace_all: true },
    ],
    [
      "multiedit",
      {
        filePath: "/w/a",
        edits: [
          { filePath: "/w/a", oldString: "a", newString: "b" },
          { oldString: "c", newString: "d", replaceAll: false },
        ],
      },
      {
        name: "MultiEdit",
        file_path: "/w/a",
        edits: [
          { old_string: "a", new_string: "b" },
          { old_string: "c", new_string: "d", replace_all: false },
        ],
      },
    ],
    [
      "apply_patch",
      { patchText: "*** Begin Patch\n*** Add File: /w/n.txt\n+hello\n*** End Patch" },
      { name: "Write", file_path: "/w/n.txt", content: "hello\n" },
    ],
    [
      "apply_patch",
      { patchText: "*** Begin Patch\n*** Update File: /w/n.txt\n@@\n-hello\n+bye\n*** End Patch" },
      { name: "Edit", file_path: "/w/n.txt", old_string: "hello", new_string: "bye" },
    ],
  ])("%s %j fits exactly", (name, input, tool) => {
    expect(toolFromNative(name, input)).toEqual(tool);
  });

  it.each([
    ["bash", { command: "ls", extra: 1 }],
    ["bash", { command: 7 }],
    ["read", { filePath: "/a", offset: "10" }],
    ["read", { filePath: "/a", offset: -1 }],
    ["write", { filePath: "/a" }],
    ["edit", { filePath: "/a", oldString: "x", newString: null }],
    ["multiedit", { filePath: "/a", edits: [{ filePath: "/b", oldString: "x", newString: "y" }] }],
    ["apply_patch", { patchText: "*** Begin Patch\n*** Delete File: /a\n*** End Patch" }],
    ["apply_patch", { patchText: "not a patch" }],
    ["apply_patch", { patchText: "*** Begin Patch\n*** End Patch", extra: true }],
    ["grep", { pattern: "x" }],
    ["task", { description: "d", prompt: "p", subagent_type: "general" }],
    ["Bash", { command: "ls" }],
  ])("%s %j stays Raw, untouched", (name, input) => {
    expect(toolFromNative(name, input)).toEqual({ name: "Raw", tool_name: name, input });
  });
});

describe("canonical -> OpenCode tools", () => {
  it("writes OpenCode's names and keys, and every typed tool reads back as it was", () => {
    fc.assert(
      fc.property(toolArb, (tool: Tool) => {
        const native = toolToNative(tool);
        const back = toolFromNative(native.name, native.input);
        switch (tool.name) {
          case "Bash": {
            const { run_in_background: _, ...rest } = tool;
            expect(back).toEqual(rest);
            break;
          }
          case "Read":
          case "Write":
          case "Edit":
          case "MultiEdit":
            expect(back).toEqual(tool);
            break;
          case "Raw":
            expect(native.name).toBe(tool.tool_name);
            break;
          case "Command":
            expect(native.name).toBe(tool.command);
            break;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("list's short ids", () => {
  it("are as long as the listed ids need to be told apart, and at least 8", () => {
    expect(uniquePrefixWidth([])).toBe(8);
    expect(uniquePrefixWidth(["7b0e2c1a-0000-4000", "1f00aa00-0000-4000"])).toBe(8);
    expect(
      uniquePrefixWidth([
        "ses_dc5706968ffewv6oHAOSJ6GSwm",
        "ses_dc56fd013ffe0MUtTm4WSV0b8Q",
        "ses_dc56fe836ffeIJ31c7z1gwwo2w",
        "ses_dc56fe836ffeIJ31c7z1gwwo2w",
      ]),
    ).toBe(10);
  });
});
