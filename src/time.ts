/**
 * Timestamps: RFC 3339 strings normalized to UTC with nanosecond precision.
 *
 * JavaScript's Date stops at milliseconds, but protobuf Timestamps and
 * txcript's Common JSON carry nanoseconds, so a Timestamp is a string in one
 * normal form: `YYYY-MM-DDTHH:MM:SS[.fff|.ffffff|.fffffffff]Z`, the fraction
 * as short as the value allows in groups of three digits (the form txcript
 * emits). Compare them with `compareTimestamps`, not as strings.
 */

/** A normalized RFC 3339 UTC timestamp (see module header). */
export type Timestamp = string;

export interface EpochTime {
  /** Whole seconds since 1970-01-01T00:00:00Z (may be negative). */
  seconds: number;
  /** 0 to 999,999,999. */
  nanos: number;
}

export const EPOCH: Timestamp = "1970-01-01T00:00:00Z";

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

// Years 0001 to 9999, the range protobuf's Timestamp allows.
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300799;

/** Parse an RFC 3339 timestamp with any offset; undefined when it is not one. */
export function parseTimestamp(text: string): EpochTime | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  // The pattern's six date and time groups always match; the defaults are never used.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (oh * 3600 + om * 60);
  }
  // Digits past nanoseconds are dropped: nothing downstream can hold them.
  const fraction = (m[7] ?? "").slice(0, 9).padEnd(9, "0");
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const seconds = date.getTime() / 1000 - offset;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) return undefined;
  return { seconds, nanos: Number(fraction) };
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** The normal form of an RFC 3339 timestamp; undefined when it is not one. */
export function normalizeTimestamp(text: string): Timestamp | undefined {
  const t = parseTimestamp(text);
  return t && formatTimestamp(t);
}

/** Format epoch seconds and nanos in the normal form. */
export function formatTimestamp({ seconds, nanos }: EpochTime): Timestamp {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  // Joined, not concatenated: a template would keep a rope of a slice of the
  // ISO string (about 150 bytes against 50), held by every message read.
  return [base, fractionDigits(nanos), "Z"].join("");
}

function fractionDigits(nanos: number): string {
  if (nanos === 0) return "";
  const nine = String(nanos).padStart(9, "0");
  if (nanos % 1_000_000 === 0) return `.${nine.slice(0, 3)}`;
  if (nanos % 1_000 === 0) return `.${nine.slice(0, 6)}`;
  return `.${nine}`;
}

/** Epoch parts of a normalized timestamp. Throws on a string that is not one. */
export function timestampToEpoch(ts: Timestamp): EpochTime {
  const t = parseTimestamp(ts);
  if (!t) throw new RangeError(`not an RFC 3339 timestamp: ${JSON.stringify(ts)}`);
  return t;
}

/** Milliseconds since the epoch (sub-millisecond digits are truncated). */
export function timestampMillis(ts: Timestamp): number {
  const { seconds, nanos } = timestampToEpoch(ts);
  return seconds * 1000 + Math.floor(nanos / 1_000_000);
}

/** `timestampMillis`, or 0 when `ts` does not parse (a listing's times, sorted and shown). */
export function timestampMillisOrZero(ts: string): number {
  try {
    return timestampMillis(ts);
  } catch {
    return 0;
  }
}

export function timestampFromMillis(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  // Fractional milliseconds (a file's mtimeMs) must still give whole nanoseconds.
  const nanos = Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1_000_000));
  return formatTimestamp({ seconds, nanos });
}

export function nowTimestamp(): Timestamp {
  return timestampFromMillis(Date.now());
}

export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  const x = timestampToEpoch(a);
  const y = timestampToEpoch(b);
  return x.seconds - y.seconds || x.nanos - y.nanos;
}
