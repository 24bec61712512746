/**
 * The pi registry entry (`@mariozechner/pi-coding-agent`): codec, text codec
 * (the session file itself), store and resume command (`pi --session <id>`,
 * run in the project directory, where pi looks for the id first).
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { PiBody } from "./body.js";
import { piCodec } from "./codec.js";
import { PiStore } from "./store.js";
import { piText } from "./text.js";

export type { PiBody } from "./body.js";

export const pi: Harness<"pi", PiBody> = {
  id: "pi",
  label: HARNESS_LABELS.pi,
  codec: piCodec,
  text: piText,
  store: (options) => new PiStore(options),
  resume: (saved, meta) => resumeIn(["pi", "--session", saved.id], meta.cwd),
  // `$PI_CODING_AGENT_DIR` is pi's agent folder; sessions are its `sessions/` (docs/formats/pi.md).
  outHome: (dir) => ({ root: join(dir, "sessions"), env: { PI_CODING_AGENT_DIR: dir } }),
};
