/**
 * Cursor's text form: JSON lines. An agent transcript is its own
 * `<id>.jsonl` as Cursor writes it (`{"role":...,"message":{"content":...}}`
 * lines, and marker lines such as `{"type":"turn_ended"}`). A chat store
 * has no text form of its own, so its text is a header line
 * `{"cursor_chat":{"chat":<meta.json>,"agent":<agent record>,"opaque":n,"prompts"?:<prompt_history.json>,"turns"?:<the decoded turn graph>}}`
 * followed by its JSON blobs, one per line. Pure. A line that is not a
 * JSON object is an error naming its line; unknown lines and fields are
 * kept; a chat of a newer schema is refused by name.
 */

import { basename } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { stableUuid } from "../../ids.js";
import { assignDefined, defined, jsonFromText } from "../../json.js";
import { checkLineCount } from "../../lines.js";
import { firstLine } from "../../sniff.js";
import { EPOCH } from "../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../transcript.js";
import { obj } from "../shared/fields.js";
import type { CursorBody, CursorChatBody, CursorDesktopBody } from "./body.js";
import { desktopMeta } from "./desktop-meta.js";
import { chatMeta, checkChatSchema } from "./meta.js";

const CHAT_HEADER = "cursor_chat";
const DESKTOP_HEADER = "cursor_desktop";

function lineObject(line: string, n: number, origin?: string): JsonObject {
  let value: unknown;
  try {
    value = jsonFromText(line);
  } catch {
    throw new ParseError("cursor", "not a JSON line", { file: origin, at: `line ${n}` });
  }
  if (!isJsonObject(value))
    throw new ParseError("cursor", "expected a JSON object", { file: origin, at: `line ${n}` });
  return value;
}

/** Blob lines (`{role, content}` with no `message`) are a chat's; `message` lines a transcript's. */
function isChatBlob(line: JsonObject): boolean {
  return typeof line.role === "string" && "content" in line && !("message" in line);
}

export function parseCursor(text: string, origin?: string): Transcript<CursorBody> {
  checkLineCount(text, "cursor", origin);
  const lines = text
    .split(/\r?\n/)
    .map((line, i) => ({ line, n: i + 1 }))
    .filter((l) => l.line.trim() !== "")
    .map((l) => lineObject(l.line, l.n, origin));
  const named = origin?.endsWith(".jsonl") ? basename(origin, ".jsonl") : undefined;
  const id = named || stableUuid("cursor", text);
  const head = lines[0];
  const desktop = head === undefined ? undefined : obj(head, DESKTOP_HEADER);
  if (desktop !== undefined) {
    const body: CursorDesktopBody = {
      layout: "desktop",
      source: desktop.source === "aichat" ? "aichat" : "composer",
      header: obj(desktop, "header") ?? {},
      composer: obj(desktop, "composer") ?? {},
      bubbles: lines.slice(1),
    };
    const folder = desktop.folder;
    if (typeof folder === "string" && folder !== "") body.folder = folder;
    return { meta: desktopMeta(body, id), body };
  }
  const header = head === undefined ? undefined : obj(head, CHAT_HEADER);
  if (header !== undefined || (head !== undefined && isChatBlob(head))) {
    const body: CursorChatBody = {
      layout: "chat",
      chat: obj(header, "chat") ?? {},
      agent: obj(header, "agent") ?? {},
      messages: header === undefined ? lines : lines.slice(1),
      opaque: typeof header?.opaque === "number" ? header.opaque : 0,
    };
    assignDefined(body, "prompts", header?.prompts);
    const turns = header?.turns;
    if (Array.isArray(turns)) body.turns = turns.filter(isJsonObject);
    checkChatSchema(body.chat, origin);
    return { meta: chatMeta(body, id), body };
  }
  return { meta: { id, timestamp: EPOCH }, body: { layout: "transcript", lines } };
}

function renderCursor(t: Transcript<CursorBody>): string {
  const b = t.body;
  const lines =
    b.layout === "transcript"
      ? b.lines
      : b.layout === "desktop"
        ? [
            {
              [DESKTOP_HEADER]:
                b.folder === undefined
                  ? { source: b.source, header: b.header, composer: b.composer }
                  : { source: b.source, header: b.header, composer: b.composer, folder: b.folder },
            },
            ...b.bubbles,
          ]
        : [
            {
              [CHAT_HEADER]: {
                chat: b.chat,
                agent: b.agent,
                opaque: b.opaque,
                ...defined({ prompts: b.prompts, turns: b.turns }),
              },
            },
            ...b.messages,
          ];
  return lines.map((o) => `${JSON.stringify(o)}\n`).join("");
}

/** A first line that is a transcript message (`role` then `message`) or the chat header. */
function detectCursor(sample: Sample): Recognized | undefined {
  const line = firstLine(sample);
  if (/^\{\s*"cursor_(chat|desktop)"\s*:\s*\{/.test(line)) return "text";
  return /^\{\s*"role"\s*:\s*"(user|assistant)"\s*,\s*"message"\s*:\s*\{/.test(line)
    ? "text"
    : undefined;
}

export const cursorText: TextCodec<CursorBody> = {
  parse: parseCursor,
  render: renderCursor,
  detect: detectCursor,
};
