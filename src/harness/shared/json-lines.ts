/**
 * One JSON object a line, for the harnesses that append such files (Grok's
 * `updates.jsonl`, Kiro's agent engine's `messages.jsonl`). Pure.
 */

import { isJsonObject, type JsonObject } from "../../common.js";
import { ParseError } from "../../errors.js";
import { jsonFromText } from "../../json.js";
import { checkLineCount } from "../../lines.js";
import type { HarnessId } from "../../transcript.js";

/**
 * The JSON object on every line of `text`; blank lines are skipped. A last
 * line that is not JSON is one the harness is still writing and is left
 * out: always (`cut: "always"`), or only after a good line
 * (`cut: "after-rows"`, so a file of one bad line is an error). Any other
 * line that is not a JSON object is a ParseError naming it.
 */
export function jsonObjectLines(
  text: string,
  harness: HarnessId,
  origin: string | undefined,
  cut: "always" | "after-rows",
): JsonObject[] {
  checkLineCount(text, harness, origin);
  // A plain split and a trimmed `\r` cost less than a regular expression split (bench/grok.bench.ts).
  const lines = text.split("\n");
  const out: JsonObject[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    const at = `line ${i + 1}`;
    let value: unknown;
    try {
      value = jsonFromText(line);
    } catch {
      if (i === lines.length - 1 && (cut === "always" || out.length > 0)) break;
      throw new ParseError(harness, "not a JSON line", { file: origin, at });
    }
    if (!isJsonObject(value))
      throw new ParseError(harness, "expected a JSON object", { file: origin, at });
    out.push(value);
  }
  return out;
}
