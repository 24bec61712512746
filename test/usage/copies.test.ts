/**
 * Usage counted once across `continue`: a session continued into Claude
 * Code, Codex and agy leaves every `txcript usage` report (each grouping,
 * table and --json) as it was; the copies' files carry no usage for other
 * tools (ccusage) to count; and a copy that does carry its source's usage
 * (as an older txcript wrote them) is counted only for the turns the
 * resumed harness added after the copy was written.
 */

import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { writeAgyStore, writeClaudeStore, writeCodexStore } from "../support/usage-stores.js";

const GROUPINGS = ["day", "week", "month", "model", "harness", "session", "cwd"];

function home() {
  const dir = tempDir("txcript-usage-copies-");
  const env = {
    HOME: dir,
    TZ: "UTC",
    TXCRIPT_CACHE: join(dir, "cache"),
    TXCRIPT_CLAUDE_CODE_ROOT: join(dir, "claude", "projects"),
    TXCRIPT_CODEX_ROOT: join(dir, "codex"),
    TXCRIPT_ANTIGRAVITY_ROOT: join(dir, "agy"),
    TXCRIPT_GEMINI_CLI_ROOT: join(dir, "gemini"),
    TXCRIPT_OPENCODE_ROOT: join(dir, "opencode"),
  };
  return { dir, env };
}

type Home = ReturnType<typeof home>;

function run(h: Home, args: string[], quiet = true): string {
  const r = txcript(args, { env: h.env });
  if (quiet) expect(r.stderr, args.join(" ")).toBe("");
  expect(r.status, args.join(" ")).toBe(0);
  return r.stdout;
}

/** Every report a user can ask for: each grouping as a table and as JSON. */
function reports(h: Home): Record<string, string> {
  const out: Record<string, string> = {};
  for (const by of GROUPINGS) {
    out[`${by} json`] = run(h, ["usage", "--by", by, "--json"]);
    out[`${by} table`] = run(h, ["usage", "--by", by]);
  }
  return out;
}

interface Listed {
  id: string;
  harness: string;
  path?: string;
  forked_from: string | null;
}

function listed(h: Home, from: string): Listed[] {
  return JSON.parse(run(h, ["list", "--json", "--from", from])).sessions;
}

function continueInto(h: Home, id: string, from: string, target: string): Listed {
  // continue says what it wrote on stderr.
  run(h, ["continue", id, "--from", from, "--with", target, "--no-resume"], false);
  const copy = listed(h, target).find((s) => s.forked_from === id);
  expect(copy, `the ${target} copy of ${id}`).toBeDefined();
  return copy as Listed;
}

describe("a session continued into other harnesses is counted once", () => {
  it("every usage report is the same before and after three continues of the same session", /* dozens of CLI runs: a loaded machine needs more than the default minute */ {
    timeout: 240_000,
  }, () => {
    const h = home();
    writeClaudeStore(join(h.dir, "claude"), { sessions: 2, turns: 3 });
    writeCodexStore(join(h.dir, "codex"), { sessions: 2, turns: 3 });
    writeAgyStore(join(h.dir, "agy"), { sessions: 1, turns: 2 });
    const before = reports(h);
    const total = JSON.parse(before["day json"] as string).totals.total_tokens;
    expect(total).toBeGreaterThan(0);

    const source = listed(h, "claude_code")[0] as Listed;
    for (const target of ["claude_code", "codex", "antigravity"])
      continueInto(h, source.id, "claude_code", target);
    // And a Codex session into Claude Code, as the ccusage case has it.
    const codex = listed(h, "codex")[0] as Listed;
    continueInto(h, codex.id, "codex", "claude_code");
    expect(listed(h, "claude_code")).toHaveLength(4);

    expect(reports(h)).toEqual(before);
  });

  it("the copies' files carry no usage for another tool to count again", () => {
    const h = home();
    writeClaudeStore(join(h.dir, "claude"), { sessions: 1, turns: 3 });
    writeCodexStore(join(h.dir, "codex"), { sessions: 1, turns: 3 });
    const claude = listed(h, "claude_code")[0] as Listed;
    const codex = listed(h, "codex")[0] as Listed;
    const intoClaude = continueInto(h, codex.id, "codex", "claude_code");
    const intoCodex = continueInto(h, claude.id, "claude_code", "codex");
    const claudeLines = readFileSync(intoClaude.path as string, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(claudeLines.some((l) => l.type === "assistant")).toBe(true);
    // ccusage counts an assistant line that has message.usage.
    expect(claudeLines.filter((l) => l.message?.usage !== undefined)).toEqual([]);
    const codexLines = readFileSync(intoCodex.path as string, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    // ccusage counts a token_count event that has info.
    const counts = codexLines.filter((l) => l.payload?.type === "token_count");
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((l) => l.payload.info !== null)).toEqual([]);
  });

  it("a copy carrying its source's usage counts only the turns added after it was written", () => {
    const h = home();
    writeClaudeStore(join(h.dir, "claude"), { sessions: 1, turns: 3 });
    const before = JSON.parse(run(h, ["usage", "--by", "harness", "--json"])).totals;
    const source = listed(h, "claude_code")[0] as Listed;
    const copy = continueInto(h, source.id, "claude_code", "claude_code");
    const copyPath = copy.path as string;
    // What an older txcript wrote: the source's lines, usage and all, under the copy's id.
    const sourceText = readFileSync(source.path as string, "utf8");
    writeFileSync(copyPath, sourceText.replaceAll(source.id, copy.id));
    // The user resumes the copy: Claude Code appends a new answer, after the copy was written.
    const last = sourceText.trim().split("\n").at(-1) as string;
    const added = {
      type: "assistant",
      sessionId: copy.id,
      uuid: "6f1e2d3c-0000-4000-8000-00000000a001",
      parentUuid: JSON.parse(last).uuid,
      cwd: JSON.parse(last).cwd,
      timestamp: new Date(Date.now() + 60_000).toISOString(),
      requestId: "req_resumed_1",
      message: {
        id: "msg_resumed_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content: [{ type: "text", text: "resumed" }],
        stop_reason: "end_turn",
        usage: {
          input_tokens: 7,
          output_tokens: 11,
          cache_read_input_tokens: 13,
          cache_creation_input_tokens: 17,
        },
      },
    };
    appendFileSync(copyPath, `${JSON.stringify(added)}\n`);
    const after = JSON.parse(run(h, ["usage", "--by", "harness", "--json"])).totals;
    expect(after.input_tokens).toBe(before.input_tokens + 7);
    expect(after.output_tokens).toBe(before.output_tokens + 11);
    expect(after.cache_read_input_tokens).toBe(before.cache_read_input_tokens + 13);
    expect(after.cache_creation_input_tokens).toBe(before.cache_creation_input_tokens + 17);
    expect(after.messages).toBe(before.messages + 1);
  });
});
