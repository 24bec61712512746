/**
 * Deterministic ids. `fromCommon` never reads the clock or a random source:
 * every id it mints is a UUIDv5 over stable keys in txcript's namespace.
 */

import { v5 as uuidv5 } from "uuid";

/** uuidv5("txcript", URL namespace). Fixed forever: derived ids must not drift. */
export const TXCRIPT_NAMESPACE = "27bb69cb-e884-5b98-ae4f-f009d53b2b70";

/** A UUIDv5 over the parts, joined unambiguously. */
export function stableUuid(...parts: readonly (string | number)[]): string {
  return uuidv5(JSON.stringify(parts), TXCRIPT_NAMESPACE);
}
