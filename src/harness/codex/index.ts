/**
 * The Codex harness registry entry: codec, text codec (the rollout JSONL),
 * store and resume command (`codex resume <id>`, run in the session's cwd).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { CodexBody } from "./body.js";
import { codexCodec } from "./codec.js";
import { CodexStore } from "./store.js";
import { codexText } from "./text.js";

export type { CodexBody } from "./body.js";
export { codexCodec } from "./codec.js";

export const codex: Harness<"codex", CodexBody> = {
  id: "codex",
  label: HARNESS_LABELS.codex,
  codec: codexCodec,
  text: codexText,
  store: (options) => new CodexStore(options),
  resume: (saved, meta) => resumeIn(["codex", "resume", saved.id], meta.cwd),
  // `$CODEX_HOME` is the Codex home itself (docs/formats/codex.md).
  // The copy's provider is read from DIR/config.toml, as for any save (store.ts, configuredProvider).
  outHome: (dir) => ({
    root: dir,
    env: { CODEX_HOME: dir },
    notice:
      "Codex records the copy under the model provider of DIR/config.toml (else openai) and resumes it only with that provider: put your config.toml in DIR first",
  }),
};
