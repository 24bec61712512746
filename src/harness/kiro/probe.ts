/**
 * What the index checks of Kiro CLI's store before every command: where
 * its folder is (`~/.kiro`, sessions under `sessions/cli/`) and one
 * fingerprint per session from stat alone (the `<id>.jsonl` log first,
 * then the `<id>.json` metadata when present). No session file is opened.
 */

import { readdirSync, statSync } from "node:fs";
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
  sessionsDir: string,
  database: string | undefined,
): Pick<StoreProbe, "scan" | "stamp"> {
  const scan = () =>
    logNames(sessionsDir).map((n) =>
      sessionFingerprint(sessionsDir, n.slice(0, -LOG_SUFFIX.length)),
    );
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
    const view = kiroIndexView(join(root, SESSIONS_DIR), legacyDatabase(options));
    if (view.scan) this.scan = view.scan;
    if (view.stamp) this.stamp = view.stamp;
  }
}
