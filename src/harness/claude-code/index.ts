/**
 * The Claude Code registry entry: codec, text codec (the session JSONL),
 * store, and `claude --resume <id>`, run in the session's cwd because
 * Claude Code looks sessions up by the directory it starts in.
 */

import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { ClaudeCodeBody } from "./body.js";
import { claudeCodeCodec } from "./codec.js";
import { ClaudeCodeStore } from "./store.js";
import { claudeCodeText } from "./text.js";

export type { ClaudeCodeBody, ClaudeLine } from "./body.js";
export { claudeCodeCodec } from "./codec.js";
export { claudeCodeRoot } from "./probe.js";
export { ClaudeCodeStore, encodeCwd, projectDirName } from "./store.js";
export { claudeCodeText } from "./text.js";

export const claudeCode: Harness<"claude_code", ClaudeCodeBody> = {
  id: "claude_code",
  label: HARNESS_LABELS.claude_code,
  codec: claudeCodeCodec,
  text: claudeCodeText,
  store: (options) => new ClaudeCodeStore(options),
  resume: (saved, meta) => resumeIn(["claude", "--resume", saved.id], meta.cwd),
};
