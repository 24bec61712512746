/**
 * The Cline registry entry (`cline` on npm, the CLI 3.x): codec, text codec
 * (the messages file), store and resume command. `cline --id <id>` reopens a
 * session in Cline's terminal UI, run in the session's project directory;
 * a client of Cline's ACP mode (`cline --acp`) resumes it with
 * `session/load`, which is how the real-CLI test drives it.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { ClineBody } from "./body.js";
import { clineCodec } from "./codec.js";
import { ClineStore } from "./store.js";
import { clineText } from "./text.js";

export type { ClineBody } from "./body.js";

export const cline: Harness<"cline", ClineBody> = {
  id: "cline",
  label: HARNESS_LABELS.cline,
  codec: clineCodec,
  text: clineText,
  store: (options) => new ClineStore(options),
  resume: (saved, meta) => resumeIn(["cline", "--id", saved.id], meta.cwd),
  // `$CLINE_DIR` is Cline's home: its data folder (the store root) is `DIR/data` (docs/formats/cline.md).
  outHome: (dir) => ({ root: join(dir, "data"), env: { CLINE_DIR: dir } }),
};
