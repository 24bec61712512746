/**
 * The OpenCode registry entry: codec, text codec (the `opencode export`
 * document), store (the shared `opencode.db` and the legacy `storage/`
 * JSON), and `opencode --session <id>`, run in the session's directory
 * because OpenCode opens the project it is started in.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { OpenCodeBody } from "./body.js";
import { openCodeCodec } from "./codec.js";
import { OpenCodeStore } from "./store.js";
import { openCodeText } from "./text.js";

export type { OpenCodeBody } from "./body.js";
export { openCodeCodec } from "./codec.js";

export { OpenCodeStore } from "./store.js";
export { openCodeText } from "./text.js";

export const openCode: Harness<"opencode", OpenCodeBody> = {
  id: "opencode",
  label: HARNESS_LABELS.opencode,
  codec: openCodeCodec,
  text: openCodeText,
  store: (options) => new OpenCodeStore(options),
  resume: (saved, meta) =>
    resumeIn(["opencode", "--session", saved.id], meta.cwd === "" ? undefined : meta.cwd),
  // `$XDG_DATA_HOME/opencode` holds opencode.db; a fresh one gets OpenCode's
  // schema (docs/formats/opencode.md, "Store").
  outHome: (dir) => ({ root: join(dir, "opencode"), env: { XDG_DATA_HOME: dir } }),
};
