/**
 * What the index checks of Qwen Code's store before every command: where
 * it is (`<qwen>/projects/<sanitized cwd>/chats/<id>.jsonl`) and a stat of
 * each session file. No JSONL parsing here.
 */

import { type Dirent, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import { describeCause, errnoCode, StoreError } from "../../errors.js";
import type { Fingerprint, StoreOptions, StoreProbe } from "../../transcript.js";
import { stampEach } from "../shared/probe.js";

export const PROJECTS = "projects";
export const CHATS = "chats";
export const SESSION_SUFFIX = ".jsonl";

/**
 * The CLI's runtime folder: an explicit root, `TXCRIPT_QWEN_CODE_ROOT`, then
 * the CLI's own `QWEN_RUNTIME_DIR` and `QWEN_HOME` (its `Storage`), then
 * `~/.qwen`. Sessions live under `projects/` inside it.
 */
export function qwenCodeRoot(options: StoreOptions = {}): string {
  if (options.root !== undefined) return resolve(options.root);
  const env = options.env ?? process.env;
  const own = nonEmpty(env.TXCRIPT_QWEN_CODE_ROOT);
  if (own !== undefined) return resolve(own);
  const runtime = nonEmpty(env.QWEN_RUNTIME_DIR);
  if (runtime !== undefined) return resolve(runtime);
  const home = nonEmpty(env.QWEN_HOME);
  if (home !== undefined) return resolve(home);
  return resolve(homeDir(env), ".qwen");
}

/** The CLI's `sanitizeCwd` (POSIX): every character outside [a-zA-Z0-9] becomes "-". */
export function projectId(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/** The `chats` folders of every project folder (real directories only). */
export function chatDirs(root: string): string[] {
  const projects = join(root, PROJECTS);
  let entries: Dirent[];
  try {
    entries = readdirSync(projects, { withFileTypes: true });
  } catch (cause) {
    if (errnoCode(cause) === "ENOENT" || errnoCode(cause) === "ENOTDIR") return [];
    throw new StoreError("qwen_code", `cannot list the store: ${describeCause(cause)}`, {
      file: projects,
      cause,
    });
  }
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(projects, e.name, CHATS))
    .sort();
}

/** Session file names in a chats folder (none when it cannot be listed). */
export function sessionNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(SESSION_SUFFIX) && n.length > SESSION_SUFFIX.length)
      .sort();
  } catch {
    return []; // discover() reports unreadable folders
  }
}

export class QwenCodeProbe implements StoreProbe {
  readonly roots: readonly string[];
  private readonly root: string;

  constructor(options: StoreOptions = {}) {
    this.root = qwenCodeRoot(options);
    this.roots = [this.root];
  }

  scan(): Fingerprint[] {
    return stampEach(
      chatDirs(this.root).flatMap((dir) => sessionNames(dir).map((name) => join(dir, name))),
    );
  }
}
