/**
 * Path safety: ids that become path components, and containment of resolved
 * paths inside a store root.
 */

import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { UnsafePathError } from "./errors.js";
import type { TextForm } from "./transcript.js";

/**
 * Why `id` cannot be a single path component, or undefined when it can.
 * Refused: empty, `.`/`..`, separators (both kinds on every platform),
 * control characters (C0, DEL and C1), drive prefixes and anything absolute.
 */
export function pathComponentProblem(id: string): string | undefined {
  if (id.length === 0) return "is empty";
  if (id === "." || id === "..") return `is "${id}"`;
  if (id.includes("/") || id.includes("\\")) return "contains a path separator";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return "contains a control character";
  if (/^[A-Za-z]:/.test(id) || isAbsolute(id)) return "is an absolute path";
  if (id.length > 255) return "is longer than 255 characters";
  return undefined;
}

/** Throw `UnsafePathError` unless `id` is a plain path component. */
export function checkPathComponent(id: string, harness?: TextForm): string {
  const problem = pathComponentProblem(id);
  if (problem) throw new UnsafePathError(harness, `unsafe id ${JSON.stringify(id)}: ${problem}`);
  return id;
}

/** True when `child` is `root` or lies below it (both already resolved). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolve symlinks of `path` and check that it lies inside `root` (also
 * resolved). Returns the real path; throws `UnsafePathError` otherwise.
 */
export function realPathInside(root: string, path: string, harness?: TextForm): string {
  const realRoot = realpathSync(resolve(root));
  const real = realpathSync(resolve(path));
  if (!isInside(realRoot, real)) {
    throw new UnsafePathError(harness, `${path} resolves to ${real}, outside ${realRoot}`);
  }
  return real;
}

/**
 * Why a session file may not be read, or undefined when it may: a file
 * that is a symlink leading outside `root` (resolved) is refused, as
 * delete refuses it, so a store never reads what it would not remove. A
 * link that cannot be resolved is refused too.
 */
export function linkOutsideProblem(root: string, path: string): string | undefined {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return undefined; // gone: the caller's own read reports it
  }
  if (!link) return undefined;
  try {
    const real = realpathSync(path);
    if (isInside(realpathSync(resolve(root)), real)) return undefined;
    return `a link to ${real}, outside the store ${root}: not followed`;
  } catch (cause) {
    return `a link that does not resolve: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

/** Throw `UnsafePathError` when `path` is a link leading outside `root` (see linkOutsideProblem). */
export function checkLinkInside(root: string, path: string, harness?: TextForm): void {
  const problem = linkOutsideProblem(root, path);
  if (problem) throw new UnsafePathError(harness, `${path}: ${problem}`);
}
