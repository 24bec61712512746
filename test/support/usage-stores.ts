/**
 * Native stores with known token totals for the `usage` tests and the
 * ccusage check: Claude Code projects whose responses are split across
 * lines (same message.id and requestId, usage repeated on each line),
 * Codex rollouts whose token_count events repeat and carry both the
 * per-response and the running counters, and agy databases whose
 * gen_metadata holds a usage row per generation plus a conversation-level
 * row. Each writer returns the totals a correct reader must find, per UTC
 * day and per model.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/common.js";
import { fromCommon } from "../../src/harness/antigravity/index.js";
import { harness, openStore } from "../../src/harness/index.js";
import { encode } from "../../src/protobuf.js";
import type { Common, HarnessId, Transcript } from "../../src/transcript.js";
import { writeAgyDatabase } from "../antigravity-store/support.js";
import { createOpenCodeDatabase } from "./opencode.js";

export interface Tally {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  messages: number;
}

/** Expected totals by UTC day (YYYY-MM-DD) and by model. */
export interface Expected {
  byDay: Map<string, Tally>;
  byModel: Map<string, Tally>;
  total: Tally;
}

export function emptyExpected(): Expected {
  return { byDay: new Map(), byModel: new Map(), total: zero() };
}

function zero(): Tally {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    messages: 0,
  };
}

function addTo(map: Map<string, Tally>, key: string, t: Partial<Tally>): void {
  const into = map.get(key) ?? zero();
  for (const k of Object.keys(into) as (keyof Tally)[]) into[k] += t[k] ?? 0;
  map.set(key, into);
}

export function expect1(e: Expected, at: string, model: string, t: Partial<Tally>): void {
  addTo(e.byDay, at.slice(0, 10), t);
  addTo(e.byModel, model, t);
  for (const k of Object.keys(e.total) as (keyof Tally)[]) e.total[k] += t[k] ?? 0;
}

/** A deterministic pseudo-random sequence. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const BASE_MS = Date.UTC(2026, 2, 1, 9, 0, 0);

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A v4-shaped id that differs from its neighbours in its first 8 characters (Gemini CLI file names use them). */
function uuid(n: number, kind: number): string {
  const head = n.toString(16).padStart(8, "0");
  return `${head}-${(kind & 0xffff).toString(16).padStart(4, "0")}-4000-8000-${kind.toString(16).padStart(12, "0")}`;
}

const CLAUDE_MODELS = ["claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805"];

/**
 * Claude Code: `sessions` projects files under `<configDir>/projects`, each
 * with `turns` prompts; each response split into a thinking, a text and a
 * tool_use line sharing message.id and requestId with usage repeated.
 */
export function writeClaudeStore(
  configDir: string,
  options: { sessions: number; turns: number; seed?: number },
  expected: Expected = emptyExpected(),
): Expected {
  const rand = prng(options.seed ?? 7);
  for (let s = 0; s < options.sessions; s++) {
    const sessionId = uuid(s + 1, 0xc1a0);
    const cwd = `/work/project-${s % 3}`;
    const dir = join(configDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"));
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    let parent: string | null = null;
    const start = BASE_MS + (s % 5) * DAY_MS + s * 1000;
    for (let t = 0; t < options.turns; t++) {
      const at = start + t * 3 * 3600_000; // every 3 hours: turns cross days
      const common = {
        sessionId,
        cwd,
        gitBranch: "main",
        version: "2.1.200",
        isSidechain: false,
        userType: "external",
      };
      const userUuid = uuid(s * 1000 + t * 10 + 1, 0xc1a1);
      lines.push(
        JSON.stringify({
          type: "user",
          uuid: userUuid,
          parentUuid: parent,
          timestamp: iso(at),
          ...common,
          message: { role: "user", content: `prompt ${t} of session ${s}` },
        }),
      );
      parent = userUuid;
      const model = CLAUDE_MODELS[(s + t) % CLAUDE_MODELS.length] as string;
      const usage = {
        input_tokens: 10 + Math.floor(rand() * 500),
        output_tokens: 5 + Math.floor(rand() * 300),
        cache_read_input_tokens: Math.floor(rand() * 5000),
        cache_creation_input_tokens: Math.floor(rand() * 800),
      };
      const messageId = `msg_${s}_${t}`;
      const requestId = `req_${s}_${t}`;
      const blocks = [
        { type: "thinking", thinking: `thinking ${t}`, signature: "c2ln" },
        { type: "text", text: `answer ${t}` },
        { type: "tool_use", id: `toolu_${s}_${t}`, name: "Bash", input: { command: "ls" } },
      ];
      blocks.forEach((block, i) => {
        const lineUuid = uuid(s * 1000 + t * 10 + 2 + i, 0xc1a2);
        lines.push(
          JSON.stringify({
            type: "assistant",
            uuid: lineUuid,
            parentUuid: parent,
            timestamp: iso(at + 1000 + i * 100),
            ...common,
            requestId,
            message: {
              id: messageId,
              type: "message",
              role: "assistant",
              model,
              content: [block],
              stop_reason: i === blocks.length - 1 ? "tool_use" : null,
              usage,
            },
          }),
        );
        parent = lineUuid;
      });
      const resultUuid = uuid(s * 1000 + t * 10 + 9, 0xc1a3);
      lines.push(
        JSON.stringify({
          type: "user",
          uuid: resultUuid,
          parentUuid: parent,
          timestamp: iso(at + 2000),
          ...common,
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: `toolu_${s}_${t}`, content: "ok" }],
          },
        }),
      );
      parent = resultUuid;
      expect1(expected, iso(at + 1000), model, { ...usage, messages: 1 });
    }
    writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
  }
  return expected;
}

const CODEX_MODELS = ["gpt-5-codex", "gpt-5.1-codex-mini"];

/**
 * Codex: rollouts under `<codexHome>/sessions/YYYY/MM/DD`, each turn a
 * function call, its output, a final message; a token_count after each
 * response with both counters (every third session the running totals
 * only), and every count written twice (Codex repeats a count when only
 * its rate limits change).
 */
export function writeCodexStore(
  codexHome: string,
  options: { sessions: number; turns: number; seed?: number },
  expected: Expected = emptyExpected(),
): Expected {
  const rand = prng(options.seed ?? 11);
  for (let s = 0; s < options.sessions; s++) {
    const id = uuid(s + 1, 0x0c0de);
    const start = BASE_MS + (s % 5) * DAY_MS + s * 1000 + 600_000;
    const d = new Date(start);
    const day = d.toISOString().slice(0, 10);
    const dir = join(codexHome, "sessions", ...day.split("-"));
    mkdirSync(dir, { recursive: true });
    const stamp = d.toISOString().slice(0, 19).replace(/:/g, "-");
    const cwd = `/work/project-${s % 3}`;
    const lines: string[] = [];
    const line = (ms: number, type: string, payload: object) =>
      lines.push(JSON.stringify({ timestamp: iso(ms), type, payload }));
    line(start, "session_meta", {
      id,
      timestamp: iso(start),
      cwd,
      originator: "codex_cli_rs",
      cli_version: "0.50.0",
      source: "cli",
      model_provider: "openai",
      git: { branch: "main" },
    });
    const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    for (let t = 0; t < options.turns; t++) {
      const at = start + t * 3 * 3600_000;
      const model = CODEX_MODELS[(s + t) % CODEX_MODELS.length] as string;
      line(at, "turn_context", {
        turn_id: `t${t}`,
        cwd,
        approval_policy: "on-request",
        sandbox_policy: { type: "workspace-write" },
        model,
        summary: "auto",
      });
      line(at + 1, "response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: `prompt ${t}` }],
      });
      line(at + 2, "event_msg", { type: "user_message", message: `prompt ${t}`, kind: "plain" });
      // Two responses per turn: a call, then (after its output) the answer.
      for (let r = 0; r < 2; r++) {
        const rat = at + 1000 + r * 2000;
        if (r === 0) {
          line(rat, "response_item", {
            type: "function_call",
            name: "shell",
            arguments: JSON.stringify({ command: ["ls"] }),
            call_id: `call_${s}_${t}`,
          });
        } else {
          line(rat, "response_item", {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: `answer ${t}` }],
          });
        }
        const cached = Math.floor(rand() * 3000);
        const last = {
          input_tokens: cached + 50 + Math.floor(rand() * 800),
          cached_input_tokens: cached,
          output_tokens: 10 + Math.floor(rand() * 400),
          reasoning_output_tokens: 0,
          total_tokens: 0,
        };
        last.total_tokens = last.input_tokens + last.output_tokens;
        total.input_tokens += last.input_tokens;
        total.cached_input_tokens += last.cached_input_tokens;
        total.output_tokens += last.output_tokens;
        total.total_tokens += last.total_tokens;
        // Every third session writes only the running totals, as some Codex builds do.
        const info: Record<string, unknown> = {
          total_token_usage: { ...total, reasoning_output_tokens: 0 },
          model_context_window: 272000,
        };
        if (s % 3 !== 2) info.last_token_usage = last;
        line(rat + 10, "event_msg", { type: "token_count", info, rate_limits: null });
        // The same count again, as Codex writes it when the rate limits change.
        line(rat + 20, "event_msg", {
          type: "token_count",
          info,
          rate_limits: { primary: { used_percent: 1.5 } },
        });
        if (r === 0) {
          line(rat + 30, "response_item", {
            type: "function_call_output",
            call_id: `call_${s}_${t}`,
            output: "Exit code: 0\nOutput:\nREADME.md",
          });
        }
        expect1(expected, iso(rat), model, {
          input_tokens: last.input_tokens - last.cached_input_tokens,
          output_tokens: last.output_tokens,
          cache_read_input_tokens: last.cached_input_tokens,
          messages: 1,
        });
      }
      line(at + 6000, "event_msg", { type: "task_complete", turn_id: `t${t}` });
    }
    writeFileSync(join(dir, `rollout-${stamp}-${id}.jsonl`), `${lines.join("\n")}\n`);
  }
  return expected;
}

/** A `gen_metadata` row with a usage record, as agy writes per generation and for the conversation. */
function genUsageRow(
  idx: number,
  name: string,
  model: number,
  u: { input: number; output: number; read: number; write: number },
) {
  const data = encode((w) =>
    w.message(1, (chat) => {
      chat.message(4, (s) => {
        s.uint(1, model);
        s.uint(2, u.input);
        s.uint(3, u.output);
        s.uint(4, u.write);
        s.uint(5, u.read);
      });
      chat.string(19, name);
    }),
  );
  return { idx, data, size: data.length };
}

/**
 * agy: `sessions` conversations under `<root>/conversations`, each with
 * `turns` prompt/answer pairs whose usage sits in the planner steps'
 * metadata envelope; gen_metadata repeats each generation's usage and adds
 * a conversation-level row with the sum (neither may be counted again).
 */
export function writeAgyStore(
  root: string,
  options: { sessions: number; turns: number; seed?: number },
  expected: Expected = emptyExpected(),
): Expected {
  const rand = prng(options.seed ?? 13);
  const MODEL_ENUM = 1037;
  const NAME = "gemini-3.8-flash";
  for (let s = 0; s < options.sessions; s++) {
    const id = uuid(s + 1, 0xa6e);
    const start = BASE_MS + (s % 5) * DAY_MS + s * 1000 + 1200_000;
    const body: Message[] = [];
    const gens: { input: number; output: number; read: number; write: number }[] = [];
    for (let t = 0; t < options.turns; t++) {
      const at = start + t * 3 * 3600_000;
      body.push({
        role: "user",
        content: [{ type: "text", text: `prompt ${t}` }],
        timestamp: iso(at),
      });
      const u = {
        input: 20 + Math.floor(rand() * 900),
        output: 5 + Math.floor(rand() * 200),
        read: 1 + Math.floor(rand() * 2000),
        write: 1 + Math.floor(rand() * 300),
      };
      gens.push(u);
      body.push({
        role: "assistant",
        content: [{ type: "text", text: `answer ${t}` }],
        timestamp: iso(at + 1000),
        model: `model-${MODEL_ENUM}`,
        usage: {
          input_tokens: u.input,
          output_tokens: u.output,
          cache_read_input_tokens: u.read,
          cache_creation_input_tokens: u.write,
        },
      });
      expect1(expected, iso(at + 1000), NAME, {
        input_tokens: u.input,
        output_tokens: u.output,
        cache_read_input_tokens: u.read,
        cache_creation_input_tokens: u.write,
        messages: 1,
      });
    }
    const transcript: Transcript<Common> = {
      meta: { id, timestamp: iso(start), cwd: `/work/project-${s % 3}` },
      body,
    };
    const native = fromCommon(transcript);
    const rows = gens.map((g, i) => genUsageRow(i, NAME, MODEL_ENUM, g));
    const sum = gens.reduce(
      (a, g) => ({
        input: a.input + g.input,
        output: a.output + g.output,
        read: a.read + g.read,
        write: a.write + g.write,
      }),
      { input: 0, output: 0, read: 0, write: 0 },
    );
    rows.push(genUsageRow(gens.length, NAME, MODEL_ENUM, sum));
    native.body.gen_metadata = rows;
    writeAgyDatabase(root, native.body);
  }
  return expected;
}

/**
 * Gemini CLI and OpenCode: sessions saved through their own stores from
 * Common transcripts with usage on each answer (their codecs write the
 * native token records).
 */
export function writeSavedStore(
  id: HarnessId,
  root: string,
  options: { sessions: number; turns: number; seed?: number; model: string },
  expected: Expected = emptyExpected(),
): Expected {
  const rand = prng(options.seed ?? 17);
  if (id === "opencode") createOpenCodeDatabase(root);
  const store = openStore(harness(id), { root, env: {} });
  if (!store) throw new Error(`${id} has no store`);
  for (let s = 0; s < options.sessions; s++) {
    const start = BASE_MS + (s % 5) * DAY_MS + s * 1000 + 1800_000;
    const body: Message[] = [];
    for (let t = 0; t < options.turns; t++) {
      const at = start + t * 3 * 3600_000;
      body.push({
        role: "user",
        content: [{ type: "text", text: `prompt ${t}` }],
        timestamp: iso(at),
      });
      const usage = {
        input_tokens: 20 + Math.floor(rand() * 900),
        output_tokens: 5 + Math.floor(rand() * 200),
        cache_read_input_tokens: 1 + Math.floor(rand() * 2000),
      };
      body.push({
        role: "assistant",
        content: [{ type: "text", text: `answer ${t}` }],
        timestamp: iso(at + 1000),
        model: options.model,
        usage,
      });
      expect1(expected, iso(at + 1000), options.model, { ...usage, messages: 1 });
    }
    store.save(
      {
        meta: {
          id: uuid(s + 1, 0x5a7ed),
          timestamp: iso(start),
          cwd: `/work/project-${s % 3}`,
          model: options.model,
        },
        body,
      },
      { overwrite: true },
    );
  }
  return expected;
}
