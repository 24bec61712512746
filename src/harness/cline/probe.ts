/**
 * What the index checks of Cline's store before every command: where its
 * folders are, and one fingerprint per session from directory listings and
 * stat alone. Cline 3.x keeps `<sessions>/<id>/<id>.messages.json` and the
 * manifest `<id>.json`; a subagent `<id>/<agent>.messages.json` and a
 * teammate `<id>/<agent>__<task>.messages.json` in its root session's
 * folder; the older Cline `<data>/tasks/<id>/api_conversation_history.json`.
 */

import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import { folderNames } from "../../fsx.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";

export interface ClineRoots {
  /** The data folder (`~/.cline/data`). */
  data: string;
  /** Where Cline 3.x keeps its sessions (`<data>/sessions`, or `CLINE_SESSION_DATA_DIR`). */
  sessions: string;
  /** Where the older Cline kept its tasks (`<data>/tasks`). */
  tasks: string;
}

/**
 * Cline's folders: an explicit root or `TXCRIPT_CLINE_ROOT` (the data
 * folder), else Cline's own `CLINE_DATA_DIR`, `CLINE_DIR/data`, then
 * `~/.cline/data`; `CLINE_SESSION_DATA_DIR` moves the sessions folder alone
 * (`@cline/shared` 0.0.86, storage paths, as the CLI 3.0.65 resolves them).
 */
export function clineRoots(options: StoreOptions = {}): ClineRoots {
  const env = options.env ?? process.env;
  const explicit = nonEmpty(options.root) ?? nonEmpty(env.TXCRIPT_CLINE_ROOT);
  if (explicit !== undefined) {
    const data = resolve(explicit);
    return { data, sessions: join(data, "sessions"), tasks: join(data, "tasks") };
  }
  const dir = nonEmpty(env.CLINE_DIR) ?? join(homeDir(env), ".cline");
  const data = resolve(nonEmpty(env.CLINE_DATA_DIR) ?? join(dir, "data"));
  const sessions = resolve(nonEmpty(env.CLINE_SESSION_DATA_DIR) ?? join(data, "sessions"));
  return { data, sessions, tasks: join(data, "tasks") };
}

const MESSAGES = ".messages.json";
const LEGACY_FILE = "api_conversation_history.json";

/** One session file: its id (from names alone), what it is, and the files it is read from. */
export interface ClineFile {
  id: string;
  kind: "main" | "subagent" | "legacy";
  /** The messages file. */
  path: string;
  /** The manifest, for a main session. */
  manifest?: string;
  /** The root session's folder name, for a subagent or teammate. */
  root?: string;
}

/** A subagent's id from its file stem: `<root>__<agent>`, a teammate's `<root>__teamtask__<agent>__<task>`. */
function subagentId(root: string, stem: string): string {
  return stem.includes("__") ? `${root}__teamtask__${stem}` : `${root}__${stem}`;
}

/** Every session file, main sessions first within each folder. */
export function clineFiles(roots: ClineRoots): ClineFile[] {
  const out: ClineFile[] = [];
  for (const dir of folderNames(roots.sessions)) {
    const folder = join(roots.sessions, dir);
    for (const name of folderNames(folder)) {
      if (!name.endsWith(MESSAGES)) continue;
      const stem = name.slice(0, -MESSAGES.length);
      const path = join(folder, name);
      if (stem === dir)
        out.push({ id: dir, kind: "main", path, manifest: join(folder, `${dir}.json`) });
      else out.push({ id: subagentId(dir, stem), kind: "subagent", path, root: dir });
    }
  }
  for (const dir of folderNames(roots.tasks)) {
    const path = join(roots.tasks, dir, LEGACY_FILE);
    if (statSync(path, { throwIfNoEntry: false })?.isFile())
      out.push({ id: dir, kind: "legacy", path });
  }
  return out;
}

/** A file's fingerprint: the messages file, then the manifest when it is there. */
export function clineFingerprint(file: ClineFile): Fingerprint | undefined {
  const st = statSync(file.path, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  const files = [fileStamp(file.path, st)];
  if (file.manifest !== undefined) {
    const m = statSync(file.manifest, { throwIfNoEntry: false });
    if (m?.isFile()) files.push(fileStamp(file.manifest, m));
  }
  return { files };
}

export class ClineProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly dirs: ClineRoots;

  constructor(options: StoreOptions = {}) {
    this.dirs = clineRoots(options);
    this.roots = [this.dirs.sessions, this.dirs.tasks];
  }

  scan(): Fingerprint[] {
    return clineFiles(this.dirs).flatMap((f) => clineFingerprint(f) ?? []);
  }
}
