/**
 * The OpenCode text codec: the document `opencode export <id>` prints and
 * `opencode import <file>` reads, `{info, messages: [{info, parts}]}`.
 * `info` is the session (OpenCode's `Session.Info`, camelCase), each
 * message's `info` is its `data` column plus `id` and `sessionID`, and each
 * part is its `data` column plus `id`, `sessionID` and `messageID`
 * (packages/opencode/src/cli/cmd/export.ts, import.ts; observed with
 * OpenCode 1.18.33). Rendering a Body gives that document as OpenCode
 * prints it (two-space JSON and a newline); parsing one gives the rows an
 * import would insert. No I/O.
 */

import type { Meta } from "../../../common.js";
import { isJsonObject, type Json, type JsonObject } from "../../../common.js";
import { ParseError } from "../../../errors.js";
import { assignDefined, jsonFromText, parseJson } from "../../../json.js";
import { firstKey } from "../../../sniff.js";
import { firstPromptTitle, nonEmpty } from "../../../strings.js";
import { EPOCH, type Timestamp, timestampFromMillis } from "../../../time.js";
import type { Recognized, Sample, TextCodec, Transcript } from "../../../transcript.js";
import { str } from "../fields.js";
import {
  GLOBAL_PROJECT,
  num,
  type OpenCodeBody,
  type OpenCodeMessage,
  type Row,
  readData,
  text,
} from "./body.js";
import type { OpenCodeFamily } from "./flavor.js";

// ---------------------------------------------------------------------------
// Session metadata (shared by the codec and the store)

/** OpenCode's default titles: read as no title at all. */
const DEFAULT_TITLE = /^(New session|Child session) - \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function at(ms: number | undefined, fallback: Timestamp): Timestamp {
  return ms === undefined ? fallback : timestampFromMillis(Math.trunc(ms));
}

/** Session metadata from the session row; `prompt` titles a session OpenCode left at its default title. */
export function metaFromSession(session: Row, firstModel?: string, prompt?: string): Meta {
  const meta: Meta = {
    id: text(session, "id") ?? "",
    timestamp: at(num(session, "time_created"), EPOCH),
  };
  assignDefined(meta, "cwd", nonEmpty(text(session, "directory")));
  const title = nonEmpty(text(session, "title"));
  if (title !== undefined && !DEFAULT_TITLE.test(title)) meta.title = title;
  else assignDefined(meta, "title", prompt);
  assignDefined(meta, "cli_version", nonEmpty(text(session, "version")));
  const model = text(session, "model");
  if (model !== undefined) {
    try {
      const parsed: unknown = JSON.parse(model);
      if (isJsonObject(parsed)) assignDefined(meta, "model", nonEmpty(str(parsed, "id")));
    } catch {
      // A damaged model column costs the session its model, nothing else.
    }
  }
  if (meta.model === undefined) assignDefined(meta, "model", firstModel);
  return meta;
}

/** The first assistant message's model: the session's when its row names none. */
export function firstModel(body: OpenCodeBody): string | undefined {
  for (const m of body.messages) {
    const info = readData(m.row);
    if (info?.role === "assistant") {
      const model = nonEmpty(str(info, "modelID"));
      if (model !== undefined) return model;
    }
  }
  return undefined;
}

/** Whether a session title is OpenCode's own default (or none): a session nobody named. */
export function isDefaultTitle(title: string | undefined): boolean {
  return title === undefined || title === "" || DEFAULT_TITLE.test(title);
}

/** The first user prompt's text parts, as a title (what toCommon's text blocks give). */
export function promptOf(body: OpenCodeBody): string | undefined {
  function* users() {
    for (const m of body.messages) {
      if (readData(m.row)?.role !== "user") continue;
      yield m.parts.flatMap((p) => {
        const data = readData(p);
        return data?.type === "text" && typeof data.text === "string" ? [data.text] : [];
      });
    }
  }
  return firstPromptTitle(users());
}

/** A JSON column's value, or undefined when it is NULL or not JSON. */
function jsonColumn(row: Row, column: string): Json | undefined {
  const v = text(row, column);
  if (v === undefined) return undefined;
  try {
    return jsonFromText(v);
  } catch {
    return undefined;
  }
}

function put(out: JsonObject, key: string, value: Json | undefined): void {
  if (value !== undefined && value !== null) out[key] = value;
}

function value(row: Row, column: string): Json | undefined {
  const v = row[column];
  if (typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return undefined;
}

/** The plain `columns` of a row under their keys, in the order given; a NULL one is left out. */
function columns(row: Row, keys: Readonly<Record<string, string>>): JsonObject {
  const out: JsonObject = {};
  for (const [key, column] of Object.entries(keys)) put(out, key, value(row, column));
  return out;
}

/** The session row as OpenCode's `Session.Info`, in the key order `opencode export` prints. */
function sessionInfo(row: Row): JsonObject {
  const info: JsonObject = {};
  put(info, "id", value(row, "id"));
  put(info, "slug", value(row, "slug"));
  put(info, "projectID", value(row, "project_id"));
  put(info, "workspaceID", value(row, "workspace_id"));
  put(info, "directory", value(row, "directory"));
  put(info, "path", value(row, "path"));
  put(info, "parentID", value(row, "parent_id"));
  const share = value(row, "share_url");
  if (share !== undefined) info.share = { url: share };
  put(info, "title", value(row, "title"));
  put(info, "agent", value(row, "agent"));
  put(info, "model", jsonColumn(row, "model"));
  put(info, "version", value(row, "version"));
  const summary = columns(row, {
    additions: "summary_additions",
    deletions: "summary_deletions",
    files: "summary_files",
  });
  put(summary, "diffs", jsonColumn(row, "summary_diffs"));
  if (Object.keys(summary).length > 0) info.summary = summary;
  put(info, "cost", value(row, "cost"));
  info.tokens = {
    input: value(row, "tokens_input") ?? 0,
    output: value(row, "tokens_output") ?? 0,
    reasoning: value(row, "tokens_reasoning") ?? 0,
    cache: {
      read: value(row, "tokens_cache_read") ?? 0,
      write: value(row, "tokens_cache_write") ?? 0,
    },
  };
  put(info, "permission", jsonColumn(row, "permission"));
  put(info, "revert", jsonColumn(row, "revert"));
  put(info, "metadata", jsonColumn(row, "metadata"));
  info.time = columns(row, {
    created: "time_created",
    updated: "time_updated",
    compacting: "time_compacting",
    archived: "time_archived",
  });
  return info;
}

/** The export document of a Body. Rows whose `data` is not a JSON object are left out. */
function exportDocument(body: OpenCodeBody): JsonObject {
  const sessionId = text(body.session, "id") ?? "";
  const messages: Json[] = [];
  for (const m of body.messages) {
    const data = readData(m.row);
    if (data === undefined) continue;
    const id = text(m.row, "id") ?? "";
    const parts: Json[] = [];
    for (const p of m.parts) {
      const part = readData(p);
      if (part === undefined) continue;
      parts.push({ ...part, id: text(p, "id") ?? "", sessionID: sessionId, messageID: id });
    }
    messages.push({ info: { ...data, id, sessionID: sessionId }, parts });
  }
  return { info: sessionInfo(body.session), messages };
}

// ---------------------------------------------------------------------------
// Parsing

class Reader {
  constructor(
    private readonly harness: OpenCodeFamily,
    private readonly origin: string | undefined,
  ) {}
  fail(detail: string, at: string): never {
    throw new ParseError(this.harness, detail, { file: this.origin, at });
  }
  object(v: unknown, at: string): JsonObject {
    if (!isJsonObject(v)) return this.fail("expected an object", at);
    return v;
  }
  array(v: unknown, at: string): Json[] {
    if (!Array.isArray(v)) return this.fail("expected an array", at);
    return v;
  }
  id(o: JsonObject, at: string): string {
    const v = o.id;
    if (typeof v !== "string" || v === "") this.fail("expected a non-empty string id", `${at}.id`);
    return v;
  }
}

function jsonText(v: Json | undefined): string | null {
  return v === undefined || v === null ? null : JSON.stringify(v);
}
function sql(v: Json | undefined): string | number | null {
  return typeof v === "string" || typeof v === "number" ? v : null;
}
function ms(v: Json | undefined): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The session row `opencode import` would insert for an export's `info` (column order as 1.18.33's). */
export function sessionRow(info: JsonObject, id: string): Row {
  const o = (v: Json | undefined) => (isJsonObject(v) ? v : {});
  const summary = o(info.summary);
  const tokens = o(info.tokens);
  const cache = o(tokens.cache);
  const time = o(info.time);
  return {
    id,
    project_id: typeof info.projectID === "string" ? info.projectID : GLOBAL_PROJECT,
    workspace_id: sql(info.workspaceID),
    parent_id: sql(info.parentID),
    slug: typeof info.slug === "string" ? info.slug : "",
    directory: typeof info.directory === "string" ? info.directory : "",
    path: sql(info.path),
    title: typeof info.title === "string" ? info.title : "",
    version: typeof info.version === "string" ? info.version : "",
    share_url: sql(o(info.share).url),
    summary_additions: sql(summary.additions),
    summary_deletions: sql(summary.deletions),
    summary_files: sql(summary.files),
    summary_diffs: jsonText(summary.diffs),
    metadata: jsonText(info.metadata),
    cost: ms(info.cost) ?? 0,
    tokens_input: ms(tokens.input) ?? 0,
    tokens_output: ms(tokens.output) ?? 0,
    tokens_reasoning: ms(tokens.reasoning) ?? 0,
    tokens_cache_read: ms(cache.read) ?? 0,
    tokens_cache_write: ms(cache.write) ?? 0,
    revert: jsonText(info.revert),
    permission: jsonText(info.permission),
    agent: sql(info.agent),
    model: jsonText(info.model),
    time_created: ms(time.created) ?? 0,
    time_updated: ms(time.updated) ?? ms(time.created) ?? 0,
    time_compacting: ms(time.compacting) ?? null,
    time_archived: ms(time.archived) ?? null,
  };
}

function without(o: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}

function parseExport(
  harness: OpenCodeFamily,
  textValue: string,
  origin?: string,
): Transcript<OpenCodeBody> {
  const r = new Reader(harness, origin);
  const doc = r.object(parseJson(textValue, harness, origin), "$");
  const info = r.object(doc.info, "info");
  const id = r.id(info, "info");
  if (!id.startsWith("ses"))
    r.fail(`session id ${JSON.stringify(id)} does not start with "ses"`, "info.id");
  const session = sessionRow(info, id);
  const messages: OpenCodeMessage[] = [];
  let rowTime = Number.NEGATIVE_INFINITY;
  r.array(doc.messages ?? [], "messages").forEach((entry, i) => {
    const at = `messages[${i}]`;
    const m = r.object(entry, at);
    const mi = r.object(m.info, `${at}.info`);
    const mid = r.id(mi, `${at}.info`);
    if (typeof mi.role !== "string") r.fail("expected a string role", `${at}.info.role`);
    const time = isJsonObject(mi.time) ? mi.time : {};
    const created = ms(time.created) ?? num(session, "time_created") ?? 0;
    // The document's order is the session's: row times strictly grow, so
    // OpenCode's ORDER BY time_created, id keeps it.
    rowTime = Math.max(created, rowTime + 1);
    const row: Row = {
      id: mid,
      session_id: id,
      time_created: rowTime,
      time_updated: ms(time.completed) ?? created,
      data: JSON.stringify(without(mi, ["id", "sessionID"])),
    };
    const parts: Row[] = r.array(m.parts ?? [], `${at}.parts`).map((p, j) => {
      const part = r.object(p, `${at}.parts[${j}]`);
      return {
        id: r.id(part, `${at}.parts[${j}]`),
        message_id: mid,
        session_id: id,
        time_created: rowTime,
        time_updated: created,
        data: JSON.stringify(without(part, ["id", "sessionID", "messageID"])),
      };
    });
    messages.push({ row, parts });
  });
  const body = { session, messages };
  return { meta: metaFromSession(session, firstModel(body)), body };
}

/** SQLite's default (binary) text order, which OpenCode's ORDER BY id uses. */
export function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** `opencode export`'s document: `{"info": {"id": "ses_…", …}, "messages": [...]}` (a bad id is the codec's to name). */
function detectOpenCode(sample: Sample): Recognized | undefined {
  return firstKey(sample) === "info" && /"messages"\s*:\s*\[/.test(sample.text)
    ? "text"
    : undefined;
}

/**
 * The export document's text codec for a member of the family. Only
 * OpenCode's detects the document: the members print the same shape, and
 * two detectors must not claim one file (a member's export is read with
 * `--from <member>`, or as OpenCode's).
 */
export function familyText(harness: OpenCodeFamily): TextCodec<OpenCodeBody> {
  const codec: TextCodec<OpenCodeBody> = {
    parse: (textValue, origin) => parseExport(harness, textValue, origin),
    render: (t) => `${JSON.stringify(exportDocument(t.body), null, 2)}\n`,
  };
  if (harness === "opencode") codec.detect = detectOpenCode;
  return codec;
}
