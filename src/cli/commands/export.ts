/**
 * txcript export <id>[#range]: the session as a Simple document, on stdout
 * or written atomically to --out FILE: never over an existing file unless
 * --force, and never inside any harness's store.
 */

import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { ConflictError, describeCause, InvalidRequestError, TxcriptError } from "../../errors.js";
import { TargetExistsError, writeFileAtomic } from "../../fsx.js";
import { storedHarnesses } from "../../harness/index.js";
import { renderSimple } from "../../harness/simple.js";
import { isInside } from "../../paths.js";
import type { HarnessId, StoreOptions, TextForm } from "../../transcript.js";
import { resolveSource, rootsFrom, selected } from "../context.js";
import { parseHarness, parseTextForm } from "../options.js";
import { tell } from "../output.js";

interface ExportOptions {
  from?: HarnessId;
  as?: TextForm;
  out?: string;
  force?: boolean;
}

/** `path` with its folder's symlinks resolved (and its own, when it is one), as far as they exist. */
function realTarget(path: string): string[] {
  const abs = resolve(path);
  let dir = dirname(abs);
  const rest: string[] = [basename(abs)];
  // The deepest existing folder, resolved; what does not exist yet is appended.
  for (;;) {
    try {
      dir = realpathSync(dir);
      break;
    } catch {
      const up = dirname(dir);
      if (up === dir) break;
      rest.unshift(basename(dir));
      dir = up;
    }
  }
  const out = [abs, join(dir, ...rest)];
  try {
    out.push(realpathSync(abs));
  } catch {
    // not there yet, or a dangling link: the rename replaces the link itself
  }
  return out;
}

/** The store roots of every harness, as configured here and by default, resolved. */
function storeRoots(command: Command): { label: string; root: string }[] {
  const flags = rootsFrom(command);
  const out: { label: string; root: string }[] = [];
  for (const h of storedHarnesses()) {
    const configs: StoreOptions[] = [{ env: process.env }];
    const flag = flags[h.id];
    if (flag !== undefined) configs.push({ env: process.env, root: flag });
    for (const options of configs) {
      for (const root of h.store!(options).roots) {
        out.push({ label: h.label, root: resolve(root) });
        try {
          out.push({ label: h.label, root: realpathSync(root) });
        } catch {
          // a store that does not exist holds nothing to protect
        }
      }
    }
  }
  return out;
}

/** Refuse a target inside any store, or an existing one without --force. */
function checkTarget(command: Command, path: string, force: boolean): void {
  const targets = realTarget(path);
  for (const { label, root } of storeRoots(command)) {
    if (targets.some((t) => isInside(root, t))) {
      throw new InvalidRequestError(
        undefined,
        `is inside the ${label} store (${root}); export writes documents, never into a store`,
        { file: path },
      );
    }
  }
  if (!force && existsSync(path)) {
    throw new ConflictError(undefined, "already exists (--force replaces it)", { file: path });
  }
}

/** Write `text` to `path` atomically, as a one-line error naming the file on failure. */
function writeOut(path: string, text: string, force: boolean): void {
  try {
    writeFileAtomic(path, text, { exclusive: !force });
  } catch (cause) {
    if (cause instanceof TargetExistsError) {
      throw new ConflictError(undefined, "already exists (--force replaces it)", { file: path });
    }
    throw new TxcriptError(undefined, `cannot write: ${describeCause(cause)}`, {
      file: path,
      cause,
    });
  }
}

export function register(program: Command): void {
  program
    .command("export")
    .description("export a session (or a #range) as a Simple document")
    .argument(
      "<session>",
      'an id or unique prefix, or a session file, or "-"; optionally with #range',
    )
    .option("--from <harness>", "look the id up in this harness only", parseHarness)
    .option("--as <form>", "the text form of a file argument (default: detected)", parseTextForm)
    .option("-o, --out <file>", "write to this file instead of stdout (never over an existing one)")
    .option("-f, --force", "with --out: replace an existing file")
    .action((ref: string, options: ExportOptions, command: Command) => {
      const force = options.force === true;
      if (options.out !== undefined && options.out !== "-")
        checkTarget(command, options.out, force);
      const source = resolveSource(command, ref, {
        ...(options.from ? { from: options.from } : {}),
        ...(options.as ? { documentForm: options.as } : {}),
        allowDocuments: true,
      });
      const text = renderSimple(selected(source));
      if (options.out === undefined || options.out === "-") process.stdout.write(text);
      else {
        writeOut(options.out, text, force);
        tell(`wrote ${options.out}\n`);
      }
    });
}
