/**
 * txcript usage: tokens (input, output, cache read, cache write), model
 * responses and cost per day, week, month, model, harness, session or cwd,
 * with totals, over every harness's sessions. Served from the index
 * (refreshed by fingerprint first). Prices come from the dated table
 * shipped in the package, with `--prices FILE` (LiteLLM's model-price
 * JSON) over it; a model without a price shows its tokens with the cost
 * blank and is named under the table. `--json` schema: docs/cli.md.
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Table from "cli-table3";
import { type Command, InvalidArgumentError } from "commander";
import { describeCause, StoreError } from "../../errors.js";
import { shortener } from "../../id-forms.js";
import type { UsageFilter } from "../../index/index.js";
import { assignDefined } from "../../json.js";
import { timestampFromMillis } from "../../time.js";
import type { HarnessId } from "../../transcript.js";
import { overlay, type PriceTable, parsePriceText, shippedPrices } from "../../usage/prices.js";
import {
  buildReport,
  type Counts,
  GROUPINGS,
  type Group,
  type Grouping,
  isGrouping,
  type Report,
} from "../../usage/report.js";
import { addArchiveOptions } from "../archive.js";
import { reportSkipped } from "../cache.js";
import { fitWidth } from "../columns.js";
import { tildify } from "../list-table.js";
import { parseHarness, parseSince, parseUntil } from "../options.js";
import { colorEnabled, painter, tell } from "../output.js";
import { forTerminal } from "../sanitize.js";
import { withSessions } from "../sessions.js";

interface UsageOptions {
  from?: HarnessId;
  cwd?: string;
  since?: number;
  until?: number;
  by: Grouping;
  json?: boolean;
  prices?: string;
  verbose?: boolean;
}

function parseGrouping(value: string): Grouping {
  if (!isGrouping(value))
    throw new InvalidArgumentError(`unknown grouping "${value}" (one of: ${GROUPINGS.join(", ")})`);
  return value;
}

/** The price table: the shipped one, with the user's file (validated) over it. */
function loadPrices(file: string | undefined): { table: PriceTable; file: string | null } {
  if (file === undefined) return { table: shippedPrices(), file: null };
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new StoreError(undefined, `cannot read the price table: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
  return { table: overlay(shippedPrices(), parsePriceText(text, path)), file: path };
}

const number = (n: number) => n.toLocaleString("en-US");

function money(c: Counts, currency: string): string {
  if (c.cost === null) return "";
  const sign = currency === "USD" ? "$" : `${currency} `;
  return `${sign}${c.cost.toFixed(2)}${c.unpriced_tokens > 0 ? "*" : ""}`;
}

const HEADINGS: Record<Grouping, string> = {
  day: "Day",
  week: "Week of",
  month: "Month",
  model: "Model",
  harness: "Harness",
  session: "Session",
  cwd: "Directory",
};

function keyCell(g: Group, by: Grouping, short: (id: string) => string): string {
  if (by === "session") {
    const title = (g.title ?? "(untitled)").replace(/\s+/g, " ").trim();
    return forTerminal(`${short(String(g.key))} ${g.harness} ${fitWidth(title, 30)}`);
  }
  if (g.key === null) return by === "model" ? "(unknown model)" : "(none)";
  if (by === "cwd") return forTerminal(fitWidth(tildify(g.key), 50));
  return forTerminal(g.key);
}

/** The terminal table: one row per group, a totals row, and a note when some cost is partial. */
export function renderUsageTable(report: Report, currency: string, color: boolean): string {
  const paint = painter(color);
  const table = new Table({
    head: [
      HEADINGS[report.by],
      "Input",
      "Output",
      "Cache read",
      "Cache write",
      "Total",
      "Responses",
      "Cost",
    ].map((h) => paint.bold(h)),
    colAligns: ["left", "right", "right", "right", "right", "right", "right", "right"],
    style: { head: [], border: [], compact: true },
  });
  const row = (label: string, c: Counts) => [
    label,
    number(c.input_tokens),
    number(c.output_tokens),
    number(c.cache_read_input_tokens),
    number(c.cache_creation_input_tokens),
    number(c.total_tokens),
    number(c.messages),
    money(c, currency),
  ];
  // Session ids as short as they stay apart in this table, so each one opens.
  const short = shortener(report.groups.map((g) => String(g.key)));
  for (const g of report.groups) table.push(row(keyCell(g, report.by, short), g));
  table.push(
    row(paint.bold("Total"), report.totals).map((cell, i) => (i === 0 ? cell : paint.bold(cell))),
  );
  let text = `${table.toString()}\n`;
  const unpriced = report.totals.models.filter((m) => m.unpriced_tokens > 0);
  if (unpriced.length > 0) {
    const names = unpriced
      .map((m) => `${m.model ?? "(unknown model)"} (${number(m.unpriced_tokens)})`)
      .join(", ");
    const mark = report.totals.cost !== null ? "* " : "";
    text += paint.dim(
      forTerminal(
        `${mark}cost leaves out ${number(report.totals.unpriced_tokens)} tokens with no known price: ${names}`,
      ),
    );
    text += "\n";
  }
  return text;
}

function countsJson(c: Counts): Record<string, unknown> {
  return {
    input_tokens: c.input_tokens,
    output_tokens: c.output_tokens,
    cache_read_input_tokens: c.cache_read_input_tokens,
    cache_creation_input_tokens: c.cache_creation_input_tokens,
    total_tokens: c.total_tokens,
    messages: c.messages,
    cost: c.cost,
    unpriced_tokens: c.unpriced_tokens,
  };
}

/** The `--json` document (schema version 1, docs/cli.md). */
export function usageJson(
  report: Report,
  context: {
    since: number | undefined;
    until: number | undefined;
    timeZone: string;
    prices: { table: PriceTable; file: string | null };
    unread: number;
    skipped: { harness: HarnessId; path: string; reason: string }[];
  },
): Record<string, unknown> {
  const models = (list: Report["totals"]["models"]) =>
    list.map((m) => ({ model: m.model, ...countsJson(m) }));
  return {
    version: 1,
    by: report.by,
    since: context.since !== undefined ? timestampFromMillis(context.since) : null,
    until: context.until !== undefined ? timestampFromMillis(context.until) : null,
    time_zone: context.timeZone,
    prices: {
      file: context.prices.file,
      as_of: context.prices.table.as_of,
      currency: context.prices.table.currency,
    },
    groups: report.groups.map((g) => {
      const out: Record<string, unknown> = { key: g.key };
      if (report.by === "session") {
        out.harness = g.harness;
        out.title = g.title ?? null;
        out.cwd = g.cwd ?? null;
      }
      return { ...out, sessions: g.sessions, ...countsJson(g), models: models(g.models) };
    }),
    totals: {
      sessions: report.totals.sessions,
      ...countsJson(report.totals),
      models: models(report.totals.models),
    },
    unread_sessions: context.unread,
    skipped: context.skipped,
  };
}

export function register(program: Command): void {
  addArchiveOptions(program.command("usage"))
    .description("tokens and cost per day, week, month, model, harness, session or directory")
    .option(
      "--by <grouping>",
      `group by: ${GROUPINGS.join(", ")}`,
      parseGrouping,
      "day" satisfies Grouping,
    )
    .option("--from <harness>", "only this harness", parseHarness)
    .option("--cwd <dir>", "only sessions in this directory or below")
    .option(
      "--since <when>",
      "only messages since: an age (3d, 12h), a date or a timestamp",
      parseSince,
    )
    .option(
      "--until <when>",
      "only messages until: an age, a date (that whole day) or a timestamp",
      parseUntil,
    )
    .option(
      "--prices <file>",
      "model prices in LiteLLM's JSON (model_prices_and_context_window.json), over the shipped table",
    )
    .option("--json", "print JSON (schema: docs/cli.md)")
    .option("-v, --verbose", "say why each skipped file was skipped")
    .action(async (options: UsageOptions, command: Command) => {
      // The price table first: a bad file fails before any store is read.
      const prices = loadPrices(options.prices);
      const filter: UsageFilter = {};
      assignDefined(filter, "from", options.from);
      if (options.cwd !== undefined) filter.cwd = resolve(options.cwd);
      assignDefined(filter, "since", options.since);
      assignDefined(filter, "until", options.until);
      const {
        buckets,
        unread,
        refreshed: result,
      } = await withSessions(command, (sessions, progress) => sessions.usage(filter, progress));
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const report = buildReport(buckets, { by: options.by, prices: prices.table, timeZone });
      if (options.json) {
        const doc = usageJson(report, {
          since: options.since,
          until: options.until,
          timeZone,
          prices,
          unread,
          skipped: [...result.unreadable, ...result.skipped].map((s) => ({
            harness: s.harness,
            path: s.path,
            reason: s.reason,
          })),
        });
        process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      } else if (report.groups.length === 0) {
        tell("no usage found\n");
      } else {
        process.stdout.write(
          renderUsageTable(
            report,
            prices.table.currency,
            colorEnabled(process.stdout, process.env),
          ),
        );
      }
      if (unread > 0)
        tell(
          `txcript: warning: ${unread} session${unread === 1 ? "" : "s"} could not be read; their usage is not counted\n`,
        );
      reportSkipped(result, options.verbose);
    });
}
