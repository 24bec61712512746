/**
 * What the index checks of OpenCode's store before every command: where
 * its data folder is, and a stamp over the database's and its -wal's
 * stats. The database is not opened here, so a warm `list` loads no
 * SQLite reader of it.
 */

import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { storeRoot, xdgDataHome } from "../../env.js";
import { errnoCode } from "../../errors.js";
import type { StoreOptions, StoreProbe } from "../../transcript.js";

export const DATABASE = "opencode.db";
export const STORAGE_DIR = "storage";

/** OpenCode's data directory for an environment (and an explicit root). */
export function openCodeRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_OPENCODE_ROOT", (env) => join(xdgDataHome(env), "opencode"));
}

export class OpenCodeProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;
  private readonly database: string;

  constructor(options: StoreOptions = {}) {
    this.root = openCodeRoot(options);
    this.roots = [this.root];
    this.database = join(this.root, DATABASE);
  }

  /**
   * The database's and its -wal's size and times. Legacy session files can
   * change without their folders' times changing, so a store that has any
   * gives no stamp (and is discovered whole each time).
   */
  stamp(): string | undefined {
    if (existsSync(join(this.root, STORAGE_DIR, "session"))) return undefined;
    const state = (path: string) => {
      try {
        const st = statSync(path);
        return [st.size, st.mtimeMs, st.ctimeMs, st.ino];
      } catch (cause) {
        if (errnoCode(cause) === "ENOENT") return null;
        throw cause;
      }
    };
    return JSON.stringify([this.database, state(this.database), state(`${this.database}-wal`)]);
  }
}
