/**
 * `--since` / `--until` values: an age (`30m`, `12h`, `3d`, `2w`, `6mo`,
 * `1y`, counted back from now), a date (`2026-05-01`, local midnight; as an
 * upper bound the end of that day), or an RFC 3339 timestamp. Pure: `now`
 * is passed in.
 */

import { InvalidRequestError } from "../errors.js";
import { parseTimestamp } from "../time.js";

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  mo: 30 * 86_400_000,
  y: 365 * 86_400_000,
};

/**
 * Milliseconds since the epoch for a bound. `end` makes a bare date mean
 * the end of that day, so `--until 2026-05-01` includes that day.
 */
export function parseWhen(text: string, now: number, end = false): number {
  const value = text.trim();
  const age = /^(\d+)\s*(s|m|h|d|w|mo|y)$/i.exec(value);
  const unit = age ? UNIT_MS[(age[2] ?? "").toLowerCase()] : undefined;
  if (age && unit !== undefined) return now - Number(age[1]) * unit;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(y, m - 1, d);
    if (date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d) {
      return end ? new Date(y, m - 1, d + 1).getTime() - 1 : date.getTime();
    }
  }
  const ts = parseTimestamp(value);
  if (ts) return ts.seconds * 1000 + Math.floor(ts.nanos / 1_000_000);
  throw new InvalidRequestError(
    undefined,
    `cannot read the time "${text}": use an age such as 3d, 12h or 2w, a date such as 2026-05-01, or an RFC 3339 timestamp`,
  );
}
