/**
 * Canonical blocks as the plain text a harness without their kind carries:
 * a tool result's content, an artifact. Pure; shared by the writers of
 * harnesses whose results are text (Codex, Gemini CLI, OpenCode).
 */

import { type Block, isJsonObject, type Json } from "../../common.js";

/** A tool result as text: strings as they are, text blocks joined, anything else as JSON. */
export function resultText(content: Json): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((b) =>
      isJsonObject(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : [],
    );
    if (texts.length === content.length) return texts.join("\n");
  }
  return JSON.stringify(content);
}

/** An artifact as a text part: its name, then its text, path or media type. */
export function artifactText(block: Block & { type: "artifact" }): string {
  const { name, source } = block.artifact;
  switch (source.type) {
    case "text":
      return `[artifact ${name}]\n${source.text}`;
    case "path":
      return `[artifact ${name}: ${source.path}]`;
    case "base64":
      return `[artifact ${name}: ${source.media_type ?? "binary"}, base64]`;
    default:
      return source satisfies never;
  }
}
