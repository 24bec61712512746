/**
 * Copilot CLI's text form: a session's `events.jsonl`, kept line for line
 * (byte-exact round trip). Pure. The first event must be `session.start`
 * with a string `sessionId`; lines that do not parse are kept and skipped.
 */

import { basename, dirname } from "node:path";
import { ParseError } from "../../errors.js";
import { checkLineCount, linePieces } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { type CopilotBody, eventsOf, joinLines, type Lines, splitLines, startOf } from "./body.js";
import { copilotMeta } from "./meta.js";

function parseCopilot(text: string, origin?: string): Transcript<CopilotBody> {
  checkLineCount(text, "copilot", origin);
  return copilotFromLines(splitLines(text), origin);
}

/** A session from its lines (a store's, over the file's bytes): checked as `parseCopilot` checks text. */
export function copilotFromLines(lines: Lines, origin?: string): Transcript<CopilotBody> {
  const events = eventsOf(lines);
  if (startOf(events) === undefined)
    throw new ParseError(
      "copilot",
      "the first event is not Copilot CLI's session.start with a sessionId",
      {
        file: origin,
      },
    );
  const folder = origin !== undefined ? basename(dirname(origin)) : undefined;
  return { meta: copilotMeta(events, folder), body: { lines } };
}

function renderCopilot(t: Transcript<CopilotBody>): string {
  return joinLines(t.body.lines);
}

function detectCopilot(sample: Sample): Recognized | undefined {
  return /^\{"type":"session\.start","data":\{"sessionId":"/.test(firstLine(sample))
    ? "text"
    : undefined;
}

export const copilotText: TextCodec<CopilotBody> = {
  parse: parseCopilot,
  parseLines: copilotFromLines,
  render: renderCopilot,
  renderPieces: (t) => linePieces(t.body.lines),
  detect: detectCopilot,
};
