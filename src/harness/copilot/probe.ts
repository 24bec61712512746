/**
 * What the index checks of Copilot CLI's store before every command: where
 * its home is (`COPILOT_HOME`, else `~/.copilot`) and a fingerprint of each
 * `session-state/<id>/events.jsonl`, from listings and stat alone.
 */

import { join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import { folderNames } from "../../fsx.js";
import type { Fingerprint, StoreOptions, StoreProbe } from "../../transcript.js";
import { stampFiles } from "../shared/probe.js";

const SESSION_STATE = "session-state";
const EVENTS = "events.jsonl";

/**
 * Copilot CLI's home: an explicit root, `TXCRIPT_COPILOT_ROOT`, the CLI's own
 * `COPILOT_HOME` ("the directory where configuration and state files are
 * stored; defaults to $HOME/.copilot", its --help), then `~/.copilot`.
 */
export function copilotRoot(options: StoreOptions = {}): string {
  const env = options.env ?? process.env;
  if (options.root !== undefined) return resolve(options.root);
  const explicit = nonEmpty(env.TXCRIPT_COPILOT_ROOT) ?? nonEmpty(env.COPILOT_HOME);
  if (explicit !== undefined) return resolve(explicit);
  return resolve(homeDir(env), ".copilot");
}

/** Each session folder's events file, by folder name (sorted; dot folders skipped). */
export function eventFiles(root: string): { id: string; path: string }[] {
  return folderNames(join(root, SESSION_STATE))
    .filter((n) => !n.startsWith("."))
    .map((id) => ({ id, path: join(root, SESSION_STATE, id, EVENTS) }));
}

export class CopilotProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = copilotRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    return stampFiles(eventFiles(this.root).map(({ path }) => path));
  }
}
