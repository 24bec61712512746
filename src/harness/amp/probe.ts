/**
 * What the index checks of Amp's store before every command: where its
 * data folder is (`~/.local/share/amp`, threads under `threads/`) and one
 * fingerprint per thread file from stat alone. No thread file is opened.
 */

import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import { errnoCode } from "../../errors.js";
import {
  type Fingerprint,
  fileStamp,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";

export const THREADS_DIR = "threads";
export const THREAD_SUFFIX = ".json";

/** Amp's data folder: an explicit root, `TXCRIPT_AMP_ROOT`, `XDG_DATA_HOME/amp`, then `~/.local/share/amp`. */
export function ampRoot(options: StoreOptions = {}): string {
  const env = options.env ?? process.env;
  if (options.root !== undefined) return resolve(options.root);
  const explicit = nonEmpty(env.TXCRIPT_AMP_ROOT);
  if (explicit !== undefined) return resolve(explicit);
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  if (xdg !== undefined) return resolve(xdg, "amp");
  return resolve(homeDir(env), ".local", "share", "amp");
}

/** The thread files `<id>.json`, by name, sorted (none when the folder is missing). */
export function threadNames(threadsDir: string): string[] {
  try {
    return readdirSync(threadsDir, { withFileTypes: true })
      .filter(
        (e) => e.isFile() && e.name.endsWith(THREAD_SUFFIX) && e.name.length > THREAD_SUFFIX.length,
      )
      .map((e) => e.name)
      .sort();
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw cause;
  }
}

export function threadFingerprint(path: string): Fingerprint {
  const st = statSync(path, { throwIfNoEntry: false });
  return {
    files: [st?.isFile() ? fileStamp(path, st) : { path, mtime_ms: 0, size: -1 }],
  };
}

export class AmpProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly threadsDir: string;

  constructor(options: StoreOptions = {}) {
    const root = ampRoot(options);
    this.roots = [root];
    this.threadsDir = join(root, THREADS_DIR);
  }

  scan(): Fingerprint[] {
    return threadNames(this.threadsDir).map((n) => threadFingerprint(join(this.threadsDir, n)));
  }
}
