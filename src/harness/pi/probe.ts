/**
 * What the index checks of pi's store before every command: where its
 * sessions folder is, and one fingerprint per session file from directory
 * listings and stat alone. pi keeps `<sessions>/--<cwd>--/<time>_<id>.jsonl`;
 * with `PI_CODING_AGENT_SESSION_DIR` (or `--session-dir`) it writes every
 * session straight into that folder, so both depths are read.
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

/** Where pi's sessions are, and whether pi writes them flat (a session dir override). */
export interface PiRoot {
  root: string;
  flat: boolean;
}

function expandTilde(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/**
 * pi's sessions folder: an explicit root, `TXCRIPT_PI_ROOT`, pi's own
 * `PI_CODING_AGENT_SESSION_DIR` (flat), `PI_CODING_AGENT_DIR/sessions`, then
 * `~/.pi/agent/sessions` (pi 0.73 `config.js` `getAgentDir`, `getSessionsDir`;
 * `main.js` reads the session dir variable, `~` expanded as pi does).
 */
export function piRoot(options: StoreOptions = {}): PiRoot {
  const env = options.env ?? process.env;
  if (options.root !== undefined) return { root: resolve(options.root), flat: false };
  const explicit = nonEmpty(env.TXCRIPT_PI_ROOT);
  if (explicit !== undefined) return { root: resolve(explicit), flat: false };
  const home = homeDir(env);
  const sessionDir = nonEmpty(env.PI_CODING_AGENT_SESSION_DIR);
  if (sessionDir !== undefined) return { root: resolve(expandTilde(sessionDir, home)), flat: true };
  const agentDir = nonEmpty(env.PI_CODING_AGENT_DIR);
  if (agentDir !== undefined)
    return { root: resolve(expandTilde(agentDir, home), "sessions"), flat: false };
  return { root: resolve(home, ".pi", "agent", "sessions"), flat: false };
}

/** Every `.jsonl` file in the root and in its project folders, sorted. */
export function sessionPaths(root: string): string[] {
  const out: string[] = [];
  for (const name of folderNames(root)) {
    const path = join(root, name);
    if (name.endsWith(".jsonl")) out.push(path);
    else if (name.startsWith("--"))
      for (const inner of folderNames(path))
        if (inner.endsWith(".jsonl")) out.push(join(path, inner));
  }
  return out;
}

export class PiProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = piRoot(options).root;
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    const out: Fingerprint[] = [];
    for (const path of sessionPaths(this.root)) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isFile()) out.push({ files: [fileStamp(path, st)] });
    }
    return out;
  }
}
