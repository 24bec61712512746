/**
 * The index database's schema and its version. A database is ours when
 * its application_id says so; user_version is the schema version. An older
 * schema is dropped and rebuilt (the index is a cache), a newer one is left
 * alone for the txcript that made it.
 */

import { zlib } from "../builtins.js";
import type { Db } from "../sqlite.js";

/** "txci" in ASCII: marks the file as a txcript index. */
export const APPLICATION_ID = 0x74786369;
/**
 * Bump on any change below, or to what a refresh stores (5: chunk bodies
 * deflated; 6: first-prompt titles for Claude Code and Codex, no title
 * chunk that repeats the first prompt; 7: entries_fingerprint); an older
 * index is rebuilt from the stores.
 */
export const SCHEMA_VERSION = 7;

/** The SQL function that gives a chunk's stored body back as text. */
export const TEXT_FUNCTION = "txcript_chunk_text";

/** Bodies shorter than this are stored as text: deflating them saves nothing worth a call. */
const PACK_FROM = 512;

/**
 * zlib's window for `bytes` of input: the smallest that holds all of it
 * (2^9 to 2^15 bytes), with a hash table of as many entries. It packs as
 * small as the default window (a body of up to 64 KiB of text; 12.18 MB
 * of index either way at bench/scale's 1,000 sessions), but zlib's state
 * is allocated per call, and at the default size (about 256 KiB) growing
 * and trimming the heap for it cost more than compressing a typical body:
 * deflate took 0.47x its default-window CPU (0.47 s against 1.0 s for
 * those sessions' 1,554 packed bodies; writing their text, 0.65x: 1.09 s
 * against 1.69 s; medians of 3 interleaved runs). A raw stream from a
 * smaller window inflates with the default one.
 */
function windowFor(bytes: number): { windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes + 262))));
  return { windowBits, memLevel: Math.min(8, Math.max(1, windowBits - 7)) };
}

/**
 * A chunk's body deflated, where that saves a tenth or more; undefined
 * where the text is stored as it is. Done where the session is read (the
 * text worker, read-text.ts), so the thread that writes the index only
 * inserts. The bytes are a copy of their own: a slice of zlib's output
 * buffer would carry the whole buffer through a worker's reply.
 */
export function packedBody(text: string): Uint8Array | undefined {
  if (text.length < PACK_FROM) return undefined;
  const raw = Buffer.from(text, "utf8");
  // Level 1: most of the saving at a fraction of the time (the build writes every body).
  const packed = zlib().deflateRawSync(raw, { level: 1, ...windowFor(raw.length) });
  return packed.length <= raw.length * 0.9 ? new Uint8Array(packed) : undefined;
}

/** A stored body (`packedBody`, else the text) as text. */
function bodyText(stored: unknown): string | null {
  if (typeof stored === "string") return stored;
  if (Buffer.isBuffer(stored)) return zlib().inflateRawSync(stored).toString("utf8");
  return null;
}

/** Register TEXT_FUNCTION on `db`: every connection that reads or writes the index's text needs it. */
export function addTextFunction(db: Db): void {
  db.function(TEXT_FUNCTION, { deterministic: true }, bodyText);
}

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
-- Every refresh reads each entry's path and fingerprint by store: from this
-- index alone, not the rows (5x faster at 20,000 sessions, bench/scale).
CREATE INDEX entries_fingerprint ON entries (store, path, fingerprint);

-- The searchable text, and its full-text index (external content). Rows
-- enter the index where chunks are written (session-index.ts), not by an
-- insert trigger: a trigger made indexing about 1.6x slower (bench/index).
-- Deletes, cascades from entries included, leave it by the trigger below.
-- A body is TEXT, or its UTF-8 deflated (raw) as a BLOB where that is
-- smaller (packedBody): the stored text was 84% of the index
-- (bench/index-size). The full-text index reads bodies through chunk_text,
-- which inflates them with a function every connection to the index
-- registers (addTextFunction).
CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY,
  entry INTEGER NOT NULL REFERENCES entries(rowid) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  body NOT NULL
);
CREATE VIEW chunk_text AS SELECT rowid, ${TEXT_FUNCTION}(body) AS body FROM chunks;
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
  content = 'chunk_text',
  content_rowid = 'rowid',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO text (text, rowid, body) VALUES ('delete', old.rowid, ${TEXT_FUNCTION}(old.body));
END;
`;

/** The names of the tables, indexes and triggers SCHEMA creates: an index lacking one is damaged. */
export const SCHEMA_OBJECTS: readonly string[] = [
  ...SCHEMA.matchAll(/CREATE (?:VIRTUAL )?(?:TABLE|INDEX|TRIGGER|VIEW) (\w+)/g),
].map((match) => match[1] ?? "");
