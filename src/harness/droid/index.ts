/**
 * The Factory Droid registry entry (`@factory/cli`): codec, text codec (the
 * session file itself), store and resume command (`droid --resume <id>`,
 * run in the session's directory). A copy cannot go under `--out`: the one
 * variable that moves Droid's sessions, `FACTORY_HOME_OVERRIDE`, moves its
 * whole `.factory` folder, settings (custom models) and sign-in with it
 * (docs/formats/droid.md).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { DroidBody } from "./body.js";
import { droidCodec } from "./codec.js";
import { DroidStore } from "./store.js";
import { droidText } from "./text.js";

export type { DroidBody } from "./body.js";

export const droid: Harness<"droid", DroidBody> = {
  id: "droid",
  label: HARNESS_LABELS.droid,
  codec: droidCodec,
  text: droidText,
  store: (options) => new DroidStore(options),
  resume: (saved, meta) => resumeIn(["droid", "--resume", saved.id], meta.cwd),
  outRefusal:
    "Droid's only variable that moves its sessions (FACTORY_HOME_OVERRIDE) moves its settings and sign-in too, so a copy under --out would resume signed out and without its custom models; continue without --out",
};
