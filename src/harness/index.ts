/**
 * The harness registry: for each harness id, its codec, text codec, store
 * and resume command. Commands iterate over it, so a harness added here
 * joins every command.
 */

import type { Meta } from "../common.js";
import type { Codec, HarnessId, Saved, Store, StoreOptions, TextCodec } from "../transcript.js";
import { HARNESS_IDS } from "../transcript.js";
import { antigravity } from "./antigravity/index.js";
import { claudeCode } from "./claude-code/index.js";
import { codex } from "./codex/index.js";
import { geminiCli } from "./gemini-cli/index.js";
import { simpleCodec, simpleText } from "./simple.js";

/** A command line that reopens a saved session in its harness. */
export interface ResumeCommand {
  /** argv: the program, then its arguments. */
  argv: string[];
  /** Where to run it (some harnesses scope sessions by directory). */
  cwd?: string;
}

export interface Harness<Body = unknown> {
  readonly id: HarnessId;
  /** What people call it. */
  readonly label: string;
  readonly codec: Codec<Body>;
  readonly text: TextCodec<Body>;
  /** Absent for harnesses with no on-disk store (Simple). */
  readonly store?: (options?: StoreOptions) => Store<Body>;
  /** How to reopen a saved session. Absent when the harness cannot resume. */
  readonly resume?: (saved: Saved, meta: Meta) => ResumeCommand;
}

const simple: Harness<unknown> = {
  id: "simple",
  label: "Simple document",
  codec: simpleCodec as Codec<unknown>,
  text: simpleText as TextCodec<unknown>,
};

export function harness(id: HarnessId): Harness {
  switch (id) {
    case "simple":
      return simple;
    case "antigravity":
      return antigravity as Harness;
    case "claude_code":
      return claudeCode as Harness;
    case "codex":
      return codex;
    case "gemini_cli":
      return geminiCli as Harness;
    default:
      return id satisfies never;
  }
}

export function allHarnesses(): Harness[] {
  return HARNESS_IDS.map(harness);
}

/** Harnesses with an on-disk store, in registry order. */
export function storedHarnesses(): Harness[] {
  return allHarnesses().filter((h) => h.store !== undefined);
}
