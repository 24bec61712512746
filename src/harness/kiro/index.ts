/**
 * The Kiro CLI registry entry: codec, text codec (the `<id>.jsonl` log)
 * and a read-only store over `~/.kiro/sessions/cli`. No resume command:
 * txcript writes no Kiro session (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { KiroBody } from "./body.js";
import { kiroCodec } from "./codec.js";
import { KiroStore } from "./store.js";
import { kiroText } from "./text.js";

export type { KiroBody } from "./body.js";

export { KiroStore } from "./store.js";

export const kiro: Harness<"kiro", KiroBody> = {
  id: "kiro",
  label: HARNESS_LABELS.kiro,
  codec: kiroCodec,
  text: kiroText,
  store: (options) => new KiroStore(options),
};
