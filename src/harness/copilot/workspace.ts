/**
 * A Copilot CLI session folder's `workspace.yaml`: the session's id, cwd,
 * name (what the CLI lists it by), `user_named`, counters and times, a
 * flat YAML mapping the CLI reads and writes with the `yaml` package.
 * Parsed and rendered with the same library (the `yaml` package, pinned),
 * so a name holding quotes, colons, `#` or newlines round-trips. Pure.
 */

import { parse, stringify } from "yaml";
import { isJsonObject, type JsonObject } from "../../common.js";
import { parseBounded } from "../../json.js";

/**
 * The mapping a `workspace.yaml` holds, or undefined when the text is not
 * YAML, not a mapping, or uses more aliases than a hand-written file would
 * (the CLI's own files use none): a broken workspace file loses only the
 * name, never the session (docs/formats/copilot.md).
 */
export function parseWorkspace(text: string): JsonObject | undefined {
  let value: unknown;
  try {
    // The core schema reads `created_at: 2026-…Z` as the string it is, not a Date.
    value = parse(text, { schema: "core", maxAliasCount: 16, prettyErrors: false });
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  const parsed = json === undefined ? undefined : parseBounded(json);
  return parsed !== undefined && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** The mapping as the CLI writes it: one `key: value` a line, strings quoted only where YAML needs it. */
export function renderWorkspace(workspace: JsonObject): string {
  return stringify(workspace, { schema: "core", lineWidth: 0 });
}
