/**
 * The archive's schema: versioned migrations in the PostgreSQL schema
 * (namespace) `txcript`, applied in order under a transaction-scoped
 * advisory lock, so two machines pushing for the first time cannot both
 * create it. `txcript.migrations` records each version applied; an archive
 * whose schema is newer than this txcript's is refused (one line, nothing
 * written), and so is a `txcript` namespace another program made.
 *
 * Full-text search is a `tsvector` under the `simple` configuration with a
 * GIN index, not pg_trgm. The vector is made from the chunk's words as the
 * local index's unicode61 tokenizer cuts them (words.ts: letters and digits,
 * diacritics removed; `_`, `.`, `/` and all other punctuation separate), so
 * a search means the same from either door, and `simple` lowercases
 * without stemming, as the local index does. PostgreSQL's own parser would
 * keep `src/index/session_index.ts` as one token, so a search for `session`
 * would miss it; pg_trgm finds substrings but ranks poorly, cannot say
 * "this phrase", and its index is several times the text's size (the local
 * index measured trigrams at double).
 */

import { UnsupportedError } from "../errors.js";
import type { Client } from "./connect.js";
import { transaction } from "./connect.js";

/** The advisory lock key migrations hold ("txcr" in ASCII). */
export const ARCHIVE_LOCK_KEY = 0x74786372;

/**
 * The chunks a search reads in migration 4: those matching `q` that the
 * caller may read, within the filters. One text for the count and the page,
 * so the two never disagree; every value is one of the functions' parameters.
 */
const SEARCHED_CHUNKS = `    FROM txcript.chunks c JOIN txcript.sessions s ON s.sid = c.sid
    WHERE c.tsv @@ q
      AND (everyone OR (c.pushed_by = session_user AND s.pushed_by = session_user))
      AND (p_machine IS NULL OR s.machine = p_machine)
      AND (p_user IS NULL OR s.os_user = p_user)
      AND (p_harness IS NULL OR s.harness = p_harness)
      AND (p_since IS NULL OR s.updated_ms >= p_since)
      AND (p_until IS NULL OR s.updated_ms <= p_until)
      AND (p_cwd IS NULL OR s.cwd = p_cwd OR s.cwd LIKE p_cwd_under)
      AND (p_kinds IS NULL OR c.kind = ANY (p_kinds))`;

/** Every migration, in order; the archive's version is the number applied. Never edit one: add one. */
const MIGRATIONS: readonly string[] = [
  // 1: sessions, their searchable chunks, their usage rows.
  `
  CREATE TABLE txcript.sessions (
    sid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    machine text NOT NULL,
    os_user text NOT NULL,
    -- The database role that pushed it: what row-level security checks.
    pushed_by name NOT NULL DEFAULT current_user,
    harness text NOT NULL,
    id text NOT NULL,
    -- The local fingerprint, content level and redaction it was pushed at: equal means unchanged.
    version text NOT NULL,
    content text NOT NULL CHECK (content IN ('full', 'no-tool-output', 'metadata')),
    redacted boolean NOT NULL,
    updated_ms bigint NOT NULL,
    cwd text,
    title text,
    -- The listing (txcript's Discovered), redacted as the transcript is.
    discovered jsonb NOT NULL,
    -- The Common transcript as JSON; NULL at content level metadata.
    transcript text,
    pushed_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (machine, harness, id)
  );
  CREATE INDEX sessions_updated ON txcript.sessions (updated_ms DESC, id);
  CREATE INDEX sessions_id ON txcript.sessions (id text_pattern_ops);
  CREATE TABLE txcript.chunks (
    sid bigint NOT NULL REFERENCES txcript.sessions (sid) ON DELETE CASCADE,
    ordinal integer NOT NULL,
    kind text NOT NULL,
    at bigint NOT NULL,
    body text NOT NULL,
    -- to_tsvector('simple', words(body)): see the module comment.
    tsv tsvector NOT NULL
  );
  CREATE INDEX chunks_sid ON txcript.chunks (sid);
  CREATE INDEX chunks_tsv ON txcript.chunks USING gin (tsv);
  -- One row per model response: usage groups these by session, model and 15 minutes.
  CREATE TABLE txcript.usage (
    sid bigint NOT NULL REFERENCES txcript.sessions (sid) ON DELETE CASCADE,
    at bigint NOT NULL,
    model text,
    input bigint NOT NULL,
    output bigint NOT NULL,
    cache_read bigint NOT NULL,
    cache_write bigint NOT NULL,
    messages integer NOT NULL
  );
  CREATE INDEX usage_sid ON txcript.usage (sid);
  CREATE INDEX usage_at ON txcript.usage (at);
  `,
  // 2: row-level security. The owner (who ran the first push) is not bound
  // by it; any other role sees and writes only the rows it pushed, unless
  // it is a member of txcript_reader, which reads everything
  // (docs/archive.md creates the roles and grants).
  `
  CREATE FUNCTION txcript.reads_all() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM pg_roles r
                   WHERE r.rolname = 'txcript_reader' AND pg_has_role(r.oid, 'MEMBER'))
  $$;
  CREATE FUNCTION txcript.owns(s bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM txcript.sessions WHERE sid = s AND pushed_by = current_user)
  $$;
  ALTER TABLE txcript.sessions ENABLE ROW LEVEL SECURITY;
  ALTER TABLE txcript.chunks ENABLE ROW LEVEL SECURITY;
  ALTER TABLE txcript.usage ENABLE ROW LEVEL SECURITY;
  CREATE POLICY own ON txcript.sessions
    USING (pushed_by = current_user) WITH CHECK (pushed_by = current_user);
  CREATE POLICY read_all ON txcript.sessions FOR SELECT USING (txcript.reads_all());
  CREATE POLICY own ON txcript.chunks USING (txcript.owns(sid)) WITH CHECK (txcript.owns(sid));
  CREATE POLICY read_all ON txcript.chunks FOR SELECT USING (txcript.reads_all());
  CREATE POLICY own ON txcript.usage USING (txcript.owns(sid)) WITH CHECK (txcript.owns(sid));
  CREATE POLICY read_all ON txcript.usage FOR SELECT USING (txcript.reads_all());
  `,
  // 3: the same rules without a query per row. Migration 2's policies called
  // reads_all() and owns(sid) on every row a non-owner role scanned (a
  // search as a pusher measured 2.9 s over 16,200 chunks, the owner's
  // 0.4 ms). Now chunks and usage rows carry the role that pushed them, and
  // reads_all() runs once per statement, as an InitPlan, wrapped in SELECT.
  // owns(sid) stays in the write check only: no role may add rows to a
  // session it did not push.
  `
  ALTER TABLE txcript.chunks ADD COLUMN pushed_by name;
  ALTER TABLE txcript.usage ADD COLUMN pushed_by name;
  UPDATE txcript.chunks c SET pushed_by = s.pushed_by FROM txcript.sessions s WHERE s.sid = c.sid;
  UPDATE txcript.usage u SET pushed_by = s.pushed_by FROM txcript.sessions s WHERE s.sid = u.sid;
  ALTER TABLE txcript.chunks ALTER COLUMN pushed_by SET DEFAULT current_user,
    ALTER COLUMN pushed_by SET NOT NULL;
  ALTER TABLE txcript.usage ALTER COLUMN pushed_by SET DEFAULT current_user,
    ALTER COLUMN pushed_by SET NOT NULL;
  DROP POLICY own ON txcript.sessions;
  DROP POLICY read_all ON txcript.sessions;
  DROP POLICY own ON txcript.chunks;
  DROP POLICY read_all ON txcript.chunks;
  DROP POLICY own ON txcript.usage;
  DROP POLICY read_all ON txcript.usage;
  CREATE POLICY own ON txcript.sessions
    USING (pushed_by = current_user) WITH CHECK (pushed_by = current_user);
  CREATE POLICY read_all ON txcript.sessions FOR SELECT USING ((SELECT txcript.reads_all()));
  CREATE POLICY own ON txcript.chunks USING (pushed_by = current_user)
    WITH CHECK (pushed_by = current_user AND txcript.owns(sid));
  CREATE POLICY read_all ON txcript.chunks FOR SELECT USING ((SELECT txcript.reads_all()));
  CREATE POLICY own ON txcript.usage USING (pushed_by = current_user)
    WITH CHECK (pushed_by = current_user AND txcript.owns(sid));
  CREATE POLICY read_all ON txcript.usage FOR SELECT USING ((SELECT txcript.reads_all()));
  `,
  // 4: search through functions that use the GIN index for every role.
  // Under row-level security the planner may not evaluate the match (@@,
  // not leakproof) before a policy's condition, so a non-owner's search
  // scanned every chunk it could see. These functions run as their owner
  // (SECURITY DEFINER, not bound by the policies) with a fixed search_path
  // and apply the policies' read rule themselves, as an ordinary condition
  // on the caller's login role (session_user: inside the function
  // current_user is the owner): its own rows, or all rows when it reads
  // all (a member of txcript_reader, a superuser, a role with BYPASSRLS or
  // with the tables' owner's privileges, as PostgreSQL itself decides who
  // bypasses the policies). A role without SELECT on the tables gets the
  // error it would get reading them. Every value is a parameter; no
  // statement is built from text.
  `
  CREATE FUNCTION txcript.caller_reads_all() RETURNS boolean LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp AS $$
    SELECT EXISTS (
      SELECT 1 FROM pg_catalog.pg_roles r
      WHERE r.rolname = session_user AND (r.rolsuper OR r.rolbypassrls))
    OR EXISTS (
      SELECT 1 FROM pg_catalog.pg_class t
      WHERE t.oid = 'txcript.chunks'::pg_catalog.regclass
        AND pg_catalog.pg_has_role(session_user, t.relowner, 'USAGE'))
    OR EXISTS (
      SELECT 1 FROM pg_catalog.pg_roles r
      WHERE r.rolname = 'txcript_reader' AND pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER'))
  $$;
  CREATE FUNCTION txcript.caller_may_search() RETURNS void LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp AS $$
  BEGIN
    IF NOT pg_catalog.has_table_privilege(session_user, 'txcript.sessions', 'SELECT') THEN
      RAISE EXCEPTION 'permission denied for table sessions' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT pg_catalog.has_table_privilege(session_user, 'txcript.chunks', 'SELECT') THEN
      RAISE EXCEPTION 'permission denied for table chunks' USING ERRCODE = 'insufficient_privilege';
    END IF;
  END $$;
  CREATE FUNCTION txcript.search_count(
    q tsquery, p_machine text, p_user text, p_harness text, p_since bigint, p_until bigint,
    p_cwd text, p_cwd_under text, p_kinds text[]
  ) RETURNS bigint LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $$
  DECLARE
    everyone boolean;
    n bigint;
  BEGIN
    PERFORM txcript.caller_may_search();
    everyone := txcript.caller_reads_all();
    SELECT count(*) INTO n
${SEARCHED_CHUNKS};
    RETURN n;
  END $$;
  CREATE FUNCTION txcript.search(
    q tsquery, p_machine text, p_user text, p_harness text, p_since bigint, p_until bigint,
    p_cwd text, p_cwd_under text, p_kinds text[], p_limit integer, p_offset integer
  ) RETURNS TABLE (
    hit_discovered jsonb, hit_ordinal integer, hit_kind text, hit_at bigint, hit_body text,
    hit_score float8
  ) LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS $$
  DECLARE
    everyone boolean;
  BEGIN
    PERFORM txcript.caller_may_search();
    everyone := txcript.caller_reads_all();
    RETURN QUERY
    SELECT s.discovered, c.ordinal, c.kind, c.at, c.body, (-ts_rank(c.tsv, q))::float8
${SEARCHED_CHUNKS}
    ORDER BY 6, s.sid, c.ordinal, c.kind
    LIMIT p_limit OFFSET p_offset;
  END $$;
  `,
];

/** The schema version this txcript writes and reads. */
const ARCHIVE_SCHEMA_VERSION = MIGRATIONS.length;

async function applied(client: Client): Promise<number | "foreign" | "none"> {
  const ns = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_namespace WHERE nspname = 'txcript'",
  );
  if (ns.rows[0]?.n === "0") return "none";
  const table = await client.query<{ t: string | null }>(
    "SELECT to_regclass('txcript.migrations')::text AS t",
  );
  if (table.rows[0]?.t == null) return "foreign";
  const v = await client.query<{ v: number | null }>(
    "SELECT max(version) AS v FROM txcript.migrations",
  );
  return v.rows[0]?.v ?? 0;
}

function tooNew(version: number): UnsupportedError {
  return new UnsupportedError(
    undefined,
    `the archive's schema is version ${version}, newer than this txcript's (${ARCHIVE_SCHEMA_VERSION}); upgrade txcript`,
  );
}

function foreign(): UnsupportedError {
  return new UnsupportedError(
    undefined,
    "the database has a schema named txcript that txcript did not make; use another database",
  );
}

/**
 * Bring the archive's schema up to this txcript's version (a push), under
 * the advisory lock; all migrations that run, run in one transaction.
 * `target` stops at an older version (the upgrade tests build old archives).
 */
export async function migrate(client: Client, target = ARCHIVE_SCHEMA_VERSION): Promise<void> {
  const seen = await applied(client);
  if (seen === target) return;
  if (seen === "foreign") throw foreign();
  if (typeof seen === "number" && seen > ARCHIVE_SCHEMA_VERSION) throw tooNew(seen);
  await transaction(client, async () => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [ARCHIVE_LOCK_KEY]);
    // Another machine may have migrated while this one waited for the lock.
    const now = await applied(client);
    if (now === "foreign") throw foreign();
    if (now === "none") {
      await client.query("CREATE SCHEMA txcript");
      await client.query(
        "CREATE TABLE txcript.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
    }
    const from = typeof now === "number" ? now : 0;
    if (from > ARCHIVE_SCHEMA_VERSION) throw tooNew(from);
    for (let v = from + 1; v <= Math.min(target, ARCHIVE_SCHEMA_VERSION); v++) {
      await client.query(MIGRATIONS[v - 1] ?? "");
      await client.query("INSERT INTO txcript.migrations (version) VALUES ($1)", [v]);
    }
  });
}

/** Check, without writing, that the archive can be read by this txcript (a read). */
export async function checkReadable(client: Client): Promise<void> {
  const seen = await applied(client);
  if (seen === "none")
    throw new UnsupportedError(undefined, "the archive is empty: run `txcript archive push` first");
  if (seen === "foreign") throw foreign();
  if (seen > ARCHIVE_SCHEMA_VERSION) throw tooNew(seen);
  if (seen < ARCHIVE_SCHEMA_VERSION)
    throw new UnsupportedError(
      undefined,
      `the archive's schema is version ${seen}, older than this txcript's; a push upgrades it`,
    );
}
