/**
 * Crush's `crush.db` as its goose migrations leave it at 20260127000000
 * (charmbracelet/crush @ 37f36e93, internal/db/migrations; goose's own
 * `goose_db_version` table as pressly/goose's SQLite dialect makes it),
 * restated in txcript's words for a database txcript creates where Crush
 * never ran: every table in its final column order, the CHECKs, foreign
 * keys, indexes and the five triggers, and the migration versions goose
 * records as applied. docs/formats/crush.md lists each column. Pure data.
 */

/** The migrations Crush's goose has applied to a database of this schema, oldest first (0 is goose's own start). */
export const CRUSH_MIGRATIONS: readonly number[] = [
  0, 20250424200609, 20250515105448, 20250624000000, 20250627000000, 20250810000000, 20250812000000,
  20260127000000,
];

/** The newest of them: the schema txcript reads and writes. */
export const CRUSH_SCHEMA_VERSION = 20260127000000;

/** The statements that make a fresh database, in order (the migration rows are inserted after). */
export const CRUSH_SCHEMA: readonly string[] = [
  `CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')))`,
  `CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0), prompt_tokens INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0), completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0), cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0), updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT, todos TEXT)`,
  `CREATE TRIGGER update_sessions_updated_at AFTER UPDATE ON sessions BEGIN UPDATE sessions SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE, UNIQUE (path, session_id, version))`,
  "CREATE INDEX idx_files_session_id ON files (session_id)",
  "CREATE INDEX idx_files_path ON files (path)",
  `CREATE TRIGGER update_files_updated_at AFTER UPDATE ON files BEGIN UPDATE files SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT, is_summary_message INTEGER NOT NULL DEFAULT 0, FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE)`,
  "CREATE INDEX idx_messages_session_id ON messages (session_id)",
  `CREATE TRIGGER update_messages_updated_at AFTER UPDATE ON messages BEGIN UPDATE messages SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TRIGGER update_session_message_count_on_insert AFTER INSERT ON messages BEGIN UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id; END`,
  `CREATE TRIGGER update_session_message_count_on_delete AFTER DELETE ON messages BEGIN UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id; END`,
  "CREATE INDEX idx_sessions_created_at ON sessions (created_at)",
  "CREATE INDEX idx_messages_created_at ON messages (created_at)",
  "CREATE INDEX idx_files_created_at ON files (created_at)",
  `CREATE TABLE read_files (session_id TEXT NOT NULL CHECK (session_id != ''), path TEXT NOT NULL CHECK (path != ''), read_at INTEGER NOT NULL, FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE, PRIMARY KEY (path, session_id))`,
  "CREATE INDEX idx_read_files_session_id ON read_files (session_id)",
  "CREATE INDEX idx_read_files_path ON read_files (path)",
];
