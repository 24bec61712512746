/**
 * The usage report and price tables without a process: every grouping
 * keeps the totals (fast-check), local days in a zone with DST and a
 * quarter-hour offset, cost from the price table and its name matching,
 * and the shipped table's own validity.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UsageBucket } from "../../src/index/index.js";
import { USAGE_BUCKET_MS } from "../../src/index/index.js";
import {
  costOf,
  type PriceTable,
  parsePriceTable,
  parsePriceText,
  priceFor,
  shippedPrices,
} from "../../src/usage/prices.js";
import { buildReport, GROUPINGS } from "../../src/usage/report.js";

const table: PriceTable = {
  version: 2,
  currency: "USD",
  unit: "per_million_tokens",
  as_of: "2026-01-01",
  models: {
    "m-priced": [{ from: "2025-01-01", input: 1, output: 2, cache_read: 0.1, cache_write: 1.5 }],
    "m-no-cache": [{ from: "2025-01-01", input: 1, output: 2 }],
  },
};

function bucket(over: Partial<UsageBucket>): UsageBucket {
  return {
    harness: "claude_code",
    id: "s1",
    cwd: "/w",
    title: undefined,
    model: "m-priced",
    at: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    messages: 1,
    ...over,
  };
}

const bucketArb = fc.record({
  harness: fc.constantFrom("claude_code", "codex", "antigravity") as fc.Arbitrary<
    UsageBucket["harness"]
  >,
  id: fc.constantFrom("a", "b", "c", "d"),
  cwd: fc.option(fc.constantFrom("/w/x", "/w/y"), { nil: undefined }),
  title: fc.constant(undefined),
  model: fc.option(fc.constantFrom("m-priced", "m-no-cache", "m-unknown"), { nil: undefined }),
  at: fc.integer({ min: 0, max: 4000 }).map((q) => Date.UTC(2026, 0, 1) + q * USAGE_BUCKET_MS),
  input_tokens: fc.nat(1e6),
  output_tokens: fc.nat(1e6),
  cache_read_input_tokens: fc.nat(1e6),
  cache_creation_input_tokens: fc.nat(1e6),
  messages: fc.nat(20),
});

describe("usage report", () => {
  it("every grouping has the same totals, and its groups sum to them", () => {
    fc.assert(
      fc.property(
        fc.array(bucketArb, { maxLength: 60 }),
        fc.constantFrom("UTC", "America/New_York", "Asia/Kathmandu"),
        (buckets, timeZone) => {
          const reports = GROUPINGS.map((by) =>
            buildReport(buckets, { by, prices: table, timeZone }),
          );
          const first = reports[0]!.totals;
          for (const r of reports) {
            expect(r.totals.total_tokens).toBe(first.total_tokens);
            expect(r.totals.messages).toBe(first.messages);
            expect(r.totals.unpriced_tokens).toBe(first.unpriced_tokens);
            expect(r.groups.reduce((a, g) => a + g.total_tokens, 0)).toBe(r.totals.total_tokens);
            expect(r.groups.reduce((a, g) => a + g.messages, 0)).toBe(r.totals.messages);
            if (first.cost === null) expect(r.totals.cost).toBeNull();
            else expect(r.totals.cost).toBeCloseTo(first.cost, 6);
            for (const g of r.groups)
              expect(g.models.reduce((a, m) => a + m.total_tokens, 0)).toBe(g.total_tokens);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("days are local: New York across the DST change, Kathmandu's +05:45", () => {
    // 2026-03-08 07:00Z is 03:00 EDT (clocks jumped at 02:00 EST = 07:00Z); 04:45Z is 23:45 EST on the 7th.
    const ny = buildReport(
      [
        bucket({ at: Date.UTC(2026, 2, 8, 4, 45), input_tokens: 1 }),
        bucket({ at: Date.UTC(2026, 2, 8, 7, 0), input_tokens: 2 }),
      ],
      { by: "day", prices: table, timeZone: "America/New_York" },
    );
    expect(ny.groups.map((g) => [g.key, g.input_tokens])).toEqual([
      ["2026-03-07", 1],
      ["2026-03-08", 2],
    ]);
    // 18:15Z is 00:00 the next day in Kathmandu; 18:00Z is 23:45.
    const ktm = buildReport(
      [
        bucket({ at: Date.UTC(2026, 0, 1, 18, 0), input_tokens: 1 }),
        bucket({ at: Date.UTC(2026, 0, 1, 18, 15), input_tokens: 2 }),
      ],
      { by: "day", prices: table, timeZone: "Asia/Kathmandu" },
    );
    expect(ktm.groups.map((g) => [g.key, g.input_tokens])).toEqual([
      ["2026-01-01", 1],
      ["2026-01-02", 2],
    ]);
    const weeks = buildReport([bucket({ at: Date.UTC(2026, 0, 4, 12) })], {
      by: "week",
      prices: table,
      timeZone: "UTC",
    });
    expect(weeks.groups[0]!.key).toBe("2025-12-29"); // Sunday 2026-01-04 is in the week of Monday 2025-12-29
  });

  it("prices what it knows, blanks the rest, never a near name", () => {
    const r = buildReport(
      [
        bucket({
          model: "m-priced",
          input_tokens: 1e6,
          output_tokens: 1e6,
          cache_read_input_tokens: 1e6,
        }),
        bucket({ model: "m-no-cache", input_tokens: 1e6, cache_creation_input_tokens: 5 }),
        bucket({ model: "m-pricedx", input_tokens: 7 }),
        bucket({ model: undefined, output_tokens: 3 }),
      ],
      { by: "model", prices: table, timeZone: "UTC" },
    );
    const by = Object.fromEntries(r.groups.map((g) => [String(g.key), g]));
    expect(by["m-priced"]!.cost).toBeCloseTo(3.1, 9);
    expect(by["m-no-cache"]!.cost).toBeNull(); // cache writes with no price
    expect(by["m-pricedx"]!.cost).toBeNull();
    expect(by.null!.cost).toBeNull();
    expect(r.totals.cost).toBeCloseTo(3.1, 9);
    expect(r.totals.unpriced_tokens).toBe(1e6 + 5 + 7 + 3);
    expect(priceFor(table, "anthropic/m-priced")).toBe(table.models["m-priced"]?.[0]);
    expect(priceFor(table, "m-priced-20250929")).toBe(table.models["m-priced"]?.[0]);
    expect(priceFor(table, "m-priced-2025")).toBeUndefined();
    expect(priceFor(table, "constructor")).toBeUndefined();
    expect(
      costOf(undefined, { input: 1, output: 0, cache_read: 0, cache_write: 0 }),
    ).toBeUndefined();
  });

  it("the shipped table is valid, dated, and every price names its source", () => {
    const t = shippedPrices();
    expect(t.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [name, periods] of Object.entries(t.models))
      for (const p of periods) {
        expect(p.from, name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(p.source, name).toMatch(/^https:\/\//);
        expect(p.input, name).toBeGreaterThan(0);
        expect(p.output, name).toBeGreaterThan(0);
      }
    expect(priceFor(t, "claude-sonnet-4-5-20250929")?.input).toBe(3);
    // Every model the pinned CLIs default to (docs/cli.md, "Prices").
    for (const m of [
      "claude-opus-5-5",
      "claude-sonnet-4-6",
      "claude-haiku-4-5",
      "gpt-6.1-sol",
      "gemini-2.5-pro",
      "gemini-3-pro-preview",
      "gemini-3-flash-preview",
    ])
      expect(priceFor(t, m), m).toBeDefined();
    // The vendors' list prices (per million tokens) as their model pages give them.
    const opus = priceFor(t, "claude-opus-5-5", Date.UTC(2026, 11, 1));
    expect([opus?.input, opus?.output, opus?.cache_read, opus?.cache_write]).toEqual([
      4, 20, 0.2, 5,
    ]);
    const sol = priceFor(t, "gpt-6.1-sol", Date.UTC(2026, 11, 1));
    expect([sol?.input, sol?.output, sol?.cache_read]).toEqual([2, 10, 0.1]);
    // A Codex turn on gpt-6.1-sol: 1M uncached in, 1M cached in, 100k out.
    expect(costOf(sol, { input: 1e6, cache_read: 1e6, output: 1e5, cache_write: 0 })).toBeCloseTo(
      2 + 0.1 + 1,
      9,
    );
  });

  it("cost is at the rate in force on each message's day", () => {
    const dated: PriceTable = {
      ...table,
      models: {
        m: [
          { from: "2026-03-10", input: 2, output: 8 },
          { from: "2026-01-01", input: 10, output: 40 },
        ],
      },
    };
    const t = parsePriceTable(dated, "t.json");
    const day = (d: string, h = 12) => Date.parse(`${d}T${String(h).padStart(2, "0")}:00:00Z`);
    expect(priceFor(t, "m", day("2025-12-31"))?.input).toBe(10); // before the first: the first
    expect(priceFor(t, "m", day("2026-03-09", 23))?.input).toBe(10);
    expect(priceFor(t, "m", day("2026-03-10", 0))?.input).toBe(2);
    expect(priceFor(t, "m")?.input).toBe(2);
    const r = buildReport(
      [
        bucket({ model: "m", at: day("2026-03-09"), input_tokens: 1e6, output_tokens: 1e6 }),
        bucket({ model: "m", at: day("2026-03-11"), input_tokens: 1e6, output_tokens: 1e6 }),
      ],
      { by: "model", prices: t, timeZone: "UTC" },
    );
    expect(r.totals.cost).toBeCloseTo(10 + 40 + 2 + 8, 9);
  });

  it("reads LiteLLM's model prices (per token), leaving entries without token prices out", () => {
    const t = parsePriceText(
      JSON.stringify({
        sample_spec: { input_cost_per_token: 0, litellm_provider: "one of …" },
        "claude-sonnet-4-6": {
          input_cost_per_token: 3e-6,
          output_cost_per_token: 1.5e-5,
          cache_read_input_token_cost: 3e-7,
          cache_creation_input_token_cost: 3.75e-6,
          litellm_provider: "anthropic",
          supports_vision: true,
        },
        "dall-e": { output_cost_per_image: 0.04, mode: "image_generation" },
      }),
      "/tmp/litellm.json",
    );
    expect(Object.keys(t.models)).toEqual(["claude-sonnet-4-6"]);
    const p = priceFor(t, "claude-sonnet-4-6", Date.UTC(2020, 0, 1));
    expect(p).toMatchObject({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
  });

  it("a malformed table is a one-line ParseError naming the file and where", () => {
    const bad: [string, RegExp][] = [
      ["", /not JSON/],
      ["{", /not JSON/],
      ["[]", /not LiteLLM model prices/],
      ['"prices"', /not LiteLLM model prices/],
      ['{"m": 3}', /not LiteLLM model prices.*m/],
      ['{"m": {"input_cost_per_token": "3e-6"}}', /m\.input_cost_per_token/],
      ['{"m": {"output_cost_per_token": -1}}', /m\.output_cost_per_token/],
    ];
    for (const [text, why] of bad) {
      let caught: unknown;
      try {
        parsePriceText(text, "/tmp/p.json");
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(Error);
      const message = (caught as Error).message;
      expect(message).toContain("/tmp/p.json");
      expect(message).toMatch(why);
      expect(message.split("\n")).toHaveLength(1);
    }
  });
});
