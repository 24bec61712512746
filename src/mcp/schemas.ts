/**
 * The input and output schemas of every tool (zod, which the MCP SDK turns
 * into the JSON Schemas clients see and checks every result against).
 * Output field names follow `list --json` (docs/cli.md): snake_case, null
 * when unknown.
 */

import { z } from "zod";
import { ROLES } from "../common.js";
import { KINDS as HIT_KINDS } from "../index/text.js";
import { HARNESS_IDS } from "../transcript.js";
import { READ_FORMATS } from "./pages.js";
import { CHARS_PER_TOKEN } from "./tokens.js";
import { MAX_FRAME } from "./transport.js";

export const LIMITS = {
  listDefault: 50,
  listMax: 500,
  searchDefault: 20,
  searchMax: 200,
  charsDefault: 40_000,
  charsMin: 500,
  charsMax: 1_000_000,
  tokensMin: 100,
  tokensMax: 250_000,
  queryMax: 10_000,
} as const;

const harness = z.enum(HARNESS_IDS);
/** What `role` takes: where a hit may be, as `query --role`. */
const ROLE_CHOICES = [...HIT_KINDS, "tool"] as const;
const cursor = z
  .string()
  .max(100_000)
  .describe("the next_cursor of a previous call, to continue where it stopped");
const timeBound = (which: string) =>
  z
    .string()
    .max(100)
    .describe(
      `only sessions last active ${which}: an RFC 3339 time, a date (2026-11-30) or an age (3d, 12h, 30m)`,
    );
const sessionRef = z
  .string()
  .min(1)
  .max(4096)
  .describe(
    "a session id or unique id prefix, optionally with a message range: #7, #5-12, #5-, #-10",
  );
const maxChars = z
  .number()
  .int()
  .min(LIMITS.charsMin)
  .max(LIMITS.charsMax)
  .describe(
    `at most this many characters of text in this call (default ${LIMITS.charsDefault}); the rest comes with next_cursor`,
  );

const maxTokens = z
  .number()
  .int()
  .min(LIMITS.tokensMin)
  .max(LIMITS.tokensMax)
  .describe(
    `at most this many estimated tokens of text in this call (one per ${CHARS_PER_TOKEN} ASCII characters, one per other character: errs high); with max_chars, both hold`,
  );

// ---------------------------------------------------------------------------
// Inputs (raw shapes, as the SDK takes them)

const redactFlag = z
  .boolean()
  .optional()
  .describe(
    "replace secrets, e-mail addresses, the home path and the user name, as `txcript view --redact` does (a server started with --redact always does)",
  );

/** An optional page size of 1..max, described with its default. */
function pageSize(max: number, fallback: number, what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .describe(`${what} per page (default ${fallback})`);
}

export const listInput = {
  harness: harness.optional().describe("only this harness"),
  cwd: z.string().max(4096).optional().describe("only sessions in this directory or below it"),
  since: timeBound("at or after this").optional(),
  until: timeBound("before this").optional(),
  limit: pageSize(LIMITS.listMax, LIMITS.listDefault, "sessions"),
  cursor: cursor.optional(),
  redact: redactFlag,
};

export const searchInput = {
  query: z
    .string()
    .min(1)
    .max(LIMITS.queryMax)
    .describe('words (whole words, any case), "a phrase", prefix*, -excluded'),
  harness: listInput.harness,
  cwd: listInput.cwd,
  since: listInput.since,
  until: listInput.until,
  role: z
    .union([z.enum(ROLE_CHOICES), z.array(z.enum(ROLE_CHOICES)).min(1).max(ROLE_CHOICES.length)])
    .optional()
    .describe(
      `only hits in these places, as \`txcript query --role\`: ${ROLE_CHOICES.join(", ")} (tool is both tool kinds)`,
    ),
  limit: pageSize(LIMITS.searchMax, LIMITS.searchDefault, "hits"),
  cursor: cursor.optional(),
  redact: redactFlag,
};

export const readInput = {
  session: sessionRef.optional().describe(`${sessionRef.description}; not needed with cursor`),
  harness: harness.optional().describe("look the id up in this harness only"),
  format: z
    .enum(READ_FORMATS)
    .optional()
    .describe("text (default, as `txcript view` prints), markdown, or json (Common JSON)"),
  max_chars: maxChars.optional(),
  max_tokens: maxTokens.optional(),
  cursor: cursor.optional(),
  redact: redactFlag.describe(
    "replace secrets, e-mail addresses, the home path and the user name, as `txcript view --redact` does; a cursor from a redacted call stays redacted (a server started with --redact always redacts)",
  ),
};

export const exportInput = {
  session: readInput.session,
  harness: readInput.harness,
  max_chars: maxChars.optional(),
  max_tokens: maxTokens.optional(),
  cursor: cursor.optional(),
  redact: redactFlag.describe(
    "replace secrets, e-mail addresses, the home path and the user name, as `txcript view --redact` does; a cursor from a redacted call stays redacted (a server started with --redact always redacts)",
  ),
};

export const continueInput = {
  session: sessionRef.optional().describe(`${sessionRef.description}; or give document`),
  document: z
    .string()
    // Each character may take up to 6 bytes in a JSON frame (\u escapes): what the transport carries, with room for the rest of the request.
    .max(Math.floor((MAX_FRAME - 1024 * 1024) / 6))
    .optional()
    .describe("a Simple document (docs/formats/simple.md) to continue instead of a stored session"),
  harness: readInput.harness,
  with: harness
    .optional()
    .describe("the harness to continue in (default: the session's own; required for a document)"),
  surface: z
    .enum(["cli", "desktop"])
    .optional()
    .describe("antigravity only: write for agy's CLI (default) or the Antigravity desktop app"),
};

// ---------------------------------------------------------------------------
// Outputs

export const sessionRecord = z.object({
  id: z.string(),
  harness,
  uri: z.string().describe("the session as an MCP resource"),
  created: z.string(),
  updated: z.string(),
  message_count: z.number().int().min(0),
  title: z.string().nullable(),
  cwd: z.string().nullable(),
  git_branch: z.string().nullable(),
  model: z.string().nullable(),
  path: z.string(),
  lane: z.string().nullable(),
  status: z.string().nullable(),
  running: z.boolean(),
  parent_id: z.string().nullable(),
  forked_from: z.string().nullable(),
  forked_from_harness: z.string().nullable(),
});

const skipped = z.object({ harness, path: z.string(), reason: z.string() });

export const listOutput = z.object({
  sessions: z.array(sessionRecord),
  next_cursor: z.string().nullable(),
  skipped: z.array(skipped).describe("files a store could not read (at most 50 shown)"),
  skipped_count: z.number().int().min(0),
});

export const searchOutput = z.object({
  hits: z.array(
    z.object({
      harness,
      id: z.string(),
      uri: z.string(),
      ref: z.string().describe("pass to read_session to open the spot: <id>#<message>"),
      title: z.string().nullable(),
      cwd: z.string().nullable(),
      updated: z.string(),
      message: z.number().int().min(1).nullable().describe("1-based, null for a title hit"),
      role: z
        .enum(ROLES)
        .nullable()
        .describe("who wrote it, where the place says (null for tool output and session fields)"),
      where: z.enum(HIT_KINDS),
      snippet: z.string(),
      highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
      score: z
        .number()
        .describe("higher is better: with the index, bm25 negated (query --json prints bm25)"),
    }),
  ),
  total: z.number().int().min(0),
  unreadable: z.number().int().min(0),
  next_cursor: z.string().nullable(),
  engine: z
    .enum(["scan", "index"])
    .describe("index: the persistent index, as txcript query; scan: the fallback when it failed"),
});

/** A paged read's or export's redaction count (the same in every page). */
const redactedCount = z
  .number()
  .int()
  .min(0)
  .nullable()
  .describe("how many things were redacted in the whole session; null when not redacted");

export const readOutput = z.object({
  harness,
  id: z.string(),
  title: z.string().nullable(),
  format: z.enum(READ_FORMATS),
  total_messages: z.number().int().min(0),
  selection: z
    .object({ from: z.number().int(), to: z.number().int() })
    .describe("the 1-based messages read, inclusive (from > to when there are none)"),
  first_message: z.number().int().min(1).nullable(),
  last_message: z.number().int().min(1).nullable(),
  text: z.string(),
  chars: z.number().int().min(0).describe("characters in text"),
  estimated_tokens: z.number().int().min(0).describe("the token estimate of text"),
  cut_message: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe("the message this page ends inside of, because it alone exceeds the budget"),
  continued_message: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe("the message this page starts inside of, cut on the previous page"),
  next_cursor: z.string().nullable(),
  changed: z
    .boolean()
    .describe("the session changed on disk since the cursor was issued; numbering is unchanged"),
  redacted: redactedCount,
});

export const exportOutput = z.object({
  harness,
  id: z.string(),
  format: z.literal("simple"),
  offset: z.number().int().min(0),
  total_chars: z.number().int().min(0),
  estimated_tokens: z.number().int().min(0).describe("the token estimate of text"),
  text: z.string(),
  next_cursor: z.string().nullable(),
  redacted: redactedCount,
});

export const continueOutput = z.object({
  harness,
  id: z.string(),
  path: z.string(),
  files: z.array(z.string()),
  source: z.object({ harness, id: z.string() }).nullable(),
  resume: z
    .object({ argv: z.array(z.string()), cwd: z.string().nullable(), command: z.string() })
    .nullable(),
});
