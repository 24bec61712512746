/**
 * What the index checks of Gemini CLI's store before every command: where
 * the `.gemini` folder is, its project folders and session files by name,
 * and a stamp over their stats. No session is parsed here, so a warm
 * `list` loads no parser.
 */

import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { crypto } from "../../builtins.js";
import { nonEmpty, storeRoot } from "../../env.js";
import { describeCause, errnoCode } from "../../errors.js";
import type { Skipped, StoreOptions, StoreProbe } from "../../transcript.js";

export const TMP_DIR = "tmp";
export const HISTORY_DIR = "history";
export const CHATS_DIR = "chats";
export const REGISTRY = "projects.json";
export const MARKER = ".project_root";
/** The CLI's own global folder under tmp/, not a project. */
const RESERVED = new Set(["bin"]);
/** A stamp's text up to this length is stored as it is; a longer one as its SHA-256. */
const STAMP_TEXT_MAX = 4096;

const MAIN_NAME = /^session-.*\.jsonl?$/;
export const SUB_NAME = /^(.+)\.jsonl$/;

/** The `.gemini` directory a store reads (see the module header for the order). */
export function geminiCliRoot(options: StoreOptions = {}): string {
  return storeRoot(options, "TXCRIPT_GEMINI_CLI_ROOT", (env, home) => {
    const cliHome = nonEmpty(env.GEMINI_CLI_HOME);
    if (cliHome !== undefined) return join(cliHome, ".gemini");
    return nonEmpty(env.GEMINI_HOME) ?? join(home(), ".gemini");
  });
}

export interface SessionFile {
  path: string;
  /** The project folder's name under tmp/. */
  project: string;
  /** The parent session of a subagent (its folder under chats/). */
  parent?: string;
}

/** Project folders under tmp/, by name (the CLI's own bin/ is not one). */
export function projectDirs(root: string): string[] {
  try {
    return readdirSync(join(root, TMP_DIR), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !RESERVED.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Every main and subagent session file of these project folders, sorted by name within each. */
export function sessionFiles(
  root: string,
  projects: readonly string[],
  onUnreadable?: (s: Skipped) => void,
): SessionFile[] {
  const files: SessionFile[] = [];
  const list = (dir: string): Dirent[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
    } catch (cause) {
      const code = errnoCode(cause);
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        onUnreadable?.({ path: dir, reason: `cannot list: ${describeCause(cause)}` });
      }
      return [];
    }
  };
  const isFile = (dir: string, e: Dirent): boolean => {
    if (e.isFile()) return true;
    if (!e.isSymbolicLink()) return false;
    try {
      return statSync(join(dir, e.name)).isFile();
    } catch {
      onUnreadable?.({ path: join(dir, e.name), reason: "dangling symbolic link" });
      return false;
    }
  };
  for (const project of projects) {
    const chats = join(root, TMP_DIR, project, CHATS_DIR);
    for (const e of list(chats)) {
      // Symlinked directories are not followed: no cycles, no escaping the root.
      if (e.isDirectory()) {
        const sub = join(chats, e.name);
        for (const s of list(sub)) {
          if (SUB_NAME.test(s.name) && isFile(sub, s)) {
            files.push({ path: join(sub, s.name), project, parent: e.name });
          }
        }
      } else if (MAIN_NAME.test(e.name) && isFile(chats, e)) {
        files.push({ path: join(chats, e.name), project });
      }
    }
  }
  return files;
}

export class GeminiCliProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = geminiCliRoot(options);
    this.roots = [this.root];
  }

  /**
   * Every file discovery reads, by stat alone: the project registry, each
   * project's root marker and every session file. Several files may hold
   * one id (the newest wins), so the index re-discovers the whole store
   * when any of them changes rather than file by file.
   */
  stamp(): string | undefined {
    const state = (path: string) => {
      try {
        const st = statSync(path);
        return [path, st.size, st.mtimeMs, st.ctimeMs, st.ino];
      } catch {
        return [path, null];
      }
    };
    const lines: string[] = [];
    const add = (part: unknown) => lines.push(JSON.stringify(part));
    add(state(join(this.root, REGISTRY)));
    const projects = projectDirs(this.root);
    for (const name of projects) add(state(join(this.root, TMP_DIR, name, MARKER)));
    for (const file of sessionFiles(this.root, projects, (s) =>
      add(["unreadable", s.path, s.reason]),
    )) {
      add(state(file.path));
    }
    // A short stamp is kept as it is: hashing would load node:crypto on
    // every warm command of a machine with little or no Gemini CLI store.
    const text = lines.join("\n");
    return text.length <= STAMP_TEXT_MAX
      ? text
      : crypto().createHash("sha256").update(text).digest("hex");
  }
}
