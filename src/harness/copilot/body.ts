/**
 * GitHub Copilot CLI's native Body: a session's `events.jsonl`, verbatim.
 * Every line is an event `{type, data, id, timestamp, parentId}`
 * (`session.start`, `user.message`, `assistant.message`,
 * `tool.execution_complete`, `session.usage_record`, and many UI and
 * bookkeeping kinds). This module splits and joins lines, reads events (as
 * they are walked, never all held) and picks the ones that become Common
 * messages, one group per message, so the store counts what `view`
 * numbers. Pure.
 */

import { isJsonObject, type JsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";
import { Lines, type VerbatimLine } from "../../lines.js";
import { resultGroups } from "../shared/groups.js";

export { joinLines, Lines } from "../../lines.js";

/** Split text into verbatim lines. */
export function splitLines(text: string): Lines {
  return Lines.split(text);
}

export interface CopilotBody {
  /** The events file's lines, held as its bytes (or text) and where each line starts. */
  lines: Lines;
  /**
   * The session folder's `workspace.yaml` (id, cwd, name, times, ...), as
   * its YAML mapping read; absent in the text form (the events file alone)
   * and when the folder has none.
   */
  workspace?: JsonObject;
}

export interface CopilotEvent {
  type: string;
  data: JsonObject;
  timestamp: string | undefined;
  /** The sub-agent that emitted it; absent for the main agent's and the session's events. */
  agentId: string | undefined;
}

/** One line as an event, or undefined (blank, malformed, no string type). */
function readEvent(text: string): CopilotEvent | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  const parsed = parseBounded(t);
  if (parsed === undefined || !isJsonObject(parsed.value)) return undefined;
  const e = parsed.value;
  if (typeof e.type !== "string") return undefined;
  return {
    type: e.type,
    data: isJsonObject(e.data) ? e.data : {},
    timestamp: typeof e.timestamp === "string" ? e.timestamp : undefined,
    agentId: typeof e.agentId === "string" && e.agentId !== "" ? e.agentId : undefined,
  };
}

/**
 * Every line that is an event, in order: parsed each time they are walked
 * and never kept, so a huge session's events are never all held at once.
 */
export function eventsOf(lines: Iterable<VerbatimLine>): Iterable<CopilotEvent> {
  return {
    *[Symbol.iterator]() {
      for (const line of lines) {
        const e = readEvent(line.text);
        if (e !== undefined) yield e;
      }
    },
  };
}

/** The `session.start` event: the first event, when it is one with a string `sessionId`. */
export function startOf(events: Iterable<CopilotEvent>): CopilotEvent | undefined {
  for (const first of events)
    return first.type === "session.start" && typeof first.data.sessionId === "string"
      ? first
      : undefined;
  return undefined;
}

/** The event kinds that become Common messages. */
const MESSAGE_EVENTS = ["user.message", "assistant.message", "tool.execution_complete"] as const;
type MessageEvent = (typeof MESSAGE_EVENTS)[number];

function messageKind(e: CopilotEvent): MessageEvent | undefined {
  return MESSAGE_EVENTS.find((k) => k === e.type);
}

/**
 * The main agent's events that become Common messages, one group per
 * message: consecutive tool completions share one (a user message holding
 * a turn's results). A `session.usage_record` rides with the assistant
 * message after it. A sub-agent's events (those with an `agentId`) are
 * its own conversation, not the session's messages.
 */
export function messageGroups(events: Iterable<CopilotEvent>): Iterable<CopilotEvent[]> {
  return resultGroups(events, (e) => {
    if (e.agentId !== undefined) return undefined;
    const kind = messageKind(e);
    if (kind === undefined) return undefined;
    return kind === "tool.execution_complete" ? "result" : "message";
  });
}
