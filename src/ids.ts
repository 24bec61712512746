/**
 * Deterministic ids. `fromCommon` never reads the clock or a random source:
 * every id it mints is a UUIDv5 over stable keys in txcript's namespace.
 */

import { v5 as uuidv5 } from "uuid";
import { isUuid } from "./id-forms.js";

/** uuidv5("txcript", URL namespace). Fixed forever: derived ids must not drift. */
export const TXCRIPT_NAMESPACE = "27bb69cb-e884-5b98-ae4f-f009d53b2b70";

const utf8 = new TextEncoder();

/** A UUIDv5 over the parts, joined unambiguously. */
export function stableUuid(...parts: readonly (string | number)[]): string {
  // Our own UTF-8 bytes: uuid's string path (encodeURIComponent, then a
  // byte loop) takes ~0.4 s on a 4 MB document. Same bytes, same ids.
  return uuidv5(utf8.encode(JSON.stringify(parts)), TXCRIPT_NAMESPACE);
}

/**
 * A session id for a harness whose ids are UUIDs: a UUID is kept
 * (lowercased), anything else maps to one, stable under `namespace`.
 */
export function uuidSessionId(namespace: string, id: string): string {
  return isUuid(id) ? id.toLowerCase() : stableUuid(namespace, id);
}
