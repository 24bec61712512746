/**
 * Option parsers shared by the commands.
 */

import { InvalidArgumentError } from "commander";
import type { TxcriptError } from "../errors.js";
import { parseWhen } from "../index/when.js";
import {
  HARNESS_IDS,
  type HarnessId,
  isHarnessId,
  isTextForm,
  TEXT_FORMS,
  type TextForm,
} from "../transcript.js";

export function parseTextForm(value: string): TextForm {
  const v = value.replace(/-/g, "_");
  if (!isTextForm(v)) {
    throw new InvalidArgumentError(`unknown format "${value}" (one of: ${TEXT_FORMS.join(", ")})`);
  }
  return v;
}

export function parseHarness(value: string): HarnessId {
  const v = value.replace(/-/g, "_");
  if (!isHarnessId(v)) {
    throw new InvalidArgumentError(
      `unknown harness "${value}" (one of: ${HARNESS_IDS.join(", ")})`,
    );
  }
  return v;
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
      error instanceof Error ? (error as TxcriptError).detail : String(error),
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
