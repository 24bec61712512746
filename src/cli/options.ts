/**
 * Option parsers shared by the commands.
 */

import { InvalidArgumentError } from "commander";
import { describeCause, TxcriptError } from "../errors.js";
import { parseWhen } from "../index/when.js";
import {
  HARNESS_ALIASES,
  HARNESS_IDS,
  type HarnessId,
  harnessIdFor,
  isTextForm,
  TEXT_FORMS,
  type TextForm,
} from "../transcript.js";

/** `antigravity (agy), claude_code (claude), codex, …` for error messages. */
function namesWithAliases(ids: readonly string[]): string {
  return ids
    .map((id) => {
      const aliases = Object.entries(HARNESS_ALIASES)
        .filter(([, target]) => target === id)
        .map(([alias]) => alias);
      return aliases.length > 0 ? `${id} (${aliases.join(", ")})` : id;
    })
    .join(", ");
}

export function parseTextForm(value: string): TextForm {
  const v = harnessIdFor(value) ?? value.trim().toLowerCase().replace(/-/g, "_");
  if (!isTextForm(v)) {
    throw new InvalidArgumentError(
      `unknown format "${value}" (one of: ${namesWithAliases(TEXT_FORMS)})`,
    );
  }
  return v;
}

export function parseHarness(value: string): HarnessId {
  const id = harnessIdFor(value);
  if (id === undefined) {
    throw new InvalidArgumentError(
      `unknown harness "${value}" (one of: ${namesWithAliases(HARNESS_IDS)})`,
    );
  }
  return id;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  }
  return n;
}

function when(value: string, end: boolean): number {
  try {
    return parseWhen(value, Date.now(), end);
  } catch (error) {
    throw new InvalidArgumentError(
      error instanceof TxcriptError ? error.detail : describeCause(error),
    );
  }
}

/** `--since`: an age (`3d`), a date or a timestamp, as ms since the epoch. */
export function parseSince(value: string): number {
  return when(value, false);
}

/** `--until`: as `--since`; a bare date includes that whole day. */
export function parseUntil(value: string): number {
  return when(value, true);
}
