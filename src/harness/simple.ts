/**
 * Simple: the forgiving interchange document any agent can emit (see
 * docs/formats/simple.md). Its Body is the Common model itself, so the codec
 * is the identity; the text codec reads every fidelity level and renders the
 * full model back, so that parse(render(c)) equals c.
 */

import {
  type Block,
  isJsonObject,
  type JsonObject,
  type Message,
  type Meta,
  type ToolResultBlock,
  toolFromCanonical,
  toolToCanonical,
} from "../common.js";
import {
  blockToJson,
  type IndexedPieces,
  imageSourceToJson,
  messageListPieces,
  messageToJson,
  metaToJson,
  readContentBlock,
  readMessageExtras,
  readMetaFields,
  readRole,
} from "../common-json.js";
import { stableUuid } from "../ids.js";
import { assignDefined, Checker, joinPath, parseJson, sortKeys } from "../json.js";
import { firstKey, hasManyRecords } from "../sniff.js";
import { compareTimestamps, EPOCH, type Timestamp } from "../time.js";
import {
  type Codec,
  type Common,
  HARNESS_LABELS,
  type Harness,
  type Recognized,
  type Sample,
  type TextCodec,
  type Transcript,
} from "../transcript.js";

export type SimpleBody = Common;

export const simpleCodec: Codec<SimpleBody> = {
  toCommon: (t) => t,
  fromCommon: (t) => t,
};

/**
 * Parse a Simple document. Errors name the JSON path: `messages[3].content[1]: ...`.
 * `undated` is the session's time when the document gives none at all (the
 * CLI passes the time of import); without it such a session starts at the
 * epoch, so that parsing stays a pure function of the text.
 */
export function parseSimple(
  text: string,
  origin?: string,
  undated?: Timestamp,
): Transcript<Common> {
  const c: Checker = new Checker("simple", origin);
  const doc = c.object(parseJson(text, "simple", origin), "");
  const str = (v: unknown, p: string) => c.string(v, p);
  const rawMessages = c.required(doc, "messages", "", "a Simple document", (v, p) => c.array(v, p));

  const explicitIds = new Set<string>();
  for (const m of rawMessages) {
    const content = isJsonObject(m) ? m.content : undefined;
    if (!Array.isArray(content)) continue;
    for (const b of content)
      if (isJsonObject(b) && b.type === "tool_use" && typeof b.id === "string")
        explicitIds.add(b.id);
  }
  const usedIds = new Set<string>();
  const freshId = (m: number, b: number): string => {
    let id = `toolu_simple_${m}_${b}`;
    for (let n = 2; explicitIds.has(id) || usedIds.has(id); n++) id = `toolu_simple_${m}_${b}_${n}`;
    return id;
  };
  // Calls not yet answered, oldest first: id-less results take from the front.
  const unpaired: string[] = [];

  const readBlock = (value: unknown, at: string, m: number, b: number): Block => {
    // The document came from JSON.parse: its objects hold JSON values.
    const obj = c.jsonObject(value, at);
    const type = c.required(obj, "type", at, "block", str);
    switch (type) {
      case "tool_use": {
        const name = c.required(obj, "name", at, "tool_use", str);
        if (name === "") c.fail(joinPath(at, "name"), "a tool name cannot be empty");
        const id = c.optional(obj, "id", at, str) ?? freshId(m, b);
        if (usedIds.has(id))
          c.fail(joinPath(at, "id"), `tool_use id ${JSON.stringify(id)} is used twice`);
        usedIds.add(id);
        unpaired.push(id);
        // Every harness expects an object of arguments: a missing input is `{}`.
        const input = obj.input === undefined ? {} : obj.input;
        return { type, id, tool: toolFromCanonical(name, input) };
      }
      case "tool_result": {
        if (obj.content === undefined) c.fail(at, `tool_result needs "content"`);
        let toolUseId = c.optional(obj, "tool_use_id", at, str);
        if (toolUseId === undefined) {
          toolUseId = unpaired.shift();
          if (toolUseId === undefined) {
            c.fail(at, `tool_result has no "tool_use_id" and no unanswered tool_use precedes it`);
          }
        } else {
          const i = unpaired.indexOf(toolUseId);
          if (i !== -1) unpaired.splice(i, 1);
        }
        const block: ToolResultBlock = {
          type,
          tool_use_id: toolUseId,
          content: obj.content,
        };
        if (c.optional(obj, "is_error", at, (v, p) => c.boolean(v, p))) block.is_error = true;
        return block;
      }
      default:
        // Anthropic's own shape names thinking text `thinking`; accept it too.
        return readContentBlock(c, obj, type, at, { thinkingAlias: true });
    }
  };

  interface Draft extends Omit<Message, "timestamp"> {
    timestamp?: Timestamp;
  }
  const drafts: Draft[] = rawMessages.map((value, m): Draft => {
    const at = joinPath("messages", m);
    const obj = c.object(value, at);
    const role = c.required(obj, "role", at, "message", (v, p) => readRole(c, v, p));
    const rawContent = obj.content;
    if (rawContent === undefined) c.fail(at, `message needs "content"`);
    let content: Block[];
    if (typeof rawContent === "string") {
      content = [{ type: "text", text: rawContent }];
    } else if (Array.isArray(rawContent)) {
      const contentAt = joinPath(at, "content");
      content = rawContent.map((b, i) => readBlock(b, joinPath(contentAt, i), m, i));
    } else {
      return c.expected(joinPath(at, "content"), "a string or an array of blocks", rawContent);
    }
    const draft: Draft = { role, content };
    assignDefined(
      draft,
      "timestamp",
      c.optional(obj, "timestamp", at, (v, p) => c.timestamp(v, p)),
    );
    readMessageExtras(c, obj, at, draft);
    return draft;
  });

  // Deterministic timestamps: the session's own, else its earliest message's,
  // else `undated` or the epoch; a message without one inherits the one before it.
  const given = drafts.map((d) => d.timestamp).filter((t): t is Timestamp => t !== undefined);
  const sessionTs =
    c.optional(doc, "timestamp", "", (v, p) => c.timestamp(v, p)) ??
    given.sort(compareTimestamps)[0] ??
    undated ??
    EPOCH;
  let previous = sessionTs;
  const body: Message[] = drafts.map((d) => {
    const timestamp = d.timestamp ?? previous;
    previous = timestamp;
    return { ...d, timestamp };
  });

  const id =
    c.optional(doc, "id", "", str) ??
    // No id: derive one from the document so the same document gets the same id.
    stableUuid("simple", text);
  if (id === "") c.fail("id", "a session id cannot be empty");
  const meta: Meta = { id, timestamp: sessionTs, ...readMetaFields(c, doc, "") };
  return { meta, body };
}

function blockToSimple(block: Block): JsonObject {
  switch (block.type) {
    case "tool_use": {
      const { name, input } = toolToCanonical(block.tool);
      return { type: "tool_use", id: block.id, name, input: sortKeys(input) };
    }
    case "image":
      return { type: "image", source: imageSourceToJson(block.source) };
    case "text":
    case "thinking":
    case "tool_result":
    case "artifact":
      return blockToJson(block);
    default:
      return block satisfies never;
  }
}

/** Render the full Common model as a Simple document (every field, every timestamp). */
export function renderSimple(transcript: Transcript<Common>): string {
  const doc: JsonObject = {
    ...metaToJson(transcript.meta),
    messages: transcript.body.map((m) => messageToJson(m, blockToSimple)),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * `renderSimple`'s text in pieces, one message at a time, for output that
 * is a stream: the whole document of a huge session is never one string
 * (nor one JSON tree). Joined, the pieces are exactly `renderSimple`'s text.
 */
export function* renderSimpleChunks(transcript: Transcript<Common>): Generator<string> {
  const pieces = simplePieces(transcript);
  for (let i = 0; i < pieces.count; i++) yield pieces.piece(i);
}

/** The same pieces by number, each rendered when asked for (a page of a huge document). */
export function simplePieces(transcript: Transcript<Common>): IndexedPieces {
  // The meta always holds id and timestamp: its text is "{\n  ...\n}", never "{}".
  const meta = JSON.stringify(metaToJson(transcript.meta), null, 2);
  const head = `${meta.slice(0, meta.length - 2)},\n  "messages": [`;
  return messageListPieces(head, transcript.body, blockToSimple);
}

/**
 * A JSON object with a `messages` key that is not Common JSON (whose first
 * key is `meta`) nor agy's text form (keyed by its tables).
 */
function detectSimple(sample: Sample): Recognized | undefined {
  const key = firstKey(sample);
  if (key === undefined || key === "meta" || hasManyRecords(sample)) return undefined;
  return /"messages"\s*:\s*\[/.test(sample.text) && !/"steps"\s*:\s*\[/.test(sample.text)
    ? "text"
    : undefined;
}

export const simpleText: TextCodec<SimpleBody> = {
  parse: (text, origin) => parseSimple(text, origin),
  render: renderSimple,
  detect: detectSimple,
};

/** The Simple registry entry: a text form only, with no store and no resume. */
export const simple: Harness<"simple", SimpleBody> = {
  id: "simple",
  label: HARNESS_LABELS.simple,
  codec: simpleCodec,
  text: simpleText,
};
