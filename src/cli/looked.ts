/**
 * What `list` says when it finds nothing: where it looked for each harness
 * (and whether that place exists), and, when a store is one level away
 * from where it looked (a root given one folder too high or too low), the
 * flag that would find it. Nearby places are tried by asking the harness's
 * own store for its ids there (file names only, nothing opened).
 */

import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { storedHarnesses } from "../harness/index.js";
import type { Local } from "../local.js";
import type { HarnessId, StoreOptions } from "../transcript.js";
import { rootFlag } from "./roots.js";

/** Subfolders of a root tried as the real one: enough for `~/.gemini`, `~/.claude`, not a whole disk. */
const MAX_CHILDREN = 64;

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Does `root` hold sessions of this harness (as its store root)? */
function holdsSessions(id: HarnessId, root: string, env: StoreOptions["env"]): boolean {
  const h = storedHarnesses().find((x) => x.id === id);
  if (!h?.store) return false;
  try {
    return h.store({ root, env: env ?? {} }).ids().length > 0;
  } catch {
    return false;
  }
}

/** The parent of `root` or one of its subfolders, if that is a store root holding sessions. */
function nearbyRoot(id: HarnessId, root: string, env: StoreOptions["env"]): string | undefined {
  const candidates: string[] = [];
  if (dirname(root) !== root) candidates.push(dirname(root));
  if (isDir(root)) {
    try {
      const names = readdirSync(root, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
        .slice(0, MAX_CHILDREN);
      candidates.push(...names.map((n) => join(root, n)));
    } catch {
      // unreadable: nothing nearby to suggest
    }
  }
  return candidates.find((c) => holdsSessions(id, c, env));
}

/** The lines `list` prints on stderr when it found no session. */
export function explainEmpty(local: Local, env: StoreOptions["env"]): string[] {
  const lines = ["no sessions found; looked in:"];
  const hints: string[] = [];
  for (const h of local.harnesses()) {
    const store = local.store(h.id);
    for (const root of store.roots) {
      lines.push(`  ${h.id.padEnd(12)} ${root}${isDir(root) ? "" : "  (does not exist)"}`);
    }
    for (const root of store.roots.slice(0, 1)) {
      const near = nearbyRoot(h.id, root, env);
      if (near !== undefined)
        hints.push(`${h.label} sessions are in ${near}: try --${rootFlag(h.id)} ${near}`);
    }
  }
  return [...lines, ...hints];
}
