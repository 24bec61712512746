/**
 * Amp's native Body: one thread, the JSON document Amp's CLI kept as
 * `~/.local/share/amp/threads/T-<uuid>.json` (docs/formats/amp.md), kept
 * verbatim: every key, message, block and field, unknown ones included.
 */

import type { JsonObject } from "../../common.js";

export interface AmpBody {
  /** The thread document: `v`, `id`, `created`, `title`, `env`, `messages`, ... */
  thread: JsonObject;
}
