/**
 * What the index checks of Claude Code's store before every command: where
 * the store is, its project folders, and a stat of each session file. No
 * JSONL parsing here, so a warm `list` loads no parser.
 */

import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { nonEmpty, storeRoot } from "../../env.js";
import { describeCause, errnoCode, StoreError } from "../../errors.js";
import type { Fingerprint, StoreOptions, StoreProbe } from "../../transcript.js";
import { stampEach } from "../shared/probe.js";

/** Where the store lives: explicit root, TXCRIPT_CLAUDE_CODE_ROOT, $CLAUDE_CONFIG_DIR/projects, ~/.claude/projects. */
export function claudeCodeRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_CLAUDE_CODE_ROOT", (env, home) => {
    const config = nonEmpty(env.CLAUDE_CONFIG_DIR);
    return config !== undefined ? join(config, "projects") : join(home(), ".claude", "projects");
  });
}

export const SESSION_SUFFIX = ".jsonl";

/**
 * Whether a file name in a project folder names a session: `<id>.jsonl`,
 * but not a subagent transcript (`agent-*.jsonl`, which older releases kept
 * beside the sessions). The probe, `ids` and `discover` all ask this.
 */
export function isSessionName(name: string): boolean {
  return name.endsWith(SESSION_SUFFIX) && !name.startsWith("agent-");
}

/** Project folders: real directories directly under the root (symlinked ones are not followed). */
export function projectDirs(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT") return [];
    throw new StoreError("claude_code", `cannot list the store: ${describeCause(cause)}`, {
      file: root,
      cause,
    });
  }
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(root, e.name))
    .sort();
}

export class ClaudeCodeProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = claudeCodeRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    const paths: string[] = [];
    for (const dir of projectDirs(this.root)) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue; // discover() reports unreadable folders
      }
      for (const name of names.sort()) if (isSessionName(name)) paths.push(join(dir, name));
    }
    return stampEach(paths);
  }
}
