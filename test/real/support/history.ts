/**
 * The resume check: the history a resumed CLI sends, against the Common view
 * of the source (txcript view --format json). Both sides become one line per
 * item, so a failing test shows the diff: every user and assistant text in
 * order, every tool call with its input, every result paired to its call,
 * and nothing else but the CLI's own context (system reminders, environment
 * blocks), which each target names below.
 */

import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Item } from "../server/index.js";
import { type CliId, REPO, txcript } from "./cli.js";
import { type CommonDoc, type Listed, listSessions, viewCommon } from "./session.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every string leaf of a JSON value, `name` keys excepted (the tool's name differs per harness). */
function leaves(v: unknown, out: string[] = [], key = ""): string[] {
  if (typeof v === "string") {
    if (key !== "name") out.push(v);
  } else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) leaves(x, out, k);
  return out;
}

/**
 * Tool input fields a target cannot hold, each a documented write loss
 * (docs/conversions.md): Codex has no Bash description or background flag (x4).
 */
const DROPPED: Record<CliId, string[]> = {
  claude_code: [],
  codex: ["description", "run_in_background"],
  gemini_cli: [],
  opencode: [],
  kilo: [],
  qwen_code: [],
  pi: [],
};

/**
 * The lines a tool input must carry through any conversion: each non-empty
 * line of each string field. Claude Code drops a Bash workdir that is the
 * session's cwd (c6: the command runs there anyway).
 */
function essentialLines(tool: unknown, target: CliId, cwd: unknown): string[] {
  const kept = isObj(tool)
    ? Object.fromEntries(
        Object.entries(tool).filter(
          ([k, v]) =>
            !DROPPED[target].includes(k) &&
            !(target === "claude_code" && tool.name === "Bash" && k === "workdir" && v === cwd),
        ),
      )
    : tool;
  return leaves(kept)
    .flatMap((s) => s.split("\n"))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** JSON text with sorted keys, so a structured result compares by value; other text as is. */
function canonical(text: string): string {
  try {
    const sort = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sort)
        : isObj(v)
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sort(v[k])]),
            )
          : v;
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? JSON.stringify(sort(v)) : text.trim();
  } catch {
    return text.trim();
  }
}

export interface Expected {
  lines: string[];
  /** For each expected call, in order: the lines its input must hold. */
  calls: string[][];
  /** For each call number that has a result: its text. */
  results: Map<number, string>;
}

/** OpenCode and Kilo (built on it) send a history through the same provider code. */
const openCodeFamily = (target: CliId) => target === "opencode" || target === "kilo";

/**
 * What a resume must send, from the source's Common messages, ending with the
 * new prompt. Claude Code replays only a Claude turn's signed thinking; any
 * other thinking reaches it as assistant text (docs/conversions.md c1).
 */
export function expectedFromCommon(
  doc: { meta: Record<string, unknown>; messages: unknown[] },
  newPrompt: string,
  target: CliId,
): Expected {
  const lines: string[] = [];
  const calls: string[][] = [];
  const results = new Map<number, string>();
  const callIndex = new Map<string, number>();
  for (const m of doc.messages) {
    if (!isObj(m) || !Array.isArray(m.content)) continue;
    // OpenCode's chat-completions provider sends one message's texts as one
    // string, no separator, ahead of its calls (docs/conversions.md, "Resumed by the real CLIs").
    const joined = openCodeFamily(target) && m.role === "assistant" ? lines.length : -1;
    let texts = 0;
    const push = (line: string) => {
      if (joined < 0 || !line.startsWith("assistant: ")) return lines.push(line);
      if (texts++ === 0) return lines.splice(joined, 0, line);
      lines[joined] += line.slice("assistant: ".length);
    };
    for (const b of m.content) {
      if (!isObj(b)) continue;
      if (b.type === "text" && typeof b.text === "string") push(`${String(m.role)}: ${b.text}`);
      // Gemini CLI never sends thoughts back to the model, its own included (seen in its live
      // sessions too): a resumed history has none.
      else if (b.type === "thinking" && target === "gemini_cli") continue;
      else if (b.type === "thinking" && typeof b.text === "string" && b.text !== "") {
        // Claude Code replays a signature only on a Claude model's turn (c1).
        const replayable =
          typeof b.signature === "string" &&
          b.signature !== "" &&
          b.encrypted === undefined &&
          /claude/i.test(typeof m.model === "string" ? m.model : "");
        // OpenCode replays another model's reasoning as text, a non-blank one only.
        if (openCodeFamily(target) && b.text.trim() === "") continue;
        // pi (Anthropic's Messages API) sends another model's unsigned thinking as assistant text.
        const asText =
          ((target === "claude_code" || target === "pi") && !replayable) || openCodeFamily(target);
        push(asText ? `assistant: ${b.text}` : `thinking: ${b.text}`);
      } else if (b.type === "tool_use") {
        callIndex.set(String(b.id), calls.length);
        lines.push(`call #${calls.length}`);
        calls.push(essentialLines(b.tool, target, doc.meta.cwd));
      } else if (b.type === "tool_result") {
        const n = callIndex.get(String(b.tool_use_id));
        const text = typeof b.content === "string" ? b.content : JSON.stringify(b.content);
        lines.push(`result of call #${n ?? "?"}`);
        if (n !== undefined) results.set(n, text);
      }
    }
  }
  lines.push(`user: ${newPrompt}`);
  return { lines, calls, results };
}

/**
 * The result a CLI supplies itself for a call the history leaves unanswered
 * (an interrupted command): not converted, not invented by txcript.
 */
const CLI_FILLER: Record<CliId, RegExp> = {
  claude_code: /interrupted|no result|tool_use_error|Tool use was|cancel/i,
  codex: /aborted|interrupted|no output|cancel/i,
  // txcript's Gemini CLI writer answers such a call itself (Gemini needs a response per call).
  gemini_cli: /^\[no result was recorded for this call\]$/,
  opencode: /interrupted|aborted|cancel/i,
  kilo: /interrupted|aborted|cancel/i,
  // txcript's Qwen Code writer answers such a call itself, as for Gemini CLI.
  qwen_code: /^\[no result was recorded for this call\]$/,
  pi: /no result|aborted|interrupted|cancel/i,
};

/** Text a target CLI adds around the history on its own: not part of what was converted. */
export function isCliContext(target: CliId, item: Item): boolean {
  if (item.kind !== "user" && item.kind !== "assistant") return false;
  const t = item.text;
  switch (target) {
    case "claude_code":
      return (
        t.startsWith("<system-reminder>") ||
        t.startsWith("# Environment") ||
        t.includes("<local-command-")
      );
    case "codex":
      return (
        t.startsWith("<environment_context>") ||
        t.startsWith("# AGENTS.md") ||
        t.startsWith("<user_instructions>") ||
        t.startsWith("<permissions instructions>") ||
        t.startsWith("<turn_aborted>")
      );
    case "gemini_cli":
      return (
        t.startsWith("This is the Gemini CLI") ||
        t.includes("<session_context>") ||
        t.startsWith("<state_snapshot>")
      );
    case "opencode":
      return t.startsWith("<system-reminder>");
    case "kilo":
      // Kilo 7.7.7 sends a user text part of its own after each prompt: blank lines, then its
      // `<environment_details>` (message time, working directory, workspace root).
      return t.startsWith("<system-reminder>") || t.trimStart().startsWith("<environment_details>");
    case "qwen_code":
      return t.startsWith("<system-reminder>") || t.includes("<qwen:user-prompt-submit-context>");
    case "pi":
      // pi sends its context in the system prompt, none around the history.
      return false;
    default:
      return target satisfies never;
  }
}

/** The request's history in the same one-line form, with each call and result checked against the expected ones. */
export function actualLines(
  items: Item[],
  target: CliId,
  expected: Expected,
): { lines: string[]; problems: string[]; filled: string[] } {
  const lines: string[] = [];
  const problems: string[] = [];
  const filled: string[] = [];
  const callIndex = new Map<string, number>();
  let calls = 0;
  for (const it of items) {
    if (isCliContext(target, it)) continue;
    switch (it.kind) {
      case "user":
      case "assistant":
        lines.push(`${it.kind}: ${it.text}`);
        break;
      case "thinking":
        if (it.text !== "") lines.push(`thinking: ${it.text}`);
        break;
      case "call": {
        const n = calls++;
        callIndex.set(it.id, n);
        lines.push(`call #${n}`);
        const have = [it.name, ...leaves(it.input)].join("\n");
        for (const need of expected.calls[n] ?? [])
          if (!have.includes(need))
            problems.push(`call #${n} (${it.name}) input lacks ${JSON.stringify(need)}`);
        break;
      }
      case "result": {
        const n = callIndex.get(it.id);
        const want = n === undefined ? undefined : expected.results.get(n);
        if (want === undefined && n !== undefined && CLI_FILLER[target].test(it.output)) {
          filled.push(`call #${n}: ${it.output}`);
          break;
        }
        lines.push(`result of call #${n ?? "?"}`);
        if (want === undefined)
          problems.push(
            `result of call #${n ?? "?"} is not in the source: ${JSON.stringify(it.output)}`,
          );
        if (want !== undefined && !canonical(it.output).includes(canonical(want)))
          problems.push(
            `result of call #${n}: ${JSON.stringify(it.output)} lacks ${JSON.stringify(want)}`,
          );
        break;
      }
      default:
        it satisfies never;
    }
  }
  return { lines, problems, filled };
}

/**
 * The non-empty texts, call ids and results of a Common document, in order:
 * what a resumed CLI's first request must hold. `result` may say how the
 * CLI sends a result (Droid renders its own Edit results).
 */
export function historyPieces(
  doc: { messages: { role: string; content: Record<string, unknown>[] }[] },
  result: (call: Record<string, unknown> | undefined, content: string) => string = (_, c) => c,
): string[] {
  const out: string[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  for (const m of doc.messages)
    for (const b of m.content) {
      if (b.type === "text" && String(b.text ?? "").trim() !== "") out.push(String(b.text));
      if (b.type === "tool_use") {
        out.push(String(b.id));
        calls.set(String(b.id), b);
      }
      if (b.type === "tool_result" && typeof b.content === "string" && b.content.trim() !== "")
        out.push(result(calls.get(String(b.tool_use_id)), b.content.trim()));
    }
  return out;
}

/** Every piece occurs in `sent` (as JSON string text), in order. */
export function expectInOrder(sent: string, pieces: string[]) {
  let at = 0;
  for (const p of pieces) {
    const needle = JSON.stringify(p).slice(1, -1);
    const found = sent.indexOf(needle, at);
    expect(found, `in order in the request: ${p.slice(0, 80)}`).toBeGreaterThanOrEqual(0);
    at = found + needle.length;
  }
}

/** examples/home's agy conversations: agy 1.2's generic steps and agy 1.0's typed steps. */
export const AGY_EXAMPLE_IDS = [
  "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
  "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87",
] as const;

/** Seeds a home with examples/home's agy conversations. */
export function seedAgyExamples(home: string): void {
  cpSync(join(REPO, "examples", "home", ".gemini"), join(home, ".gemini"), { recursive: true });
}

/** Seeds a home with the folder `rel` (a harness's sessions) of the home `from`, when it is there. */
export function seedFrom(from: string, rel: string): (home: string) => void {
  return (home) => {
    const at = join(from, rel);
    if (existsSync(at)) cpSync(at, join(home, rel), { recursive: true });
  };
}

/**
 * A fresh home `home`, seeded by `seed`, with session `id` of `from`
 * continued into `into` by txcript (not resumed): the source as Common and
 * the copy as listed, both checked to be there.
 */
export async function continuedCopy(
  home: string,
  from: string,
  id: string,
  seed: (home: string) => void,
  into: string,
): Promise<{ before: CommonDoc; copy: Listed }> {
  mkdirSync(home, { recursive: true });
  seed(home);
  const before = await viewCommon(home, id, from);
  const written = await txcript(
    ["continue", id, "--from", from, "--with", into, "--no-resume"],
    home,
    { allowFail: true },
  );
  expect(written.status, written.stderr).toBe(0);
  const copy = (await listSessions(home, into))[0];
  expect(copy, "the copy is listed").toBeDefined();
  return { before, copy: copy! };
}
