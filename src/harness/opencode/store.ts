/**
 * The OpenCode store: the shared SQLite database `opencode.db` in OpenCode's
 * data directory (`$TXCRIPT_OPENCODE_ROOT`, else `$XDG_DATA_HOME/opencode`,
 * else `~/.local/share/opencode`), and the JSON files of OpenCode before 1.2
 * under `storage/` (`session/<project>/<id>.json`, `message/<session>/<id>.json`,
 * `part/<message>/<id>.json`), read only.
 *
 * Reading goes through `readSnapshot` (src/sqlite.ts): one read transaction,
 * nothing created beside the database, a live WAL read as it stands, busy
 * retried. Writing inserts one new session (its project too, when missing)
 * in one `BEGIN IMMEDIATE` transaction after checking the schema still has
 * every table and column txcript fills and no required column it does not;
 * it never updates or removes another session's rows. `delete` removes the
 * session's rows and every row that references it, in one transaction.
 * Stores do no conversion: rows in, rows out.
 */

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  type Dirent,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { nonEmpty } from "../../env.js";
import {
  ConflictError,
  describeCause,
  errnoCode,
  InvalidRequestError,
  NotFoundError,
  StoreError,
  TxcriptError,
  UnsupportedError,
} from "../../errors.js";
import { assignDefined } from "../../json.js";
import { checkPathComponent, realPathInside } from "../../paths.js";
import {
  type Db,
  isBusy,
  openForWriting,
  quoteIdentifier,
  readSnapshot,
  sleepSync,
  sqliteError,
} from "../../sqlite.js";
import { firstPromptTitle } from "../../strings.js";
import { timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  SaveOptions,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import {
  GLOBAL_PROJECT,
  isPartKind,
  MESSAGE_TABLE,
  type OpenCodeBody,
  type OpenCodeMessage,
  PART_TABLE,
  type PartKind,
  PROJECT_TABLE,
  partKind,
  piecesOf,
  type Row,
  readData,
  SESSION_TABLE,
  type SqlValue,
  text,
} from "./body.js";
import { sessionKeys, tail } from "./ids.js";
import { DATABASE, OpenCodeProbe, openCodeRoot, STORAGE_DIR } from "./probe.js";
import { createOpenCodeDatabase } from "./store-create.js";
import {
  compare,
  firstModel,
  isDefaultTitle,
  metaFromSession,
  promptOf,
  sessionRow,
} from "./text.js";

/** The biggest legacy JSON file read; larger ones are skipped as damaged. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

interface Listed {
  session: Row;
  /** Messages by OpenCode's order, each with its role and its parts' kinds. */
  messages: { role: string | undefined; kinds: PartKind[] }[];
  /** The first assistant message's model. */
  model?: string | undefined;
  /** The first prompt as a title, for a session OpenCode left at its default title. */
  prompt?: string | undefined;
  latest: number;
  bytes: number;
}

interface LegacyFile {
  path: string;
  project: string;
  id: string;
}

export interface OpenCodeStoreOptions extends StoreOptions {
  /** How long to wait for a locked database, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/** A session's rows in one SELECT each, OpenCode's order (messages by time then id, parts by id). */
function selectSession(db: Db, id: string): OpenCodeBody | undefined {
  // A row of SQL values is what better-sqlite3 returns for any SELECT *.
  const session = db.prepare<[string], Row>(`SELECT * FROM ${SESSION_TABLE} WHERE id = ?`).get(id);
  if (session === undefined) return undefined;
  const messages = db
    .prepare<[string], Row>(
      `SELECT * FROM ${MESSAGE_TABLE} WHERE session_id = ? ORDER BY time_created, id`,
    )
    .all(id);
  // One indexed query per message (part_message_id_id_idx): no sort of the whole session's parts.
  const partsOf = db.prepare<[string], Row>(
    `SELECT * FROM ${PART_TABLE} WHERE message_id = ? ORDER BY id`,
  );
  const body: OpenCodeBody = {
    session,
    messages: messages.map((row) => ({ row, parts: partsOf.all(text(row, "id") ?? "") })),
  };
  const projectId = text(session, "project_id");
  if (projectId !== undefined && hasTable(db, PROJECT_TABLE)) {
    const project = db
      .prepare<[string], Row>(`SELECT * FROM ${PROJECT_TABLE} WHERE id = ?`)
      .get(projectId);
    if (project !== undefined) body.project = project;
  }
  return body;
}

/** The session id of `id`: itself, or for a non-OpenCode id the session txcript derives from it (its id ends the same). */
function sessionIdFor(db: Db, id: string): string {
  if (id.startsWith("ses_")) return id;
  const found = db
    .prepare<[string], SqlValue>(`SELECT id FROM ${SESSION_TABLE} WHERE substr(id, -14) = ?`)
    .pluck()
    .get(tail(sessionKeys(id)));
  return stringOr(found) ?? id;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function hasTable(db: Db, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

const REQUIRED_TABLES = [SESSION_TABLE, MESSAGE_TABLE, PART_TABLE] as const;

function checkTables(db: Db, file: string, tables: readonly string[] = REQUIRED_TABLES): void {
  const missing = tables.filter((t) => !hasTable(db, t));
  if (missing.length > 0) {
    throw new UnsupportedError(
      "opencode",
      `not an OpenCode database this version knows: no ${missing.join(", ")} table`,
      { file },
    );
  }
}

// The SQL mirror of codec.partKind (the message count must match toCommon's).
const KIND_SQL = `CASE WHEN json_valid(data) THEN CASE json_extract(data, '$.type')
  WHEN 'text' THEN CASE WHEN json_type(data, '$.text') = 'text' AND json_extract(data, '$.text') <> '' THEN 'block' ELSE 'skip' END
  WHEN 'reasoning' THEN CASE WHEN json_type(data, '$.text') = 'text' AND json_extract(data, '$.text') <> '' THEN 'block' ELSE 'skip' END
  WHEN 'file' THEN CASE WHEN json_type(data, '$.url') = 'text' THEN 'block' ELSE 'skip' END
  WHEN 'tool' THEN 'tool' ELSE 'skip' END ELSE 'skip' END`;

function listDatabase(db: Db, file: string): Listed[] {
  checkTables(db, file);
  const sessions = db
    .prepare<[], Row>(`SELECT * FROM ${SESSION_TABLE} ORDER BY time_updated DESC, id`)
    .all();
  const listed = new Map<string, Listed>();
  for (const s of sessions) {
    const id = text(s, "id");
    if (id === undefined) continue;
    listed.set(id, {
      session: s,
      messages: [],
      latest: typeof s.time_updated === "number" ? s.time_updated : 0,
      bytes: 0,
    });
  }
  const messages = db
    .prepare<[], SqlValue[]>(
      `SELECT session_id, id, time_updated,
         CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
         length(data) AS bytes,
         CASE WHEN json_valid(data) THEN json_extract(data, '$.modelID') END AS model
       FROM ${MESSAGE_TABLE} ORDER BY session_id, time_created, id`,
    )
    .raw()
    .all();
  const index = new Map<string, { role: string | undefined; kinds: PartKind[] }>();
  for (const [sid, mid, updated, role, bytes, model] of messages) {
    if (typeof sid !== "string" || typeof mid !== "string") continue;
    const l = listed.get(sid);
    if (l === undefined) continue;
    if (l.model === undefined && role === "assistant" && typeof model === "string" && model !== "")
      l.model = model;
    const entry: { role: string | undefined; kinds: PartKind[] } = {
      role: typeof role === "string" ? role : undefined,
      kinds: [],
    };
    l.messages.push(entry);
    index.set(mid, entry);
    if (typeof updated === "number" && updated > l.latest) l.latest = updated;
    if (typeof bytes === "number") l.bytes += bytes;
  }
  const parts = db
    .prepare<[], SqlValue[]>(
      `SELECT message_id, ${KIND_SQL} AS kind, length(data) AS bytes, time_updated, session_id
       FROM ${PART_TABLE} ORDER BY message_id, id`,
    )
    .raw()
    .all();
  for (const [mid, kind, bytes, updated, sid] of parts) {
    if (typeof mid !== "string" || typeof sid !== "string" || !isPartKind(kind)) continue;
    const entry = index.get(mid);
    if (entry === undefined) continue;
    entry.kinds.push(kind);
    const l = listed.get(sid);
    if (l === undefined) continue;
    if (typeof bytes === "number") l.bytes += bytes;
    if (typeof updated === "number" && updated > l.latest) l.latest = updated;
  }
  promptTitles(db, listed);
  return [...listed.values()];
}

/**
 * The first prompt of each session OpenCode left at its default title (few:
 * OpenCode names a session after its first answer), from the text parts of
 * its user messages: what the codec's title fallback reads (text.promptOf).
 */
function promptTitles(db: Db, listed: Map<string, Listed>): void {
  const untitled = [...listed.entries()]
    .filter(([, l]) => isDefaultTitle(text(l.session, "title")))
    .map(([id]) => id);
  if (untitled.length === 0) return;
  const rows = db
    .prepare<[string], SqlValue[]>(
      `SELECT m.session_id, m.id,
         CASE WHEN json_valid(p.data) AND json_extract(p.data, '$.type') = 'text'
           AND json_type(p.data, '$.text') = 'text' THEN json_extract(p.data, '$.text') END
       FROM ${MESSAGE_TABLE} m JOIN ${PART_TABLE} p ON p.message_id = m.id
       WHERE m.session_id IN (SELECT value FROM json_each(?))
         AND json_valid(m.data) AND json_extract(m.data, '$.role') = 'user'
       ORDER BY m.session_id, m.time_created, m.id, p.id`,
    )
    .raw()
    .all(JSON.stringify(untitled));
  const texts = new Map<string, Map<string, string[]>>();
  for (const [sid, mid, value] of rows) {
    if (typeof sid !== "string" || typeof mid !== "string") continue;
    const messages = texts.get(sid) ?? new Map<string, string[]>();
    texts.set(sid, messages);
    const parts = messages.get(mid) ?? [];
    messages.set(mid, parts);
    if (typeof value === "string") parts.push(value);
  }
  for (const [sid, messages] of texts) {
    const l = listed.get(sid);
    if (l !== undefined) l.prompt = firstPromptTitle(messages.values());
  }
}

export class OpenCodeStore implements Store<OpenCodeBody> {
  readonly harness = "opencode" as const;
  readonly roots: readonly string[];
  /** OpenCode's data directory: `opencode.db` and `storage/` live here. */
  readonly root: string;
  readonly database: string;
  private readonly busyTimeoutMs: number;

  constructor(options: OpenCodeStoreOptions = {}) {
    this.root = openCodeRoot(options);
    this.roots = [this.root];
    this.database = join(this.root, DATABASE);
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  }

  private read<T>(read: (db: Db) => T): T {
    return readSnapshot(this.database, read, {
      harness: "opencode",
      busyTimeoutMs: this.busyTimeoutMs,
    });
  }

  private hasDatabase(): boolean {
    return existsSync(this.database);
  }

  // -------------------------------------------------------------------------
  // Listing

  ids(): string[] {
    const ids = new Set<string>();
    if (this.hasDatabase()) {
      try {
        const rows = this.read((db) => {
          checkTables(db, this.database);
          return db.prepare<[], SqlValue>(`SELECT id FROM ${SESSION_TABLE}`).pluck().all();
        });
        for (const id of rows) if (typeof id === "string") ids.add(id);
      } catch {
        // A damaged database holds no ids we can name; load and discover say why.
      }
    }
    for (const f of this.legacyFiles()) ids.add(f.id);
    return [...ids].sort();
  }

  stamp(): string | undefined {
    return new OpenCodeProbe({ root: this.root }).stamp();
  }

  /** One read transaction over the database: nothing to spread over workers. */
  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    return this.discoverNow(options);
  }

  private discoverNow(options: DiscoverOptions): Discovery {
    const sessions: Discovered[] = [];
    const skipped: Skipped[] = [];
    const seen = new Set<string>();
    if (this.hasDatabase()) {
      try {
        const listed = this.read((db) => listDatabase(db, this.database));
        listed.forEach((l, i) => {
          options.onProgress?.(i, listed.length);
          const found = this.discovered(l, this.database);
          seen.add(found.id);
          sessions.push(found);
        });
      } catch (cause) {
        skipped.push({
          path: this.database,
          reason: cause instanceof TxcriptError ? cause.detail : describeCause(cause),
        });
      }
    }
    for (const file of this.legacyFiles((s) => skipped.push(s))) {
      // A session OpenCode has migrated into the database is the database's.
      if (seen.has(file.id)) continue;
      try {
        const body = this.loadLegacy(file);
        seen.add(file.id);
        const l: Listed = {
          session: body.session,
          messages: body.messages.map((m) => ({
            role: stringOr(readData(m.row)?.role),
            kinds: m.parts.map((p) => partKind(readData(p))),
          })),
          model: firstModel(body),
          prompt: promptOf(body),
          latest: typeof body.session.time_updated === "number" ? body.session.time_updated : 0,
          bytes: 0,
        };
        const found = this.discovered(l, file.path);
        found.fingerprint = this.legacyFingerprint(file, body);
        found.lane = found.lane ?? "legacy";
        sessions.push(found);
      } catch (cause) {
        skipped.push({
          path: file.path,
          reason: cause instanceof TxcriptError ? cause.detail : describeCause(cause),
        });
      }
    }
    options.onProgress?.(sessions.length, sessions.length);
    return { sessions, skipped };
  }

  private discovered(l: Listed, path: string): Discovered {
    const meta = metaFromSession(l.session, l.model, l.prompt);
    const found: Discovered = {
      harness: "opencode",
      id: meta.id,
      path,
      meta,
      updated: timestampFromMillis(l.latest),
      message_count: l.messages.reduce((n, m) => n + piecesOf(m.role, m.kinds), 0),
      fingerprint: { files: [{ path, mtime_ms: l.latest, size: l.bytes }] },
    };
    if (typeof l.session.time_archived === "number") found.lane = "archived";
    assignDefined(found, "parent_id", nonEmpty(text(l.session, "parent_id")));
    return found;
  }

  // -------------------------------------------------------------------------
  // Loading

  load(id: string): Transcript<OpenCodeBody> {
    this.checkId(id);
    if (this.hasDatabase()) {
      const body = this.read((db) => {
        checkTables(db, this.database);
        return selectSession(db, id);
      });
      if (body !== undefined)
        return { meta: metaFromSession(body.session, firstModel(body), promptOf(body)), body };
    }
    const file = this.legacyFiles().find((f) => f.id === id);
    if (file !== undefined) {
      const body = this.loadLegacy(file);
      return { meta: metaFromSession(body.session, firstModel(body), promptOf(body)), body };
    }
    throw new NotFoundError("opencode", `no OpenCode session ${id} in ${this.root}`);
  }

  private checkId(id: string): void {
    checkPathComponent(id, "opencode");
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      this.checkId(id);
    } catch {
      return undefined;
    }
    if (this.hasDatabase()) {
      try {
        const found = this.read((db) => {
          checkTables(db, this.database);
          const sid = sessionIdFor(db, id);
          const s = db
            .prepare<[string], SqlValue[]>(
              `SELECT s.time_updated,
                 (SELECT coalesce(sum(length(data)), 0) FROM ${MESSAGE_TABLE} WHERE session_id = s.id) +
                 (SELECT coalesce(sum(length(data)), 0) FROM ${PART_TABLE} WHERE session_id = s.id),
                 (SELECT max(time_updated) FROM ${MESSAGE_TABLE} WHERE session_id = s.id),
                 (SELECT max(time_updated) FROM ${PART_TABLE} WHERE session_id = s.id)
               FROM ${SESSION_TABLE} s WHERE s.id = ?`,
            )
            .raw()
            .get(sid);
          return s;
        });
        if (found !== undefined) {
          const latest = Math.max(...found.filter((v) => typeof v === "number").map(Number), 0);
          const bytes = found[1];
          return {
            files: [
              {
                path: this.database,
                mtime_ms: latest,
                size: typeof bytes === "number" ? bytes : 0,
              },
            ],
          };
        }
      } catch {
        return undefined;
      }
    }
    const file = this.legacyFiles().find((f) => f.id === id);
    if (file === undefined) return undefined;
    try {
      return this.legacyFingerprint(file, this.loadLegacy(file));
    } catch {
      const st = statSync(file.path);
      return { files: [{ path: file.path, mtime_ms: st.mtimeMs, size: st.size }] };
    }
  }

  /**
   * SHA-256 of the session's own rows (session, messages, parts, in
   * OpenCode's order): other sessions written to the shared database leave
   * it as it is, and anything OpenCode or the user changes in this session
   * changes it.
   */
  digest(id: string): string | undefined {
    try {
      this.checkId(id);
      if (!this.hasDatabase()) return undefined;
      const body = this.read((db) => {
        checkTables(db, this.database);
        return selectSession(db, sessionIdFor(db, id));
      });
      if (body === undefined) return undefined;
      const rows = [body.session, ...body.messages.flatMap((m) => [m.row, ...m.parts])];
      const hash = createHash("sha256");
      for (const row of rows) {
        hash.update(
          JSON.stringify(row, (_k, v: unknown) =>
            v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v,
          ),
        );
        hash.update("\n");
      }
      return hash.digest("hex");
    } catch {
      return undefined;
    }
  }

  // -------------------------------------------------------------------------
  // Legacy JSON layout (read only)

  private legacyFiles(onUnreadable?: (s: Skipped) => void): LegacyFile[] {
    const dir = join(this.root, STORAGE_DIR, "session");
    const files: LegacyFile[] = [];
    const list = (d: string): Dirent[] => {
      try {
        return readdirSync(d, { withFileTypes: true }).sort((a, b) => compare(a.name, b.name));
      } catch (cause) {
        const code = errnoCode(cause);
        if (code !== "ENOENT" && code !== "ENOTDIR")
          onUnreadable?.({ path: d, reason: `cannot list: ${describeCause(cause)}` });
        return [];
      }
    };
    for (const project of list(dir)) {
      if (!project.isDirectory()) continue;
      for (const f of list(join(dir, project.name))) {
        if (!f.isFile() || !f.name.endsWith(".json")) continue;
        const id = f.name.slice(0, -".json".length);
        if (!id.startsWith("ses")) continue;
        files.push({ path: join(dir, project.name, f.name), project: project.name, id });
      }
    }
    return files;
  }

  private readJson(path: string): JsonObject | undefined {
    try {
      if (statSync(path).size > MAX_JSON_BYTES) return undefined;
      const value: unknown = JSON.parse(readFileSync(path, "utf8"));
      return isJsonObject(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A legacy session as the rows OpenCode's JSON migration would insert
   * (packages/opencode/src/storage/json-migration.ts): ids from file names,
   * the session from its file, messages and parts without their id fields.
   * Unreadable message and part files are skipped, as the migration does.
   */
  private loadLegacy(file: LegacyFile): OpenCodeBody {
    const info = this.readJson(file.path);
    if (info === undefined)
      throw new StoreError("opencode", "not a readable OpenCode session file", { file: file.path });
    const session = sessionRow(info, file.id);
    session.project_id = file.project;
    const storage = join(this.root, STORAGE_DIR);
    const names = (d: string) => {
      try {
        return readdirSync(d)
          .filter((n) => n.endsWith(".json"))
          .sort(compare);
      } catch {
        return [];
      }
    };
    const strip = (o: Record<string, unknown>, keys: string[]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
      return JSON.stringify(out);
    };
    const messages: OpenCodeMessage[] = [];
    for (const name of names(join(storage, "message", file.id))) {
      const mid = name.slice(0, -5);
      const data = this.readJson(join(storage, "message", file.id, name));
      if (data === undefined) continue;
      const time = isJsonObject(data.time) ? data.time : {};
      const created = typeof time.created === "number" ? time.created : 0;
      const row: Row = {
        id: mid,
        session_id: file.id,
        time_created: created,
        time_updated: typeof time.updated === "number" ? time.updated : created,
        data: strip(data, ["id", "sessionID"]),
      };
      const parts: Row[] = [];
      for (const pname of names(join(storage, "part", mid))) {
        const pdata = this.readJson(join(storage, "part", mid, pname));
        if (pdata === undefined) continue;
        const ptime = isJsonObject(pdata.time) ? pdata.time : {};
        parts.push({
          id: pname.slice(0, -5),
          message_id: mid,
          session_id: file.id,
          time_created: typeof ptime.start === "number" ? ptime.start : created,
          time_updated: typeof ptime.end === "number" ? ptime.end : created,
          data: strip(pdata, ["id", "sessionID", "messageID"]),
        });
      }
      messages.push({ row, parts });
    }
    messages.sort(
      (a, b) =>
        Number(a.row.time_created) - Number(b.row.time_created) ||
        compare(String(a.row.id), String(b.row.id)),
    );
    return { session, messages };
  }

  private legacyFingerprint(file: LegacyFile, body: OpenCodeBody): Fingerprint {
    const storage = join(this.root, STORAGE_DIR);
    const paths = [file.path];
    for (const m of body.messages) {
      const mid = text(m.row, "id") ?? "";
      paths.push(join(storage, "message", file.id, `${mid}.json`));
      for (const p of m.parts) paths.push(join(storage, "part", mid, `${text(p, "id")}.json`));
    }
    const files: Fingerprint["files"] = [];
    for (const path of paths) {
      try {
        const st = statSync(path);
        files.push({ path, mtime_ms: st.mtimeMs, size: st.size });
      } catch {
        // Gone since the listing: the next fingerprint differs anyway.
      }
    }
    return { files };
  }

  // -------------------------------------------------------------------------
  // Writing

  /**
   * Run `write` in one `BEGIN IMMEDIATE` transaction (the write lock taken
   * up front, so no other writer can slip in between our reads and
   * inserts), retrying a busy database until the timeout.
   */
  private transaction<T>(write: (db: Db) => T): T {
    if (!this.hasDatabase()) {
      throw new StoreError("opencode", "no OpenCode database here", { file: this.database });
    }
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      let db: Db | undefined;
      let begun = false;
      try {
        db = openForWriting(this.database, Math.max(0, deadline - Date.now()));
        db.exec("BEGIN IMMEDIATE");
        begun = true;
        const result = write(db);
        db.exec("COMMIT");
        begun = false;
        return result;
      } catch (error) {
        if (begun && db?.inTransaction) {
          try {
            db.exec("ROLLBACK");
          } catch {
            // The connection is closed below; SQLite rolls back what was not committed.
          }
        }
        if (isBusy(error) && Date.now() < deadline) {
          sleepSync(Math.min(10 * 2 ** Math.min(attempt, 5), 200));
          continue;
        }
        throw sqliteError("opencode", this.database, error);
      } finally {
        db?.close();
      }
    }
  }

  save(transcript: Transcript<OpenCodeBody>, options: SaveOptions = {}): Saved {
    const body = transcript.body;
    const id = text(body.session, "id");
    if (id === undefined || !id.startsWith("ses")) {
      throw new InvalidRequestError("opencode", "cannot save: the session has no ses_ id");
    }
    this.checkId(id);
    const project = body.project === undefined ? this.projectFor(body.session) : undefined;
    // Where OpenCode has never run: its first database, as OpenCode would create it.
    createOpenCodeDatabase(this.root, this.database);
    this.transaction((db) => {
      checkTables(db, this.database, [...REQUIRED_TABLES, PROJECT_TABLE]);
      const exists = db.prepare(`SELECT 1 FROM ${SESSION_TABLE} WHERE id = ?`).get(id);
      if (exists !== undefined) {
        if (!options.overwrite) {
          throw new ConflictError("opencode", `session ${id} already exists`, {
            file: this.database,
          });
        }
        deleteRows(db, id);
      }
      const session = { ...body.session };
      let projectRow = body.project;
      if (project !== undefined) {
        session.project_id = project.id;
        projectRow = project.row;
      }
      const projectId = text(session, "project_id") ?? GLOBAL_PROJECT;
      session.project_id = projectId;
      const inserts: [string, Row[]][] = [
        [SESSION_TABLE, [session]],
        [MESSAGE_TABLE, body.messages.map((m) => m.row)],
        [PART_TABLE, body.messages.flatMap((m) => m.parts)],
      ];
      const needsProject =
        db.prepare(`SELECT 1 FROM ${PROJECT_TABLE} WHERE id = ?`).get(projectId) === undefined;
      if (needsProject) {
        inserts.unshift([PROJECT_TABLE, [projectRow ?? defaultProject(projectId, session)]]);
      }
      // Every row must fit today's schema before the first one goes in.
      const plans = inserts.map(([table, rows]) => ({
        table,
        rows,
        plan: planInsert(db, table, rows, this.database),
      }));
      for (const m of body.messages) {
        if (text(m.row, "session_id") !== id)
          throw new InvalidRequestError(
            "opencode",
            `message ${text(m.row, "id")} is not session ${id}'s`,
          );
        for (const p of m.parts) {
          if (text(p, "session_id") !== id || text(p, "message_id") !== text(m.row, "id"))
            throw new InvalidRequestError(
              "opencode",
              `part ${text(p, "id")} is not message ${text(m.row, "id")}'s`,
            );
        }
      }
      for (const [table, rows] of [
        [MESSAGE_TABLE, body.messages.map((m) => m.row)],
        [PART_TABLE, body.messages.flatMap((m) => m.parts)],
      ] as const) {
        const taken = firstTaken(db, table, rows);
        if (taken !== undefined) {
          throw new ConflictError(
            "opencode",
            `${table} ${taken} already exists in another session; refusing to touch it`,
            { file: this.database },
          );
        }
      }
      for (const { rows, plan } of plans) {
        const stmt = db.prepare(plan.sql);
        for (const row of rows) stmt.run(plan.columns.map((c) => bind(row[c] ?? null)));
      }
    });
    return { harness: "opencode", id, path: this.database, files: [this.database] };
  }

  /**
   * The project OpenCode would file a session under, for a session written
   * from elsewhere (project "global" and no project row): OpenCode's id for
   * a git repository is its first root commit, cached in `.git/opencode`
   * (packages/opencode/src/project/project.ts); outside git, "global".
   */
  private projectFor(session: Row): { id: string; row: Row } | undefined {
    if (text(session, "project_id") !== GLOBAL_PROJECT) return undefined;
    const dir = nonEmpty(text(session, "directory"));
    if (dir === undefined) return undefined;
    let worktree: string | undefined;
    for (let d = resolve(dir); ; d = dirname(d)) {
      if (existsSync(join(d, ".git"))) {
        worktree = d;
        break;
      }
      if (dirname(d) === d) break;
    }
    if (worktree === undefined) return undefined;
    let id: string | undefined;
    try {
      id = nonEmpty(readFileSync(join(worktree, ".git", "opencode"), "utf8").trim());
    } catch {
      // No cache: ask git.
    }
    if (id === undefined) {
      const git = spawnSync("git", ["rev-list", "--max-parents=0", "--all"], {
        cwd: worktree,
        encoding: "utf8",
        timeout: 5000,
        stdio: ["ignore", "pipe", "ignore"],
      });
      if (git.status === 0) {
        id = git.stdout
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => /^[0-9a-f]{40}$/.test(l))
          .sort()[0];
      }
    }
    if (id === undefined) return undefined;
    const now = Date.now();
    return {
      id,
      row: {
        id,
        worktree,
        vcs: "git",
        time_created: now,
        time_updated: now,
        sandboxes: "[]",
      },
    };
  }

  delete(id: string): string[] {
    this.checkId(id);
    if (this.hasDatabase()) {
      const removed = this.transaction((db) => {
        checkTables(db, this.database);
        if (db.prepare(`SELECT 1 FROM ${SESSION_TABLE} WHERE id = ?`).get(id) === undefined)
          return false;
        deleteRows(db, id);
        return true;
      });
      if (removed) return [this.database];
    }
    const file = this.legacyFiles().find((f) => f.id === id);
    if (file === undefined)
      throw new NotFoundError("opencode", `no OpenCode session ${id} in ${this.root}`);
    return this.deleteLegacy(file);
  }

  private deleteLegacy(file: LegacyFile): string[] {
    const storage = join(this.root, STORAGE_DIR);
    const body = this.loadLegacy(file);
    const targets: string[] = [];
    for (const m of body.messages) {
      const partDir = join(storage, "part", text(m.row, "id") ?? "");
      if (existsSync(partDir)) targets.push(realPathInside(this.root, partDir, "opencode"));
    }
    const messageDir = join(storage, "message", file.id);
    if (existsSync(messageDir)) targets.push(realPathInside(this.root, messageDir, "opencode"));
    const sessionFile = lstatSync(file.path).isSymbolicLink()
      ? file.path
      : realPathInside(this.root, file.path, "opencode");
    for (const t of targets) rmSync(t, { recursive: true, force: true });
    unlinkSync(sessionFile);
    return [sessionFile, ...targets];
  }
}

/** A project row for an id txcript could not find in the database. */
function defaultProject(id: string, session: Row): Row {
  const now = typeof session.time_updated === "number" ? session.time_updated : 0;
  return {
    id,
    worktree: id === GLOBAL_PROJECT ? "/" : (text(session, "directory") ?? "/"),
    vcs: id === GLOBAL_PROJECT ? null : "git",
    time_created: now,
    time_updated: now,
    sandboxes: "[]",
  };
}

interface Column {
  name: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

/**
 * The INSERT for `rows` into `table`, or a refusal when the schema has
 * drifted: a column our rows fill that the table lacks, or a required
 * column (NOT NULL, no default) that our rows leave empty.
 */
function planInsert(
  db: Db,
  table: string,
  rows: readonly Row[],
  file: string,
): { sql: string; columns: string[] } {
  const columns = db.prepare<[], Column>(`PRAGMA table_info(${quoteIdentifier(table)})`).all();
  if (columns.length === 0) {
    throw new UnsupportedError("opencode", `the database has no ${table} table`, { file });
  }
  const known = new Set(columns.map((c) => c.name));
  const used = new Set<string>();
  for (const row of rows) {
    for (const [k, v] of Object.entries(row)) {
      if (known.has(k)) used.add(k);
      else if (v !== null && v !== undefined) {
        throw new UnsupportedError(
          "opencode",
          `schema drift: the ${table} table has no column ${k} (written by another OpenCode version?)`,
          { file },
        );
      }
    }
  }
  for (const c of columns) {
    if (c.notnull && c.dflt_value === null && c.pk === 0) {
      const missing = rows.some((r) => r[c.name] === null || r[c.name] === undefined);
      if (missing) {
        throw new UnsupportedError(
          "opencode",
          `schema drift: ${table}.${c.name} is required and txcript does not know what to put in it (a newer OpenCode?)`,
          { file },
        );
      }
    }
  }
  const names = columns.map((c) => c.name).filter((n) => used.has(n));
  return {
    sql: `INSERT INTO ${quoteIdentifier(table)} (${names.map(quoteIdentifier).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    columns: names,
  };
}

function bind(v: SqlValue | undefined): SqlValue {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v);
  return v ?? null;
}

/** The first of `rows`' ids already in `table`, if any. */
function firstTaken(db: Db, table: string, rows: readonly Row[]): string | undefined {
  const stmt = db.prepare(`SELECT 1 FROM ${quoteIdentifier(table)} WHERE id = ?`);
  for (const r of rows) {
    const id = text(r, "id");
    if (id !== undefined && stmt.get(id) !== undefined) return id;
  }
  return undefined;
}

interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
}

/**
 * Remove session `id`'s rows: its parts, then every row of any table that
 * references the session (messages, todos, shares, OpenCode's newer
 * per-session tables, found from the schema's foreign keys), its events
 * (`event`/`event_sequence` keyed by the session as aggregate), then the
 * session row. Rows of other sessions are never touched.
 */
function deleteRows(db: Db, id: string): void {
  const tables = db
    .prepare<[], string>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .pluck()
    .all();
  const q = quoteIdentifier;
  const columnsOf = (t: string) =>
    db
      .prepare<[], Column>(`PRAGMA table_info(${q(t)})`)
      .all()
      .map((c) => c.name);
  // Rows referencing the session's messages first (parts), then the session's own.
  for (const t of tables) {
    if (t === MESSAGE_TABLE || t === SESSION_TABLE) continue;
    const fks = db.prepare<[], ForeignKey>(`PRAGMA foreign_key_list(${q(t)})`).all();
    for (const fk of fks) {
      if (fk.table === MESSAGE_TABLE && (fk.to === null || fk.to === "id")) {
        db.prepare(
          `DELETE FROM ${q(t)} WHERE ${q(fk.from)} IN (SELECT id FROM ${MESSAGE_TABLE} WHERE session_id = ?)`,
        ).run(id);
      }
    }
  }
  if (columnsOf(PART_TABLE).includes("session_id"))
    db.prepare(`DELETE FROM ${PART_TABLE} WHERE session_id = ?`).run(id);
  for (const t of tables) {
    if (t === SESSION_TABLE) continue;
    const fks = db.prepare<[], ForeignKey>(`PRAGMA foreign_key_list(${q(t)})`).all();
    for (const fk of fks) {
      if (fk.table === SESSION_TABLE && (fk.to === null || fk.to === "id")) {
        db.prepare(`DELETE FROM ${q(t)} WHERE ${q(fk.from)} = ?`).run(id);
      }
    }
  }
  // The event log keys a session's events by the session id as aggregate.
  for (const t of ["event", "event_sequence"]) {
    if (tables.includes(t) && columnsOf(t).includes("aggregate_id"))
      db.prepare(`DELETE FROM ${q(t)} WHERE aggregate_id = ?`).run(id);
  }
  db.prepare(`DELETE FROM ${SESSION_TABLE} WHERE id = ?`).run(id);
}
