/**
 * The Grok CLI registry entry: codec, text codec (a header line, then the
 * session's `updates.jsonl` lines) and a read-only store over
 * `$GROK_HOME/sessions` (`~/.grok`). No resume command: txcript writes no
 * Grok session (see `WRITE_REFUSAL` in store.ts).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { GrokBody } from "./body.js";
import { grokCodec } from "./codec.js";
import { GrokStore } from "./store.js";
import { grokText } from "./text.js";

export const grok: Harness<"grok", GrokBody> = {
  id: "grok",
  label: HARNESS_LABELS.grok,
  codec: grokCodec,
  text: grokText,
  store: (options) => new GrokStore(options),
};
