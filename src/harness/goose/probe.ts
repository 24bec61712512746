/**
 * What the index checks of Goose's store before every command: where its
 * data folder is (`<data>/sessions/sessions.db` and the legacy
 * `<data>/sessions/<id>.jsonl` files), and a stamp over those files' stats.
 * No database is opened here.
 */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { nonEmpty, storeRoot, xdgDataHome } from "../../env.js";
import { errnoCode } from "../../errors.js";
import type { StoreOptions, StoreProbe } from "../../transcript.js";
import { fileState } from "../shared/probe.js";

export const SESSIONS_DIR = "sessions";
export const DATABASE = "sessions.db";

/**
 * Goose's data directory: an explicit root, `TXCRIPT_GOOSE_ROOT`, Goose's
 * own `GOOSE_PATH_ROOT` (whose `data/` it uses), `XDG_DATA_HOME/goose`,
 * then `~/.local/share/goose` (the etcetera XDG strategy Goose uses).
 */
export function gooseRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_GOOSE_ROOT", (env) => {
    const pathRoot = nonEmpty(env.GOOSE_PATH_ROOT);
    return pathRoot !== undefined ? join(pathRoot, "data") : join(xdgDataHome(env), "goose");
  });
}

/** The legacy `<id>.jsonl` session files, by name (none when the folder is missing). */
export function legacyNames(sessionsDir: string): string[] {
  try {
    return readdirSync(sessionsDir)
      .filter((name) => name.endsWith(".jsonl") && name.length > ".jsonl".length)
      .sort();
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw cause;
  }
}

export class GooseProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly sessionsDir: string;

  constructor(options: StoreOptions = {}) {
    const root = gooseRoot(options);
    this.roots = [root];
    this.sessionsDir = join(root, SESSIONS_DIR);
  }

  /** The database's, its -wal's and every legacy file's size and times. */
  stamp(): string | undefined {
    const db = join(this.sessionsDir, DATABASE);
    const files = [
      db,
      `${db}-wal`,
      ...legacyNames(this.sessionsDir).map((n) => join(this.sessionsDir, n)),
    ];
    return JSON.stringify(files.map((f) => [f, fileState(f)]));
  }
}
