/**
 * The agent engine's text form (docs/formats/kiro.md "The agent engine"):
 * a session's `messages.jsonl` as Kiro writes it, one `{id, timestamp,
 * payload}` a line, optionally headed by `{"kiro_agent_session": <its
 * session.json>}` (and, for a subagent's transcript, `"kiro_agent_start":
 * <its root's start row>`) so a converted session keeps its id, folder,
 * title, model and prompt. Pure. A last line cut short while Kiro writes
 * is left out; any other line that is not a JSON object is an error naming it. Unknown
 * kinds and fields are kept, and rendering is byte-exact for what was
 * parsed (one compact JSON object a line, as Kiro appends them).
 */

import { basename, dirname } from "node:path";
import { isJsonObject } from "../../common.js";
import { stableUuid } from "../../ids.js";
import { EPOCH, normalizeTimestamp } from "../../time.js";
import type { Transcript } from "../../transcript.js";
import { jsonObjectLines } from "../shared/json-lines.js";
import { agentMeta, payloadOf } from "./agent-meta.js";
import type { KiroAgentBody } from "./body.js";

const AGENT_HEADER = "kiro_agent_session";
/** Beside the header, a subagent's start row from its root (see KiroAgentBody.start). */
const START = "kiro_agent_start";
/** The file of persisted messages in a session's folder. */
const AGENT_MESSAGES = "messages.jsonl";

const HEADER_LINE = /^\{\s*"kiro_agent_session"\s*:\s*\{/;
/** `{"id": "…", "timestamp": "…", "payload": …`, Kiro's key order (strings with escapes). */
const ROW_LINE =
  /^\{\s*"id"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"timestamp"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*"payload"\s*:/;

/** A first line that is the header or a persisted message. */
export function isAgentLine(line: string): boolean {
  return HEADER_LINE.test(line) || ROW_LINE.test(line);
}

/** A session of the agent engine from its text; its id from its folder's name when read from disk. */
export function parseAgent(text: string, origin?: string): Transcript<KiroAgentBody> {
  const lines = jsonObjectLines(text, "kiro", origin, "always");
  const head = lines[0]?.[AGENT_HEADER];
  const session = isJsonObject(head) ? head : {};
  const rows = isJsonObject(head) ? lines.slice(1) : lines;
  const folder =
    origin !== undefined && basename(origin) === AGENT_MESSAGES
      ? basename(dirname(origin))
      : undefined;
  const meta = agentMeta(session, folder || stableUuid("kiro", text));
  const start = isJsonObject(lines[0]?.[START]) ? lines[0]?.[START] : undefined;
  const name = isJsonObject(start) ? payloadOf(start)?.subAgentName : undefined;
  if (meta.title === undefined && typeof name === "string" && name !== "") meta.title = name;
  if (meta.timestamp === EPOCH) {
    const first = rows.find((r) => typeof r.timestamp === "string")?.timestamp;
    meta.timestamp = (typeof first === "string" ? normalizeTimestamp(first) : undefined) ?? EPOCH;
  }
  const body: KiroAgentBody = { layout: "agent", session, rows };
  if (isJsonObject(start)) body.start = start;
  return { meta, body };
}

export function renderAgent(body: KiroAgentBody): string {
  const head =
    body.start !== undefined
      ? [{ [AGENT_HEADER]: body.session, [START]: body.start }]
      : Object.keys(body.session).length > 0
        ? [{ [AGENT_HEADER]: body.session }]
        : [];
  return [...head, ...body.rows].map((o) => `${JSON.stringify(o)}\n`).join("");
}
