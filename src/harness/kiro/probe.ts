/**
 * What the index checks of Kiro CLI's store before every command: where
 * its folder is (`~/.kiro`, sessions under `sessions/cli/`, and the agent
 * engine's under `sessions/<bucket>/<session>/`) and one fingerprint per
 * session from stat alone (the `<id>.jsonl` log first, then the `<id>.json`
 * metadata when present; an agent session's `messages.jsonl`, then its
 * `session.json`). No session file is opened.
 */

import { type Dirent, lstatSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { homeDir, nonEmpty, storeRoot } from "../../env.js";
import { errnoCode } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";
import { fileState } from "../shared/probe.js";

/** `sessions_dir()` in Kiro's chat-cli-v2 `util/paths.rs`: `~/.kiro/sessions/cli`. */
export const SESSIONS_DIR = join("sessions", "cli");
export const LOG_SUFFIX = ".jsonl";

/** Kiro's folder: an explicit root, `TXCRIPT_KIRO_ROOT`, then `~/.kiro`. */
export function kiroRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_KIRO_ROOT", (_env, home) => join(home(), ".kiro"));
}

/**
 * Where Kiro's older chat engine keeps its SQLite conversations:
 * `TXCRIPT_KIRO_DATABASE` when set; else, when no explicit root says to
 * read one folder only, `dirs::data_local_dir()/kiro-cli/data.sqlite3`.
 */
export function legacyDatabase(options: StoreOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const explicit = nonEmpty(env.TXCRIPT_KIRO_DATABASE);
  if (explicit !== undefined) return resolve(explicit);
  if (options.root !== undefined || nonEmpty(env.TXCRIPT_KIRO_ROOT) !== undefined) return undefined;
  const home = homeDir(env);
  const local =
    process.platform === "darwin"
      ? join(home, "Library", "Application Support")
      : process.platform === "win32"
        ? (nonEmpty(env.LOCALAPPDATA) ?? join(home, "AppData", "Local"))
        : (nonEmpty(env.XDG_DATA_HOME) ?? join(home, ".local", "share"));
  return join(local, "kiro-cli", "data.sqlite3");
}

/** The session logs `<id>.jsonl`, by name, sorted (none when the folder is missing). */
export function logNames(sessionsDir: string): string[] {
  try {
    return readdirSync(sessionsDir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(LOG_SUFFIX) && e.name.length > LOG_SUFFIX.length)
      .map((e) => e.name)
      .sort();
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw cause;
  }
}

/** A folder's entries, none when it is missing or not a folder. */
function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw cause;
  }
}

/**
 * An agent-engine session: its id, its folder and its transcript. A root
 * session's id is its folder's name (`sess_<uuid>`) and its transcript
 * `messages.jsonl`; a subagent's (`sub-executions/<uuid>.jsonl` in its
 * root's folder) is `<root id>.<uuid>`, since a fork copies the files it
 * references under the same names, and `parent` is the root's id.
 */
export interface AgentSession {
  id: string;
  dir: string;
  messages: string;
  parent?: string;
}

export const AGENT_MESSAGES = "messages.jsonl";
export const AGENT_METADATA = "session.json";
/** A session folder's subagent transcripts, flat (depth is in no path) [KAS spec 3.4]. */
const SUB_EXECUTIONS = "sub-executions";

/** A root session's subagent transcripts: every regular `sub-executions/<uuid>.jsonl`, by name. */
function subExecutions(root: AgentSession): AgentSession[] {
  const dir = join(root.dir, SUB_EXECUTIONS);
  return entriesOf(dir)
    .filter((e) => e.isFile() && e.name.endsWith(LOG_SUFFIX) && e.name.length > LOG_SUFFIX.length)
    .map((e) => ({
      id: `${root.id}.${e.name.slice(0, -LOG_SUFFIX.length)}`,
      dir: root.dir,
      messages: join(dir, e.name),
      parent: root.id,
    }));
}

/**
 * The agent engine's sessions: every `sessions/<bucket>/<session>/` (a
 * bucket other than `cli`, the 2.x engine's) whose `messages.jsonl` is a
 * regular file, buckets and sessions by name, each followed by its
 * subagents' transcripts. Links are not followed. An id already found in
 * an earlier bucket goes to `repeats` (its subagents with it).
 */
export function agentSessions(root: string): { sessions: AgentSession[]; repeats: AgentSession[] } {
  const sessions: AgentSession[] = [];
  const repeats: AgentSession[] = [];
  const seen = new Set<string>();
  const base = join(root, "sessions");
  for (const bucket of entriesOf(base)) {
    if (!bucket.isDirectory() || bucket.name === "cli") continue;
    for (const s of entriesOf(join(base, bucket.name))) {
      if (!s.isDirectory()) continue;
      const dir = join(base, bucket.name, s.name);
      const messages = join(dir, AGENT_MESSAGES);
      if (lstatSync(messages, { throwIfNoEntry: false })?.isFile() !== true) continue;
      const found: AgentSession = { id: s.name, dir, messages };
      if (seen.has(s.name)) repeats.push(found);
      else sessions.push(found, ...subExecutions(found));
      seen.add(s.name);
    }
  }
  return { sessions, repeats };
}

/**
 * An agent session's fingerprint: its transcript, then its (root's)
 * `session.json` when present, which a subagent takes its folder and
 * model from.
 */
export function agentFingerprint(s: AgentSession): Fingerprint {
  const files: Fingerprint["files"] = [];
  for (const path of [s.messages, join(s.dir, AGENT_METADATA)]) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile()) files.push(fileStamp(path, st));
    else if (path === s.messages) files.push({ path, mtime_ms: 0, size: -1 });
  }
  return { files };
}

/** A session's files as a fingerprint: the log, then its metadata when it exists. */
export function sessionFingerprint(sessionsDir: string, id: string): Fingerprint {
  const files: Fingerprint["files"] = [];
  for (const path of [join(sessionsDir, `${id}${LOG_SUFFIX}`), join(sessionsDir, `${id}.json`)]) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile()) files.push(fileStamp(path, st));
    else if (path.endsWith(LOG_SUFFIX)) files.push({ path, mtime_ms: 0, size: -1 });
  }
  return { files };
}

/**
 * The index's view of Kiro's sessions: `scan()` when every session has
 * files of its own; `stamp()` when the older engine's database exists,
 * since its conversations share that one file (the v3 fingerprints plus
 * the database's and its -wal's stats).
 */
export function kiroIndexView(
  root: string,
  database: string | undefined,
): Pick<StoreProbe, "scan" | "stamp"> {
  const sessionsDir = join(root, SESSIONS_DIR);
  const scan = () => [
    ...logNames(sessionsDir).map((n) =>
      sessionFingerprint(sessionsDir, n.slice(0, -LOG_SUFFIX.length)),
    ),
    ...agentSessions(root).sessions.map(agentFingerprint),
  ];
  if (database === undefined || !isRegularFile(database)) return { scan };
  return {
    stamp: () =>
      JSON.stringify([scan(), database, fileState(database), fileState(`${database}-wal`)]),
  };
}

export class KiroProbe implements StoreProbe {
  readonly roots: readonly string[];
  readonly scan?: () => Fingerprint[];
  readonly stamp?: () => string | undefined;

  constructor(options: StoreOptions = {}) {
    const root = kiroRoot(options);
    this.roots = [root];
    const view = kiroIndexView(root, legacyDatabase(options));
    if (view.scan) this.scan = view.scan;
    if (view.stamp) this.stamp = view.stamp;
  }
}
