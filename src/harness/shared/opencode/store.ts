/**
 * The store of an OpenCode-family CLI (its flavor says which): the shared
 * SQLite database in the CLI's data directory (OpenCode: `opencode.db` in
 * `$TXCRIPT_OPENCODE_ROOT`, else `$XDG_DATA_HOME/opencode`, else
 * `~/.local/share/opencode`; Kilo: `kilo.db` in `.../kilo`, `KILO_DB`
 * naming another file), and the JSON files of OpenCode before 1.2
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
 *
 * This file keeps the store's methods; the rows it reads are in
 * store-rows.ts, the writing in store-write.ts, the JSON layout in
 * store-legacy.ts and a first database in store-create.ts.
 */

import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { nonEmpty } from "../../../env.js";
import { InvalidRequestError, NotFoundError } from "../../../errors.js";
import { assignDefined } from "../../../json.js";
import { checkPathComponent } from "../../../paths.js";
import { type Db, readSnapshot } from "../../../sqlite.js";
import { timestampFromMillis } from "../../../time.js";
import {
  type Discovered,
  type DiscoverOptions,
  type Discovery,
  type Fingerprint,
  fileStamp,
  type Saved,
  type SaveOptions,
  type Skipped,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../../transcript.js";
import { skipReason } from "../store-files.js";
import { writeTransaction } from "../store-sqlite.js";
import {
  MESSAGE_TABLE,
  type OpenCodeBody,
  PART_TABLE,
  partKind,
  piecesOf,
  readData,
  SESSION_TABLE,
  type SqlValue,
  text,
} from "./body.js";
import type { OpenCodeFamily, OpenCodeFlavor } from "./flavor.js";
import { familyDatabase, familyRoot, OpenCodeFamilyProbe } from "./probe.js";
import { createFamilyDatabase } from "./store-create.js";
import { deleteLegacy, legacyFiles, legacyFingerprint, loadLegacy } from "./store-legacy.js";
import {
  checkTables,
  type Listed,
  listDatabase,
  selectSession,
  sessionIdFor,
  stringOr,
} from "./store-rows.js";
import { deleteRows, gitProject, insertSession } from "./store-write.js";
import { firstModel, metaFromSession, promptOf } from "./text.js";

export interface OpenCodeStoreOptions extends StoreOptions {
  /** How long to wait for a locked database, in ms (default 5000). */
  busyTimeoutMs?: number;
}

export class OpenCodeFamilyStore implements Store<OpenCodeBody> {
  readonly harness: OpenCodeFamily;
  readonly roots: readonly string[];
  /** The CLI's data directory: its database and `storage/` live here. */
  readonly root: string;
  readonly database: string;
  private readonly busyTimeoutMs: number;
  private readonly options: OpenCodeStoreOptions;

  constructor(
    private readonly flavor: OpenCodeFlavor,
    options: OpenCodeStoreOptions = {},
  ) {
    this.harness = flavor.harness;
    this.options = options;
    this.root = familyRoot(flavor, options);
    this.roots = [this.root];
    this.database = familyDatabase(flavor, this.root, options);
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  }

  private read<T>(read: (db: Db) => T): T {
    return readSnapshot(this.database, read, {
      harness: this.harness,
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
          checkTables(this.flavor, db, this.database);
          return db.prepare<[], SqlValue>(`SELECT id FROM ${SESSION_TABLE}`).pluck().all();
        });
        for (const id of rows) if (typeof id === "string") ids.add(id);
      } catch {
        // A damaged database holds no ids we can name; load and discover say why.
      }
    }
    for (const f of legacyFiles(this.root)) ids.add(f.id);
    return [...ids].sort();
  }

  stamp(): string | undefined {
    return new OpenCodeFamilyProbe(this.flavor, this.options).stamp();
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
        const listed = this.read((db) => listDatabase(this.flavor, db, this.database));
        listed.forEach((l, i) => {
          options.onProgress?.(i, listed.length);
          const found = this.discovered(l, this.database);
          seen.add(found.id);
          sessions.push(found);
        });
      } catch (cause) {
        skipped.push({ path: this.database, reason: skipReason(cause) });
      }
    }
    for (const file of legacyFiles(this.root, (s) => skipped.push(s))) {
      // A session OpenCode has migrated into the database is the database's.
      if (seen.has(file.id)) continue;
      try {
        const body = loadLegacy(this.flavor, this.root, file);
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
        found.fingerprint = legacyFingerprint(this.root, file, body);
        found.lane = found.lane ?? "legacy";
        sessions.push(found);
      } catch (cause) {
        skipped.push({ path: file.path, reason: skipReason(cause) });
      }
    }
    options.onProgress?.(sessions.length, sessions.length);
    return { sessions, skipped };
  }

  private discovered(l: Listed, path: string): Discovered {
    const meta = metaFromSession(l.session, l.model, l.prompt);
    const found: Discovered = {
      harness: this.harness,
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
        checkTables(this.flavor, db, this.database);
        return selectSession(db, id);
      });
      if (body !== undefined)
        return { meta: metaFromSession(body.session, firstModel(body), promptOf(body)), body };
    }
    const file = legacyFiles(this.root).find((f) => f.id === id);
    if (file !== undefined) {
      const body = loadLegacy(this.flavor, this.root, file);
      return { meta: metaFromSession(body.session, firstModel(body), promptOf(body)), body };
    }
    throw new NotFoundError(this.harness, `no ${this.flavor.name} session ${id} in ${this.root}`);
  }

  private checkId(id: string): void {
    checkPathComponent(id, this.harness);
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
          checkTables(this.flavor, db, this.database);
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
    const file = legacyFiles(this.root).find((f) => f.id === id);
    if (file === undefined) return undefined;
    try {
      return legacyFingerprint(this.root, file, loadLegacy(this.flavor, this.root, file));
    } catch {
      const st = statSync(file.path);
      return { files: [fileStamp(file.path, st)] };
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
        checkTables(this.flavor, db, this.database);
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
  // Writing

  save(transcript: Transcript<OpenCodeBody>, options: SaveOptions = {}): Saved {
    const body = transcript.body;
    const id = text(body.session, "id");
    if (id === undefined || !id.startsWith("ses")) {
      throw new InvalidRequestError(this.harness, "cannot save: the session has no ses_ id");
    }
    this.checkId(id);
    const project = body.project === undefined ? gitProject(this.flavor, body.session) : undefined;
    // Where the CLI has never run: its first database, as the CLI would create it.
    createFamilyDatabase(this.flavor, this.root, this.database);
    writeTransaction(this.flavor, this.database, this.busyTimeoutMs, (db) =>
      insertSession(this.flavor, db, this.database, id, body, project, options.overwrite === true),
    );
    return { harness: this.harness, id, path: this.database, files: [this.database] };
  }

  delete(id: string): string[] {
    this.checkId(id);
    if (this.hasDatabase()) {
      const removed = writeTransaction(this.flavor, this.database, this.busyTimeoutMs, (db) => {
        checkTables(this.flavor, db, this.database);
        if (db.prepare(`SELECT 1 FROM ${SESSION_TABLE} WHERE id = ?`).get(id) === undefined)
          return false;
        deleteRows(db, id);
        return true;
      });
      if (removed) return [this.database];
    }
    const file = legacyFiles(this.root).find((f) => f.id === id);
    if (file === undefined)
      throw new NotFoundError(this.harness, `no ${this.flavor.name} session ${id} in ${this.root}`);
    return deleteLegacy(this.flavor, this.root, file);
  }
}
