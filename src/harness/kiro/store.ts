/**
 * Kiro CLI's store, read-only: `~/.kiro/sessions/cli/<id>.jsonl` (the
 * append-only log) beside `<id>.json` (SessionData) and, while a session
 * runs, `<id>.lock`. txcript does not write or delete Kiro sessions: see
 * `save`.
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonObject } from "../../common.js";
import { NotFoundError, ParseError, UnsupportedError } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import { assignDefined, jsonFromText } from "../../json.js";
import { checkPathComponent } from "../../paths.js";
import { EPOCH, timestampFromMillis } from "../../time.js";
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
import { readSessionText } from "../shared/store-files.js";
import {
  deleteRefusal,
  discoverEach,
  discoverLane,
  laneMeta,
  laneRow,
  listedFingerprint,
} from "../shared/store-read-only.js";
import { agentKind, agentMeta, payloadOf, timeOf } from "./agent-meta.js";
import { parseAgent } from "./agent-text.js";
import { entryKind, type KiroAgentBody, type KiroBody, type KiroSessionBody, str } from "./body.js";
import { columnTime, conversationMeta, historyOf } from "./conversation-meta.js";
import { kiroMeta, kiroTime } from "./meta.js";
import {
  AGENT_MESSAGES,
  AGENT_METADATA,
  type AgentSession,
  agentFingerprint,
  agentSessions,
  kiroIndexView,
  kiroRoot,
  LOG_SUFFIX,
  legacyDatabase,
  logNames,
  SESSIONS_DIR,
  sessionFingerprint,
} from "./probe.js";
import { type KiroConversation, readConversations } from "./store-conversations.js";
import { firstPromptTime, parseKiroSession } from "./text.js";

/** Why `continue --with kiro` refuses, in one line. */
const WRITE_REFUSAL =
  "txcript reads Kiro CLI sessions but does not write them: no Kiro CLI build was run here to prove a written session resumes";

/** Messages as the log adds them (an estimate: resets and cancels are not replayed here). */
function messageEntries(entries: readonly JsonObject[]): number {
  return entries.filter((e) => {
    const k = entryKind(e);
    return k === "Prompt" || k === "AssistantMessage" || k === "ToolResults";
  }).length;
}

/** An estimate: each prompt, and each turn's reply (a `user` row and a `turn_start` row each). */
function agentMessageCount(rows: readonly JsonObject[]): number {
  return rows.filter((r) => {
    const p = payloadOf(r);
    const k = p === undefined ? undefined : agentKind(p);
    return k === "user" || k === "turn_start";
  }).length;
}

/**
 * An estimate for a subagent's transcript, which has no `user` or turn
 * rows [KAS spec 3.4]: each tool or nested subagent result and the reply
 * before it, and a last reply.
 */
function subMessageCount(rows: readonly JsonObject[]): number {
  const results = rows.filter((r) => {
    const p = payloadOf(r);
    const k = p === undefined ? undefined : agentKind(p);
    return k === "tool_result" || k === "sub_agent_complete";
  }).length;
  return rows.length === 0 ? 0 : results * 2 + 1;
}

/** A conversation's fingerprint: the shared database, its row's `updated_at` and value length. */
function conversationFingerprint(db: string, c: KiroConversation): Fingerprint {
  const mtime_ms = c.body.updated_at ?? c.body.created_at ?? 0;
  return { files: [{ path: db, mtime_ms, size: c.bytes }] };
}

export class KiroStore implements Store<KiroBody> {
  /** The last root transcript's subagent starts (subStarts). */
  private lastRoot:
    | { path: string; mtimeMs: number; size: number; starts: ReadonlyMap<string, JsonObject> }
    | undefined;
  readonly harness = "kiro" as const;
  readonly roots: readonly string[];
  readonly root: string;
  readonly sessionsDir: string;
  /** The older engine's database, read when it exists. */
  readonly legacyDatabase: string | undefined;
  readonly scan?: () => Fingerprint[];
  readonly stamp?: () => string | undefined;

  constructor(options: StoreOptions = {}) {
    this.root = kiroRoot(options);
    this.legacyDatabase = legacyDatabase(options);
    this.roots = [this.root];
    this.sessionsDir = join(this.root, SESSIONS_DIR);
    const view = kiroIndexView(this.root, this.legacyDatabase);
    if (view.scan) this.scan = view.scan;
    if (view.stamp) this.stamp = view.stamp;
  }

  /** The older engine's database when it exists. */
  private database(): string | undefined {
    const db = this.legacyDatabase;
    return db !== undefined && isRegularFile(db) ? db : undefined;
  }

  private logIds(): string[] {
    return logNames(this.sessionsDir).map((n) => n.slice(0, -LOG_SUFFIX.length));
  }

  /** An agent-engine session by id (the first bucket's when two hold it). */
  private agentSession(id: string): AgentSession | undefined {
    return agentSessions(this.root).sessions.find((s) => s.id === id);
  }

  ids(): string[] {
    const ids = new Set([...this.logIds(), ...agentSessions(this.root).sessions.map((s) => s.id)]);
    const db = this.database();
    if (db !== undefined) {
      try {
        for (const c of readConversations(db).conversations) ids.add(c.id);
      } catch {
        // An unreadable database lists nothing here; discovery names it.
      }
    }
    return [...ids].sort();
  }

  /** A conversation of the older engine, when the id names one and no v3 session has it. */
  private conversation(id: string): { db: string; row: KiroConversation } | undefined {
    return laneRow(
      this.database(),
      () => this.logIds().includes(id),
      (db) => readConversations(db, id).conversations[0],
    );
  }

  private conversationTranscript(db: string, c: KiroConversation): Transcript<KiroBody> {
    return { meta: laneMeta(conversationMeta(c.body, c.id), c.id, db), body: c.body };
  }

  private metadata(path: string): JsonObject {
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
    const older = this.conversation(id);
    if (older !== undefined) return this.conversationTranscript(older.db, older.row);
    const agent = this.logIds().includes(id) ? undefined : this.agentSession(id);
    if (agent !== undefined) return this.loadAgent(agent);
    return this.loadSession(id);
  }

  /**
   * An agent-engine session: its transcript read as its rows, `session.json`
   * beside it. A subagent's transcript has no metadata of its own: it takes
   * its root's folder and model, and its Body keeps no `session.json`.
   */
  private loadAgent(s: AgentSession): Transcript<KiroAgentBody> {
    const t = parseAgent(readSessionText("kiro", s.messages), s.messages);
    const metadata = this.metadata(join(s.dir, AGENT_METADATA));
    const session = s.parent === undefined ? metadata : {};
    const meta = agentMeta(session, s.id);
    // Kiro finds a session by its folder's name, whatever the metadata says.
    meta.id = s.id;
    let start: JsonObject | undefined;
    if (s.parent !== undefined) {
      const root = agentMeta(metadata);
      if (root.cwd) meta.cwd = root.cwd;
      if (root.model) meta.model = root.model;
      start = this.subStart(s);
      const name = start === undefined ? undefined : str(payloadOf(start), "subAgentName");
      if (name) meta.title = name;
      // It began when its root started it.
      const began = start === undefined ? undefined : timeOf(start.timestamp);
      assignDefined(meta, "timestamp", began);
    }
    if (meta.timestamp === EPOCH)
      meta.timestamp =
        t.meta.timestamp !== EPOCH
          ? t.meta.timestamp
          : timestampFromMillis(statSync(s.messages).mtimeMs);
    const body: KiroAgentBody = { layout: "agent", session, rows: t.body.rows };
    assignDefined(body, "start", start);
    return { meta, body };
  }

  /**
   * The root's `sub_agent_start` row naming a subagent's transcript, when
   * the root's `messages.jsonl` reads and holds one; a root that does not
   * read leaves the subagent without it (the root's own listing names why).
   */
  private subStart(s: AgentSession): JsonObject | undefined {
    const name = s.id.slice((s.parent ?? "").length + 1);
    return this.subStarts(join(s.dir, AGENT_MESSAGES))?.get(name);
  }

  /**
   * A root's `sub_agent_start` rows by the transcript each names (the first
   * of each). The last root's are kept while its file is unchanged: a
   * listing meets a root's subagents one after another, and each would
   * otherwise parse the root again.
   */
  private subStarts(path: string): ReadonlyMap<string, JsonObject> | undefined {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st === undefined) return undefined;
    const last = this.lastRoot;
    if (last?.path === path && last.mtimeMs === st.mtimeMs && last.size === st.size)
      return last.starts;
    let rows: JsonObject[];
    try {
      rows = parseAgent(readSessionText("kiro", path), path).body.rows;
    } catch {
      return undefined;
    }
    const starts = new Map<string, JsonObject>();
    for (const r of rows) {
      const p = payloadOf(r);
      const sub = p?.type === "sub_agent_start" ? p.subSessionId : undefined;
      if (typeof sub === "string" && !starts.has(sub)) starts.set(sub, r);
    }
    this.lastRoot = { path, mtimeMs: st.mtimeMs, size: st.size, starts };
    return starts;
  }

  private loadSession(id: string): Transcript<KiroSessionBody> {
    const path = join(this.sessionsDir, `${id}${LOG_SUFFIX}`);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile())
      throw new NotFoundError("kiro", `no Kiro CLI session ${id} in ${this.sessionsDir}`);
    const t = parseKiroSession(readFileSync(path, "utf8"), path);
    const session = this.metadata(join(this.sessionsDir, `${id}.json`));
    const meta = kiroMeta(session, id);
    // Kiro finds a session by its files' name, whatever the metadata says.
    meta.id = id;
    if (meta.timestamp === EPOCH)
      meta.timestamp =
        firstPromptTime(t.body.entries) ?? timestampFromMillis(statSync(path).mtimeMs);
    return { meta, body: { session, entries: t.body.entries } };
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const ids = this.logIds();
    const found = discoverEach(
      ids,
      (id) => join(this.sessionsDir, `${id}${LOG_SUFFIX}`),
      (id, path): Discovered => {
        checkPathComponent(id, "kiro");
        const t = this.loadSession(id);
        const fingerprint = sessionFingerprint(this.sessionsDir, id);
        const newest = Math.max(...fingerprint.files.map((f) => f.mtime_ms));
        return {
          harness: "kiro",
          id,
          path,
          meta: t.meta,
          updated: kiroTime(t.body.session.updated_at) ?? timestampFromMillis(newest),
          message_count: messageEntries(t.body.entries),
          fingerprint,
        };
      },
      options,
    );
    const taken = new Set(ids);
    this.discoverAgents(taken, found, options);
    const db = this.database();
    if (db !== undefined) this.discoverConversations(db, taken, found);
    return found;
  }

  /** The agent engine's sessions; an id the 2.x engine holds, or an earlier bucket, is skipped. */
  private discoverAgents(taken: Set<string>, into: Discovery, options: DiscoverOptions): void {
    const { sessions, repeats } = agentSessions(this.root);
    for (const r of repeats)
      into.skipped.push({
        path: join(r.dir, AGENT_MESSAGES),
        reason: `Kiro session ${r.id} is also in an earlier workspace folder, which is read`,
      });
    const fresh = sessions.filter((s) => !taken.has(s.id));
    const read = discoverEach(
      fresh,
      (s) => s.messages,
      (s, path): Discovered => {
        checkPathComponent(s.id, "kiro");
        const t = this.loadAgent(s);
        const fingerprint = agentFingerprint(s);
        const newest = Math.max(...fingerprint.files.map((f) => f.mtime_ms));
        const session = t.body.session;
        const sub = s.parent !== undefined;
        const d: Discovered = {
          harness: "kiro",
          id: s.id,
          path,
          meta: t.meta,
          updated: sub
            ? timestampFromMillis(fingerprint.files[0]?.mtime_ms ?? newest)
            : (kiroTime(session.lastModifiedAt) ?? timestampFromMillis(newest)),
          message_count: sub ? subMessageCount(t.body.rows) : agentMessageCount(t.body.rows),
          fingerprint,
          lane: sub ? "subagent" : "agent",
        };
        const parent = s.parent ?? session.parentSessionId;
        if (typeof parent === "string" && parent !== "") d.parent_id = parent;
        if (typeof session.status === "string") d.status = session.status;
        return d;
      },
      options,
    );
    into.sessions.push(...read.sessions);
    into.skipped.push(...read.skipped);
    for (const s of fresh) taken.add(s.id);
  }

  /** The older engine's conversations, each with the database as its path. */
  private discoverConversations(db: string, taken: ReadonlySet<string>, into: Discovery): void {
    const read = discoverLane(
      into,
      { harness: "kiro", db, taken },
      () => readConversations(db),
      (r) => r.conversations,
      (c) => {
        const meta = this.conversationTranscript(db, c).meta;
        const updated = columnTime(c.body.updated_at) ?? meta.timestamp;
        const fingerprint = conversationFingerprint(db, c);
        return {
          id: c.id,
          meta,
          updated,
          message_count: historyOf(c.body).length * 2,
          fingerprint,
        };
      },
    );
    if (read !== undefined && read.unreadable > 0)
      into.skipped.push({
        path: db,
        reason: `${read.unreadable} Kiro CLI conversation row(s) whose value is not a conversation JSON object with an id`,
      });
  }

  fingerprint(id: string): Fingerprint | undefined {
    try {
      checkPathComponent(id, "kiro");
      const older = this.conversation(id);
      if (older !== undefined) return conversationFingerprint(older.db, older.row);
    } catch {
      return undefined;
    }
    if (!this.logIds().includes(id)) {
      const agent = this.agentSession(id);
      if (agent !== undefined) return agentFingerprint(agent);
    }
    return listedFingerprint(
      id,
      () => this.logIds(),
      () => sessionFingerprint(this.sessionsDir, id),
    );
  }

  save(): Saved {
    throw new UnsupportedError("kiro", WRITE_REFUSAL);
  }

  delete(): string[] {
    throw deleteRefusal("kiro", "Kiro CLI sessions");
  }
}
