/**
 * Message ranges: `<id>#7`, `#5-12`, `#5-`, `#-10`, by the 1-based ordinals
 * `view` prints. A range that would separate a tool call from its result is
 * refused, naming the nearest range that keeps every pair whole. The one
 * place a reference's messages are selected and sliced, for every door.
 */

import type { Message } from "./common.js";
import { InvalidRequestError } from "./errors.js";
import type { Common, Transcript } from "./transcript.js";

/** Inclusive, 1-based; an open end is undefined. */
export interface MessageRange {
  from?: number;
  to?: number;
}

export interface SessionRef {
  /** The id, prefix or file path before `#`. */
  ref: string;
  range?: MessageRange;
  /** The range as written, for messages. */
  rangeText?: string;
}

/** Thrown for a range that is not of the form `N`, `A-B`, `A-` or `-B`. */
export class RangeSyntaxError extends Error {}

/** Split `abc123#5-12` into the reference and its range. */
export function parseSessionRef(text: string): SessionRef {
  const hash = text.lastIndexOf("#");
  if (hash === -1) return { ref: text };
  const ref = text.slice(0, hash);
  const rangeText = text.slice(hash + 1);
  return { ref, range: parseRange(rangeText), rangeText };
}

export function parseRange(text: string): MessageRange {
  const m = /^(\d*)(-?)(\d*)$/.exec(text);
  const bad = () =>
    new RangeSyntaxError(
      `malformed range "#${text}": use #N, #A-B, #A- or #-B with message numbers from 1`,
    );
  if (!m || text === "" || text === "-") throw bad();
  const [, a = "", dash = "", b = ""] = m;
  const num = (s: string) => {
    const n = Number(s);
    if (!Number.isSafeInteger(n) || n < 1) throw bad();
    return n;
  };
  if (dash === "") return { from: num(a), to: num(a) };
  const range: MessageRange = {};
  if (a !== "") range.from = num(a);
  if (b !== "") range.to = num(b);
  if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
    throw new RangeSyntaxError(`malformed range "#${text}": ${range.from} is after ${range.to}`);
  }
  return range;
}

function asWritten(range: MessageRange): string {
  if (range.from !== undefined && range.from === range.to) return `#${range.from}`;
  return `#${range.from ?? ""}-${range.to ?? ""}`;
}

function formatRange(from: number, to: number, count: number): string {
  if (from === to) return `#${from}`;
  if (to === count) return `#${from}-`;
  return `#${from}-${to}`;
}

/**
 * The messages a range selects, as 0-based [start, end) indices, after
 * checking bounds and tool pairs. `label` names the session in errors.
 */
export function resolveRange(
  messages: readonly Message[],
  range: MessageRange,
  label: string,
): { start: number; end: number } {
  const count = messages.length;
  const from = range.from ?? 1;
  const to = range.to ?? count;
  if (count === 0) throw new InvalidRequestError(undefined, `${label} has no messages to select`);
  if (from > count || to > count) {
    throw new InvalidRequestError(
      undefined,
      `range ${asWritten(range)} is out of bounds: ${label} has ${count} message${count === 1 ? "" : "s"} (#1-${count})`,
    );
  }
  const [a, b] = closeOverToolPairs(messages, from - 1, to - 1);
  if (a !== from - 1 || b !== to - 1) {
    throw new InvalidRequestError(
      undefined,
      `range ${formatRange(from, to, count)} would separate a tool call from its result; the nearest whole range is ${formatRange(a + 1, b + 1, count)}`,
    );
  }
  return { start: from - 1, end: to };
}

/** The messages a reference selects: its range resolved, else every message. */
export function selectMessages(
  messages: readonly Message[],
  range: MessageRange | undefined,
  label: string,
): { start: number; end: number } {
  return range ? resolveRange(messages, range, label) : { start: 0, end: messages.length };
}

/** Messages [start, end) as a transcript of their own (the transcript itself when that is all of it). */
export function sliceTranscript(
  transcript: Transcript<Common>,
  { start, end }: { start: number; end: number },
): Transcript<Common> {
  if (start === 0 && end === transcript.body.length) return transcript;
  return { meta: transcript.meta, body: transcript.body.slice(start, end) };
}

/** Widen [a, b] (0-based, inclusive) until no tool call or result inside has its partner outside. */
export function closeOverToolPairs(
  messages: readonly Message[],
  a: number,
  b: number,
): [number, number] {
  const callAt = new Map<string, number>();
  const resultsAt = new Map<string, number[]>();
  messages.forEach((m, i) => {
    for (const block of m.content) {
      if (block.type === "tool_use") callAt.set(block.id, i);
      else if (block.type === "tool_result") {
        const list = resultsAt.get(block.tool_use_id) ?? [];
        list.push(i);
        resultsAt.set(block.tool_use_id, list);
      }
    }
  });
  let lo = a;
  let hi = b;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = lo; i <= hi; i++) {
      for (const block of messages[i]?.content ?? []) {
        const partners =
          block.type === "tool_use"
            ? (resultsAt.get(block.id) ?? [])
            : block.type === "tool_result"
              ? [callAt.get(block.tool_use_id)].filter((x): x is number => x !== undefined)
              : [];
        for (const j of partners) {
          if (j < lo) {
            lo = j;
            changed = true;
          }
          if (j > hi) {
            hi = j;
            changed = true;
          }
        }
      }
    }
  }
  return [lo, hi];
}
