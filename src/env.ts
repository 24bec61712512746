/**
 * What stores read from the environment, read one way everywhere: a
 * variable set to the empty string counts as unset, and the home directory
 * is `HOME` (`USERPROFILE` first on Windows), else the OS's own answer.
 */

import { homedir } from "node:os";
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
