/**
 * The Gemini CLI text codec: the text form of a session is the session file
 * itself (JSONL, or a legacy JSON document). `parse` keeps its lines verbatim
 * and reads the metadata as the CLI would show it; `render` joins the lines
 * back, byte for byte. No I/O: the store adds the project directory it finds
 * the file under (the text names it only in its `<session_context>`).
 */

import type { Meta } from "../../common.js";
import { ParseError } from "../../errors.js";
import { assignDefined } from "../../json.js";
import { firstKey, firstLine, isJsonLines } from "../../sniff.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { type Conversation, type GeminiBody, parseBody, renderBody, replay } from "./body.js";
import { contextCwd, conversationStart, isIgnoredUserText, partsOf, partsText } from "./records.js";

/** The CLI's `cleanMessage`: one line, printable ASCII only. */
function cleanMessage(text: string): string {
  return text
    .replace(/\n+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7E]+/g, "")
    .trim();
}

/** A summary without terminal escapes and control characters, as the session list prints it. */
function cleanSummary(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
      .trim()
  );
}

/**
 * The session's title as `gemini --list-sessions` shows it: the `summary`
 * when there is one, else the first user prompt that is not a command or
 * injected context (its text parts joined, cleaned).
 */
export function sessionTitle(conversation: Conversation): string | undefined {
  if (conversation.summary) {
    const s = cleanSummary(conversation.summary);
    if (s !== "") return s;
  }
  for (const m of conversation.messages) {
    if (m.type !== "user") continue;
    const parts = partsOf(m.content);
    if (isIgnoredUserText(partsText(parts))) continue;
    const text =
      typeof m.content === "string"
        ? m.content
        : parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
    const title = cleanMessage(text);
    return title === "" ? undefined : title;
  }
  return undefined;
}

/** The model of the first `gemini` record with something to show (the session's model). */
export function firstModel(conversation: Conversation): string | undefined {
  for (const m of conversation.messages) {
    if (m.type !== "gemini") continue;
    const shown =
      partsOf(m.content).some(
        (p) => (typeof p.text === "string" && p.text !== "") || p.functionCall !== undefined,
      ) ||
      (Array.isArray(m.toolCalls) && m.toolCalls.length > 0) ||
      (Array.isArray(m.thoughts) && m.thoughts.length > 0);
    if (shown) return typeof m.model === "string" && m.model !== "" ? m.model : undefined;
  }
  return undefined;
}

/** Session metadata from a replayed conversation (cwd from its own context preamble). */
function metaFromConversation(conversation: Conversation): Meta {
  const meta: Meta = { id: conversation.sessionId, timestamp: conversationStart(conversation) };
  assignDefined(meta, "cwd", contextCwd(conversation));
  assignDefined(meta, "title", sessionTitle(conversation));
  assignDefined(meta, "model", firstModel(conversation));
  return meta;
}

function parseGemini(text: string, origin?: string): Transcript<GeminiBody> {
  return parseSession(text, origin).transcript;
}

/** The transcript and the conversation it replays to, read once (the store needs both). */
function parseSession(
  text: string,
  origin?: string,
): { transcript: Transcript<GeminiBody>; conversation: Conversation } {
  return sessionFromBody(parseBody(text), origin);
}

/**
 * `parseSession` of a Body already split (a store's, its lines over the
 * file's bytes): checked as text is.
 */
export function sessionFromBody(
  body: GeminiBody,
  origin?: string,
): { transcript: Transcript<GeminiBody>; conversation: Conversation } {
  const conversation = replay(body.lines);
  if (!conversation) {
    let blank = true;
    for (const line of body.lines) blank &&= line.text.trim() === "";
    throw new ParseError(
      "gemini_cli",
      blank
        ? "the session file is empty"
        : "no metadata with a sessionId and projectHash, and not a JSON session document: not a Gemini CLI session",
      { file: origin },
    );
  }
  if (conversation.sessionId.trim() === "") {
    throw new ParseError("gemini_cli", "the session's sessionId is empty", { file: origin });
  }
  return { transcript: { meta: metaFromConversation(conversation), body }, conversation };
}

function renderGemini(transcript: Transcript<GeminiBody>): string {
  return renderBody(transcript.body);
}

/**
 * Gemini CLI's session: JSON Lines whose first record is the metadata
 * (`sessionId` and `projectHash`), or the older one-document JSON with both.
 */
function detectGemini(sample: Sample): Recognized | undefined {
  const first = isJsonLines(sample) ? firstLine(sample) : sample.text;
  if (firstKey(sample) === undefined) return undefined;
  return /"sessionId"\s*:\s*"/.test(first) && /"projectHash"\s*:/.test(first) ? "text" : undefined;
}

export const geminiText: TextCodec<GeminiBody> = {
  parse: parseGemini,
  // A file given by path or on stdin: its lines over its bytes, never one string of it.
  parseLines: (lines, origin) => sessionFromBody({ lines }, origin).transcript,
  render: renderGemini,
  detect: detectGemini,
};
