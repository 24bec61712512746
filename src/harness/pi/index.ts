/**
 * The pi registry entry (`@mariozechner/pi-coding-agent`): codec, text codec
 * (the session file itself), store and resume command (`pi --session <id>`,
 * run in the project directory, where pi looks for the id first).
 */

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
};
