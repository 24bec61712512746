/**
 * The GitHub Copilot CLI registry entry (`@github/copilot`): codec, text
 * codec (a session's `events.jsonl`), store and resume command (`copilot
 * --resume <id>`, run in the session's project directory; `-p <prompt>`
 * resumes it non-interactively, as test/real/copilot-resume.test.ts does).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { CopilotBody } from "./body.js";
import { copilotCodec } from "./codec.js";
import { CopilotStore } from "./store.js";
import { copilotText } from "./text.js";

export type { CopilotBody } from "./body.js";

export const copilot: Harness<"copilot", CopilotBody> = {
  id: "copilot",
  label: HARNESS_LABELS.copilot,
  codec: copilotCodec,
  text: copilotText,
  store: (options) => new CopilotStore(options),
  resume: (saved, meta) => resumeIn(["copilot", "--resume", saved.id], meta.cwd),
  // `$COPILOT_HOME` is the CLI's home (its --help); sessions are its `session-state/`.
  outHome: (dir) => ({ root: dir, env: { COPILOT_HOME: dir } }),
};
