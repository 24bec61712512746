/**
 * Grok CLI session folders for tests, built from the documented format
 * (docs/formats/grok.md, from the public reader it cites): the fixture
 * home `test/fixtures/grok/home` holds `sessions/<cwd group>/<uuid>/`
 * folders using every update kind. No Grok binary runs here, so these are
 * the fixtures.
 */

import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const GROK_HOME_FIXTURE = fileURLToPath(new URL("../fixtures/grok/home", import.meta.url));
const GROUP = "%2Fdata%2Fprojects%2Fdemo";
/** Every update kind, a failed and a finished call, a plan, hooks, retries and unknown lines. */
export const EVERY_KIND_ID = "0199e0a1-7c2b-7d4e-9f10-3a5b6c7d8e01";
/** Every model call failed: its updates hold no message, its chat history the prompt. */
export const HISTORY_ONLY_ID = "0199e0a1-7c2b-7d4e-9f10-3a5b6c7d8e02";
/** A child of EVERY_KIND_ID in a group whose `.cwd` file names the folder. */
export const CHILD_ID = "0199e0a1-7c2b-7d4e-9f10-3a5b6c7d8e03";

/** The fixture home copied to `root` (a Grok home: `sessions/` under it). */
export function copyGrokHome(root: string): string {
  cpSync(GROK_HOME_FIXTURE, root, { recursive: true });
  return root;
}

/** The every-kind session's folder copied under each id in `root`'s one cwd group. */
export function createGrokSessions(root: string, ids: readonly string[]): void {
  for (const id of ids)
    cpSync(
      join(GROK_HOME_FIXTURE, "sessions", GROUP, EVERY_KIND_ID),
      join(root, "sessions", GROUP, id),
      {
        recursive: true,
      },
    );
}

/** The path of a fixture session's folder under a copied home. */
export function grokSessionDir(root: string, id: string): string {
  const group = id === CHILD_ID ? "long-cwd-group" : GROUP;
  return join(root, "sessions", group, id);
}
