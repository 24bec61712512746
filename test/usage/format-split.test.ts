/**
 * One message's usage, input split into uncached and cached, is the same
 * numbers in every format: the text `view`, Markdown, HTML, Common JSON
 * and the `usage` table. The case: a Codex response whose 11001
 * input tokens include 9800 cached (OpenAI counts cached inside input)
 * is 1201 uncached in + 9800 cache read everywhere, never "11001 in".
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const ID = "019a0000-0000-7000-8000-00000000f00d";

function store(): Record<string, string> {
  const dir = tempDir("txcript-usage-split-");
  const sessions = join(dir, "codex", "sessions", "2026", "03", "01");
  mkdirSync(sessions, { recursive: true });
  const at = (s: number) => `2026-03-01T09:00:0${s}.000Z`;
  const lines = [
    {
      timestamp: at(0),
      type: "session_meta",
      payload: {
        id: ID,
        timestamp: at(0),
        cwd: "/w",
        originator: "codex_cli_rs",
        cli_version: "0.169.0",
        source: "cli",
        model_provider: "openai",
      },
    },
    {
      timestamp: at(1),
      type: "turn_context",
      payload: {
        turn_id: "t0",
        cwd: "/w",
        approval_policy: "on-request",
        sandbox_policy: { type: "workspace-write" },
        model: "gpt-5.5",
        summary: "auto",
      },
    },
    {
      timestamp: at(2),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] },
    },
    {
      timestamp: at(3),
      type: "response_item",
      payload: {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "hi" }],
      },
    },
    {
      timestamp: at(4),
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          last_token_usage: {
            input_tokens: 11001,
            cached_input_tokens: 9800,
            output_tokens: 5,
            reasoning_output_tokens: 0,
            total_tokens: 11006,
          },
          total_token_usage: {
            input_tokens: 11001,
            cached_input_tokens: 9800,
            output_tokens: 5,
            reasoning_output_tokens: 0,
            total_tokens: 11006,
          },
        },
        rate_limits: null,
      },
    },
  ];
  writeFileSync(
    join(sessions, `rollout-2026-03-01T09-00-00-${ID}.jsonl`),
    `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
  );
  return {
    HOME: dir,
    TZ: "UTC",
    NO_COLOR: "1",
    TXCRIPT_CACHE: join(dir, "cache"),
    TXCRIPT_CODEX_ROOT: join(dir, "codex"),
    TXCRIPT_CLAUDE_CODE_ROOT: join(dir, "none-claude"),
    TXCRIPT_ANTIGRAVITY_ROOT: join(dir, "none-agy"),
    TXCRIPT_GEMINI_CLI_ROOT: join(dir, "none-gemini"),
    TXCRIPT_OPENCODE_ROOT: join(dir, "none-opencode"),
  };
}

describe("usage is split the same in every format", () => {
  it("text view, Markdown, HTML, Common JSON and the usage table show 1201 in + 9800 cache read / 5 out", () => {
    const env = store();
    const out = (args: string[]) => {
      const r = txcript(args, { env });
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const label = "1201 in + 9800 cache read / 5 out";
    for (const format of ["text", "markdown", "html"]) {
      const text = out(["view", ID, "--from", "codex", "--format", format]);
      expect(text, format).toContain(label);
      expect(text, format).not.toContain("11001");
    }
    const common = JSON.parse(out(["view", ID, "--from", "codex", "--format", "json"]));
    const usages = common.messages.map((m: { usage?: unknown }) => m.usage).filter(Boolean);
    expect(usages).toEqual([
      { input_tokens: 1201, output_tokens: 5, cache_read_input_tokens: 9800 },
    ]);
    const report = JSON.parse(out(["usage", "--json"])).totals;
    expect(report).toMatchObject({
      input_tokens: 1201,
      cache_read_input_tokens: 9800,
      output_tokens: 5,
      total_tokens: 11006,
    });
    const table = out(["usage"]);
    expect(table).toMatch(/2026-03-01[\s│]+1,201[\s│]+5[\s│]+9,800[\s│]+0[\s│]+11,006[\s│]+1[\s│]/);
  });
});
