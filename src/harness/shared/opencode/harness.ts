/**
 * A member of the OpenCode family as a registry entry: the family's codec,
 * text codec and store under the member's flavor; `<cli> --session <id>`
 * run in the session's directory (the CLI opens the project it starts in);
 * and `--out DIR` as the member's `$XDG_DATA_HOME`, where a fresh database
 * gets the member's schema. Each member's index.ts names only what differs.
 */

import { join } from "node:path";
import {
  HARNESS_LABELS,
  type Harness,
  type Store,
  type StoreOptions,
} from "../../../transcript.js";
import { resumeIn } from "../resume.js";
import type { OpenCodeBody } from "./body.js";
import { familyCodec } from "./codec.js";
import type { OpenCodeFamily, OpenCodeFlavor } from "./flavor.js";
import { familyText } from "./text.js";

export function familyHarness<Id extends OpenCodeFamily>(
  id: Id,
  flavor: OpenCodeFlavor,
  store: (options?: StoreOptions) => Store<OpenCodeBody>,
  /** Variables the `--out` resume line sets beside `XDG_DATA_HOME`. */
  outEnv: Readonly<Record<string, string>> = {},
): Harness<Id, OpenCodeBody> {
  return {
    id,
    label: HARNESS_LABELS[id],
    codec: familyCodec(flavor),
    text: familyText(id),
    store,
    // The CLI's command is its harness id (`opencode`, `kilo`).
    resume: (saved, meta) =>
      resumeIn([id, "--session", saved.id], meta.cwd === "" ? undefined : meta.cwd),
    outHome: (dir) => ({
      root: join(dir, flavor.dataDir),
      env: { XDG_DATA_HOME: dir, ...outEnv },
    }),
  };
}
