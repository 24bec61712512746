/**
 * Crush Body -> Common. Pure. Each `user` or `assistant` row becomes one
 * Common message of the same role; a `tool` row (Crush's tool results)
 * becomes a user message of tool results, per the Anthropic convention;
 * `system` rows and rows with no readable part stay in the Body only.
 * docs/formats/crush.md says what each part kind becomes.
 */

import type { Block, Json, JsonObject, Message, StopReason } from "../../common.js";
import { STOP_REASONS } from "../../common.js";
import { assignDefined, parseBounded } from "../../json.js";
import type { Timestamp } from "../../time.js";
import type { Common, Transcript } from "../../transcript.js";
import { str } from "../shared/fields.js";
import type { CrushBody, Part, PartKind } from "./body.js";
import {
  crushMeta,
  crushTime,
  firstAssistantModel,
  partsOf,
  promptTexts,
  rowModel,
} from "./meta.js";
import { toolFromCrush } from "./tools.js";

/**
 * A `finish` part's reason as a Common stop reason; `stop` (what Crush
 * gives prompts) and `unknown` (Crush's own "no reason given") are none.
 */
function stopReason(reason: string): StopReason | undefined {
  if (reason === "" || reason === "stop" || reason === "unknown") return undefined;
  if (reason === "canceled") return "aborted";
  const known = STOP_REASONS.find((r) => r === reason);
  return known ?? { other: reason };
}

/** A `data:<type>;base64,<data>` URL's parts. */
function dataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]*);base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1] ?? "", data: m[2] ?? "" } : undefined;
}

/** A tool call's `input` text as JSON: "" is no arguments; text that is not JSON stays a string. */
function callInput(input: string): Json {
  if (input.trim() === "") return {};
  const parsed = parseBounded(input);
  return parsed === undefined ? input : parsed.value;
}

/** A binary attachment: an image, else an artifact (text types as text). */
function binaryBlock(data: JsonObject): Block {
  const mediaType = str(data, "MIMEType") ?? "";
  const bytes = str(data, "Data") ?? "";
  if (mediaType.startsWith("image/"))
    return { type: "image", source: { type: "base64", media_type: mediaType, data: bytes } };
  const name = str(data, "Path") || "attachment";
  if (mediaType.startsWith("text/"))
    return {
      type: "artifact",
      artifact: {
        id: name,
        name,
        source: {
          type: "text",
          text: Buffer.from(bytes, "base64").toString("utf8"),
          media_type: mediaType,
        },
      },
    };
  return {
    type: "artifact",
    artifact: { id: name, name, source: { type: "base64", data: bytes, media_type: mediaType } },
  };
}

/** A tool result's content: its text, and its media beside it when it carries some. */
function resultContent(data: JsonObject): Json {
  const text = str(data, "content") ?? "";
  const media = str(data, "data") ?? "";
  if (media === "") return text;
  const image = {
    type: "image",
    source: { type: "base64", media_type: str(data, "mime_type") ?? "", data: media },
  };
  return text === "" ? [image] : [{ type: "text", text }, image];
}

function blockOf(part: Part): Block | undefined {
  if (part.kind === "raw") return undefined;
  const d = part.data;
  const kind: PartKind = part.kind;
  switch (kind) {
    case "text":
      return { type: "text", text: str(d, "text") ?? "" };
    case "reasoning": {
      const text = str(d, "thinking") ?? "";
      const signature = str(d, "signature") ?? "";
      if (text === "" && signature === "") return undefined;
      return signature === "" ? { type: "thinking", text } : { type: "thinking", text, signature };
    }
    case "image_url": {
      const url = str(d, "url") ?? "";
      const inline = dataUrl(url);
      return inline
        ? {
            type: "image",
            source: { type: "base64", media_type: inline.mediaType, data: inline.data },
          }
        : { type: "text", text: `[image ${url}]` };
    }
    case "binary":
      return binaryBlock(d);
    case "tool_call":
      return {
        type: "tool_use",
        id: str(d, "id") ?? "",
        tool: toolFromCrush(str(d, "name") ?? "", callInput(str(d, "input") ?? "")),
      };
    case "tool_result": {
      const block: Block = {
        type: "tool_result",
        tool_use_id: str(d, "tool_call_id") ?? "",
        content: resultContent(d),
      };
      if (d.is_error === true) block.is_error = true;
      return block;
    }
    case "shell_command": {
      // What Crush itself hands the model for a `!command` the user ran.
      const code = typeof d.exit_code === "number" ? d.exit_code : 0;
      return {
        type: "text",
        text: `$ ${str(d, "command") ?? ""}\n${str(d, "output") ?? ""}\n(exit code ${code})`,
      };
    }
    case "finish":
      return undefined;
    default:
      return kind satisfies never;
  }
}

export function crushToCommon(t: Transcript<CrushBody>): Transcript<Common> {
  const { session, messages, cwd } = t.body;
  const meta = crushMeta(
    session,
    cwd,
    promptTexts(messages),
    firstAssistantModel(messages),
    t.meta.id,
  );
  let previous: Timestamp = meta.timestamp;
  const body: Message[] = [];
  for (const row of messages) {
    const role = row.role === "tool" ? "user" : row.role;
    const timestamp = crushTime(row.created_at) ?? previous;
    previous = timestamp;
    if (role !== "user" && role !== "assistant") continue;
    const parts = partsOf(row);
    const content = parts.flatMap((p) => blockOf(p) ?? []);
    if (content.length === 0) continue;
    const message: Message = { role, content, timestamp };
    if (role === "assistant") {
      const model = rowModel(row);
      if (model) message.model = model;
      const finish = parts.find((p) => p.kind === "finish");
      const reason = finish?.kind === "finish" ? str(finish.data, "reason") : undefined;
      const stop = reason === undefined ? undefined : stopReason(reason);
      assignDefined(message, "stop_reason", stop);
    }
    body.push(message);
  }
  return { meta: { ...t.meta, ...meta }, body };
}
