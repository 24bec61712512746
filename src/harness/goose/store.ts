/**
 * Goose's store, read-only: `<data>/sessions/sessions.db` (tables
 * `sessions` and `messages`, schema version 9 at the cited commit) and the
 * legacy `<data>/sessions/<id>.jsonl` files, which Goose imports into the
 * database and leaves behind (a session in both is the database's). Reads
 * go through `readSnapshot`. txcript does not write or delete Goose
 * sessions: see `save`.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../common.js";
import { NotFoundError, StoreError, UnsupportedError } from "../../errors.js";
import { jsonFromText } from "../../json.js";
import { checkPathComponent } from "../../paths.js";
import { type Db, readSnapshot, type SqlValue, tableNames } from "../../sqlite.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
import {
  type Discovered,
  type DiscoverOptions,
  type Discovery,
  type Fingerprint,
  fileStamp,
  type Saved,
  type Skipped,
  type Store,
  type StoreOptions,
  type Transcript,
} from "../../transcript.js";
import { str } from "../shared/fields.js";
import { OneRootStore } from "../shared/one-root.js";
import { skipReason } from "../shared/store-files.js";
import { deleteRefusal, rowObject, sessionWithMessages } from "../shared/store-read-only.js";
import type { GooseBody } from "./body.js";
import { gooseMeta, gooseTime } from "./meta.js";
import { DATABASE, GooseProbe, gooseRoot, legacyNames, SESSIONS_DIR } from "./probe.js";
import { parseGoose } from "./text.js";

/** Why `continue --with goose` refuses, in one line. */
export const WRITE_REFUSAL =
  "txcript reads Goose sessions but does not write them: Goose keeps them in a versioned SQLite schema it migrates itself, and no Goose build was run to prove a written session resumes";

/** The newest schema version whose tables this reader was checked against. */
const KNOWN_SCHEMA_VERSION = 9;

function parsedColumn(
  value: unknown,
  file: string,
  at: string,
): JsonObject | JsonObject[keyof JsonObject] {
  if (typeof value !== "string") return null;
  try {
    return jsonFromText(value);
  } catch {
    throw new StoreError("goose", "a message's JSON column is not JSON", { file, at });
  }
}

function checkSchema(db: Db, file: string): void {
  const tables = tableNames(db);
  if (!tables.has("sessions") || !tables.has("messages"))
    throw new UnsupportedError(
      "goose",
      "not a Goose sessions database (no sessions/messages tables)",
      {
        file,
      },
    );
  if (tables.has("schema_version")) {
    const v = db.prepare<[], SqlValue>("SELECT MAX(version) FROM schema_version").pluck().get();
    if (typeof v === "number" && v > KNOWN_SCHEMA_VERSION)
      throw new UnsupportedError(
        "goose",
        `Goose session schema v${v} is newer than the v${KNOWN_SCHEMA_VERSION} this version reads`,
        { file },
      );
  }
}

/** A `messages` row as Goose's `Message` JSON, the row's own columns kept beside it. */
function messageFromRow(row: Record<string, unknown>, file: string): JsonObject {
  const at = `messages row ${String(row.id)}`;
  const message: JsonObject = {};
  if (typeof row.message_id === "string") message.id = row.message_id;
  message.role = typeof row.role === "string" ? row.role : null;
  message.created = typeof row.created_timestamp === "number" ? row.created_timestamp : null;
  message.content = parsedColumn(row.content_json, file, at);
  const metadata = parsedColumn(row.metadata_json, file, at);
  if (metadata !== null) message.metadata = metadata;
  if (typeof row.tokens === "number") message.tokens = row.tokens;
  return message;
}

export class GooseStore extends OneRootStore implements Store<GooseBody> {
  readonly harness = "goose" as const;
  readonly sessionsDir: string;
  readonly database: string;

  constructor(options: StoreOptions = {}) {
    super(gooseRoot(options));
    this.sessionsDir = join(this.root, SESSIONS_DIR);
    this.database = join(this.sessionsDir, DATABASE);
  }

  stamp(): string | undefined {
    return new GooseProbe({ root: this.root }).stamp();
  }

  private hasDatabase(): boolean {
    return statSync(this.database, { throwIfNoEntry: false })?.isFile() === true;
  }

  private read<T>(read: (db: Db) => T): T {
    return readSnapshot(
      this.database,
      (db) => {
        checkSchema(db, this.database);
        return read(db);
      },
      { harness: "goose" },
    );
  }

  private legacyIds(): string[] {
    return legacyNames(this.sessionsDir).map((n) => n.slice(0, -".jsonl".length));
  }

  ids(): string[] {
    const ids = new Set<string>(this.legacyIds());
    if (this.hasDatabase()) {
      try {
        const rows = this.read((db) =>
          db.prepare<[], SqlValue>("SELECT id FROM sessions").pluck().all(),
        );
        for (const id of rows) if (typeof id === "string") ids.add(id);
      } catch {
        // A damaged database names no ids; load and discover say why.
      }
    }
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const sessions: Discovered[] = [];
    const skipped: Skipped[] = [];
    const seen = new Set<string>();
    if (this.hasDatabase()) {
      try {
        const st = statSync(this.database);
        const rows = this.read((db) =>
          db
            .prepare<[], Record<string, unknown>>(
              "SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS txcript_count FROM sessions s ORDER BY s.id",
            )
            .all(),
        );
        for (const row of rows) {
          const { txcript_count: count, ...rest } = row;
          const session = rowObject(rest);
          // An unnamed session (rare: Goose names them) is titled by its first prompt.
          const named = str(session, "name") || str(session, "description");
          const meta = gooseMeta(session, "", named ? [] : this.userMessages(String(session.id)));
          if (meta.id === "") continue;
          seen.add(meta.id);
          const found: Discovered = {
            harness: "goose",
            id: meta.id,
            path: this.database,
            meta,
            updated: gooseTime(session.updated_at) ?? meta.timestamp,
            message_count: typeof count === "number" ? count : 0,
            fingerprint: { files: [fileStamp(this.database, st)] },
          };
          const type = session.session_type;
          if (typeof type === "string" && type !== "user") found.lane = type;
          sessions.push(found);
        }
      } catch (cause) {
        skipped.push({ path: this.database, reason: skipReason(cause) });
      }
    }
    for (const id of this.legacyIds()) {
      if (seen.has(id)) continue;
      const path = this.legacyPath(id);
      try {
        const t = this.loadLegacy(id);
        const st = statSync(path);
        sessions.push({
          harness: "goose",
          id,
          path,
          meta: t.meta,
          updated: gooseTime(t.body.session.updated_at) ?? timestampFromMillis(st.mtimeMs),
          message_count: t.body.messages.length,
          fingerprint: { files: [fileStamp(path, st)] },
          lane: "legacy",
        });
      } catch (cause) {
        skipped.push({ path, reason: skipReason(cause) });
      }
    }
    options.onProgress?.(sessions.length, sessions.length);
    return { sessions, skipped };
  }

  /** A database session's user messages, in order: what its title fallback reads. */
  private userMessages(id: string): JsonObject[] {
    return this.read((db) =>
      db
        .prepare<[string], Record<string, unknown>>(
          "SELECT * FROM messages WHERE session_id = ? AND role = 'user' ORDER BY id",
        )
        .all(id)
        .map((r) => messageFromRow(r, this.database)),
    );
  }

  private legacyPath(id: string): string {
    return join(this.sessionsDir, `${id}.jsonl`);
  }

  private loadLegacy(id: string): Transcript<GooseBody> {
    const path = this.legacyPath(id);
    const t = parseGoose(readFileSync(path, "utf8"), path);
    const meta = gooseMeta(t.body.session, id, t.body.messages);
    // Goose takes the id from the file's name, whatever the first line says.
    meta.id = id;
    if (meta.timestamp === EPOCH) meta.timestamp = timestampFromMillis(statSync(path).mtimeMs);
    return { meta, body: t.body };
  }

  load(id: string): Transcript<GooseBody> {
    checkPathComponent(id, "goose");
    if (this.hasDatabase()) {
      const body = this.read((db): GooseBody | undefined => {
        const found = sessionWithMessages(db, id, "id");
        if (found === undefined) return undefined;
        return {
          session: found.session,
          messages: found.messages.map((r) => messageFromRow(r, this.database)),
        };
      });
      if (body !== undefined) return { meta: gooseMeta(body.session, id, body.messages), body };
    }
    if (this.legacyIds().includes(id)) return this.loadLegacy(id);
    throw new NotFoundError("goose", `no Goose session ${id} in ${this.root}`);
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      checkPathComponent(id, "goose");
    } catch {
      return undefined;
    }
    for (const path of [this.database, this.legacyPath(id)]) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isFile() && (path !== this.database || this.ids().includes(id)))
        return { files: [fileStamp(path, st)] };
    }
    return undefined;
  }

  save(): Saved {
    throw new UnsupportedError("goose", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("goose", "Goose sessions");
  }
}
