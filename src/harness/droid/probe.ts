/**
 * What the index checks of Droid's store before every command: where its
 * sessions folder is (`<factory home>/.factory/sessions`) and a stat of each
 * session file and of the settings file beside it (which holds the token
 * totals). Droid files a session under a folder named for its cwd; it also
 * looks for `<id>.jsonl` straight in the sessions folder, so both depths are
 * read. No JSONL parsing here.
 */

import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { nonEmpty, storeRoot } from "../../env.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";

export const SESSION_SUFFIX = ".jsonl";
const SETTINGS_SUFFIX = ".settings.json";

/**
 * Droid's sessions folder: an explicit root, `TXCRIPT_DROID_ROOT`, then
 * `$FACTORY_HOME_OVERRIDE/.factory/sessions` (Droid reads that variable
 * before `HOME` for its home), then `~/.factory/sessions`.
 */
export function droidRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_DROID_ROOT", (env, home) =>
    join(nonEmpty(env.FACTORY_HOME_OVERRIDE) ?? home(), ".factory", "sessions"),
  );
}

/** Droid's folder for a project: the cwd with every `/` (and `\`) as `-`. */
export function projectFolder(cwd: string): string {
  return cwd.replace(/[/\\]/g, "-");
}

/** The settings file beside a session file. */
export function settingsPath(sessionPath: string): string {
  return sessionPath.slice(0, -SESSION_SUFFIX.length) + SETTINGS_SUFFIX;
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a missing or unreadable folder holds no session
  }
}

const isSessionName = (name: string) =>
  name.endsWith(SESSION_SUFFIX) && name.length > SESSION_SUFFIX.length;

/** Every session file in the root and in its project folders, sorted. */
export function sessionPaths(root: string): string[] {
  const out: string[] = [];
  for (const e of entries(root)) {
    const path = join(root, e.name);
    if (e.isDirectory()) {
      for (const inner of entries(path))
        if (isSessionName(inner.name) && !inner.isDirectory()) out.push(join(path, inner.name));
    } else if (isSessionName(e.name)) out.push(path);
  }
  return out.sort();
}

/** A session's stamps: its file and, when there is one, its settings file. */
export function sessionStamp(path: string): Fingerprint | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st?.isFile()) return undefined;
  const files = [fileStamp(path, st)];
  const settings = settingsPath(path);
  const sst = statSync(settings, { throwIfNoEntry: false });
  if (sst?.isFile()) files.push(fileStamp(settings, sst));
  return { files };
}

export class DroidProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = droidRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    return sessionPaths(this.root).flatMap((p) => sessionStamp(p) ?? []);
  }
}
