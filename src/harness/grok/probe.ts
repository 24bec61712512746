/**
 * What the index checks of Grok's store before every command: where its
 * folder is (`$GROK_HOME`, else `~/.grok`; sessions under `sessions/`),
 * which session folders it holds (`sessions/<cwd group>/<uuid>/` with an
 * `updates.jsonl` or a `chat_history.jsonl`), from listings alone, and one
 * fingerprint per session from stat. No session file is opened here.
 */

import { join } from "node:path";
import { nonEmpty, storeRoot } from "../../env.js";
import { folderNames, isRegularFile, statOrUndefined } from "../../fsx.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";

const SESSIONS_DIR = "sessions";
export const UPDATES = "updates.jsonl";
export const HISTORY = "chat_history.jsonl";
export const SUMMARY = "summary.json";

/** One session folder: its id (the folder's name), its cwd group folder and its own folder. */
export interface GrokSession {
  id: string;
  group: string;
  dir: string;
}

/** Grok's folder: an explicit root, `TXCRIPT_GROK_ROOT`, `GROK_HOME`, then `~/.grok`. */
export function grokRoot(options: StoreOptions = {}): string {
  return storeRoot(
    options,
    "TXCRIPT_GROK_ROOT",
    (env, home) => nonEmpty(env.GROK_HOME) ?? join(home(), ".grok"),
  );
}

function isFolder(path: string): boolean {
  return statOrUndefined(path)?.isDirectory() === true;
}

/**
 * Every session folder, by id, sorted: `sessions/<group>/<id>/` holding
 * `updates.jsonl` or `chat_history.jsonl`. An id found in two groups is
 * read from the first group by name.
 */
export function grokSessions(root: string): Map<string, GrokSession> {
  const found = new Map<string, GrokSession>();
  const sessions = join(root, SESSIONS_DIR);
  for (const g of folderNames(sessions)) {
    const group = join(sessions, g);
    if (!isFolder(group)) continue;
    for (const id of folderNames(group)) {
      const dir = join(group, id);
      if (found.has(id) || !isFolder(dir)) continue;
      if (isRegularFile(join(dir, UPDATES)) || isRegularFile(join(dir, HISTORY)))
        found.set(id, { id, group, dir });
    }
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The files a session is read from that exist: `updates.jsonl` (or a stamp no file has) first. */
export function sessionFingerprint(s: GrokSession): Fingerprint {
  const files: Fingerprint["files"] = [];
  for (const name of [UPDATES, HISTORY, SUMMARY]) {
    const path = join(s.dir, name);
    const st = statOrUndefined(path);
    if (st?.isFile()) files.push(fileStamp(path, st));
    else if (name === UPDATES) files.push({ path, mtime_ms: 0, size: -1 });
  }
  return { files };
}

export class GrokProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = grokRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    return [...grokSessions(this.root).values()].map(sessionFingerprint);
  }
}
