/**
 * The global `--<harness>-root <dir>` flags, one per harness with a store,
 * and the roots a command line gives. Named from the harness ids and
 * labels alone, so setting up the command line loads no harness.
 */

import type { Command } from "commander";
import { HARNESS_LABELS, type HarnessId, STORED_HARNESS_IDS } from "../transcript.js";

export function rootFlag(id: HarnessId): string {
  return `${id.replace(/_/g, "-")}-root`;
}

/** Global `--<harness>-root <dir>` flags, one per harness with a store. */
export function addRootOptions(program: Command): void {
  for (const id of STORED_HARNESS_IDS) {
    program.option(
      `--${rootFlag(id)} <dir>`,
      `read and write ${HARNESS_LABELS[id]} sessions under <dir>`,
    );
  }
}

export function rootsFrom(command: Command): Partial<Record<HarnessId, string>> {
  const opts: Record<string, unknown> = command.optsWithGlobals();
  const roots: Partial<Record<HarnessId, string>> = {};
  for (const id of STORED_HARNESS_IDS) {
    const key = rootFlag(id).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const value = opts[key];
    if (typeof value === "string") roots[id] = value;
  }
  return roots;
}
