/**
 * What the index can search in a session: the searchable text of every
 * message by where it sits (user, assistant, thinking, tool call, tool
 * output) and of the session (title; cwd, branch and model), plus the
 * session's usage totals. Pure: a Common transcript in, rows out.
 */

import { type Block, type Json, type Message, type Tool, toolToCanonical } from "../common.js";
import { oneLineTitle } from "../strings.js";
import { timestampMillis } from "../time.js";
import type { Common, Transcript } from "../transcript.js";

/** Where a hit matched. `meta` is the session's cwd, branch and model. */
export const KINDS = [
  "user",
  "assistant",
  "thinking",
  "tool_call",
  "tool_output",
  "title",
  "meta",
] as const;
export type Kind = (typeof KINDS)[number];

export function isKind(value: string): value is Kind {
  return KINDS.some((kind) => kind === value);
}

/** One searchable piece: a message's text of one kind, or a session field (ordinal 0). */
export interface Chunk {
  /** 1-based message ordinal as `view` numbers it; 0 for the session's own fields. */
  ordinal: number;
  kind: Kind;
  /** Milliseconds since the epoch of the message (the session's last activity for ordinal 0). */
  at: number;
  body: string;
}

/** Token totals over a session's messages, and the models that answered. */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** The session's model: its own, else the one that answered most messages. */
  model: string | undefined;
  /** Assistant messages per model. */
  models: Record<string, number>;
}

/**
 * Text past this many characters of one piece is not indexed: huge tool
 * outputs (file dumps, logs) would otherwise dominate the index's size.
 */
const MAX_CHUNK_CHARS = 64 * 1024;

function cap(text: string): string {
  return text.length > MAX_CHUNK_CHARS ? text.slice(0, MAX_CHUNK_CHARS) : text;
}

/** Every string and number inside a JSON value, in order: what a search can find in it. */
function jsonWords(value: Json | undefined, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) jsonWords(v, out);
  else
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      jsonWords(v, out);
    }
}

function toolText(tool: Tool): string {
  const { name, input } = toolToCanonical(tool);
  const out = [name];
  jsonWords(input, out);
  return out.join(" ");
}

function blockText(block: Block, role: Message["role"]): { kind: Kind; text: string } | undefined {
  switch (block.type) {
    case "text":
      return { kind: role === "user" ? "user" : "assistant", text: block.text };
    case "thinking":
      return block.text ? { kind: "thinking", text: block.text } : undefined;
    case "tool_use":
      return { kind: "tool_call", text: toolText(block.tool) };
    case "tool_result": {
      const words: string[] = [];
      jsonWords(block.content, words);
      return { kind: "tool_output", text: words.join(" ") };
    }
    case "image":
      return undefined;
    case "artifact": {
      const a = block.artifact;
      const body = a.source.type === "text" ? a.source.text : "";
      return { kind: role === "user" ? "user" : "assistant", text: `${a.name} ${body}` };
    }
    default:
      return block satisfies never;
  }
}

function millis(ts: string, fallback: number): number {
  try {
    return timestampMillis(ts);
  } catch {
    return fallback;
  }
}

/**
 * Is the title the first prompt's own words (a harness's or reader's
 * fallback for an untitled session, perhaps cut with `…`)? Such a title is
 * not indexed on its own: every hit in it would be a second hit on message 1.
 */
function repeatsFirstPrompt(title: string, transcript: Transcript<Common>): boolean {
  const first = transcript.body.find((m) => m.role === "user");
  if (first === undefined) return false;
  const whole = Number.POSITIVE_INFINITY;
  const prompt = oneLineTitle(
    first.content.map((b) => (b.type === "text" ? b.text : "")).join(" "),
    whole,
  );
  const words = oneLineTitle(title.endsWith("…") ? title.slice(0, -1) : title, whole);
  return prompt !== undefined && words !== undefined && prompt.startsWith(words);
}

/**
 * Each message's time in milliseconds (`updatedMs` where it does not parse):
 * parsed once for `chunksOf` and `usageRowsOf` when a caller wants both
 * (the index's text build parsed each twice: about 0.6 s of 21 s at
 * bench/scale's 20,000 sessions).
 */
export function messageTimes(transcript: Transcript<Common>, updatedMs: number): number[] {
  return transcript.body.map((m) => millis(m.timestamp, updatedMs));
}

/** The chunks of a session: its fields first (ordinal 0), then each message's text by kind. */
export function chunksOf(
  transcript: Transcript<Common>,
  updatedMs: number,
  times: readonly number[] = messageTimes(transcript, updatedMs),
): Chunk[] {
  const { meta, body } = transcript;
  const chunks: Chunk[] = [];
  if (meta.title && !repeatsFirstPrompt(meta.title, transcript))
    chunks.push({ ordinal: 0, kind: "title", at: updatedMs, body: cap(meta.title) });
  const fields = [meta.cwd, meta.git_branch, meta.model].filter((f): f is string => !!f);
  if (fields.length > 0)
    chunks.push({ ordinal: 0, kind: "meta", at: updatedMs, body: fields.join(" ") });
  body.forEach((message, i) => {
    const at = times[i] ?? updatedMs;
    const byKind = new Map<Kind, string[]>();
    for (const block of message.content) {
      const piece = blockText(block, message.role);
      if (!piece || piece.text.trim() === "") continue;
      const list = byKind.get(piece.kind) ?? [];
      list.push(piece.text);
      byKind.set(piece.kind, list);
    }
    for (const [kind, texts] of byKind) {
      chunks.push({ ordinal: i + 1, kind, at, body: cap(texts.join("\n")) });
    }
  });
  return chunks;
}

export function usageOf(transcript: Transcript<Common>): UsageTotals {
  const totals: UsageTotals = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    model: undefined,
    models: {},
  };
  for (const m of transcript.body) {
    const u = m.usage;
    if (u) {
      totals.input_tokens += u.input_tokens;
      totals.output_tokens += u.output_tokens;
      totals.cache_read_input_tokens += u.cache_read_input_tokens ?? 0;
      totals.cache_creation_input_tokens += u.cache_creation_input_tokens ?? 0;
    }
    if (m.role === "assistant" && m.model)
      totals.models[m.model] = (totals.models[m.model] ?? 0) + 1;
  }
  const top = Object.entries(totals.models).sort(
    (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
  )[0];
  totals.model = transcript.meta.model ?? top?.[0];
  return totals;
}

/** Token counts and model responses: what a usage row and a usage bucket both carry. */
export interface UsageCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Model responses: 1 per assistant message, 0 for usage on another message. */
  messages: number;
}

/** One assistant message's tokens (or another message that carries usage), for `usage` by time and model. */
export interface UsageRow extends UsageCounts {
  /** Milliseconds since the epoch of the message. */
  at: number;
  model: string | undefined;
}

/**
 * A row per model response: every assistant message, and any other
 * message that carries usage. The codecs have already merged what a
 * harness splits (Claude Code's lines of one response) and turned
 * cumulative counters into per-response ones (Codex), so each row counts
 * once. A message without its own model takes the session's.
 */
export function usageRowsOf(
  transcript: Transcript<Common>,
  updatedMs: number,
  times?: readonly number[],
): UsageRow[] {
  const rows: UsageRow[] = [];
  for (const [i, m] of transcript.body.entries()) {
    const u = m.usage;
    if (m.role !== "assistant" && !u) continue;
    rows.push({
      at: times?.[i] ?? millis(m.timestamp, updatedMs),
      model: m.model ?? transcript.meta.model,
      input_tokens: u?.input_tokens ?? 0,
      output_tokens: u?.output_tokens ?? 0,
      cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
      messages: m.role === "assistant" ? 1 : 0,
    });
  }
  return rows;
}
