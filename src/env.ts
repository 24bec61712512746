/**
 * What txcript reads from the environment, read one way everywhere: the
 * home directory, the index's cache directory and the state directory. A variable set to the empty string counts as unset, and the home directory
 * is `HOME` (`USERPROFILE` first on Windows), else the OS's own answer.
 */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { nonEmpty } from "./strings.js";

export { nonEmpty };

export type Env = Readonly<Record<string, string | undefined>>;

/** The user's home directory as `env` names it. */
export function homeDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home =
    platform === "win32"
      ? (nonEmpty(env.USERPROFILE) ?? nonEmpty(env.HOME))
      : (nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE));
  return home ?? homedir();
}

/**
 * A harness store's root, read in the order every harness reads it: an
 * explicit root, `$<variable>` (`TXCRIPT_<HARNESS>_ROOT`), then the
 * harness's own `fallback` (its own variables, then its default under the
 * home directory); resolved.
 */
export function storeRoot(
  options: { root?: string | undefined; env?: Env | undefined },
  variable: string,
  fallback: (env: Env, home: () => string) => string,
): string {
  const env = options.env ?? process.env;
  const explicit = nonEmpty(options.root) ?? nonEmpty(env[variable]);
  return resolve(explicit ?? fallback(env, () => homeDir(env)));
}

/** `$XDG_DATA_HOME`, else `~/.local/share`: where XDG tools keep their data. */
export function xdgDataHome(env: Env): string {
  return nonEmpty(env.XDG_DATA_HOME) ?? join(homeDir(env), ".local", "share");
}

/** The directory index.db lives in: TXCRIPT_CACHE, else $XDG_CACHE_HOME/txcript, else the platform's cache folder. */
export function cacheDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const explicit = nonEmpty(env.TXCRIPT_CACHE);
  if (explicit) return explicit;
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, "txcript");
  const home = homeDir(env, platform);
  if (platform === "darwin") return join(home, "Library", "Caches", "txcript");
  if (platform === "win32") {
    const local = nonEmpty(env.LOCALAPPDATA) ?? join(home, "AppData", "Local");
    return join(local, "txcript", "Cache");
  }
  return join(home, ".cache", "txcript");
}

/**
 * txcript's state directory: `$TXCRIPT_STATE_DIR`, else
 * `$XDG_STATE_HOME/txcript`, else `~/.local/state/txcript`
 * (`%LOCALAPPDATA%\txcript` on Windows).
 */
export function stateDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const own = nonEmpty(env.TXCRIPT_STATE_DIR);
  if (own !== undefined) return resolve(own);
  const xdg = nonEmpty(env.XDG_STATE_HOME);
  if (xdg !== undefined) return resolve(xdg, "txcript");
  const local = platform === "win32" ? nonEmpty(env.LOCALAPPDATA) : undefined;
  if (local !== undefined) return resolve(local, "txcript");
  const home = homeDir(env, platform);
  return resolve(home, ".local", "state", "txcript");
}

/**
 * How long a refresh runs before its progress line is drawn on a terminal,
 * in ms: `$TXCRIPT_PROGRESS_AFTER_MS` (a whole number), else half a second.
 */
export function progressAfterMs(env: Env): number {
  const text = nonEmpty(env.TXCRIPT_PROGRESS_AFTER_MS);
  return text !== undefined && /^\d{1,7}$/.test(text) ? Number(text) : 500;
}
