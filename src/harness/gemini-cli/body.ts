/**
 * The native Body of a Gemini CLI session, and the CLI's own replay of it.
 *
 * A session file is either the append-only JSONL of v0.39+ (a metadata
 * line, message records, `{"$set": …}` updates, `{"$rewindTo": id}`
 * markers) or the single pretty-printed JSON `ConversationRecord` of older
 * versions. Both are kept as verbatim lines, so rendering the Body
 * reproduces the file byte for byte, bad lines included.
 *
 * `replay` reads the lines the way the CLI's `loadConversationRecord` does:
 * a later record with the same id replaces the earlier one in its place,
 * `$set` merges metadata (a `messages` array is a checkpoint that replaces
 * the whole list), `$rewindTo` drops that message and everything after it
 * (everything when the id is unknown), lines that are not JSON are skipped,
 * and a file with no metadata line is read as one legacy JSON document.
 *
 * One departure, documented in docs/formats/gemini-cli.md: 0.61 rebuilds
 * the records of a resumed session in a checkpoint with the resume time as
 * their timestamp and without their model and token counts, though the
 * file still holds the originals. A checkpoint record whose id an earlier
 * line recorded keeps that line's earlier timestamp, and its model and
 * tokens when it has none; the `<id>_response` turn the rebuild adds takes
 * its model turn's time. Interpreting messages is the codec's job.
 */

import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { jsonFromText } from "../../json.js";
import { joinLines, Lines, type VerbatimLine } from "../../lines.js";
import { str } from "../shared/fields.js";
import { OrderedRecords } from "./ordered.js";

export { Lines } from "../../lines.js";

export interface GeminiBody {
  /** The session file's lines, held as its bytes (or text) and where each line starts. */
  lines: Lines;
}

/** One message record (`user`, `gemini`, `info`, `error`, `warning`, or a kind not known yet). */
export type MessageRecord = JsonObject & { id: string };

/** The session as the CLI holds it after loading the file. */
export interface Conversation {
  /** "jsonl", or "json" for a legacy single document. */
  format: "jsonl" | "json";
  sessionId: string;
  projectHash: string | undefined;
  /** The first metadata line's start (the CLI's own merge keeps the last one; see docs). */
  startTime: string | undefined;
  lastUpdated: string | undefined;
  summary: string | undefined;
  kind: string | undefined;
  directories: string[] | undefined;
  /**
   * The messages, in order. A record the file appended on a line of its own
   * is parsed again each time they are walked (from its line), so a huge
   * session's records are not all held at once.
   */
  messages: Iterable<MessageRecord>;
}

function isMessage(value: Json): value is MessageRecord {
  return isJsonObject(value) && typeof value.id === "string";
}

function parseLine(text: string): Json | undefined {
  const t = text.trim();
  if (t === "" || (t[0] !== "{" && t[0] !== "[")) return undefined;
  try {
    return jsonFromText(t);
  } catch {
    return undefined;
  }
}

interface Meta {
  // `| undefined`: a later line whose value is not a string clears the key.
  sessionId?: string | undefined;
  projectHash?: string | undefined;
  startTime?: string | undefined;
  lastUpdated?: string | undefined;
  summary?: string | undefined;
  kind?: string | undefined;
  directories?: string[];
}

/** A checkpoint's copy of a record, with what the CLI's rebuild dropped taken from the original. */
function restored(
  copy: MessageRecord,
  original: MessageRecord | undefined,
  timeOnly = false,
): MessageRecord {
  if (original === undefined || (!timeOnly && original.type !== copy.type)) return copy;
  const out: MessageRecord = { ...copy };
  const was = str(original.timestamp);
  const now = str(copy.timestamp);
  if (was !== undefined && (now === undefined || was < now)) out.timestamp = was;
  if (timeOnly) return out;
  for (const key of ["model", "tokens"]) {
    const kept = original[key];
    if (out[key] === undefined && kept !== undefined) out[key] = kept;
  }
  return out;
}

/** Merge the metadata keys of `record` (a metadata line or a `$set`), later values winning. */
function mergeMeta(meta: Meta, record: JsonObject, firstStart: { value?: string }): void {
  const keys = ["sessionId", "projectHash", "startTime", "lastUpdated", "summary", "kind"] as const;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined) continue;
    const s = str(v);
    meta[key] = s;
    if (key === "startTime" && s !== undefined) firstStart.value ??= s;
  }
  const dirs = record.directories;
  if (Array.isArray(dirs))
    meta.directories = dirs.filter((d): d is string => typeof d === "string");
}

/**
 * Conversations already replayed from JSONL lines: loading a session
 * replays it for its metadata and `toCommon` again for its messages, and a
 * second replay of a huge session held its ids once more (some 50 MB at a
 * million lines) while its Common transcript was built. What is kept is
 * the metadata and a line number per message. Lines never change, so a
 * replay of the same lines gives the same conversation.
 */
const replayed = new WeakMap<Lines, Conversation>();

/**
 * The conversation the CLI would load from these lines, or undefined when
 * the CLI would not see a session in them (no metadata with a string
 * `sessionId`, and no legacy document with one).
 */
export function replay(lines: Lines): Conversation | undefined {
  const known = replayed.get(lines);
  if (known !== undefined) return known;
  const meta: Meta = {};
  const first: { value?: string } = {};
  const message = (i: number): MessageRecord | undefined => {
    const record = parseLine(lines.text(i));
    return record !== undefined && isMessage(record) ? record : undefined;
  };
  // In first-insertion order when an id is set again, as the CLI's Map keeps them.
  // A record appended on its own line is held as that line's number.
  const messages = new OrderedRecords<MessageRecord>(message);
  /**
   * The line of the last version of each record an appended line carried:
   * only a checkpoint asks, so it is made at the first one (from the lines
   * before it), not held for every record of a file that has none.
   */
  let recorded: Map<string, number> | undefined;
  const recordedBefore = (end: number): Map<string, number> => {
    const out = new Map<string, number>();
    for (let k = 0; k < end; k++) {
      if (lines.text(k).trimStart()[0] !== "{") continue;
      const m = message(k);
      if (m !== undefined) out.set(m.id, k);
    }
    return out;
  };
  const setAll = (list: Json[], recorded: Map<string, number>) => {
    messages.clear();
    for (const m of list) {
      if (!isMessage(m)) continue;
      // The turn holding a model turn's responses is never appended on its own: it dates from its turn.
      const turn = m.id.endsWith("_response") ? m.id.slice(0, -"_response".length) : undefined;
      const at = recorded.get(m.id) ?? (turn !== undefined ? recorded.get(turn) : undefined);
      const original = at === undefined ? undefined : message(at);
      messages.set(m.id, restored(m, original, turn !== undefined && !recorded.has(m.id)));
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines.text(i);
    // Cheap pre-check: pretty-printed legacy files are mostly lines that cannot be records.
    const head = text.trimStart();
    if (head[0] !== "{") continue;
    const record = parseLine(text);
    if (!isJsonObject(record)) continue;
    if (typeof record.$rewindTo === "string") {
      const at = messages.indexOf(record.$rewindTo);
      messages.truncate(at === -1 ? 0 : at);
    } else if (isMessage(record)) {
      messages.set(record.id, i);
      recorded?.set(record.id, i);
    } else if (isJsonObject(record.$set)) {
      const set = record.$set;
      if (Array.isArray(set.messages)) {
        recorded ??= recordedBefore(i);
        setAll(set.messages, recorded);
      }
      mergeMeta(meta, set, first);
    } else if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
      mergeMeta(meta, record, first);
      if (Array.isArray(record.messages)) {
        for (const m of record.messages) if (isMessage(m)) messages.set(m.id, m);
      }
    }
  }
  // The CLI tests these for truthiness: an empty id or hash sends it to the legacy reading.
  if (meta.sessionId && meta.projectHash) {
    const held = heldMessages(messages.values());
    // The walk below shares this scope (`message`): emptied, the table and
    // the checkpoint map are not kept alive while it runs.
    messages.clear();
    recorded = undefined;
    const conversation: Conversation = {
      format: "jsonl",
      sessionId: meta.sessionId,
      projectHash: meta.projectHash,
      startTime: first.value ?? meta.startTime,
      lastUpdated: meta.lastUpdated,
      summary: meta.summary,
      kind: meta.kind,
      directories: meta.directories,
      messages: {
        *[Symbol.iterator]() {
          for (const m of held) {
            const record = typeof m === "number" ? message(m) : m;
            if (record !== undefined) yield record;
          }
        },
      },
    };
    replayed.set(lines, conversation);
    return conversation;
  }
  return replayLegacy(joinLines(lines));
}

/** The messages as held: line numbers only (the usual file) in four bytes each. */
function heldMessages(
  values: Iterable<MessageRecord | number>,
): Uint32Array | (MessageRecord | number)[] {
  const list = [...values];
  return list.every((m) => typeof m === "number") ? Uint32Array.from(list) : list;
}

/** The legacy single-document form (the CLI's fallback when no metadata line is found). */
function replayLegacy(text: string): Conversation | undefined {
  const t = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!t.trimStart().startsWith("{")) return undefined;
  let doc: Json;
  try {
    doc = jsonFromText(t);
  } catch {
    return undefined;
  }
  // The CLI takes any object with a sessionId; a ConversationRecord also has its messages,
  // and requiring them keeps other tools' JSON (a Claude Code line) from passing for a session.
  if (!isJsonObject(doc) || typeof doc.sessionId !== "string" || !Array.isArray(doc.messages)) {
    return undefined;
  }
  const list = doc.messages;
  const dirs = doc.directories;
  return {
    format: "json",
    sessionId: doc.sessionId,
    projectHash: str(doc.projectHash),
    startTime: str(doc.startTime),
    lastUpdated: str(doc.lastUpdated),
    summary: str(doc.summary),
    kind: str(doc.kind),
    directories: Array.isArray(dirs)
      ? dirs.filter((d): d is string => typeof d === "string")
      : undefined,
    // Records without a string id cannot be replaced or rewound; the CLI still replays them.
    messages: list.filter(isJsonObject).map((m, i) => (isMessage(m) ? m : { ...m, id: `#${i}` })),
  };
}

export function parseBody(text: string): GeminiBody {
  return { lines: Lines.split(text) };
}

export function renderBody(body: GeminiBody): string {
  return joinLines(body.lines);
}

/** A record as our writer emits it: compact JSON on its own line, as the CLI appends them. */
export function recordLine(record: Json): VerbatimLine {
  return { text: JSON.stringify(record), eol: "\n" };
}
