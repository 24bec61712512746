/**
 * Cursor's store, read-only: the agent CLI's chat stores
 * (`~/.cursor/chats/<hash>/<id>/store.db` beside `meta.json`) and agent
 * transcripts (`~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl`,
 * or `<id>.jsonl` directly in that folder), and the desktop editor's chats
 * in its global `state.vscdb` (store-desktop.ts). Databases are read
 * through `readSnapshot`. Plain-text transcripts (`<id>.txt`, the oldest
 * builds) are named in discovery and not read. txcript does not write or
 * delete Cursor sessions: see `save`.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type Json, type JsonObject } from "../../common.js";
import { NotFoundError, ParseError, UnsupportedError } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { checkPathComponent } from "../../paths.js";
import { type Db, readSnapshot, type SqlValue, tableNames } from "../../sqlite.js";
import { EPOCH, timestampFromMillis, timestampMillis } from "../../time.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  Store,
  StoreOptions,
  Transcript,
} from "../../transcript.js";
import {
  deleteRefusal,
  discoverEach,
  discoverLane,
  laneMeta,
  laneRow,
} from "../shared/store-read-only.js";
import { type CursorBody, type CursorChatBody, messageCount } from "./body.js";
import { desktopMeta, desktopTime, desktopUpdated } from "./desktop-meta.js";
import { turnGraph } from "./graph.js";
import { chatMeta, checkChatSchema, cursorTime } from "./meta.js";
import {
  CHAT_META,
  CHAT_PROMPTS,
  type CursorSource,
  cursorIndexView,
  cursorRoot,
  cursorSources,
  desktopDatabase,
  desktopDatabases,
  entries,
  sourceFingerprint,
  transcriptDirs,
} from "./probe.js";
import {
  type DesktopEntry,
  desktopIds,
  KNOWN_COMPOSER_VERSION,
  listDesktop,
  loadDesktop,
} from "./store-desktop.js";
import { composerFolders, workspaceFolder } from "./store-workspace.js";
import { parseCursor } from "./text.js";

/** Why `continue --with cursor` refuses, in one line. */
const WRITE_REFUSAL =
  "txcript reads Cursor sessions but does not write them: Cursor resumes from its chat store's protobuf turn graph, of which only the conversation fields are publicly known, and no Cursor build was run here to prove a written session resumes";

const PLAIN_UNREAD =
  "Cursor's plain-text agent transcripts (.txt, the oldest builds) are not read by this version; its .jsonl transcripts and chat stores are";

/** A SQL value as text: TEXT as it is, a BLOB as UTF-8. */
function sqlText(value: SqlValue): string | undefined {
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  return undefined;
}

/** A JSON object from text, or undefined when the text is not one. */
function jsonObjectOf(text: string): JsonObject | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const value = jsonFromText(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The agent record: the `meta` table's value, hex-encoded JSON or plain JSON. */
function agentRecord(value: SqlValue): JsonObject | undefined {
  const text = sqlText(value)?.trim();
  if (text === undefined) return undefined;
  if (/^(?:[0-9a-f]{2})+$/i.test(text))
    return jsonObjectOf(Buffer.from(text, "hex").toString("utf8"));
  return jsonObjectOf(text);
}

/** A blob's id as the graph names it: lower-case hex (a BLOB id as its bytes' hex). */
function blobKey(id: SqlValue): string | undefined {
  if (typeof id === "string") return id.toLowerCase();
  if (Buffer.isBuffer(id)) return id.toString("hex");
  return undefined;
}

function readChatDatabase(db: Db, file: string): Omit<CursorChatBody, "chat"> {
  const tables = tableNames(db);
  if (!tables.has("blobs"))
    throw new UnsupportedError("cursor", "not a Cursor chat store (no blobs table)", { file });
  const messages: JsonObject[] = [];
  // The protobuf blobs by id, for the turn graph.
  const graph = new Map<string, Uint8Array>();
  let opaque = 0;
  for (const [id, data] of db
    .prepare<[], [SqlValue, SqlValue]>("SELECT id, data FROM blobs ORDER BY rowid")
    .raw()
    .iterate()) {
    const text = sqlText(data);
    const blob = text === undefined ? undefined : jsonObjectOf(text);
    if (blob !== undefined) {
      messages.push(blob);
      continue;
    }
    opaque++;
    const key = blobKey(id);
    if (key !== undefined && (Buffer.isBuffer(data) || typeof data === "string"))
      graph.set(key, typeof data === "string" ? Buffer.from(data, "utf8") : data);
  }
  let agent: JsonObject = {};
  if (tables.has("meta")) {
    const value = db.prepare<[], SqlValue>("SELECT value FROM meta WHERE key = '0'").pluck().get();
    agent = (value === undefined ? undefined : agentRecord(value)) ?? {};
  }
  const body: Omit<CursorChatBody, "chat"> = { layout: "chat", agent, messages, opaque };
  const root = agent.latestRootBlobId;
  if (typeof root === "string")
    assignDefined(
      body,
      "turns",
      turnGraph(root, (k) => graph.get(k)),
    );
  return body;
}

/**
 * A desktop chat's fingerprint: the shared database, with the chat's own
 * last change (header or document `lastUpdatedAt`, else `createdAt`) for
 * its time and its count of bubble keys for its size.
 */
function desktopFingerprint(db: string, entry: DesktopEntry): Fingerprint {
  const { header, composer } = entry.body;
  const changed =
    desktopTime(header.lastUpdatedAt) ??
    desktopTime(composer.lastUpdatedAt) ??
    desktopTime(header.createdAt) ??
    desktopTime(composer.createdAt);
  const mtime_ms = changed === undefined ? 0 : timestampMillis(changed);
  return { files: [{ path: db, mtime_ms, size: entry.bubbles }] };
}

export class CursorStore implements Store<CursorBody> {
  readonly harness = "cursor" as const;
  readonly roots: readonly string[];
  readonly root: string;
  private readonly options: StoreOptions;
  readonly scan?: () => Fingerprint[];
  readonly stamp?: () => string | undefined;

  constructor(options: StoreOptions = {}) {
    this.root = cursorRoot(options);
    this.roots = [this.root];
    this.options = options;
    const view = cursorIndexView(this.root, () => this.desktops());
    if (view.scan) this.scan = view.scan;
    if (view.stamp) this.stamp = view.stamp;
  }

  /** The desktop databases that exist: the global one, then each workspace's. */
  private desktops(): string[] {
    return desktopDatabases(this.options);
  }

  ids(): string[] {
    const ids = new Set(cursorSources(this.root).keys());
    for (const db of this.desktops()) {
      try {
        for (const id of desktopIds(db)) ids.add(id);
      } catch {
        // An unreadable desktop database lists nothing here; discovery names it.
      }
    }
    return [...ids].sort();
  }

  private source(id: string): CursorSource {
    checkPathComponent(id, "cursor");
    const source = cursorSources(this.root).get(id);
    if (source === undefined)
      throw new NotFoundError("cursor", `no Cursor session ${id} in ${this.root}`);
    return source;
  }

  /**
   * A desktop chat, whole, from the first database holding it (the global
   * one first), or undefined when no desktop database holds it or the
   * agent CLI does. A workspace database that cannot be read is passed
   * over here (discovery names it); the global one's error is raised.
   */
  private desktopEntry(id: string): { db: string; row: DesktopEntry } | undefined {
    const [global, ...workspaces] = this.desktops();
    const find = (db: string) => {
      checkPathComponent(id, "cursor");
      return loadDesktop(db, id);
    };
    const taken = () => cursorSources(this.root).has(id);
    const first = laneRow(global, taken, find);
    if (first !== undefined) return first;
    for (const db of workspaces) {
      try {
        const row = laneRow(db, taken, find);
        if (row !== undefined) return row;
      } catch {
        // A damaged workspace database holds none of its chats for load; discovery names it.
      }
    }
    return undefined;
  }

  /** The editor finds a chat by its composer id, whatever the document says. */
  /**
   * A desktop chat's workspace folder: a workspace database's own chats
   * belong to its workspace; a global composer to the workspace whose
   * `composer.composerData` lists it (`folders`, built once when asked).
   */
  private placeFolder(db: string, entry: DesktopEntry, folders: () => Map<string, string>): void {
    const folder =
      db === desktopDatabase(this.options) ? folders().get(entry.id) : workspaceFolder(db);
    assignDefined(entry.body, "folder", folder);
  }

  /** The composer-to-folder map over the workspace databases, built on first use. */
  private lazyFolders(): () => Map<string, string> {
    let folders: Map<string, string> | undefined;
    const global = desktopDatabase(this.options);
    return () => {
      folders ??= composerFolders(this.desktops().filter((db) => db !== global));
      return folders;
    };
  }

  private desktopTranscript(db: string, entry: DesktopEntry): Transcript<CursorBody> {
    return { meta: laneMeta(desktopMeta(entry.body, entry.id), entry.id, db), body: entry.body };
  }

  private chatJson(dir: string): JsonObject {
    const path = join(dir, CHAT_META);
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return {};
    const value = jsonObjectOf(readFileSync(path, "utf8"));
    if (value === undefined)
      throw new ParseError("cursor", "the chat's meta.json is not a JSON object", { file: path });
    return value;
  }

  /** `prompt_history.json` as parsed, when the chat has one; a file that is not JSON is named. */
  private chatPromptsFile(dir: string): Json | undefined {
    const path = join(dir, CHAT_PROMPTS);
    if (!isRegularFile(path)) return undefined;
    try {
      return jsonFromText(readFileSync(path, "utf8"));
    } catch {
      throw new ParseError("cursor", "the chat's prompt_history.json is not JSON", { file: path });
    }
  }

  private loadSource(source: CursorSource): Transcript<CursorBody> {
    const mtime = () => timestampFromMillis(statSync(source.path).mtimeMs);
    if (source.kind === "transcript") {
      const t = parseCursor(readFileSync(source.path, "utf8"), source.path);
      // A transcript records no times: its file's last write stands for the session's.
      return { meta: { ...t.meta, id: source.id, timestamp: mtime() }, body: t.body };
    }
    const chat = this.chatJson(source.dir);
    checkChatSchema(chat, join(source.dir, CHAT_META));
    const read = readSnapshot(source.path, (db) => readChatDatabase(db, source.path), {
      harness: "cursor",
    });
    const body: CursorChatBody = { ...read, chat };
    assignDefined(body, "prompts", this.chatPromptsFile(source.dir));
    const meta = chatMeta(body, source.id);
    // Cursor finds a chat by its folder's name, whatever the record says.
    meta.id = source.id;
    if (meta.timestamp === EPOCH) meta.timestamp = mtime();
    return { meta, body };
  }

  load(id: string): Transcript<CursorBody> {
    const desktop = this.desktopEntry(id);
    if (desktop !== undefined) {
      this.placeFolder(desktop.db, desktop.row, this.lazyFolders());
      return this.desktopTranscript(desktop.db, desktop.row);
    }
    return this.loadSource(this.source(id));
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const sources = [...cursorSources(this.root).values()];
    const found = discoverEach(
      sources,
      (source) => source.path,
      (source): Discovered => {
        const t = this.loadSource(source);
        const fingerprint = sourceFingerprint(source);
        const newest = Math.max(...fingerprint.files.map((f) => f.mtime_ms));
        const updated =
          (t.body.layout === "chat" ? cursorTime(t.body.chat.updatedAtMs) : undefined) ??
          timestampFromMillis(newest);
        return {
          harness: "cursor",
          id: source.id,
          path: source.path,
          meta: t.meta,
          updated,
          message_count: messageCount(t.body),
          fingerprint,
        };
      },
      options,
    );
    for (const dir of transcriptDirs(this.root))
      for (const e of entries(dir))
        if (e.isFile() && e.name.endsWith(".txt"))
          found.skipped.push({ path: join(dir, e.name), reason: PLAIN_UNREAD });
    // One id once: the CLI's first, then the global database's, then each workspace's.
    const taken = new Set(sources.map((s) => s.id));
    const folders = this.lazyFolders();
    for (const db of this.desktops()) {
      const before = found.sessions.length;
      this.discoverDesktop(db, taken, found, folders);
      for (const d of found.sessions.slice(before)) taken.add(d.id);
    }
    return found;
  }

  /** The desktop chats, each listed with the database as its path; an id the CLI holds is the CLI's. */
  private discoverDesktop(
    db: string,
    taken: ReadonlySet<string>,
    into: Discovery,
    folders: () => Map<string, string>,
  ): void {
    const listing = discoverLane(
      into,
      { harness: "cursor", db, taken },
      () => listDesktop(db),
      (l) => l.chats,
      (entry) => {
        this.placeFolder(db, entry, folders);
        const meta = this.desktopTranscript(db, entry).meta;
        const updated = desktopUpdated(entry.body) ?? meta.timestamp;
        const fingerprint = desktopFingerprint(db, entry);
        return { id: entry.id, meta, updated, message_count: entry.bubbles, fingerprint };
      },
    );
    const newer = listing?.newer.filter((n) => !taken.has(n.id)) ?? [];
    if (newer.length > 0) {
      const versions = [...new Set(newer.map((n) => n.version))].sort((a, b) => a - b).join(", ");
      into.skipped.push({
        path: db,
        reason: `${newer.length} Cursor desktop chat(s) have composerData _v ${versions}, newer than the ${KNOWN_COMPOSER_VERSION} this version reads`,
      });
    }
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      const desktop = this.desktopEntry(id);
      if (desktop !== undefined) return desktopFingerprint(desktop.db, desktop.row);
      return sourceFingerprint(this.source(id));
    } catch {
      return undefined;
    }
  }

  save(): Saved {
    throw new UnsupportedError("cursor", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("cursor", "Cursor sessions");
  }
}
