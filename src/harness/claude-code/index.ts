/**
 * The Claude Code registry entry: codec, text codec (the session JSONL),
 * store, and `claude --resume <id>`, run in the session's cwd because
 * Claude Code looks sessions up by the directory it starts in.
 */

import { join } from "node:path";
import { HARNESS_LABELS, type Harness } from "../../transcript.js";
import { resumeIn } from "../shared/resume.js";
import type { ClaudeCodeBody } from "./body.js";
import { claudeCodeCodec } from "./codec.js";
import { ClaudeCodeStore } from "./store.js";
import { claudeCodeText } from "./text.js";

export type { ClaudeCodeBody } from "./body.js";

export const claudeCode: Harness<"claude_code", ClaudeCodeBody> = {
  id: "claude_code",
  label: HARNESS_LABELS.claude_code,
  codec: claudeCodeCodec,
  text: claudeCodeText,
  store: (options) => new ClaudeCodeStore(options),
  resume: (saved, meta) => resumeIn(["claude", "--resume", saved.id], meta.cwd),
  // `$CLAUDE_CONFIG_DIR` moves `~/.claude` (docs/formats/claude-code.md, "Store").
  outHome: (dir) => ({ root: join(dir, "projects"), env: { CLAUDE_CONFIG_DIR: dir } }),
};
