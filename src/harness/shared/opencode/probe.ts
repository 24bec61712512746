/**
 * What the index checks of an OpenCode-family store before every command:
 * where its data folder and database are, and a stamp over the database's
 * and its -wal's stats. The database is not opened here, so a warm `list`
 * loads no SQLite reader of it.
 */

import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { type Env, nonEmpty, storeRoot, xdgDataHome } from "../../../env.js";
import type { StoreOptions, StoreProbe } from "../../../transcript.js";
import { fileState } from "../probe.js";
import type { OpenCodePlace } from "./flavor.js";

export const STORAGE_DIR = "storage";

/** The member's data folder for an environment (and an explicit root). */
export function familyRoot(place: OpenCodePlace, options: StoreOptions = {}): string {
  return storeRoot(options, place.rootVariable, (env) => join(xdgDataHome(env), place.dataDir));
}

/**
 * The database file in `root`: the member's variable when it names one (an
 * explicit root or `TXCRIPT_<HARNESS>_ROOT` ignores it, as it ignores
 * `XDG_DATA_HOME`), else the member's file name.
 */
export function familyDatabase(
  place: OpenCodePlace,
  root: string,
  options: StoreOptions = {},
): string {
  const env: Env = options.env ?? process.env;
  const explicit = nonEmpty(options.root) ?? nonEmpty(env[place.rootVariable]);
  const named =
    place.databaseVariable === undefined ? undefined : nonEmpty(env[place.databaseVariable]);
  if (explicit !== undefined || named === undefined || named === ":memory:")
    return join(root, place.database);
  return isAbsolute(named) ? named : join(root, named);
}

export class OpenCodeFamilyProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;
  private readonly database: string;

  constructor(place: OpenCodePlace, options: StoreOptions = {}) {
    this.root = familyRoot(place, options);
    this.roots = [this.root];
    this.database = familyDatabase(place, this.root, options);
  }

  /**
   * The database's and its -wal's size and times. Legacy session files can
   * change without their folders' times changing, so a store that has any
   * gives no stamp (and is discovered whole each time).
   */
  stamp(): string | undefined {
    if (existsSync(join(this.root, STORAGE_DIR, "session"))) return undefined;
    return JSON.stringify([
      this.database,
      fileState(this.database),
      fileState(`${this.database}-wal`),
    ]);
  }
}
