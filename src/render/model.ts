/**
 * The page model both renderers share: the selected messages grouped into
 * turns (a turn opens with a user prompt and runs to the next one), tool
 * calls numbered session-wide and paired with the results that answer
 * them, and a user message that only carries results folded into the calls
 * it answers instead of showing as "user". Pure.
 */

import type { Message, Meta, ToolResultBlock, ToolUseBlock } from "../common.js";
import { defined } from "../json.js";
import type { Common, Transcript } from "../transcript.js";
import { type PathOptions, type PathStyle, pathStyle } from "./paths.js";

export interface RenderInput extends PathOptions {
  transcript: Transcript<Common>;
  /** 0-based [start, end) of the messages to show; default all. */
  start?: number;
  end?: number;
  /** The harness it came from, for the header. */
  harness?: string;
  /** The session's file, shown only with showPaths. */
  path?: string;
}

/** One turn of a page, made when the page walks its turns. */
interface Turn {
  /** 1-based turn number within the session. */
  n: number;
  /** Session ordinals (0-based indexes): the turn's messages are [start, end). */
  start: number;
  end: number;
}

/**
 * A page's turns: a turn's messages are consecutive, running to the next
 * turn's start, so each turn is two numbers in typed arrays (8 bytes), not
 * an object with a list of its messages (a list grown by push kept room
 * for 16 more: some 200 bytes a turn, 25 MB on a page of 250,000
 * messages; an object of three numbers was still 56).
 */
class Turns implements Iterable<Turn> {
  constructor(
    /** Each turn's number. */
    private readonly numbers: Uint32Array,
    /** Where each turn's messages start. */
    private readonly starts: Uint32Array,
    /** Where the last turn's messages end. */
    private readonly end: number,
  ) {}

  get length(): number {
    return this.starts.length;
  }

  *[Symbol.iterator](): Generator<Turn> {
    for (let k = 0; k < this.starts.length; k++) {
      const start = this.starts[k] ?? 0;
      yield { n: this.numbers[k] ?? 0, start, end: this.starts[k + 1] ?? this.end };
    }
  }
}

export interface Model {
  meta: Meta;
  messages: readonly Message[];
  turns: Turns;
  /** tool_use id -> session-wide call number. */
  numbers: Map<string, number>;
  /** tool_use id -> the result answering it (the first one, anywhere in the session). */
  results: Map<string, ToolResultBlock>;
  /** Result blocks shown under their call, so not again on their own. */
  folded: Set<ToolResultBlock>;
  paths: PathStyle;
  input: RenderInput;
  /** Characters of tool text the page may still highlight (the HTML page sets a budget). */
  highlightLeft: number;
}

/** A user message that carries only tool results (the Anthropic convention). */
export function onlyResults(m: Message): boolean {
  return (
    m.role === "user" && m.content.length > 0 && m.content.every((b) => b.type === "tool_result")
  );
}

/** The first line of a turn's opening message, for the table of contents (made when shown). */
export function turnLabel(model: Model, turn: Turn): string {
  const m = model.messages[turn.start];
  return m ? firstLine(m) : "";
}

function firstLine(m: Message): string {
  for (const b of m.content) {
    if (b.type === "text" && b.text.trim() !== "") {
      const line = b.text.trim().split("\n")[0] ?? "";
      return line.length > 80 ? `${line.slice(0, 79)}…` : line;
    }
  }
  for (const b of m.content) {
    if (b.type === "tool_use" && b.tool.name === "Command") {
      return `${b.tool.command}${b.tool.args ? ` ${b.tool.args}` : ""}`;
    }
    if (b.type === "image") return "(image)";
  }
  return m.role === "user" ? "(prompt)" : "(assistant)";
}

/**
 * Session-local numbers for tool calls, in order of appearance over the
 * whole session, so that a range shows the same numbers as the whole.
 */
export function toolNumbers(messages: readonly Message[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "tool_use" && !numbers.has(b.id)) numbers.set(b.id, numbers.size + 1);
    }
  }
  return numbers;
}

/** The call a result answers, anywhere in the session. */
export function findCall(model: Model, id: string): ToolUseBlock | undefined {
  for (const m of model.messages)
    for (const b of m.content) if (b.type === "tool_use" && b.id === id) return b;
  return undefined;
}

export function buildModel(input: RenderInput): Model {
  const messages = input.transcript.body;
  const start = input.start ?? 0;
  const end = input.end ?? messages.length;
  const numbers = toolNumbers(messages);
  const results = new Map<string, ToolResultBlock>();
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "tool_result" && !results.has(b.tool_use_id)) results.set(b.tool_use_id, b);
    }
  }
  // Fold a result under its call only when both are on the page.
  const shownCalls = new Set<string>();
  for (let i = start; i < end; i++) {
    for (const b of messages[i]?.content ?? []) if (b.type === "tool_use") shownCalls.add(b.id);
  }
  const folded = new Set<ToolResultBlock>();
  for (let i = start; i < end; i++) {
    for (const b of messages[i]?.content ?? []) {
      if (
        b.type === "tool_result" &&
        shownCalls.has(b.tool_use_id) &&
        results.get(b.tool_use_id) === b
      )
        folded.add(b);
    }
  }
  // Turn numbers count prompts from the session's start, so a range keeps
  // them. Two walks: the first counts the turns, the second fills them in.
  const walk = (turn: (n: number, k: number, at: number) => void): number => {
    let n = 0;
    let count = 0;
    let after = 0;
    for (let i = 0; i < end; i++) {
      const m = messages[i];
      if (!m) continue;
      const opens = (m.role === "user" && !onlyResults(m)) || i === 0;
      if (opens) n++;
      if (i < start) continue;
      if (opens || count === 0) turn(Math.max(n, 1), count++, i);
      after = i + 1;
    }
    return after;
  };
  let count = 0;
  walk(() => count++);
  const turnNumbers = new Uint32Array(count);
  const starts = new Uint32Array(count);
  const after = walk((n, k, at) => {
    turnNumbers[k] = n;
    starts[k] = at;
  });
  const turns = new Turns(turnNumbers, starts, after);
  const cwd = input.transcript.meta.cwd;
  const paths = pathStyle({
    ...(input.showPaths ? { showPaths: true } : {}),
    ...defined({ home: input.home }),
    ...defined({ cwd }),
  });
  return {
    meta: input.transcript.meta,
    messages,
    turns,
    numbers,
    results,
    folded,
    paths,
    input,
    highlightLeft: Number.POSITIVE_INFINITY,
  };
}

/** `2026-08-10 12:00:00` (UTC). */
/**
 * The session facts a page heads with, after its id: each value raw, with
 * whether it is a literal (a path, a name: shown as code where the form can).
 */
export function headFacts(model: Model, input: RenderInput): [string, string, boolean][] {
  const { meta } = model;
  const facts: [string, string, boolean][] = [
    ["Started", `${displayTime(meta.timestamp)} UTC`, false],
  ];
  if (meta.cwd) facts.push(["Directory", model.paths.cwd(meta.cwd), true]);
  if (meta.git_branch) facts.push(["Branch", meta.git_branch, true]);
  if (meta.model) facts.push(["Model", meta.model, true]);
  if (meta.cli_version) facts.push(["Version", meta.cli_version, true]);
  if (input.path !== undefined && input.showPaths) facts.push(["File", input.path, true]);
  let shown = 0;
  for (const t of model.turns) shown += t.end - t.start;
  const all = model.messages.length;
  facts.push(["Messages", shown === all ? String(shown) : `${shown} of ${all}`, false]);
  return facts;
}

export function displayTime(ts: string): string {
  return ts.replace("T", " ").replace(/(\.\d+)?Z$/, "");
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A result's text: strings as they are, other JSON pretty-printed; edge blank lines trimmed. */
export function resultText(b: ToolResultBlock): string {
  const text = typeof b.content === "string" ? b.content : JSON.stringify(b.content, null, 2);
  return text.replace(/^(?:[ \t\r]*\n)+/, "").replace(/\s+$/, "");
}

/** Bytes of a base64 payload. */
export function base64Size(data: string): string {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const bytes = Math.max(0, Math.floor((data.length * 3) / 4) - padding);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/** Long enough to start collapsed. */
export function isLong(text: string): boolean {
  if (text.length > 3000) return true;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
    if (++lines > 24) return true;
  return false;
}
