/**
 * The Codex harness registry entry: codec, text codec (the rollout JSONL),
 * store and resume command (`codex resume <id>`, run in the session's cwd).
 */

import type { Codec, Store, TextCodec } from "../../transcript.js";
import type { Harness } from "../index.js";
import { codexCodec } from "./codec.js";
import { CodexStore } from "./store.js";
import { codexText } from "./text.js";

export type { CodexBody } from "./body.js";
export { codexCodec } from "./codec.js";
export { CodexStore } from "./store.js";
export { codexText } from "./text.js";

export const codex: Harness<unknown> = {
  id: "codex",
  label: "Codex",
  codec: codexCodec as Codec<unknown>,
  text: codexText as TextCodec<unknown>,
  store: (options) => new CodexStore(options) as Store<unknown>,
  resume: (saved, meta) =>
    meta.cwd === undefined
      ? { argv: ["codex", "resume", saved.id] }
      : { argv: ["codex", "resume", saved.id], cwd: meta.cwd },
};
