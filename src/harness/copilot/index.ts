/**
 * The GitHub Copilot CLI registry entry (`@github/copilot`): codec, text
 * codec (a session's `events.jsonl`) and a read-only store. No resume
 * command: txcript writes no Copilot CLI session (see `WRITE_REFUSAL`).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
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
};
