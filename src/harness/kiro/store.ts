/**
 * Kiro CLI's store, read-only: `~/.kiro/sessions/cli/<id>.jsonl` (the
 * append-only log) beside `<id>.json` (SessionData) and, while a session
 * runs, `<id>.lock`. txcript does not write or delete Kiro sessions: see
 * `save`.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import {
  describeCause,
  NotFoundError,
  ParseError,
  TxcriptError,
  UnsupportedError,
} from "../../errors.js";
import { jsonFromText } from "../../json.js";
import { checkPathComponent } from "../../paths.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  Skipped,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import { entryKind, type KiroBody } from "./body.js";
import { kiroMeta, kiroTime } from "./meta.js";
import {
  KiroProbe,
  kiroRoot,
  LOG_SUFFIX,
  legacyDatabase,
  logNames,
  SESSIONS_DIR,
  sessionFingerprint,
} from "./probe.js";
import { firstPromptTime, parseKiro } from "./text.js";

/** Why `continue --with kiro` refuses, in one line. */
const WRITE_REFUSAL =
  "txcript reads Kiro CLI sessions but does not write them: no Kiro CLI build was run here to prove a written session resumes";

/** What discovery says of the older engine's database. */
const LEGACY_UNREAD =
  "Kiro CLI's older SQLite conversations (conversations_v2) are not read by this version; its sessions under ~/.kiro/sessions/cli are";

/** Messages as the log adds them (an estimate: resets and cancels are not replayed here). */
function messageEntries(entries: readonly JsonObject[]): number {
  return entries.filter((e) => {
    const k = entryKind(e);
    return k === "Prompt" || k === "AssistantMessage" || k === "ToolResults";
  }).length;
}

export class KiroStore implements Store<KiroBody> {
  readonly harness = "kiro" as const;
  readonly roots: readonly string[];
  readonly root: string;
  readonly sessionsDir: string;
  /** The older engine's database, named in discovery when it exists, never read. */
  readonly legacyDatabase: string | undefined;

  constructor(options: StoreOptions = {}) {
    this.root = kiroRoot(options);
    this.legacyDatabase = legacyDatabase(options);
    this.roots = [this.root];
    this.sessionsDir = join(this.root, SESSIONS_DIR);
  }

  scan(): Fingerprint[] {
    return new KiroProbe({ root: this.root }).scan();
  }

  ids(): string[] {
    return logNames(this.sessionsDir).map((n) => n.slice(0, -LOG_SUFFIX.length));
  }

  private metadata(id: string): JsonObject {
    const path = join(this.sessionsDir, `${id}.json`);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (cause) {
      if (statSync(path, { throwIfNoEntry: false }) === undefined) return {};
      throw cause;
    }
    let value: unknown;
    try {
      value = jsonFromText(text);
    } catch {
      throw new ParseError("kiro", "the session's metadata is not JSON", { file: path });
    }
    if (!isJsonObject(value))
      throw new ParseError("kiro", "the session's metadata is not a JSON object", { file: path });
    return value;
  }

  load(id: string): Transcript<KiroBody> {
    checkPathComponent(id, "kiro");
    const path = join(this.sessionsDir, `${id}${LOG_SUFFIX}`);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile())
      throw new NotFoundError("kiro", `no Kiro CLI session ${id} in ${this.sessionsDir}`);
    const t = parseKiro(readFileSync(path, "utf8"), path);
    const session = this.metadata(id);
    const meta = kiroMeta(session, id);
    // Kiro finds a session by its files' name, whatever the metadata says.
    meta.id = id;
    if (meta.timestamp === EPOCH)
      meta.timestamp =
        firstPromptTime(t.body.entries) ?? timestampFromMillis(statSync(path).mtimeMs);
    return { meta, body: { session, entries: t.body.entries } };
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const sessions: Discovered[] = [];
    const skipped: Skipped[] = [];
    const ids = this.ids();
    const total = ids.length;
    for (const id of ids) {
      const path = join(this.sessionsDir, `${id}${LOG_SUFFIX}`);
      try {
        const t = this.load(id);
        const fingerprint = sessionFingerprint(this.sessionsDir, id);
        const newest = Math.max(...fingerprint.files.map((f) => f.mtime_ms));
        sessions.push({
          harness: "kiro",
          id,
          path,
          meta: t.meta,
          updated: kiroTime(t.body.session.updated_at) ?? timestampFromMillis(newest),
          message_count: messageEntries(t.body.entries),
          fingerprint,
        });
      } catch (cause) {
        skipped.push({
          path,
          reason: cause instanceof TxcriptError ? cause.detail : describeCause(cause),
        });
      }
      options.onProgress?.(sessions.length + skipped.length, total);
    }
    const db = this.legacyDatabase;
    if (db !== undefined && statSync(db, { throwIfNoEntry: false })?.isFile())
      skipped.push({ path: db, reason: LEGACY_UNREAD });
    return { sessions, skipped };
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      checkPathComponent(id, "kiro");
    } catch {
      return undefined;
    }
    if (!this.ids().includes(id)) return undefined;
    return sessionFingerprint(this.sessionsDir, id);
  }

  save(): Saved {
    throw new UnsupportedError("kiro", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw new UnsupportedError(
      "kiro",
      "txcript does not delete Kiro CLI sessions: it only reads them",
    );
  }
}
