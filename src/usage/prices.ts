/**
 * Price tables by date: the one shipped in the package (./prices.json: per
 * model, the prices in force from each date, with their sources) and one
 * the user supplies in LiteLLM's model-price JSON (the format ccusage
 * reads), validated, and the cost of a token count at the rate in force
 * on a message's day. A model the table does not name, or a token kind it
 * gives no price for, has no cost: the report leaves it blank rather than
 * guess.
 */

import { z } from "zod";
import { ParseError } from "../errors.js";
import shipped from "./prices.json" with { type: "json" };

/** The four token kinds Common counts, as the price table names them. */
const TOKEN_KINDS = ["input", "output", "cache_read", "cache_write"] as const;
type TokenKind = (typeof TOKEN_KINDS)[number];

const price = z.number().finite().nonnegative();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");

/** One model's prices (per million tokens) from a day (UTC) until the next period's. */
const Period = z.strictObject({
  from: day,
  input: price.optional(),
  output: price.optional(),
  cache_read: price.optional(),
  cache_write: price.optional(),
  source: z.string().optional(),
  note: z.string().optional(),
});

const PriceTableSchema = z.strictObject({
  version: z.literal(2),
  currency: z.string().min(1),
  unit: z.literal("per_million_tokens"),
  as_of: day,
  note: z.string().optional(),
  models: z.record(z.string().min(1), z.array(Period).min(1)),
});

export type PriceTable = z.infer<typeof PriceTableSchema>;
export type ModelPrice = z.infer<typeof Period>;

/** Token counts by kind. */
export type Tokens = Record<TokenKind, number>;

function fail(error: z.ZodError, file: string, what: string): never {
  const issue = error.issues[0];
  const at = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : undefined;
  throw new ParseError(undefined, `not ${what}: ${issue?.message ?? "invalid"}`, { file, at });
}

/** Validate a parsed txcript price table; periods sorted oldest first. */
export function parsePriceTable(value: unknown, file: string): PriceTable {
  const result = PriceTableSchema.safeParse(value);
  if (!result.success) fail(result.error, file, "a price table");
  for (const periods of Object.values(result.data.models))
    periods.sort((a, b) => a.from.localeCompare(b.from));
  return result.data;
}

/** The table shipped with txcript. */
export function shippedPrices(): PriceTable {
  return parsePriceTable(shipped, "prices.json");
}

/**
 * LiteLLM's model_prices_and_context_window.json: an object of models,
 * each with USD per token. Only the four prices txcript counts are read
 * (other fields pass); each, when present, must be a non-negative number.
 */
const perToken = z.number().finite().nonnegative().optional();
const LiteLlmEntry = z.looseObject({
  input_cost_per_token: perToken,
  output_cost_per_token: perToken,
  cache_read_input_token_cost: perToken,
  cache_creation_input_token_cost: perToken,
});
const LiteLlmSchema = z.record(z.string().min(1), LiteLlmEntry);

/** USD per token to per million, rounded off the float noise (3e-6 * 1e6 is 2.9999999999999996). */
const perMillion = (v: number | undefined) =>
  v === undefined ? undefined : Math.round(v * 1e6 * 1e9) / 1e9;

/**
 * Read LiteLLM's model-price JSON into a table whose prices are in force on
 * every day (LiteLLM's file has no dates). Entries with no token price
 * (LiteLLM's `sample_spec`, image models) are left out.
 */
function parseLiteLlm(value: unknown, file: string): PriceTable {
  const result = LiteLlmSchema.safeParse(value);
  if (!result.success) fail(result.error, file, "LiteLLM model prices");
  const models: PriceTable["models"] = {};
  for (const [name, e] of Object.entries(result.data)) {
    if (name === "sample_spec") continue;
    const p: ModelPrice = { from: "0001-01-01", source: file };
    const kinds: [TokenKind, number | undefined][] = [
      ["input", e.input_cost_per_token],
      ["output", e.output_cost_per_token],
      ["cache_read", e.cache_read_input_token_cost],
      ["cache_write", e.cache_creation_input_token_cost],
    ];
    for (const [kind, v] of kinds) {
      const m = perMillion(v);
      if (m !== undefined) p[kind] = m;
    }
    if (p.input === undefined && p.output === undefined) continue;
    models[name] = [p];
  }
  const today = new Date().toISOString().slice(0, 10);
  return { version: 2, currency: "USD", unit: "per_million_tokens", as_of: today, models };
}

/** Parse the text of a `--prices` file (LiteLLM's JSON). */
export function parsePriceText(text: string, file: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new ParseError(undefined, `not JSON: ${why}`, { file, cause });
  }
  return parseLiteLlm(value, file);
}

/** `over`'s models replace `base`'s of the same name. */
export function overlay(base: PriceTable, over: PriceTable): PriceTable {
  return { ...base, models: { ...base.models, ...over.models } };
}

/**
 * The table's periods for a model as a harness names it: the exact name,
 * else without a `provider/` prefix, else without a trailing release date
 * (`claude-sonnet-4-5-20250929`). Nothing looser: a near name is not the
 * same price.
 */
function periodsFor(table: PriceTable, model: string | undefined): ModelPrice[] | undefined {
  if (model === undefined || model === "") return undefined;
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  for (const name of [model, bare, bare.replace(/-\d{8}$/, "")]) {
    const hit = Object.hasOwn(table.models, name) ? table.models[name] : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The price in force for `model` at `atMs` (ms since the epoch; its UTC
 * day): the latest period from that day or before, else the first.
 * Without `atMs`, the latest.
 */
export function priceFor(
  table: PriceTable,
  model: string | undefined,
  atMs?: number,
): ModelPrice | undefined {
  const periods = periodsFor(table, model);
  if (periods === undefined) return undefined;
  if (atMs === undefined) return periods.at(-1);
  const d = new Date(atMs).toISOString().slice(0, 10);
  let hit = periods[0];
  for (const p of periods) if (p.from <= d) hit = p;
  return hit;
}

/**
 * The cost of `tokens` at `entry`'s prices, or undefined when the model
 * has no entry or a kind with tokens has no price.
 */
export function costOf(entry: ModelPrice | undefined, tokens: Tokens): number | undefined {
  if (entry === undefined) return undefined;
  let sum = 0;
  for (const kind of TOKEN_KINDS) {
    const n = tokens[kind];
    if (n === 0) continue;
    const p = entry[kind];
    if (p === undefined) return undefined;
    sum += (n * p) / 1_000_000;
  }
  return sum;
}
