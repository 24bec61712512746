/**
 * The one session filter every door builds: harness, directory and a time
 * window in milliseconds, made from what a user typed (a CLI flag, an MCP
 * argument) with the one time parser (index/when.ts). Pure: `now` and the
 * directory relative paths resolve against are passed in.
 */

import { resolve } from "node:path";
import type { Filter } from "../index/session-index.js";
import { parseWhen } from "../index/when.js";
import { assignDefined } from "../json.js";
import type { HarnessId } from "../transcript.js";

/** Sessions by harness and cwd, and by last activity (or, for usage, messages by their time). */
export type SessionFilter = Filter;

/** A filter as typed: times as text (an age, a date or a timestamp). */
export interface FilterText {
  from?: HarnessId | undefined;
  cwd?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** The filter `text` asks for: `cwd` resolved against `base`, times read by `parseWhen`. */
export function sessionFilter(text: FilterText, base: string, now: number): SessionFilter {
  const out: SessionFilter = {};
  assignDefined(out, "from", text.from);
  if (text.cwd !== undefined) out.cwd = resolve(base, text.cwd);
  if (text.since !== undefined) out.since = parseWhen(text.since, now);
  if (text.until !== undefined) out.until = parseWhen(text.until, now, true);
  return out;
}
