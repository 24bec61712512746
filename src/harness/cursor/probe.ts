/**
 * What the index checks of Cursor's store before every command: where its
 * folder is (`~/.cursor`), which sessions it holds, from directory listings
 * alone, and one fingerprint per session from stat. The agent CLI leaves a
 * session in up to two places (docs/formats/cursor.md): an agent
 * transcript `projects/<slug>/agent-transcripts/<id>/<id>.jsonl` (older
 * builds: `agent-transcripts/<id>.jsonl`) and a chat store
 * `chats/<hash>/<id>/store.db`. A session found in both is read from its
 * chat store, which keeps times, models and tool results. The desktop
 * editor's chats share one database, so when it exists the probe stamps
 * rather than scans (`cursorIndexView`). No session file is opened here.
 */

import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import { errnoCode } from "../../errors.js";
import { isRegularFile } from "../../fsx.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";
import { fileState } from "../shared/probe.js";

const PROJECTS_DIR = "projects";
const TRANSCRIPTS_DIR = "agent-transcripts";
const CHATS_DIR = "chats";
const CHAT_DATABASE = "store.db";
export const CHAT_META = "meta.json";
const DESKTOP_DATABASE = "state.vscdb";
/** The editor's per-workspace state folders, beside `globalStorage` [C]. */
const WORKSPACES_DIR = "workspaceStorage";
/** The user's prompts beside `store.db` [S]. */
export const CHAT_PROMPTS = "prompt_history.json";

/** Where a session's messages are: its chat store, or its agent transcript. */
export type CursorSource =
  | { kind: "chat"; id: string; dir: string; path: string }
  | { kind: "transcript"; id: string; path: string };

/** Cursor's folder: an explicit root, `TXCRIPT_CURSOR_ROOT`, then `~/.cursor`. */
export function cursorRoot(options: StoreOptions = {}): string {
  const env = options.env ?? process.env;
  if (options.root !== undefined) return resolve(options.root);
  const explicit = nonEmpty(env.TXCRIPT_CURSOR_ROOT);
  if (explicit !== undefined) return resolve(explicit);
  return resolve(homeDir(env), ".cursor");
}

/** A folder's entries (none when it is missing or not a folder), sorted by name. */
export function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw cause;
  }
}

function isFile(path: string): boolean {
  return isRegularFile(path);
}

/** Every agent-transcripts folder under `projects/`. */
export function transcriptDirs(root: string): string[] {
  const projects = join(root, PROJECTS_DIR);
  return entries(projects)
    .filter((e) => e.isDirectory())
    .map((e) => join(projects, e.name, TRANSCRIPTS_DIR));
}

/**
 * Every session, by id: chat stores first, then transcripts (nested before
 * flat) for ids no chat store holds. Sorted by id.
 */
export function cursorSources(root: string): Map<string, CursorSource> {
  const found = new Map<string, CursorSource>();
  const chats = join(root, CHATS_DIR);
  for (const bucket of entries(chats).filter((e) => e.isDirectory())) {
    const bucketDir = join(chats, bucket.name);
    for (const session of entries(bucketDir).filter((e) => e.isDirectory())) {
      const dir = join(bucketDir, session.name);
      const path = join(dir, CHAT_DATABASE);
      if (!found.has(session.name) && isFile(path))
        found.set(session.name, { kind: "chat", id: session.name, dir, path });
    }
  }
  for (const dir of transcriptDirs(root)) {
    for (const e of entries(dir)) {
      const id = e.isDirectory() ? e.name : e.name.replace(/\.jsonl$/, "");
      if (found.has(id) || id === "" || (!e.isDirectory() && id === e.name)) continue;
      const path = e.isDirectory() ? join(dir, e.name, `${e.name}.jsonl`) : join(dir, e.name);
      if (isFile(path)) found.set(id, { kind: "transcript", id, path });
    }
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The files a session consists of: its main file first, then those beside it that exist. */
export function sourceFingerprint(source: CursorSource): Fingerprint {
  const files: Fingerprint["files"] = [];
  const paths =
    source.kind === "chat"
      ? [
          source.path,
          `${source.path}-wal`,
          join(source.dir, CHAT_META),
          join(source.dir, CHAT_PROMPTS),
        ]
      : [source.path];
  for (const path of paths) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile()) files.push(fileStamp(path, st));
    else if (path === source.path) files.push({ path, mtime_ms: 0, size: -1 });
  }
  return { files };
}

/**
 * The index's view of Cursor's sessions. Without the desktop database every
 * session has files of its own, so `scan()` fingerprints each from stat.
 * With it, many sessions share that one file, so the probe gives a
 * `stamp()` instead: the agent CLI's fingerprints and the database's and
 * its -wal's stats, any change to which re-discovers the store.
 */
export function cursorIndexView(
  root: string,
  desktops: () => string[],
): Pick<StoreProbe, "scan" | "stamp"> {
  const scan = () => [...cursorSources(root).values()].map(sourceFingerprint);
  if (desktops().length === 0) return { scan };
  return {
    stamp: () =>
      JSON.stringify([scan(), desktops().map((db) => [db, fileState(db), fileState(`${db}-wal`)])]),
  };
}

export class CursorProbe implements StoreProbe {
  readonly roots: readonly string[];
  readonly scan?: () => Fingerprint[];
  readonly stamp?: () => string | undefined;

  constructor(options: StoreOptions = {}) {
    const root = cursorRoot(options);
    this.roots = [root];
    const view = cursorIndexView(root, () => desktopDatabases(options));
    if (view.scan) this.scan = view.scan;
    if (view.stamp) this.stamp = view.stamp;
  }
}

/**
 * The desktop editor's global state database (table `cursorDiskKV`,
 * `composerData:`/`bubbleId:` rows; docs/formats/cursor.md):
 * `TXCRIPT_CURSOR_DESKTOP_DB` when set; else, when no explicit root says to
 * read one folder only, VS Code's user data folder for "Cursor".
 */
export function desktopDatabase(options: StoreOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const explicit = nonEmpty(env.TXCRIPT_CURSOR_DESKTOP_DB);
  if (explicit !== undefined) return resolve(explicit);
  if (options.root !== undefined || nonEmpty(env.TXCRIPT_CURSOR_ROOT) !== undefined)
    return undefined;
  const home = homeDir(env);
  const data =
    process.platform === "darwin"
      ? join(home, "Library", "Application Support")
      : process.platform === "win32"
        ? (nonEmpty(env.APPDATA) ?? join(home, "AppData", "Roaming"))
        : (nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, ".config"));
  return join(data, "Cursor", "User", "globalStorage", DESKTOP_DATABASE);
}

/**
 * Every desktop database that exists: the global one first, then, unless
 * `TXCRIPT_CURSOR_DESKTOP_DB` names one database, each workspace's
 * `workspaceStorage/<hash>/state.vscdb` beside `globalStorage` (where
 * older builds kept their chat panel [C]), by folder name.
 */
export function desktopDatabases(options: StoreOptions = {}): string[] {
  const global = desktopDatabase(options);
  if (global === undefined) return [];
  const found = isFile(global) ? [global] : [];
  if (nonEmpty((options.env ?? process.env).TXCRIPT_CURSOR_DESKTOP_DB) !== undefined) return found;
  const workspaces = join(dirname(dirname(global)), WORKSPACES_DIR);
  for (const e of entries(workspaces)) {
    const db = join(workspaces, e.name, DESKTOP_DATABASE);
    if (e.isDirectory() && isFile(db)) found.push(db);
  }
  return found;
}
