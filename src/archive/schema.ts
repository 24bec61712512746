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
const LOCK_KEY = 0x74786372;

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
 */
export async function migrate(client: Client): Promise<void> {
  const seen = await applied(client);
  if (seen === ARCHIVE_SCHEMA_VERSION) return;
  if (seen === "foreign") throw foreign();
  if (typeof seen === "number" && seen > ARCHIVE_SCHEMA_VERSION) throw tooNew(seen);
  await transaction(client, async () => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
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
    for (let v = from + 1; v <= ARCHIVE_SCHEMA_VERSION; v++) {
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
