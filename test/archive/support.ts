/**
 * Homes for the archive tests: each a machine with its own stores (agy,
 * Claude Code, Codex, with known usage), a session holding words only its
 * prompt, its tool output or its secret carries, and the built CLI run
 * against it, synchronously or as a child process that can be killed.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../src/common.js";
import { harness, openStore } from "../../src/harness/index.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { BIN, type RunResult, txcript } from "../support/cli.js";
import {
  type Expected,
  emptyExpected,
  writeAgyStore,
  writeClaudeStore,
  writeCodexStore,
} from "../support/usage-stores.js";

export interface Home {
  dir: string;
  machine: string;
  env: Record<string, string>;
  expected: Expected;
}

const homes: string[] = [];

/** Remove every home made so far (homes outlive one test: a describe block shares them). */
export function removeHomes(): void {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function home(machine: string): Home {
  const dir = mkdtempSync(join(tmpdir(), `txcript-archive-${machine}-`));
  homes.push(dir);
  return {
    dir,
    machine,
    expected: emptyExpected(),
    env: {
      HOME: dir,
      USER: `user-${machine}`,
      TZ: "UTC",
      TXCRIPT_MACHINE: machine,
      TXCRIPT_CACHE: join(dir, "cache"),
      TXCRIPT_CLAUDE_CODE_ROOT: join(dir, "claude", "projects"),
      TXCRIPT_CODEX_ROOT: join(dir, "codex"),
      TXCRIPT_ANTIGRAVITY_ROOT: join(dir, "agy"),
      TXCRIPT_GEMINI_CLI_ROOT: join(dir, "gemini"),
      TXCRIPT_OPENCODE_ROOT: join(dir, "opencode"),
      TXCRIPT_KIRO_ROOT: join(dir, "kiro"),
      TXCRIPT_GOOSE_ROOT: join(dir, "goose"),
    },
  };
}

/** Stores with known usage: agy conversations, and Claude Code or Codex sessions. */
export function fill(
  h: Home,
  options: { agy: number; claude?: number; codex?: number; seed: number },
) {
  writeAgyStore(
    join(h.dir, "agy"),
    { sessions: options.agy, turns: 2, seed: options.seed },
    h.expected,
  );
  if (options.claude)
    writeClaudeStore(
      join(h.dir, "claude"),
      { sessions: options.claude, turns: 2, seed: options.seed + 1 },
      h.expected,
    );
  if (options.codex)
    writeCodexStore(
      join(h.dir, "codex"),
      { sessions: options.codex, turns: 2, seed: options.seed + 2 },
      h.expected,
    );
}

/** A GitHub token in its real format with a random value (never a real one). */
export function fakeToken(): string {
  return `ghp_${randomBytes(27).toString("base64url").replace(/[-_]/g, "x").slice(0, 36)}`;
}

/** The words a marked session carries, each in one place only. */
export interface Marks {
  id: string;
  prompt: string;
  toolOutput: string;
  secret: string;
}

/**
 * A Claude Code session whose prompt holds `prompt`, whose tool call's
 * output holds `toolOutput` and `secret`, and whose answer holds the home path.
 */
export function markedSession(h: Home, word: string, id: string): Marks {
  const marks: Marks = {
    id,
    prompt: `${word}prompt`,
    toolOutput: `${word}tooloutput`,
    secret: fakeToken(),
  };
  const at = "2026-03-10T10:00:00.000Z";
  const body: Message[] = [
    {
      role: "user",
      timestamp: at,
      content: [{ type: "text", text: `please check ${marks.prompt} now` }],
    },
    {
      role: "assistant",
      timestamp: "2026-03-10T10:00:01.000Z",
      model: "claude-sonnet-4-5-20250929",
      usage: { input_tokens: 11, output_tokens: 7 },
      content: [
        { type: "text", text: `Looking in ${h.dir}/project` },
        { type: "tool_use", id: "toolu_1", tool: { name: "Bash", command: "cat .env" } },
      ],
    },
    {
      role: "user",
      timestamp: "2026-03-10T10:00:02.000Z",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: `${marks.toolOutput}\nGITHUB_TOKEN=${marks.secret}\n`,
        },
      ],
    },
  ];
  const transcript: Transcript<Common> = {
    meta: { id, timestamp: at, cwd: `${h.dir}/project` },
    body,
  };
  const store = openStore(harness("claude_code"), {
    root: join(h.dir, "claude", "projects"),
    env: {},
  });
  if (!store) throw new Error("no Claude Code store");
  store.save(transcript, { overwrite: true });
  return marks;
}

export function run(h: Home, args: readonly string[], env: Record<string, string> = {}): RunResult {
  return txcript(args, { env: { ...h.env, ...env } });
}

/** The CLI as a child process: its result, and the process to kill. */
export function start(
  h: Home,
  args: readonly string[],
): { child: ChildProcess; done: Promise<RunResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...h.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<RunResult>((resolve) => {
    child.on("close", (code, signal) =>
      resolve({ status: code ?? (signal ? 128 : -1), stdout, stderr }),
    );
  });
  return { child, done };
}
