/**
 * The Amp registry entry: codec, text codec (the thread document) and a
 * read-only store over `~/.local/share/amp/threads`. No resume command:
 * txcript writes no Amp thread (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { AmpBody } from "./body.js";
import { ampCodec } from "./codec.js";
import { AmpStore } from "./store.js";
import { ampText } from "./text.js";

export type { AmpBody } from "./body.js";

export { AmpStore } from "./store.js";

export const amp: Harness<"amp", AmpBody> = {
  id: "amp",
  label: HARNESS_LABELS.amp,
  codec: ampCodec,
  text: ampText,
  store: (options) => new AmpStore(options),
};
