/**
 * The Goose registry entry: codec, text codec (the legacy `<id>.jsonl`
 * session file) and a read-only store over `sessions.db`. No resume
 * command: txcript writes no Goose session (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { GooseBody } from "./body.js";
import { gooseCodec } from "./codec.js";
import { GooseStore } from "./store.js";
import { gooseText } from "./text.js";

export type { GooseBody } from "./body.js";

export { gooseRoot } from "./probe.js";
export { GooseStore, WRITE_REFUSAL } from "./store.js";

export const goose: Harness<"goose", GooseBody> = {
  id: "goose",
  label: HARNESS_LABELS.goose,
  codec: gooseCodec,
  text: gooseText,
  store: (options) => new GooseStore(options),
};
