/**
 * Tool normalization both ways: a typed tool only when the input fits its
 * schema exactly, Raw (losslessly) for everything else, slash commands as
 * Command, and toolToCanonical as the exact inverse of toolFromCanonical.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Json,
  normalizeTool,
  type Tool,
  toolDisplayName,
  toolFromCanonical,
  toolToCanonical,
} from "../../src/common.js";
import { toolToJson } from "../../src/common-json.js";
import { canonicalCallArb, jsonArb } from "../support/arbitraries.js";

const FITTING: [name: string, input: Json, expected: Tool][] = [
  ["Bash", { command: "ls" }, { name: "Bash", command: "ls" }],
  [
    "Bash",
    {
      run_in_background: false,
      description: "list",
      timeout_ms: 0,
      workdir: "/w",
      command: "ls -la",
    },
    {
      name: "Bash",
      command: "ls -la",
      workdir: "/w",
      timeout_ms: 0,
      description: "list",
      run_in_background: false,
    },
  ],
  ["Read", { file_path: "/a.ts" }, { name: "Read", file_path: "/a.ts" }],
  [
    "Read",
    { file_path: "/a.ts", offset: 10, limit: 20 },
    { name: "Read", file_path: "/a.ts", offset: 10, limit: 20 },
  ],
  [
    "Write",
    { file_path: "/n.md", content: "" },
    { name: "Write", file_path: "/n.md", content: "" },
  ],
  [
    "Edit",
    { file_path: "/a", old_string: "x", new_string: "y" },
    { name: "Edit", file_path: "/a", old_string: "x", new_string: "y" },
  ],
  [
    "Edit",
    { file_path: "/a", old_string: "x", new_string: "y", replace_all: true },
    { name: "Edit", file_path: "/a", old_string: "x", new_string: "y", replace_all: true },
  ],
  ["MultiEdit", { file_path: "/a", edits: [] }, { name: "MultiEdit", file_path: "/a", edits: [] }],
  [
    "MultiEdit",
    {
      file_path: "/a",
      edits: [
        { old_string: "a", new_string: "b" },
        { replace_all: false, new_string: "d", old_string: "c" },
      ],
    },
    {
      name: "MultiEdit",
      file_path: "/a",
      edits: [
        { old_string: "a", new_string: "b" },
        { old_string: "c", new_string: "d", replace_all: false },
      ],
    },
  ],
  ["/review", {}, { name: "Command", command: "/review" }],
  ["/release", { args: "patch" }, { name: "Command", command: "/release", args: "patch" }],
  ["/release", { args: "" }, { name: "Command", command: "/release", args: "" }],
  ["/", {}, { name: "Command", command: "/" }],
];

describe("toolFromCanonical: inputs that fit", () => {
  it.each(FITTING)("%s %j is typed", (name, input, expected) => {
    const tool = toolFromCanonical(name, input);
    expect(tool).toEqual(expected);
    // And back, to the same name and an equal input.
    expect(toolToCanonical(tool)).toEqual({ name, input });
  });

  it("every typed tool is reachable", () => {
    const names = new Set(FITTING.map(([n, i]) => toolFromCanonical(n, i).name));
    expect([...names].sort()).toEqual(["Bash", "Command", "Edit", "MultiEdit", "Read", "Write"]);
  });

  it("typed tools serialize in schema order, whatever the input's key order", () => {
    const tool = toolFromCanonical("Read", { limit: 2, offset: 1, file_path: "/x" });
    expect(Object.keys(toolToJson(tool))).toEqual(["name", "file_path", "offset", "limit"]);
    const bash = toolFromCanonical("Bash", { run_in_background: true, command: "x", workdir: "/" });
    expect(Object.keys(toolToJson(bash))).toEqual([
      "name",
      "command",
      "workdir",
      "run_in_background",
    ]);
  });

  it("does not modify the input it reads", () => {
    const input = { file_path: "/a", edits: [{ new_string: "b", old_string: "a" }] };
    const before = JSON.stringify(input);
    const tool = toolFromCanonical("MultiEdit", input);
    expect(JSON.stringify(input)).toBe(before);
    // The typed tool does not share the caller's edit objects.
    input.edits[0]!.old_string = "changed";
    expect(tool).toMatchObject({ edits: [{ old_string: "a" }] });
  });
});

const NOT_FITTING: [why: string, name: string, input: Json][] = [
  ["an extra key", "Bash", { command: "ls", unknown_key: 1 }],
  ["Claude's timeout key", "Bash", { command: "ls", timeout: 1000 }],
  ["a missing required key", "Write", { file_path: "/a" }],
  ["a number for a string", "Bash", { command: 42 }],
  ["a string for a number", "Read", { file_path: "/a", offset: "10" }],
  ["a string for a boolean", "Bash", { command: "ls", run_in_background: "true" }],
  [
    "a number for a boolean",
    "Edit",
    { file_path: "/a", old_string: "a", new_string: "b", replace_all: 1 },
  ],
  ["a null optional value", "Bash", { command: "ls", workdir: null }],
  ["a null required value", "Read", { file_path: null }],
  ["a negative number", "Read", { file_path: "/a", offset: -1 }],
  ["a fractional number", "Read", { file_path: "/a", limit: 1.5 }],
  ["an unsafe integer", "Bash", { command: "ls", timeout_ms: 2 ** 60 }],
  ["null input", "Bash", null],
  ["string input", "Bash", "ls -la"],
  ["number input", "Read", 7],
  ["boolean input", "Write", true],
  ["array input", "Edit", [{ file_path: "/a", old_string: "a", new_string: "b" }]],
  ["an empty object", "Bash", {}],
  ["edits that are not an array", "MultiEdit", { file_path: "/a", edits: { old_string: "a" } }],
  ["an edit missing new_string", "MultiEdit", { file_path: "/a", edits: [{ old_string: "a" }] }],
  [
    "an edit with an extra key",
    "MultiEdit",
    { file_path: "/a", edits: [{ old_string: "a", new_string: "b", file_path: "/a" }] },
  ],
  ["an edit that is null", "MultiEdit", { file_path: "/a", edits: [null] }],
  [
    "an edit with a null replace_all",
    "MultiEdit",
    { file_path: "/a", edits: [{ old_string: "a", new_string: "b", replace_all: null }] },
  ],
  ["a __proto__ key", "Bash", JSON.parse('{"command": "ls", "__proto__": {"x": 1}}') as Json],
  ["slash command with a number for args", "/review", { args: 5 }],
  ["slash command with null args", "/review", { args: null }],
  ["slash command with another key", "/review", { args: "x", mode: "fast" }],
  ["slash command with null input", "/review", null],
  ["slash command with string input", "/review", "--fast"],
  ["slash command with array input", "/review", ["--fast"]],
  ["a lowercase name", "bash", { command: "ls" }],
  ["the name Command without a slash", "Command", { args: "x" }],
  ["the name Raw", "Raw", { tool_name: "Bash", input: {} }],
  ["an MCP tool", "mcp__github__search", { q: "flaky" }],
  ["an empty name", "", {}],
];

describe("toolFromCanonical: everything else stays Raw, losslessly", () => {
  it.each(NOT_FITTING)("%s", (_why, name, input) => {
    const tool = toolFromCanonical(name, input);
    expect(tool).toEqual({ name: "Raw", tool_name: name, input });
    expect(toolToCanonical(tool)).toEqual({ name, input });
    // Re-normalizing a Raw that does not fit keeps it Raw.
    expect(normalizeTool(tool)).toEqual(tool);
  });
});

describe("normalizeTool and display names", () => {
  it("a Raw whose input fits a typed tool becomes that tool", () => {
    expect(normalizeTool({ name: "Raw", tool_name: "Bash", input: { command: "ls" } })).toEqual({
      name: "Bash",
      command: "ls",
    });
    expect(normalizeTool({ name: "Raw", tool_name: "/review", input: {} })).toEqual({
      name: "Command",
      command: "/review",
    });
  });

  it("names a tool as a person would", () => {
    expect(toolDisplayName(toolFromCanonical("Bash", { command: "ls" }))).toBe("Bash");
    expect(toolDisplayName(toolFromCanonical("/review", {}))).toBe("/review");
    expect(toolDisplayName(toolFromCanonical("mcp__gh__search", {}))).toBe("mcp__gh__search");
  });
});

describe("properties", () => {
  const anyName = fc.oneof(
    fc.constantFrom("Bash", "Read", "Write", "Edit", "MultiEdit", "/x", "/", "Raw", "Command"),
    fc.string({ maxLength: 12 }),
  );
  const anyInput = fc.oneof(
    jsonArb(3),
    canonicalCallArb.map((c) => c.input),
  );

  it("toolToCanonical(toolFromCanonical(n, i)) equals (n, i) for every name and input", () => {
    fc.assert(
      fc.property(
        fc.oneof(canonicalCallArb, fc.record({ name: anyName, input: anyInput })),
        (c) => {
          expect(toolToCanonical(toolFromCanonical(c.name, c.input))).toEqual(c);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("toolFromCanonical is idempotent through normalizeTool", () => {
    fc.assert(
      fc.property(fc.record({ name: anyName, input: anyInput }), ({ name, input }) => {
        const tool = toolFromCanonical(name, input);
        expect(normalizeTool(tool)).toEqual(tool);
      }),
      { numRuns: 500 },
    );
  });
});
