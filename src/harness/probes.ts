/**
 * The probe registry: for each harness with a store, the light half of it
 * the index checks before every command (`StoreProbe`: roots, and `scan()`
 * or `stamp()`). It loads no codec, parser or database, so a `list` over
 * an unchanged machine loads no harness; the full registry
 * (`harness/index.ts`) is loaded only when something must be read.
 */

import type { StoredHarnessId, StoreOptions, StoreProbe } from "../transcript.js";
import { AmpProbe } from "./amp/probe.js";
import { AntigravityProbe } from "./antigravity/probe.js";
import { ClaudeCodeProbe } from "./claude-code/probe.js";
import { ClineProbe } from "./cline/probe.js";
import { CodexProbe } from "./codex/probe.js";
import { CopilotProbe } from "./copilot/probe.js";
import { CrushProbe } from "./crush/probe.js";
import { CursorProbe } from "./cursor/probe.js";
import { DroidProbe } from "./droid/probe.js";
import { GeminiCliProbe } from "./gemini-cli/probe.js";
import { GooseProbe } from "./goose/probe.js";
import { GrokProbe } from "./grok/probe.js";
import { KiloProbe } from "./kilo/probe.js";
import { KiroProbe } from "./kiro/probe.js";
import { OpenCodeProbe } from "./opencode/probe.js";
import { PiProbe } from "./pi/probe.js";
import { QwenCodeProbe } from "./qwen-code/probe.js";

const PROBES = {
  antigravity: (options) => new AntigravityProbe(options),
  claude_code: (options) => new ClaudeCodeProbe(options),
  codex: (options) => new CodexProbe(options),
  gemini_cli: (options) => new GeminiCliProbe(options),
  opencode: (options) => new OpenCodeProbe(options),
  goose: (options) => new GooseProbe(options),
  kiro: (options) => new KiroProbe(options),
  pi: (options) => new PiProbe(options),
  copilot: (options) => new CopilotProbe(options),
  qwen_code: (options) => new QwenCodeProbe(options),
  cursor: (options) => new CursorProbe(options),
  amp: (options) => new AmpProbe(options),
  cline: (options) => new ClineProbe(options),
  crush: (options) => new CrushProbe(options),
  droid: (options) => new DroidProbe(options),
  kilo: (options) => new KiloProbe(options),
  grok: (options) => new GrokProbe(options),
} as const satisfies { readonly [I in StoredHarnessId]: (options: StoreOptions) => StoreProbe };

/** The probe of a harness's store, for the same options its store would take. */
export function probeStore(id: StoredHarnessId, options: StoreOptions = {}): StoreProbe {
  return PROBES[id](options);
}
