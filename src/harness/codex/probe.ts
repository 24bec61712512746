/**
 * What the index checks of Codex's store before every command: where the
 * Codex home is, its rollout files by name (plain files hiding their zstd
 * siblings), and a stat of each. No rollout is opened here, so a warm
 * `list` loads no parser or decompressor.
 */

import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { nonEmpty, storeRoot } from "../../env.js";
import { describeCause, errnoCode } from "../../errors.js";
import { isUuid } from "../../id-forms.js";
import {
  type Fingerprint,
  fileStamp,
  type Skipped,
  type StoreOptions,
  type StoreProbe,
} from "../../transcript.js";

export const SESSIONS_DIR = "sessions";
const ARCHIVED_DIR = "archived_sessions";

/** The Codex home: the explicit root, `$TXCRIPT_CODEX_ROOT`, `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(options: StoreOptions = {}): string {
  return storeRoot(
    options,
    "TXCRIPT_CODEX_ROOT",
    (env, home) => nonEmpty(env.CODEX_HOME) ?? join(home(), ".codex"),
  );
}

const NAME = /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F-]{36})\.jsonl(\.zst)?$/;

/** A rollout file name's parts, or undefined when the name is not a rollout's. */
export function parseRolloutName(
  name: string,
): { stamp: string; id: string; compressed: boolean } | undefined {
  const [, stamp, id, compressed] = NAME.exec(name) ?? [];
  if (stamp === undefined || id === undefined || !isUuid(id)) return undefined;
  return { stamp, id: id.toLowerCase(), compressed: compressed !== undefined };
}

export interface RolloutFile {
  path: string;
  id: string;
  archived: boolean;
}

/** Every rollout file, sessions/ first then archived_sessions/; plain files hide zstd siblings. */
export function rolloutFiles(home: string, onUnreadable?: (s: Skipped) => void): RolloutFile[] {
  const files: RolloutFile[] = [];
  const walk = (dir: string, archived: boolean, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (cause) {
      const code = errnoCode(cause);
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        onUnreadable?.({ path: dir, reason: `cannot list: ${describeCause(cause)}` });
      }
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const path = join(dir, e.name);
      // Symlinked directories are not followed: no cycles, no escaping the home.
      if (e.isDirectory()) {
        if (depth < 4) walk(path, archived, depth + 1);
        continue;
      }
      const parsed = parseRolloutName(e.name);
      if (!parsed) continue;
      if (parsed.compressed && names.has(e.name.slice(0, -4))) continue;
      if (e.isSymbolicLink()) {
        try {
          if (!statSync(path).isFile()) continue;
        } catch {
          onUnreadable?.({ path, reason: "dangling symbolic link" });
          continue;
        }
      } else if (!e.isFile()) continue;
      files.push({ path, id: parsed.id, archived });
    }
  };
  walk(join(home, SESSIONS_DIR), false, 0);
  walk(join(home, ARCHIVED_DIR), true, 0);
  return files;
}

export class CodexProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly home: string;

  constructor(options: StoreOptions = {}) {
    this.home = codexHome(options);
    this.roots = [this.home];
  }

  scan(): Fingerprint[] {
    return rolloutFiles(this.home).map((file) => {
      try {
        const st = statSync(file.path);
        return { files: [fileStamp(file.path, st)] };
      } catch {
        return { files: [{ path: file.path, mtime_ms: 0, size: -1 }] };
      }
    });
  }
}
