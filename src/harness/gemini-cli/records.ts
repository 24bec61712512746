/**
 * What the codec, the text codec and the store all read off Gemini CLI
 * records, with no conversion: parts and their text as the CLI prints them,
 * injected context, the workspace a session names, its start, the project
 * hash, the CLI's timestamp form, and the number of messages a session
 * shows (for listings; `codec.ts` builds them, and a property test keeps
 * the two in step). Pure: no I/O.
 */

import { createHash } from "node:crypto";
import { isJsonObject, type JsonObject } from "../../common.js";
import { EPOCH, normalizeTimestamp, type Timestamp, timestampMillis } from "../../time.js";
import { nameOf, partsOf, partsText } from "../shared/gemini-parts.js";
import type { Conversation } from "./body.js";

export { partsOf, partsText } from "../shared/gemini-parts.js";

/** User texts the CLI injects and never replays to the model. */
const INJECTED_PREFIXES = ["<session_context>", "<hook_context>"] as const;

export function isInjected(text: string): boolean {
  const t = text.trim();
  return INJECTED_PREFIXES.some((p) => t.startsWith(p));
}

/** The CLI's `isIgnoredUserContent`: empty, a slash or `?` command, or injected context. */
export function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return t === "" || t.startsWith("/") || t.startsWith("?") || isInjected(t);
}

/** What the CLI stores as `projectHash`: sha256 of the project root, hex. */
export function projectHash(root: string): string {
  return createHash("sha256").update(root).digest("hex");
}

const NORMAL = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/** ISO 8601 with milliseconds, as the CLI writes its timestamps (digits past them cut). */
export function isoMillis(ts: Timestamp): string {
  // A normalized timestamp is already in this form but for its fraction: no date arithmetic needed.
  const m = NORMAL.exec(ts);
  if (m) return `${m[1]}.${(m[2] ?? "").padEnd(3, "0").slice(0, 3)}Z`;
  return new Date(timestampMillis(ts)).toISOString();
}

/** The workspace line of the CLI's `<session_context>` preamble, and older versions' wording. */
const WORKSPACE = [
  /\*\*Workspace Directories:\*\*\n[ \t]*- ([^\n]+)/,
  /I'm currently working in the directory: ([^\n]+)/,
];

/** The project directory the session's own `<session_context>` names, if any. */
export function contextCwd(conversation: Conversation): string | undefined {
  for (const record of conversation.messages) {
    if (record.type !== "user") continue;
    const text = partsText(partsOf(record.content));
    if (!text.trimStart().startsWith("<session_context>")) continue;
    for (const re of WORKSPACE) {
      const m = re.exec(text);
      if (m?.[1] !== undefined && m[1].trim() !== "") return m[1].trim();
    }
  }
  return undefined;
}

/** Session start for a conversation: the first metadata line's, else its first record's. */
export function conversationStart(conversation: Conversation): Timestamp {
  const start = conversation.startTime && normalizeTimestamp(conversation.startTime);
  if (start) return start;
  for (const m of conversation.messages) {
    const t = typeof m.timestamp === "string" && normalizeTimestamp(m.timestamp);
    if (t) return t;
  }
  return EPOCH;
}

/**
 * How many messages `toCommon` makes of the conversation, counted the way
 * its reader walks the records (the same skips, the same answered-once
 * rule), without building them.
 */
export function countMessages(conversation: Conversation): number {
  let n = 0;
  const calls = new Set<string>();
  const answered = new Set<string>();
  const responses = (parts: readonly JsonObject[], fallbackId?: string): number => {
    let k = 0;
    for (const p of parts) {
      const fr = p.functionResponse;
      if (!isJsonObject(fr)) continue;
      const id = nameOf(fr.id, fallbackId ?? "");
      if (id === "" || answered.has(id) || !calls.has(id)) continue;
      answered.add(id);
      k++;
    }
    return k;
  };
  for (const record of conversation.messages) {
    const parts = partsOf(record.content);
    if (record.type === "user") {
      if (isInjected(partsText(parts))) continue;
      let blocks = 0;
      for (const p of parts) {
        if (isJsonObject(p.functionResponse)) blocks += responses([p]);
        else if (typeof p.text === "string" && p.thought === undefined)
          blocks += p.text !== "" ? 1 : 0;
        else if (isJsonObject(p.inlineData) || partsText([p]) !== "") blocks++;
      }
      if (blocks > 0) n++;
    } else if (record.type === "gemini") {
      const modern = parts.some((p) => isJsonObject(p.functionCall) || p.thought !== undefined);
      const toolCalls = Array.isArray(record.toolCalls)
        ? record.toolCalls.filter(isJsonObject)
        : [];
      let blocks = 0;
      if (!modern && Array.isArray(record.thoughts))
        blocks += record.thoughts.filter(isJsonObject).length;
      parts.forEach((p, i) => {
        if (isJsonObject(p.functionCall)) {
          calls.add(nameOf(p.functionCall.id, `${record.id}-call-${i}`));
          blocks++;
        } else if (p.thought !== undefined && p.thought !== false) {
          if (typeof p.text === "string") blocks++;
        } else if (typeof p.text === "string") {
          if (p.text !== "") blocks++;
        } else if (isJsonObject(p.inlineData) || partsText([p]) !== "") blocks++;
      });
      if (!modern) {
        toolCalls.forEach((tc, i) => {
          calls.add(nameOf(tc.id, `${record.id}-call-${i}`));
          blocks++;
        });
      }
      if (blocks === 0) continue;
      n++;
      let results = 0;
      toolCalls.forEach((tc, i) => {
        const id = nameOf(tc.id, `${record.id}-call-${i}`);
        const result = tc.result;
        if (result === undefined || result === null || result === "") return;
        results += responses(
          typeof result === "string" ? [{ functionResponse: { id } }] : partsOf(result),
          id,
        );
      });
      if (results > 0) n++;
    }
  }
  return n;
}
