/**
 * The Crush registry entry: codec, text codec (the session's rows as one
 * JSON document) and a read-only store over each project's `crush.db`. No
 * resume command: txcript writes no Crush session (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import type { CrushBody } from "./body.js";
import { crushCodec } from "./codec.js";
import { CrushStore } from "./store.js";
import { crushText } from "./text.js";

export const crush: Harness<"crush", CrushBody> = {
  id: "crush",
  label: HARNESS_LABELS.crush,
  codec: crushCodec,
  text: crushText,
  store: (options) => new CrushStore(options),
};
