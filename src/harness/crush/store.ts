/**
 * Crush's store: one SQLite `crush.db` per project data directory, the
 * projects named by `<root>/projects.json` (and the global workspace's
 * `<root>/.crush/crush.db`); tables `sessions` and `messages` as Crush's
 * goose migrations leave them (newest known: 20260127000000). Reads go
 * through `readSnapshot`; `save` adds one session in one transaction
 * (store-write.ts). txcript does not delete Crush sessions.
 */

import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { InvalidRequestError, NotFoundError, UnsupportedError } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import { assignDefined } from "../../json.js";
import { type Db, readSnapshot, type SqlValue } from "../../sqlite.js";
import {
  type Discovered,
  type DiscoverOptions,
  type Discovery,
  type Fingerprint,
  fileStamp,
  type Saved,
  type SaveOptions,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../transcript.js";
import { str } from "../shared/fields.js";
import { OneRootStore } from "../shared/one-root.js";
import { skipReason } from "../shared/store-files.js";
import { deleteRefusal, rowObject, sessionWithMessages } from "../shared/store-read-only.js";
import { writeTransaction } from "../shared/store-sqlite.js";
import type { CrushBody } from "./body.js";
import { crushMeta, crushTime, crushTranscript, promptTexts } from "./meta.js";
import {
  CrushProbe,
  crushRoot,
  PROJECTS,
  type ProjectDatabase,
  projectDatabases,
} from "./probe.js";
import { CRUSH_SCHEMA_VERSION } from "./schema.js";
import {
  CRUSH,
  checkTargetFile,
  createCrushDatabase,
  insertCrushSession,
  registerProject,
  targetDatabase,
} from "./store-write.js";

/** The newest Crush migration (goose version) whose tables this reader was checked against. */
const KNOWN_SCHEMA_VERSION = CRUSH_SCHEMA_VERSION;

export interface CrushStoreOptions extends StoreOptions {
  /** How long to wait for a locked database, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/** The columns txcript reads; any others are kept as they are. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  sessions: ["id", "title", "created_at", "updated_at"],
  messages: ["id", "session_id", "role", "parts", "created_at"],
};

/** The schema's migration version (Crush migrates with goose), when it records one. */
function schemaVersion(db: Db): number | undefined {
  try {
    const v = db
      .prepare<[], SqlValue>("SELECT MAX(version_id) FROM goose_db_version WHERE is_applied")
      .pluck()
      .get();
    return typeof v === "number" || typeof v === "bigint" ? Number(v) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuse what is not a Crush database, or one that lacks a column txcript
 * reads (naming the schema version, newer ones by name). A newer schema
 * whose columns are all there is read: Crush's migrations so far only add.
 */
function checkSchema(db: Db, file: string): void {
  const version = schemaVersion(db);
  const named =
    version === undefined
      ? "a Crush database with no migration record"
      : version > KNOWN_SCHEMA_VERSION
        ? `Crush schema ${version} (newer than ${KNOWN_SCHEMA_VERSION}, the newest this version knows)`
        : `Crush schema ${version}`;
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const have = new Set(
      db.prepare<[], SqlValue>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all(),
    );
    if (have.size === 0)
      throw new UnsupportedError("crush", `not a Crush database (no ${table} table)`, { file });
    const missing = columns.filter((c) => !have.has(c));
    if (missing.length > 0)
      throw new UnsupportedError(
        "crush",
        `${named}: table ${table} has no ${missing.join(", ")} column`,
        { file },
      );
  }
}

/** A task or title session Crush made for a parent: which. */
function laneOf(id: string): string {
  return id.startsWith("title-") ? "title" : "task";
}

export class CrushStore extends OneRootStore implements Store<CrushBody> {
  readonly harness = "crush" as const;

  private readonly busyTimeoutMs: number;

  constructor(options: CrushStoreOptions = {}) {
    super(crushRoot(options));
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  }

  stamp(): string | undefined {
    return new CrushProbe({ root: this.root }).stamp();
  }

  /** The project databases that exist as files. */
  private databases(): ProjectDatabase[] {
    return projectDatabases(this.root).databases.filter((d) => isRegularFile(d.path));
  }

  private read<T>(path: string, read: (db: Db) => T): T {
    return readSnapshot(
      path,
      (db) => {
        checkSchema(db, path);
        return read(db);
      },
      { harness: "crush" },
    );
  }

  /** Each database's session ids (a database that cannot be read names none). */
  private idsByDatabase(): { db: ProjectDatabase; ids: string[] }[] {
    return this.databases().map((db) => {
      try {
        const ids = this.read(db.path, (d) =>
          d.prepare<[], SqlValue>("SELECT id FROM sessions").pluck().all(),
        ).filter((id): id is string => typeof id === "string" && id !== "");
        return { db, ids };
      } catch {
        // A damaged database names no ids; load and discover say why.
        return { db, ids: [] };
      }
    });
  }

  ids(): string[] {
    return [...new Set(this.idsByDatabase().flatMap((d) => d.ids))].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const sessions: Discovered[] = [];
    const skipped: Discovery["skipped"] = [];
    const list = projectDatabases(this.root);
    if (list.problem !== undefined)
      skipped.push({ path: join(this.root, PROJECTS), reason: list.problem });
    const seen = new Map<string, string>();
    const databases = this.databases();
    databases.forEach((db, done) => {
      try {
        const st = statSync(db.path);
        const rows = this.read(db.path, (d) => this.listing(d));
        for (const { row, count, model, prompts } of rows) {
          const id = str(row, "id");
          if (!id) continue;
          const first = seen.get(id);
          if (first !== undefined) {
            skipped.push({ path: db.path, reason: `session ${id} is also in ${first}` });
            continue;
          }
          seen.set(id, db.path);
          const meta = crushMeta(row, db.cwd, prompts, model);
          const found: Discovered = {
            harness: "crush",
            id,
            path: db.path,
            meta,
            updated: crushTime(row.updated_at) ?? meta.timestamp,
            message_count: count,
            fingerprint: { files: [fileStamp(db.path, st)] },
          };
          const parent = str(row, "parent_session_id");
          if (parent) {
            found.parent_id = parent;
            found.lane = laneOf(id);
          }
          sessions.push(found);
        }
      } catch (cause) {
        skipped.push({ path: db.path, reason: skipReason(cause) });
      }
      options.onProgress?.(done + 1, databases.length);
    });
    return { sessions, skipped };
  }

  /** Every session row with what a listing needs: its countable rows, first model, and prompts when untitled. */
  private listing(db: Db) {
    const rows = db
      .prepare<[], Record<string, unknown>>(
        `SELECT s.*,
          (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id
             AND m.role IN ('user', 'assistant', 'tool')) AS txcript_count,
          (SELECT m.model FROM messages m WHERE m.session_id = s.id AND m.role = 'assistant'
             AND m.model IS NOT NULL AND m.model != '' ORDER BY m.created_at, m.rowid LIMIT 1) AS txcript_model
         FROM sessions s ORDER BY s.created_at, s.id`,
      )
      .all();
    const prompts = db.prepare<[string], Record<string, unknown>>(
      "SELECT role, parts FROM messages WHERE session_id = ? AND role = 'user' ORDER BY created_at, rowid",
    );
    return rows.map((r) => {
      const { txcript_count: count, txcript_model: model, ...rest } = r;
      const row = rowObject(rest);
      const untitled = !str(row, "title")?.trim();
      const id = str(row, "id") ?? "";
      return {
        row,
        count: typeof count === "number" ? count : 0,
        model: typeof model === "string" ? model : undefined,
        prompts: untitled ? promptTexts(prompts.all(id).map(rowObject)) : [],
      };
    });
  }

  /** The session's rows from one database, or undefined when it does not hold it. */
  private loadFrom(db: ProjectDatabase, id: string): CrushBody | undefined {
    return this.read(db.path, (d): CrushBody | undefined => {
      const found = sessionWithMessages(d, id, "created_at, rowid");
      if (found === undefined) return undefined;
      const body: CrushBody = { session: found.session, messages: found.messages.map(rowObject) };
      assignDefined(body, "cwd", db.cwd);
      return body;
    });
  }

  load(id: string): Transcript<CrushBody> {
    for (const { db, ids } of this.idsByDatabase()) {
      if (!ids.includes(id)) continue;
      const body = this.loadFrom(db, id);
      if (body !== undefined) return crushTranscript(body, id);
    }
    throw new NotFoundError("crush", `no Crush session ${id} in the projects under ${this.root}`);
  }

  fingerprint(id: string): Fingerprint | undefined {
    for (const { db, ids } of this.idsByDatabase()) {
      if (!ids.includes(id)) continue;
      const st = statSync(db.path, { throwIfNoEntry: false });
      return st?.isFile() ? { files: [fileStamp(db.path, st)] } : undefined;
    }
    return undefined;
  }

  /** SHA-256 of the session's own rows, so other sessions' writes to its database do not look like changes to it. */
  digest(id: string): string | undefined {
    for (const { db, ids } of this.idsByDatabase()) {
      if (!ids.includes(id)) continue;
      try {
        const body = this.loadFrom(db, id);
        if (body === undefined) return undefined;
        const hash = createHash("sha256");
        for (const row of [body.session, ...body.messages]) hash.update(`${JSON.stringify(row)}\n`);
        return hash.digest("hex");
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  /**
   * Add the session to its project's database (store-write.ts): the one
   * `projects.json` lists for its `cwd`, else `<root>/txcript/<name>-<hash>/`,
   * registered there afterwards; without a `cwd`, the global workspace's.
   */
  save(transcript: Transcript<CrushBody>, options: SaveOptions = {}): Saved {
    const body = transcript.body;
    const id = body.session.id;
    if (typeof id !== "string" || id === "" || /[\0\n\r]/.test(id))
      throw new InvalidRequestError("crush", "cannot save: the session row has no usable id");
    const { database, register, inside } = targetDatabase(this.root, body.cwd);
    checkTargetFile(database);
    createCrushDatabase(database, inside);
    writeTransaction(CRUSH, database, this.busyTimeoutMs, (db) =>
      insertCrushSession(db, database, id, body, options.overwrite === true),
    );
    const files = [database];
    if (register && body.cwd !== undefined)
      files.push(registerProject(this.root, body.cwd, dirname(database)));
    return { harness: "crush", id, path: database, files };
  }

  delete(): string[] {
    throw deleteRefusal("crush", "Crush sessions");
  }
}
