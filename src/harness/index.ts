/**
 * The harness registry: for each harness id, its codec, text codec, store
 * and resume command. Commands iterate over it, so a harness added here
 * joins every command. `harness("codex")` has Codex's own Body type; code
 * that works on any harness takes the erased `Harness`.
 */

import { defined } from "../json.js";
import type { Lines } from "../lines.js";
import type {
  Common,
  Harness,
  HarnessId,
  Saved,
  SaveOptions,
  Store,
  StoreOptions,
  Transcript,
} from "../transcript.js";
import { HARNESS_IDS } from "../transcript.js";
import { amp } from "./amp/index.js";
import { antigravity } from "./antigravity/index.js";
import { claudeCode } from "./claude-code/index.js";
import { cline } from "./cline/index.js";
import { codex } from "./codex/index.js";
import { copilot } from "./copilot/index.js";
import { crush } from "./crush/index.js";
import { cursor } from "./cursor/index.js";
import { droid } from "./droid/index.js";
import { geminiCli } from "./gemini-cli/index.js";
import { goose } from "./goose/index.js";
import { grok } from "./grok/index.js";
import { kilo } from "./kilo/index.js";
import { kiro } from "./kiro/index.js";
import { openCode } from "./opencode/index.js";
import { pi } from "./pi/index.js";
import { qwenCode } from "./qwen-code/index.js";
import { simple } from "./simple.js";

export type { Harness, ResumeCommand } from "../transcript.js";

const HARNESSES = {
  antigravity,
  simple,
  claude_code: claudeCode,
  codex,
  opencode: openCode,
  gemini_cli: geminiCli,
  goose,
  kiro,
  pi,
  copilot,
  qwen_code: qwenCode,
  cursor,
  amp,
  cline,
  crush,
  droid,
  kilo,
  grok,
} as const satisfies { readonly [I in HarnessId]: Harness<I> };

/** The registry's type: each id mapped to its harness with its own Body. */
export type Harnesses = typeof HARNESSES;

export function harness<I extends HarnessId>(id: I): Harnesses[I] {
  return HARNESSES[id];
}

/** Every harness, in `HARNESS_IDS` order. */
export function allHarnesses(): Harness[] {
  return HARNESS_IDS.map((id): Harness => HARNESSES[id]);
}

/** Harnesses with an on-disk store, in registry order. */
export function storedHarnesses(): Harness[] {
  return allHarnesses().filter((h) => h.store !== undefined);
}

// Body flows. Each helper takes one harness and keeps its Body between that
// harness's own text codec, codec and store, so no Body reaches another
// harness's codec; callers holding the erased `Harness` use these.

/** Native text to Common through one harness. */
export function textToCommon(h: Harness, text: string, origin?: string): Transcript<Common> {
  return h.codec.toCommon(h.text.parse(text, origin));
}

/**
 * Native lines to Common through one harness whose form is line-based
 * (`TextCodec.parseLines`); undefined, and `lines` never asked for, when
 * it is not.
 */
export function linesToCommon(
  h: Harness,
  lines: () => Lines,
  origin?: string,
): Transcript<Common> | undefined {
  if (h.text.parseLines === undefined) return undefined;
  return h.codec.toCommon(h.text.parseLines(lines(), origin));
}

/** Common to native text through one harness. */
export function commonToText(h: Harness, transcript: Transcript<Common>): string {
  return h.text.render(h.codec.fromCommon(transcript));
}

/** `commonToText` in pieces where the form gives them (a line at a time), else one piece. */
export function commonToTextPieces(h: Harness, transcript: Transcript<Common>): Iterable<string> {
  const native = h.codec.fromCommon(transcript);
  return h.text.renderPieces ? h.text.renderPieces(native) : [h.text.render(native)];
}

/** A harness's store seen through Common: what it loads and saves goes through the same harness's codec. */
export interface CommonStore {
  readonly harness: Harness;
  /** The native store, for what needs no Body (discover, ids, fingerprint, delete). */
  readonly native: Store<unknown>;
  load(id: string): Transcript<Common>;
  save(transcript: Transcript<Common>, options?: SaveOptions): Saved;
}

/** Open a harness's store, or `undefined` for a harness with none (Simple). */
export function openStore(h: Harness, options?: StoreOptions): CommonStore | undefined {
  if (!h.store) return undefined;
  const store = h.store(options);
  return {
    harness: h,
    native: store,
    load: (id) =>
      store.loadFor
        ? store.loadFor(id, (t) => h.codec.toCommon(t))
        : h.codec.toCommon(store.load(id)),
    save: (transcript, saveOptions) =>
      store.save(
        h.codec.fromCommon(transcript, {
          forSave: true,
          ...defined({ surface: saveOptions?.surface }),
        }),
        saveOptions,
      ),
  };
}
