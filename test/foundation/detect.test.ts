/**
 * Format detection over every harness's real sample: each is claimed by its
 * own detector (Gemini CLI's metadata line is not taken for Claude Code's,
 * OpenCode's export nor Gemini CLI's document for a Simple one).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectForm } from "../../src/detect.js";
import { sampleOf } from "../../src/sniff.js";
import { ROOT } from "../support/cli.js";

function detect(text: string) {
  return detectForm(sampleOf(new TextEncoder().encode(text)));
}

describe("detectForm", () => {
  it("a Gemini CLI session file is Gemini CLI's, as JSON Lines and as one document", () => {
    const chats = join(ROOT, "test/fixtures/gemini-cli/dot-gemini/tmp/multi-turn/chats");
    const file = readdirSync(chats).find((n) => n.endsWith(".jsonl"));
    expect(file).toBeDefined();
    const text = readFileSync(join(chats, file as string), "utf8");
    expect(detect(text)).toEqual({ form: "gemini_cli", as: "text" });
    const doc = JSON.stringify({ sessionId: "s-1", projectHash: "ab", messages: [] }, null, 2);
    expect(detect(doc)).toEqual({ form: "gemini_cli", as: "text" });
  });

  it("an OpenCode export is OpenCode's; a Simple document and a Claude Code line stay theirs", () => {
    const text = readFileSync(join(ROOT, "test/fixtures/opencode/tools.export.json"), "utf8");
    expect(detect(text)).toEqual({ form: "opencode", as: "text" });
    const simple = readFileSync(join(ROOT, "examples/simple/fix-flaky-test.json"), "utf8");
    expect(detect(simple)).toEqual({ form: "simple", as: "text" });
    expect(detect('{"id": "x", "messages": []}')).toEqual({ form: "simple", as: "text" });
    const claude = `${JSON.stringify({ type: "user", sessionId: "s", parentUuid: null })}\n`;
    expect(detect(claude)).toEqual({ form: "claude_code", as: "text" });
  });
});
