/**
 * What the read-only stores (Amp, Cursor, Kiro CLI, Goose, Copilot CLI,
 * Crush) share: the one-line refusal to delete, discovery that reads each
 * listed session and turns a failure into a skipped entry, a fingerprint
 * only for an id the store lists, and a database row as JSON. The harness, its listing and how one session
 * is read come in as parameters.
 */

import type { JsonObject } from "../../common.js";
import { UnsupportedError } from "../../errors.js";
import { pathComponentProblem } from "../../paths.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  HarnessId,
} from "../../transcript.js";
import { skipReason } from "./store-files.js";

/** `delete` on a read-only store: `what` names the harness's sessions ("Amp threads"). */
export function deleteRefusal(harness: HarnessId, what: string): UnsupportedError {
  return new UnsupportedError(harness, `txcript does not delete ${what}: it only reads them`);
}

/**
 * Discovery over listed items: each is read by `found`; one that fails is
 * skipped with why, under `pathOf(item)`. Progress counts the items done.
 */
export function discoverEach<T>(
  items: readonly T[],
  pathOf: (item: T) => string,
  found: (item: T, path: string) => Discovered,
  options: DiscoverOptions = {},
): Discovery {
  const sessions: Discovered[] = [];
  const skipped: Discovery["skipped"] = [];
  for (const item of items) {
    const path = pathOf(item);
    try {
      sessions.push(found(item, path));
    } catch (cause) {
      skipped.push({ path, reason: skipReason(cause) });
    }
    options.onProgress?.(sessions.length + skipped.length, items.length);
  }
  return { sessions, skipped };
}

/** The fingerprint of a listed session; undefined for an unsafe id or one the store does not list. */
export function listedFingerprint(
  id: string,
  ids: () => readonly string[],
  stamp: () => Fingerprint,
): Fingerprint | undefined {
  if (pathComponentProblem(id) !== undefined || !ids().includes(id)) return undefined;
  return stamp();
}

/**
 * A row of a harness's own database (`SELECT *`) as JSON, column by
 * column: text, numbers, booleans and NULL as they are, a bigint as a
 * number, a blob as its UTF-8 text (neither Goose nor Crush writes one).
 */
export function rowObject(row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null)
      out[k] = v;
    else if (typeof v === "bigint") out[k] = Number(v);
    else if (Buffer.isBuffer(v)) out[k] = v.toString("utf8");
  }
  return out;
}
