/**
 * The index database's schema and its version. A database is ours when
 * its application_id says so; user_version is the schema version. An older
 * schema is dropped and rebuilt (the index is a cache), a newer one is left
 * alone for the txcript that made it.
 */

/** "txci" in ASCII: marks the file as a txcript index. */
export const APPLICATION_ID = 0x74786369;
/**
 * Bump on any change below, or to what a refresh stores (5: first-prompt
 * titles for Claude Code and Codex, no title chunk that repeats the first
 * prompt); an older index is rebuilt from the stores.
 */
export const SCHEMA_VERSION = 5;

export const SCHEMA = `
CREATE TABLE stores (
  id INTEGER PRIMARY KEY,
  harness TEXT NOT NULL,
  -- JSON array of the store's root directories: one row per configuration.
  roots TEXT NOT NULL,
  -- JSON array of what the last discovery skipped outside any scanned file.
  skipped TEXT NOT NULL DEFAULT '[]',
  -- The store's stamp() at its last whole discovery (stores without scan()).
  stamp TEXT,
  UNIQUE (harness, roots)
);

-- One row per file discovery reads: a session, a skipped file, or nothing to list.
CREATE TABLE entries (
  rowid INTEGER PRIMARY KEY,
  store INTEGER NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('session', 'skipped', 'none')),
  reason TEXT,
  harness TEXT,
  id TEXT,
  created_ms INTEGER,
  updated_ms INTEGER,
  cwd TEXT,
  -- The store's own listing (Discovered), verbatim.
  discovered TEXT,
  -- The fingerprint the text below was read at; NULL until it is.
  text_fp TEXT,
  text_error TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cache_read_input_tokens INTEGER,
  cache_creation_input_tokens INTEGER,
  model TEXT,
  models TEXT,
  UNIQUE (store, path)
);
CREATE INDEX entries_updated ON entries (updated_ms DESC, id) WHERE state = 'session';
CREATE INDEX entries_id ON entries (id);

-- The searchable text, and its full-text index (external content). Rows
-- enter the index where chunks are written (session-index.ts), not by an
-- insert trigger: a trigger made indexing about 1.6x slower (bench/index).
-- Deletes, cascades from entries included, leave it by the trigger below.
CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY,
  entry INTEGER NOT NULL REFERENCES entries(rowid) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX chunks_entry ON chunks (entry);

-- One row per model response with its tokens (text.ts usageRowsOf), for usage by time and model.
CREATE TABLE usage (
  entry INTEGER NOT NULL REFERENCES entries(rowid) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  model TEXT,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  messages INTEGER NOT NULL
);
CREATE INDEX usage_entry ON usage (entry);
CREATE VIRTUAL TABLE text USING fts5 (
  body,
  content = 'chunks',
  content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO text (text, rowid, body) VALUES ('delete', old.rowid, old.body);
END;
`;

/** The names of the tables, indexes and triggers SCHEMA creates: an index lacking one is damaged. */
export const SCHEMA_OBJECTS: readonly string[] = [
  ...SCHEMA.matchAll(/CREATE (?:VIRTUAL )?(?:TABLE|INDEX|TRIGGER) (\w+)/g),
].map((match) => match[1] ?? "");
