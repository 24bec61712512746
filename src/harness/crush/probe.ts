/**
 * What the index checks of Crush's store before every command: where its
 * global data directory is, the project databases its `projects.json`
 * names (`<data_dir>/crush.db`), and a stamp over those files' stats. The
 * small `projects.json` is read here; no database is opened.
 */

import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { isJsonObject } from "../../common.js";
import { nonEmpty, storeRoot, xdgDataHome } from "../../env.js";
import { errnoCode } from "../../errors.js";
import { parseBounded } from "../../json.js";
import type { StoreOptions, StoreProbe } from "../../transcript.js";
import { obj, str } from "../shared/fields.js";
import { fileState } from "../shared/probe.js";

export const PROJECTS = "projects.json";
const DATABASE = "crush.db";
/** Crush's default data directory name inside a project. */
const DATA_DIR = ".crush";
/** projects.json is a short list; a larger file is not Crush's. */
const MAX_PROJECTS_BYTES = 16 * 1024 * 1024;

/**
 * Crush's global data directory (where `crush.json` and `projects.json`
 * live): an explicit root, `TXCRIPT_CRUSH_ROOT`, Crush's own
 * `CRUSH_GLOBAL_DATA`, `XDG_DATA_HOME/crush`, then `~/.local/share/crush`.
 */
export function crushRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_CRUSH_ROOT", (env) => {
    const global = nonEmpty(env.CRUSH_GLOBAL_DATA);
    return global ?? join(xdgDataHome(env), "crush");
  });
}

/** One project database: its file and the project directory it serves, when known. */
export interface ProjectDatabase {
  path: string;
  cwd?: string;
}

/** What reading `projects.json` gave: the databases it names, or why it could not be read. */
export interface ProjectList {
  databases: ProjectDatabase[];
  /** Every entry of the list with a data directory, in its order, shared ones too. */
  entries: ProjectDatabase[];
  problem?: string;
}

/**
 * The databases Crush's `projects.json` names (most recently used first,
 * as Crush keeps the list; a data directory two projects share is listed
 * once, under the first), then the global workspace's own
 * `<root>/.crush/crush.db`. A missing file names none; an unreadable one
 * names none and says why.
 */
export function projectDatabases(root: string): ProjectList {
  const databases: ProjectDatabase[] = [];
  const entries: ProjectDatabase[] = [];
  const seen = new Set<string>();
  const add = (path: string, cwd: string | undefined) => {
    if (seen.has(path)) return;
    seen.add(path);
    databases.push(cwd === undefined ? { path } : { path, cwd });
  };
  let problem: string | undefined;
  const file = join(root, PROJECTS);
  try {
    const st = statSync(file);
    if (st.size > MAX_PROJECTS_BYTES) problem = `${PROJECTS} is larger than Crush writes`;
    else {
      const parsed = parseBounded(readFileSync(file, "utf8"));
      const projects = isJsonObject(parsed?.value) ? parsed.value.projects : undefined;
      if (!Array.isArray(projects)) problem = `${PROJECTS} is not Crush's project list`;
      else
        for (const item of projects) {
          const p = obj(item);
          const path = str(p, "path");
          const dataDir = str(p, "data_dir");
          if (!dataDir) continue;
          // Crush writes absolute paths; a relative one is the project's.
          const database = join(resolve(path ?? root, dataDir), DATABASE);
          if (path) entries.push({ path: database, cwd: path });
          add(database, path || undefined);
        }
    }
  } catch (cause) {
    const code = errnoCode(cause);
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problem = `${PROJECTS} cannot be read (${code ?? "error"})`;
  }
  add(join(root, DATA_DIR, DATABASE), root);
  return problem === undefined ? { databases, entries } : { databases, entries, problem };
}

export class CrushProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = crushRoot(options);
    this.roots = [this.root];
  }

  /** projects.json's, and every database's and its -wal's, size and times. */
  stamp(): string | undefined {
    const files = [join(this.root, PROJECTS)];
    for (const { path } of projectDatabases(this.root).databases) files.push(path, `${path}-wal`);
    return JSON.stringify(files.map((f) => [f, fileState(f)]));
  }
}
