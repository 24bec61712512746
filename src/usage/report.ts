/**
 * The usage report: token buckets (per session, model and quarter hour,
 * from the index) grouped by day, week, month, model, harness, session or
 * cwd, with totals and, where a price is known, cost at the rate in
 * force on each message's day (its quarter hour's UTC day). Pure: buckets and a
 * price table in, the report out (its JSON shape is documented in
 * docs/cli.md). Days, weeks and months are local to `timeZone`.
 */

import type { UsageBucket } from "../index/index.js";
import type { HarnessId } from "../transcript.js";
import { costOf, type PriceTable, priceFor, type Tokens } from "./prices.js";

export const GROUPINGS = ["day", "week", "month", "model", "harness", "session", "cwd"] as const;
export type Grouping = (typeof GROUPINGS)[number];

export function isGrouping(value: string): value is Grouping {
  return GROUPINGS.some((g) => g === value);
}

export interface Counts {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  total_tokens: number;
  messages: number;
  /** USD (the table's currency) of the priced tokens; null when none is priced. */
  cost: number | null;
  /** Tokens of models (or kinds) the table gives no price for: left out of `cost`. */
  unpriced_tokens: number;
}

interface ModelCounts extends Counts {
  model: string | null;
}

export interface Group extends Counts {
  /** The day (YYYY-MM-DD), week (its Monday), month (YYYY-MM), model, harness, cwd or session id. */
  key: string | null;
  sessions: number;
  /** For `--by session`. */
  harness?: HarnessId;
  title?: string | null;
  cwd?: string | null;
  models: ModelCounts[];
}

export interface Report {
  by: Grouping;
  groups: Group[];
  totals: Counts & { sessions: number; models: ModelCounts[] };
}

function zero(): Counts {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    total_tokens: 0,
    messages: 0,
    cost: null,
    unpriced_tokens: 0,
  };
}

/** A bucket's cost at the rate in force on its day, or undefined when not priced. */
type Priced = number | undefined;

function add(into: Counts, b: UsageBucket, cost: Priced): void {
  const total =
    b.input_tokens + b.output_tokens + b.cache_read_input_tokens + b.cache_creation_input_tokens;
  if (cost === undefined) into.unpriced_tokens += total;
  else into.cost = (into.cost ?? 0) + cost;
  into.input_tokens += b.input_tokens;
  into.output_tokens += b.output_tokens;
  into.cache_read_input_tokens += b.cache_read_input_tokens;
  into.cache_creation_input_tokens += b.cache_creation_input_tokens;
  into.total_tokens +=
    b.input_tokens + b.output_tokens + b.cache_read_input_tokens + b.cache_creation_input_tokens;
  into.messages += b.messages;
}

function tokensOf(b: UsageBucket): Tokens {
  return {
    input: b.input_tokens,
    output: b.output_tokens,
    cache_read: b.cache_read_input_tokens,
    cache_write: b.cache_creation_input_tokens,
  };
}

/** The local calendar parts of `ms` in `timeZone`. */
function localParts(ms: number, fmt: Intl.DateTimeFormat): { y: number; m: number; d: number } {
  let y = 0;
  let m = 0;
  let d = 0;
  for (const p of fmt.formatToParts(ms)) {
    if (p.type === "year") y = Number(p.value);
    else if (p.type === "month") m = Number(p.value);
    else if (p.type === "day") d = Number(p.value);
  }
  return { y, m, d };
}

const two = (n: number) => String(n).padStart(2, "0");

function dayKey(p: { y: number; m: number; d: number }): string {
  return `${String(p.y).padStart(4, "0")}-${two(p.m)}-${two(p.d)}`;
}

/** The Monday (ISO week start) of a calendar date, as YYYY-MM-DD. */
function mondayOf(p: { y: number; m: number; d: number }): string {
  const utc = new Date(Date.UTC(p.y, p.m - 1, p.d));
  const back = (utc.getUTCDay() + 6) % 7;
  utc.setUTCDate(utc.getUTCDate() - back);
  return dayKey({ y: utc.getUTCFullYear(), m: utc.getUTCMonth() + 1, d: utc.getUTCDate() });
}

const TIME_GROUPS: ReadonlySet<Grouping> = new Set(["day", "week", "month"]);

export interface ReportOptions {
  by: Grouping;
  prices: PriceTable;
  /** IANA zone for days, weeks and months; default: the process's. */
  timeZone?: string;
}

export function buildReport(buckets: readonly UsageBucket[], options: ReportOptions): Report {
  const { by, prices } = options;
  const fmt = new Intl.DateTimeFormat("en-US", {
    timeZone: options.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  // Local parts per quarter hour are shared by many buckets.
  const partsCache = new Map<number, { y: number; m: number; d: number }>();
  const parts = (at: number) => {
    let p = partsCache.get(at);
    if (p === undefined) {
      p = localParts(at, fmt);
      partsCache.set(at, p);
    }
    return p;
  };
  const keyOf = (b: UsageBucket): string | null => {
    switch (by) {
      case "day":
        return dayKey(parts(b.at));
      case "week":
        return mondayOf(parts(b.at));
      case "month": {
        const p = parts(b.at);
        return `${String(p.y).padStart(4, "0")}-${two(p.m)}`;
      }
      case "model":
        return b.model ?? null;
      case "harness":
        return b.harness;
      case "session":
        return `${b.harness}\u0000${b.id}`;
      case "cwd":
        return b.cwd ?? null;
      default:
        return by satisfies never;
    }
  };

  interface Acc {
    group: Group;
    sessions: Set<string>;
    models: Map<string | null, ModelCounts>;
  }
  const groups = new Map<string | null, Acc>();
  const allSessions = new Set<string>();
  const allModels = new Map<string | null, ModelCounts>();
  const addModel = (models: Map<string | null, ModelCounts>, b: UsageBucket, cost: Priced) => {
    const name = b.model ?? null;
    let mc = models.get(name);
    if (mc === undefined) {
      mc = { model: name, ...zero() };
      models.set(name, mc);
    }
    add(mc, b, cost);
  };
  for (const b of buckets) {
    const key = keyOf(b);
    let acc = groups.get(key);
    if (acc === undefined) {
      const group: Group = { key, sessions: 0, ...zero(), models: [] };
      if (by === "session") {
        group.key = b.id;
        group.harness = b.harness;
        group.title = b.title ?? null;
        group.cwd = b.cwd ?? null;
      }
      acc = { group, sessions: new Set(), models: new Map() };
      groups.set(key, acc);
    }
    const session = `${b.harness}\u0000${b.id}`;
    acc.sessions.add(session);
    allSessions.add(session);
    // Each bucket (a quarter hour) at the price in force on its day.
    const cost = costOf(priceFor(prices, b.model, b.at), tokensOf(b));
    add(acc.group, b, cost);
    addModel(acc.models, b, cost);
    addModel(allModels, b, cost);
  }

  const sortModels = (models: Iterable<ModelCounts>) =>
    [...models].sort(
      (a, b) => b.total_tokens - a.total_tokens || String(a.model).localeCompare(String(b.model)),
    );

  const out: Group[] = [];
  for (const acc of groups.values()) {
    const models = sortModels(acc.models.values());
    acc.group.sessions = acc.sessions.size;
    acc.group.models = models;
    out.push(acc.group);
  }
  if (TIME_GROUPS.has(by)) out.sort((a, b) => String(a.key).localeCompare(String(b.key)));
  else
    out.sort(
      (a, b) =>
        b.total_tokens - a.total_tokens ||
        String(a.key).localeCompare(String(b.key)) ||
        String(a.harness).localeCompare(String(b.harness)),
    );

  const totalModels = sortModels(allModels.values());
  const totals = { ...zero(), sessions: allSessions.size, models: totalModels };
  for (const g of out) {
    totals.input_tokens += g.input_tokens;
    totals.output_tokens += g.output_tokens;
    totals.cache_read_input_tokens += g.cache_read_input_tokens;
    totals.cache_creation_input_tokens += g.cache_creation_input_tokens;
    totals.total_tokens += g.total_tokens;
    totals.messages += g.messages;
    totals.unpriced_tokens += g.unpriced_tokens;
    if (g.cost !== null) totals.cost = (totals.cost ?? 0) + g.cost;
  }
  return { by, groups: out, totals };
}
