/**
 * The archive as a memory behind the sessions service (SessionsBackend):
 * list, search, usage, resolve and load answered from PostgreSQL with the
 * same types as the local index, optionally narrowed to one machine and
 * one user. Every value reaches SQL as a parameter; the only text built
 * into a statement is fixed fragments chosen here.
 *
 * Rows are read back as what another machine pushed: listings pass a guard,
 * transcripts the Common reader (Checker), so a hostile row is skipped or
 * fails with one line rather than reaching a renderer unchecked.
 */

import { isJsonObject } from "../common.js";
import { readCommon } from "../common-json.js";
import { AmbiguousIdError, NotFoundError, UnsupportedError } from "../errors.js";
import { usageBucket } from "../index/read.js";
import type {
  Hit,
  IndexedId,
  ListRequest,
  QueryRequest,
  UsageBucket,
  UsageFilter,
} from "../index/session-index.js";
import { ftsExpression, parseTerms, type Term } from "../index/terms.js";
import { isKind } from "../index/text.js";
import { assignDefined, Checker, parseJson } from "../json.js";
import type { Loaded, Located } from "../local.js";
import type { SessionsBackend } from "../sessions/backend.js";
import { timestampFromMillis } from "../time.js";
import { type Discovered, type HarnessId, isHarnessId } from "../transcript.js";
import { type Client, openPool, type Pool, withClient } from "./connect.js";
import { checkReadable } from "./schema.js";
import { redactUrl } from "./url.js";
import { snippet, wordList } from "./words.js";

/** Which machines' and users' sessions an archive reader sees. */
export interface ArchiveScope {
  machine?: string | undefined;
  user?: string | undefined;
}

const USAGE_BUCKET_MS = 15 * 60 * 1000;

/** A pushed listing, checked before it is trusted as a Discovered. */
function asDiscovered(value: unknown): Discovered | undefined {
  if (!isJsonObject(value)) return undefined;
  const { harness, id, path, meta, updated, message_count, fingerprint } = value;
  if (typeof harness !== "string" || !isHarnessId(harness)) return undefined;
  if (typeof id !== "string" || typeof path !== "string" || typeof updated !== "string")
    return undefined;
  if (typeof message_count !== "number" || !isJsonObject(meta) || !isJsonObject(fingerprint))
    return undefined;
  if (typeof meta.id !== "string" || typeof meta.timestamp !== "string") return undefined;
  const out: Discovered = {
    harness,
    id,
    path,
    updated,
    message_count,
    meta: { id: meta.id, timestamp: meta.timestamp },
    fingerprint: { files: [] },
  };
  for (const key of ["title", "cwd", "git_branch", "model"] as const) {
    const v = meta[key];
    if (typeof v === "string") out.meta[key] = v;
  }
  for (const key of ["lane", "status", "parent_id", "forked_from"] as const) {
    const v = value[key];
    if (typeof v === "string") out[key] = v;
  }
  if (value.running === true) out.running = true;
  return out;
}

/** A directory filter as SQL: the directory itself, and a LIKE pattern for below it. */
function cwdPatterns(cwd: string): { dir: string; under: string } {
  const dir = cwd.replace(/\\/g, "/").replace(/\/+$/, "") || "/";
  const under = `${(dir === "/" ? "" : dir).replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
  return { dir, under };
}

/** SQL conditions and their parameters, numbered from `params.length + 1`. */
class Where {
  readonly parts: string[] = [];
  constructor(readonly params: unknown[] = []) {}
  add(sql: (n: string) => string, value: unknown): void {
    this.params.push(value);
    this.parts.push(sql(`$${this.params.length}`));
  }
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  get sql(): string {
    return this.parts.length === 0 ? "TRUE" : this.parts.join(" AND ");
  }
}

/**
 * The search terms as a tsquery expression over parameters, built from
 * the same words the vectors were (words.ts): a word or phrase by
 * phraseto_tsquery (a word the tokenizer cuts in several, `foo.bar`, is a
 * phrase of them, as FTS5 reads it), a prefix as `'word':*` after the
 * words before it, exclusions negated; every included term must match.
 */
function tsquery(terms: readonly Term[], w: Where): string {
  const one = (t: Term): string => {
    const list = wordList(t.text);
    if (t.prefix) {
      const last = list.pop() ?? "";
      const head =
        list.length > 0 ? `phraseto_tsquery('simple', ${w.param(list.join(" "))}) <-> ` : "";
      // The last word as a quoted lexeme of letters and digits: never read as tsquery syntax.
      return `(${head}to_tsquery('simple', ${w.param(`'${last}':*`)}))`;
    }
    return `phraseto_tsquery('simple', ${w.param(list.join(" "))})`;
  };
  const include = terms.filter((t) => !t.exclude).map(one);
  const exclude = terms.filter((t) => t.exclude).map((t) => `!!${one(t)}`);
  return `(${[...include, ...exclude].join(" && ")})`;
}

export class PgArchive implements SessionsBackend {
  readonly label: string;
  private readonly pool: Pool;
  private checked: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly scope: ArchiveScope = {},
  ) {
    this.label = redactUrl(url);
    this.pool = openPool(url);
  }

  /** Run `work` on a connection to an archive this txcript can read. */
  private read<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return withClient(this.pool, this.url, "cannot read the archive", async (client) => {
      if (this.checked === undefined) this.checked = checkReadable(client);
      try {
        await this.checked;
      } catch (error) {
        this.checked = undefined;
        throw error;
      }
      return work(client);
    });
  }

  /** The scope and the one filter, on sessions `s`. */
  private where(filter: ListRequest, w = new Where()): Where {
    if (this.scope.machine !== undefined) w.add((n) => `s.machine = ${n}`, this.scope.machine);
    if (this.scope.user !== undefined) w.add((n) => `s.os_user = ${n}`, this.scope.user);
    if (filter.from !== undefined) w.add((n) => `s.harness = ${n}`, filter.from);
    if (filter.since !== undefined) w.add((n) => `s.updated_ms >= ${n}`, filter.since);
    if (filter.until !== undefined) w.add((n) => `s.updated_ms <= ${n}`, filter.until);
    if (filter.cwd !== undefined) {
      const { dir, under } = cwdPatterns(filter.cwd);
      const a = w.param(dir);
      const b = w.param(under);
      w.parts.push(`(s.cwd = ${a} OR s.cwd LIKE ${b})`);
    }
    return w;
  }

  /**
   * The scope and the filter as the arguments of txcript.search and
   * search_count (migration 4), each a typed parameter, NULL for "any".
   */
  private searchArguments(request: QueryRequest, w: Where): string {
    const cwd = request.cwd === undefined ? undefined : cwdPatterns(request.cwd);
    const kinds = request.kinds && request.kinds.length > 0 ? [...request.kinds] : null;
    const values: [unknown, string][] = [
      [this.scope.machine ?? null, "text"],
      [this.scope.user ?? null, "text"],
      [request.from ?? null, "text"],
      [request.since ?? null, "bigint"],
      [request.until ?? null, "bigint"],
      [cwd?.dir ?? null, "text"],
      [cwd?.under ?? null, "text"],
      [kinds, "text[]"],
    ];
    return values.map(([value, type]) => `${w.param(value)}::${type}`).join(", ");
  }

  async list(request: ListRequest): Promise<Discovered[]> {
    return this.read(async (client) => {
      const w = this.where(request);
      const limit =
        request.limit !== undefined
          ? ` LIMIT ${w.param(Math.max(0, Math.floor(request.limit)))}`
          : "";
      const rows = await client.query<{ discovered: unknown }>(
        `SELECT s.discovered FROM txcript.sessions s WHERE ${w.sql}
         ORDER BY s.updated_ms DESC, s.id, s.harness, s.machine${limit}`,
        w.params,
      );
      return rows.rows.map((r) => asDiscovered(r.discovered)).filter((d) => d !== undefined);
    });
  }

  async ids(from?: HarnessId): Promise<IndexedId[]> {
    const sessions = await this.list(from !== undefined ? { from } : {});
    return sessions.map((s) => ({ harness: s.harness, id: s.id, title: s.meta.title }));
  }

  /**
   * Search through txcript.search and search_count (migration 4): functions
   * that apply row-level security's read rule themselves, so the GIN index
   * serves every role, not only the owner.
   */
  async query(terms: string, request: QueryRequest): Promise<{ hits: Hit[]; total: number }> {
    return this.read(async (client) => {
      ftsExpression(terms); // the same refusals as the local index, before any work
      const parsed = parseTerms(terms);
      const w = new Where();
      const q = tsquery(parsed, w);
      const args = `${q}, ${this.searchArguments(request, w)}`;
      const count = await client.query<{ n: string }>(
        `SELECT txcript.search_count(${args}) AS n`,
        w.params,
      );
      const total = Number(count.rows[0]?.n ?? 0);
      const limit = w.param(Math.max(1, Math.floor(request.limit ?? 20)));
      const offset = w.param(Math.max(0, Math.floor(request.offset ?? 0)));
      const rows = await client.query<{
        discovered: unknown;
        ordinal: number;
        kind: string;
        at: string;
        score: number;
        body: string;
      }>(
        `SELECT hit_discovered AS discovered, hit_ordinal AS ordinal, hit_kind AS kind,
           hit_at AS at, hit_body AS body, hit_score AS score
         FROM txcript.search(${args}, ${limit}::integer, ${offset}::integer)`,
        w.params,
      );
      const wanted = parsed
        .filter((t) => !t.exclude)
        .flatMap((t) => {
          const list = wordList(t.text);
          return list.map((word, i) => ({ word, prefix: t.prefix && i === list.length - 1 }));
        });
      const hits: Hit[] = [];
      for (const r of rows.rows) {
        const session = asDiscovered(r.discovered);
        if (session === undefined || !isKind(r.kind)) continue;
        const { text, highlights } = snippet(r.body, wanted);
        hits.push({
          session,
          ordinal: r.ordinal,
          kind: r.kind,
          timestamp: timestampFromMillis(Number(r.at)),
          score: r.score,
          snippet: text,
          highlights,
        });
      }
      return { hits, total };
    });
  }

  async usageBuckets(filter: UsageFilter): Promise<UsageBucket[]> {
    return this.read(async (client) => {
      const sessions: ListRequest = {};
      assignDefined(sessions, "from", filter.from);
      assignDefined(sessions, "cwd", filter.cwd);
      const w = this.where(sessions);
      if (filter.since !== undefined) w.add((n) => `u.at >= ${n}`, filter.since);
      if (filter.until !== undefined) w.add((n) => `u.at <= ${n}`, filter.until);
      const rows = await client.query<{
        discovered: unknown;
        cwd: string | null;
        title: string | null;
        model: string | null;
        at: number;
        input_tokens: number;
        output_tokens: number;
        cache_read_input_tokens: number;
        cache_creation_input_tokens: number;
        messages: number;
      }>(
        `SELECT min(s.discovered::text)::jsonb AS discovered, min(s.cwd) AS cwd, min(s.title) AS title,
           u.model, ((u.at / ${USAGE_BUCKET_MS}) * ${USAGE_BUCKET_MS})::float8 AS at,
           sum(u.input)::float8 AS input_tokens, sum(u.output)::float8 AS output_tokens,
           sum(u.cache_read)::float8 AS cache_read_input_tokens,
           sum(u.cache_write)::float8 AS cache_creation_input_tokens,
           sum(u.messages)::float8 AS messages
         FROM txcript.usage u JOIN txcript.sessions s ON s.sid = u.sid
         WHERE ${w.sql}
         GROUP BY s.sid, u.model, u.at / ${USAGE_BUCKET_MS}`,
        w.params,
      );
      const out: UsageBucket[] = [];
      for (const r of rows.rows) {
        const d = asDiscovered(r.discovered);
        if (d === undefined) continue;
        const session = { harness: d.harness, id: d.id, cwd: r.cwd ?? undefined };
        out.push(usageBucket({ ...session, title: r.title ?? undefined }, r));
      }
      return out;
    });
  }

  /** Sessions `located` names in scope: (machine, harness, id). */
  private async candidates(
    client: Client,
    ref: string,
    exact: boolean,
    from?: HarnessId,
  ): Promise<{ machine: string; harness: string; id: string }[]> {
    const w = this.where(from !== undefined ? { from } : {});
    if (exact) w.add((n) => `s.id = ${n}`, ref);
    else w.add((n) => `s.id LIKE ${n}`, `${ref.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const rows = await client.query<{ machine: string; harness: string; id: string }>(
      `SELECT s.machine, s.harness, s.id FROM txcript.sessions s WHERE ${w.sql}
       ORDER BY s.id, s.harness, s.machine LIMIT 50`,
      w.params,
    );
    return rows.rows;
  }

  async resolve(ref: string, from?: HarnessId): Promise<Located> {
    if (ref === "") throw new NotFoundError(from, "an empty session id matches nothing");
    return this.read(async (client) => {
      let found = await this.candidates(client, ref, true, from);
      const exact = found.length > 0;
      if (!exact) found = await this.candidates(client, ref, false, from);
      const [only] = found;
      if (only === undefined)
        throw new NotFoundError(from, `no session in the archive matches "${ref}"`);
      if (found.length === 1 && isHarnessId(only.harness))
        return { harness: only.harness, id: only.id };
      const candidates = found.map((f) => `${f.id} (${f.harness}, machine ${f.machine})`);
      throw new AmbiguousIdError(
        from,
        `"${ref}" ${exact ? "is the id of" : "matches"} ${found.length} sessions in the archive: ${candidates.slice(0, 10).join(", ")}`,
        candidates,
        { harnesses: [...new Set(found.map((f) => f.harness))], sameId: exact },
      );
    });
  }

  async load(located: Located): Promise<Loaded> {
    return this.read(async (client) => {
      const w = this.where({ from: located.harness });
      w.add((n) => `s.id = ${n}`, located.id);
      const rows = await client.query<{
        machine: string;
        content: string;
        transcript: string | null;
      }>(
        `SELECT s.machine, s.content, s.transcript FROM txcript.sessions s WHERE ${w.sql} LIMIT 2`,
        w.params,
      );
      const [row] = rows.rows;
      const origin = `${this.label}#${located.harness}/${located.id}`;
      if (row === undefined)
        throw new NotFoundError(located.harness, `no session ${located.id} in the archive`);
      if (rows.rows.length > 1)
        throw new AmbiguousIdError(
          located.harness,
          `session ${located.id} is in the archive from several machines: narrow with --machine`,
          [],
        );
      if (row.transcript === null)
        throw new UnsupportedError(
          located.harness,
          `session ${located.id} was archived from ${row.machine} as metadata only: it has no messages to show`,
        );
      const transcript = readCommon(
        new Checker("common", origin),
        parseJson(row.transcript, "common", origin),
      );
      return { located, transcript, path: origin };
    });
  }

  close(): void {
    this.pool.end().catch(() => undefined);
  }
}
