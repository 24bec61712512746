/**
 * The Qwen Code registry entry: codec, text codec (the chat recording
 * itself), store and resume command (`qwen --resume <id>`, run in the
 * project directory: the CLI looks for the session under its cwd's folder).
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { QwenBody } from "./body.js";
import { qwenCodec } from "./codec.js";
import { QwenCodeStore } from "./store.js";
import { qwenText } from "./text.js";

export type { QwenBody } from "./body.js";
export { qwenCodec } from "./codec.js";
export { projectId, qwenCodeRoot } from "./probe.js";
export { QwenCodeStore } from "./store.js";
export { qwenText } from "./text.js";

export const qwenCode: Harness<"qwen_code", QwenBody> = {
  id: "qwen_code",
  label: HARNESS_LABELS.qwen_code,
  codec: qwenCodec,
  text: qwenText,
  store: (options) => new QwenCodeStore(options),
  resume: (saved, meta) => resumeIn(["qwen", "--resume", saved.id], meta.cwd),
  // `$QWEN_RUNTIME_DIR` moves only the runtime folder (projects/, where
  // sessions live); settings and sign-in stay in `~/.qwen` (docs/formats/qwen-code.md).
  outHome: (dir) => ({ root: dir, env: { QWEN_RUNTIME_DIR: dir } }),
};
