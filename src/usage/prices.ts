/**
 * Price tables: the one shipped in the package (./prices.json, per model
 * and token kind, with its date and sources) or one the user supplies,
 * validated, and the cost of a token count under one. A model the table
 * does not name, or a token kind it gives no price for, has no cost: the
 * report leaves it blank rather than guess.
 */

import { z } from "zod";
import { ParseError } from "../errors.js";
import shipped from "./prices.json" with { type: "json" };

/** The four token kinds Common counts, as the price table names them. */
const TOKEN_KINDS = ["input", "output", "cache_read", "cache_write"] as const;
type TokenKind = (typeof TOKEN_KINDS)[number];

const price = z.number().finite().nonnegative();

const ModelPrice = z.strictObject({
  input: price.optional(),
  output: price.optional(),
  cache_read: price.optional(),
  cache_write: price.optional(),
  source: z.string().optional(),
  note: z.string().optional(),
});

const PriceTableSchema = z.strictObject({
  version: z.literal(1),
  currency: z.string().min(1),
  unit: z.literal("per_million_tokens"),
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "as_of must be a date YYYY-MM-DD"),
  note: z.string().optional(),
  models: z.record(z.string().min(1), ModelPrice),
});

export type PriceTable = z.infer<typeof PriceTableSchema>;
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Token counts by kind. */
export type Tokens = Record<TokenKind, number>;

/**
 * Validate a parsed price table; `file` names it in the one-line error.
 * The first problem found is the one reported, with where it is.
 */
function parsePriceTable(value: unknown, file: string): PriceTable {
  const result = PriceTableSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const at = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : undefined;
  throw new ParseError(undefined, `not a price table: ${issue?.message ?? "invalid"}`, {
    file,
    at,
  });
}

/** Parse the text of a price table file (JSON). */
export function parsePriceText(text: string, file: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ParseError(undefined, `not JSON: ${why}`, { file, cause });
  }
  return parsePriceTable(value, file);
}

/** The table shipped with txcript. */
export function shippedPrices(): PriceTable {
  return parsePriceTable(shipped, "prices.json");
}

/**
 * The table's entry for a model as a harness names it: the exact name,
 * else without a `provider/` prefix, else without a trailing release date
 * (`claude-sonnet-4-5-20250929`). Nothing looser: a near name is not the
 * same price.
 */
export function priceFor(table: PriceTable, model: string | undefined): ModelPrice | undefined {
  if (model === undefined || model === "") return undefined;
  const candidates = [model];
  const bare = model.includes("/") ? model.slice(model.lastIndexOf("/") + 1) : model;
  candidates.push(bare);
  candidates.push(bare.replace(/-\d{8}$/, ""));
  for (const name of candidates) {
    const hit = Object.hasOwn(table.models, name) ? table.models[name] : undefined;
    if (hit) return hit;
  }
  return undefined;
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
