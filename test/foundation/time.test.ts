/**
 * Timestamps: RFC 3339 in, one normal form out (UTC, `Z`, a fraction of 0,
 * 3, 6 or 9 digits as txcript prints it), nanoseconds kept, impossible
 * dates refused, and the round trip through Common JSON and Simple exact.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCommon, renderCommon } from "../../src/common-json.js";
import { parseSimple, renderSimple } from "../../src/harness/simple.js";
import { Checker, parseJson } from "../../src/json.js";
import {
  compareTimestamps,
  EPOCH,
  formatTimestamp,
  normalizeTimestamp,
  parseTimestamp,
  timestampFromMillis,
  timestampMillis,
  timestampToEpoch,
} from "../../src/time.js";
import { epochTimeArb, timestampArb } from "../support/arbitraries.js";

describe("normalizeTimestamp", () => {
  it.each([
    ["2026-08-10T12:00:00Z", "2026-08-10T12:00:00Z"],
    ["2026-08-10T12:00:00.000Z", "2026-08-10T12:00:00Z"],
    ["2026-08-10T12:00:00.5Z", "2026-08-10T12:00:00.500Z"],
    ["2026-08-10T12:00:00.250Z", "2026-08-10T12:00:00.250Z"],
    ["2026-08-10T12:00:00.123400Z", "2026-08-10T12:00:00.123400Z"],
    ["2026-08-10T12:00:00.1234Z", "2026-08-10T12:00:00.123400Z"],
    ["2026-08-10T12:00:00.123456789Z", "2026-08-10T12:00:00.123456789Z"],
    ["2026-08-10T12:00:00.000000001Z", "2026-08-10T12:00:00.000000001Z"],
    ["2026-08-10T12:00:00.120000000Z", "2026-08-10T12:00:00.120Z"],
    ["2026-08-10T12:00:00.000001000Z", "2026-08-10T12:00:00.000001Z"],
    // Digits past nanoseconds are dropped (truncated, not rounded).
    ["2026-08-10T12:00:00.1234567899Z", "2026-08-10T12:00:00.123456789Z"],
  ])("keeps the fraction as txcript prints it: %s", (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it.each([
    ["2026-08-10T14:30:00+02:30", "2026-08-10T12:00:00Z"],
    ["2026-08-10T07:00:00.000000007-05:00", "2026-08-10T12:00:00.000000007Z"],
    ["2026-01-01T01:00:00+02:00", "2025-12-31T23:00:00Z"],
    ["2024-02-29T23:30:00-01:00", "2024-03-01T00:30:00Z"],
    ["2026-08-10T12:00:00+00:00", "2026-08-10T12:00:00Z"],
    ["2026-08-10T12:00:00-00:00", "2026-08-10T12:00:00Z"],
    ["2026-08-10t12:00:00z", "2026-08-10T12:00:00Z"],
    ["2026-08-10 12:00:00Z", "2026-08-10T12:00:00Z"],
  ])("converts offsets to UTC: %s", (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it.each([
    ["February 30", "2026-02-30T00:00:00Z"],
    ["February 29 of a common year", "2026-02-29T00:00:00Z"],
    ["February 29 of 1900 (not a leap year)", "1900-02-29T00:00:00Z"],
    ["April 31", "2026-04-31T00:00:00Z"],
    ["month 13", "2026-13-01T00:00:00Z"],
    ["month 0", "2026-00-10T00:00:00Z"],
    ["day 0", "2026-01-00T00:00:00Z"],
    ["hour 24", "2026-08-10T24:00:00Z"],
    ["minute 60", "2026-08-10T12:60:00Z"],
    ["a leap second", "2016-12-31T23:59:60Z"],
    ["offset hour 24", "2026-08-10T12:00:00+24:00"],
    ["offset minute 60", "2026-08-10T12:00:00+01:60"],
    ["no offset", "2026-08-10T12:00:00"],
    ["a date alone", "2026-08-10"],
    ["an empty fraction", "2026-08-10T12:00:00.Z"],
    ["year 0", "0000-01-01T00:00:00Z"],
    ["before year 1 once in UTC", "0001-01-01T00:30:00+01:00"],
    ["after year 9999 once in UTC", "9999-12-31T23:30:00-01:00"],
    ["a five-digit year", "10000-01-01T00:00:00Z"],
    ["epoch milliseconds", "1786363200000"],
    ["an offset without a colon", "2026-08-10T12:00:00+0200"],
    ["trailing text", "2026-08-10T12:00:00Z junk"],
    ["leading space", " 2026-08-10T12:00:00Z"],
    ["the empty string", ""],
  ])("refuses %s", (_why, input) => {
    expect(normalizeTimestamp(input)).toBeUndefined();
    expect(parseTimestamp(input)).toBeUndefined();
  });

  it.each([
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "0004-02-29T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "1969-12-31T23:59:59.999999999Z",
    "0099-06-15T08:00:00Z",
  ])("accepts the valid edge %s unchanged", (ts) => {
    expect(normalizeTimestamp(ts)).toBe(ts);
  });
});

describe("epoch conversions", () => {
  it("parses to seconds and nanoseconds", () => {
    expect(timestampToEpoch("1970-01-01T00:00:01.000000002Z")).toEqual({ seconds: 1, nanos: 2 });
    expect(timestampToEpoch("1969-12-31T23:59:59.5Z")).toEqual({
      seconds: -1,
      nanos: 500_000_000,
    });
    expect(() => timestampToEpoch("yesterday")).toThrow(RangeError);
  });

  it("milliseconds truncate sub-millisecond digits and come back", () => {
    expect(timestampMillis("2026-08-10T12:00:00.123999999Z")).toBe(
      Date.UTC(2026, 7, 10, 12, 0, 0, 123),
    );
    expect(timestampFromMillis(Date.UTC(2026, 7, 10, 12, 0, 0, 5))).toBe(
      "2026-08-10T12:00:00.005Z",
    );
    expect(timestampFromMillis(-1)).toBe("1969-12-31T23:59:59.999Z");
    expect(timestampFromMillis(0)).toBe(EPOCH);
    // A file's mtimeMs has a fraction: it still gives whole nanoseconds.
    expect(timestampFromMillis(1.5)).toBe("1970-01-01T00:00:00.001500Z");
    expect(timestampFromMillis(1786363200123.25)).toMatch(/^2026-08-10T12:00:00\.123250Z$/);
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e13, noNaN: true }), (ms) => {
        const ts = timestampFromMillis(ms);
        expect(normalizeTimestamp(ts)).toBe(ts);
        expect(Math.abs(timestampMillis(ts) - Math.floor(ms))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("compares by instant, not by string", () => {
    // As strings "…00Z" sorts after "…00.5Z" ("Z" > "."): wrong by half a second.
    expect("2026-08-10T12:00:00Z" > "2026-08-10T12:00:00.5Z").toBe(true);
    expect(compareTimestamps("2026-08-10T12:00:00Z", "2026-08-10T12:00:00.5Z")).toBeLessThan(0);
    expect(compareTimestamps("2026-08-10T12:00:00.1Z", "2026-08-10T12:00:00.000000002Z")).toBe(
      99_999_998,
    );
    expect(
      compareTimestamps("2026-08-10T12:00:00Z", "2026-08-10T11:59:59.999999999Z"),
    ).toBeGreaterThan(0);
    expect(compareTimestamps("2026-08-10T12:00:00Z", "2026-08-10T14:00:00+02:00")).toBe(0);
  });
});

describe("properties", () => {
  it("format then parse gives back the same seconds and nanoseconds", () => {
    fc.assert(
      fc.property(epochTimeArb, (t) => {
        const text = formatTimestamp(t);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$/);
        expect(parseTimestamp(text)).toEqual(t);
        expect(normalizeTimestamp(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("any offset denotes the same instant as its UTC normal form", () => {
    const offsetArb = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      fc.property(epochTimeArb, offsetArb, (t, minutes) => {
        // Write t in local time at the given offset, by hand.
        const local = new Date((t.seconds + minutes * 60) * 1000).toISOString().slice(0, 19);
        const sign = minutes < 0 ? "-" : "+";
        const abs = Math.abs(minutes);
        const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
        const fraction = t.nanos ? `.${String(t.nanos).padStart(9, "0")}` : "";
        const year = Number(local.slice(0, 4));
        fc.pre(!local.startsWith("+") && !local.startsWith("-") && year >= 1 && year <= 9999);
        expect(normalizeTimestamp(`${local}${fraction}${offset}`)).toBe(formatTimestamp(t));
      }),
      { numRuns: 1000 },
    );
  });

  it("nanosecond timestamps survive Common JSON and Simple round trips", () => {
    fc.assert(
      fc.property(timestampArb, timestampArb, (session, message) => {
        const t = {
          meta: { id: "s", timestamp: session },
          body: [{ role: "user" as const, content: [], timestamp: message }],
        };
        const viaCommon = readCommon(new Checker("common"), parseJson(renderCommon(t), "common"));
        expect(viaCommon).toEqual(t);
        expect(parseSimple(renderSimple(t))).toEqual(t);
      }),
      { numRuns: 500 },
    );
  });
});
