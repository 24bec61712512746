/**
 * The Antigravity CLI (agy) registry entry: codec, text codec (the JSON
 * dump with hex blobs), store, and `agy --conversation=<id>`, run in the
 * conversation's workspace.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { AntigravityBody } from "./body.js";
import { antigravityCodec } from "./codec.js";
import { AntigravityStore } from "./store.js";
import { antigravityText } from "./text.js";

export type { AntigravityBody } from "./body.js";
export { emptyBody } from "./body.js";
export {
  antigravityCodec,
  fromCommon,
} from "./codec.js";

export const antigravity: Harness<"antigravity", AntigravityBody> = {
  id: "antigravity",
  label: HARNESS_LABELS.antigravity,
  codec: antigravityCodec,
  text: antigravityText,
  store: (options) => new AntigravityStore(options),
  // `agy --conversation` reads the CLI's store only: the desktop app's
  // conversations are opened in the app, which has no command to name one.
  resume: (saved, meta) =>
    saved.lane === "desktop"
      ? undefined
      : meta.cwd === undefined
        ? { argv: ["agy", `--conversation=${saved.id}`] }
        : { argv: ["agy", `--conversation=${saved.id}`], cwd: meta.cwd },
  // `$GEMINI_HOME` replaces `~/.gemini` for every lane (docs/formats/antigravity-store.md).
  outHome: (dir, surface) => ({
    root: join(dir, surface === "desktop" ? "antigravity" : "antigravity-cli"),
    env: { GEMINI_HOME: dir },
  }),
};
