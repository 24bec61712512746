/**
 * The filters `list_sessions` and `search_sessions` share: harness, cwd and
 * a time window, the window written as RFC 3339, a date or an age (`3d`).
 */

import type { Meta } from "../common.js";
import { InvalidRequestError } from "../errors.js";
import { isUnderDir } from "../local.js";
import {
  compareTimestamps,
  formatTimestamp,
  parseTimestamp,
  type Timestamp,
  timestampFromMillis,
} from "../time.js";
import type { Discovered, HarnessId } from "../transcript.js";

export interface SessionFilter {
  harness?: HarnessId | undefined;
  /** This directory or below it. */
  cwd?: string | undefined;
  /** Last activity at or after. */
  since?: Timestamp | undefined;
  /** Last activity before. */
  until?: Timestamp | undefined;
}

const AGE_UNITS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * A time bound: an RFC 3339 timestamp, a date (`2026-11-30`: its start for
 * `since`, the start of the next day for `until`, so the day is included),
 * or an age before `now` (`90s`, `30m`, `12h`, `3d`, `2w`).
 */
export function parseTimeBound(
  text: string,
  which: "since" | "until",
  now: number = Date.now(),
): Timestamp {
  const t = text.trim();
  const age = /^(\d+)\s*([smhdw])$/i.exec(t);
  const unit = AGE_UNITS[(age?.[2] ?? "").toLowerCase()];
  if (age && unit !== undefined) return timestampFromMillis(now - Number(age[1]) * unit);
  const date = /^(\d{4}-\d{2}-\d{2})$/.exec(t);
  const full = parseTimestamp(date ? `${date[1]}T00:00:00Z` : t);
  if (full === undefined) {
    throw new InvalidRequestError(
      undefined,
      `${which} "${text}" is not a time: use an RFC 3339 timestamp, a date (2026-11-30) or an age (3d, 12h, 30m)`,
    );
  }
  if (date && which === "until")
    return formatTimestamp({ ...full, seconds: full.seconds + 86_400 });
  return formatTimestamp(full);
}

export function matchesMeta(meta: Meta, filter: SessionFilter): boolean {
  return filter.cwd === undefined || (meta.cwd !== undefined && isUnderDir(meta.cwd, filter.cwd));
}

export function matches(session: Discovered, filter: SessionFilter): boolean {
  if (filter.harness !== undefined && session.harness !== filter.harness) return false;
  if (!matchesMeta(session.meta, filter)) return false;
  if (filter.since !== undefined && compareTimestamps(session.updated, filter.since) < 0)
    return false;
  if (filter.until !== undefined && compareTimestamps(session.updated, filter.until) >= 0)
    return false;
  return true;
}
