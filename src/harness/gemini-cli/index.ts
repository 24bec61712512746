/**
 * The Gemini CLI registry entry: codec, text codec (the session file
 * itself), store and resume command (`gemini --resume <id>`, run in the
 * project directory because the CLI lists only the current project's sessions).
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { GeminiBody } from "./body.js";
import { geminiCodec } from "./codec.js";
import { GeminiCliStore } from "./store.js";
import { geminiText } from "./text.js";

export type { GeminiBody } from "./body.js";
export { replay } from "./body.js";
export { geminiCodec } from "./codec.js";
export { geminiCliRoot } from "./probe.js";
export { countMessages, projectHash } from "./records.js";
export { GeminiCliStore } from "./store.js";
export { geminiText } from "./text.js";

export const geminiCli: Harness<"gemini_cli", GeminiBody> = {
  id: "gemini_cli",
  label: HARNESS_LABELS.gemini_cli,
  codec: geminiCodec,
  text: geminiText,
  store: (options) => new GeminiCliStore(options),
  resume: (saved, meta) => resumeIn(["gemini", "--resume", saved.id], meta.cwd),
  // `$GEMINI_CLI_HOME/.gemini` replaces `~/.gemini` (docs/formats/gemini-cli.md, "Store").
  outHome: (dir) => ({ root: join(dir, ".gemini"), env: { GEMINI_CLI_HOME: dir } }),
};
