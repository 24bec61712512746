/**
 * Names that are also Object.prototype's keys (`toString`, `constructor`,
 * `__proto__`, …) coming from a session: a tool call by that name is an
 * unknown tool, and a file by that name has no highlighting language.
 * Found by the cross-matrix properties (a Raw tool named `toString`).
 */

import { describe, expect, it } from "vitest";
import { callToTool } from "../../src/harness/gemini-cli/tools.js";
import { languageOf } from "../../src/render/tools.js";

const NAMES = ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"];

describe("names shared with Object.prototype", () => {
  it("a Gemini CLI call by such a name stays a Raw call with its input", () => {
    for (const name of NAMES) {
      for (const args of [{}, { a: 1 }]) {
        expect(callToTool(name, args)).toEqual({ name: "Raw", tool_name: name, input: args });
      }
    }
  });

  it("a known Gemini CLI call with an argument by such a name keeps it (stays Raw)", () => {
    for (const name of NAMES) {
      const args = { command: "ls", [name]: "x" };
      expect(callToTool("run_shell_command", args)).toEqual({
        name: "Raw",
        tool_name: "run_shell_command",
        input: args,
      });
    }
  });

  it("a file by such a name has no language, and known ones still do", () => {
    for (const name of NAMES) {
      expect(languageOf(`/w/src/${name}`)).toBeUndefined();
      expect(languageOf(`/w/src/file.${name}`)).toBeUndefined();
    }
    expect(languageOf("/w/src/main.ts")).toBeTypeOf("string");
  });
});
