/**
 * Kiro's bytes in JSON (serde's default for `Vec<u8>` and serde_bytes): a
 * list of byte values, which Common holds as base64. Pure; shared by the
 * session-log codec and the older engine's conversations.
 */

import type { Json } from "../../common.js";

/** A list of byte values as base64 (a string is taken as base64 already; anything else is empty). */
export function bytesToBase64(value: Json | undefined): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  const bytes = value.filter((b): b is number => typeof b === "number");
  return Buffer.from(Uint8Array.from(bytes, (b) => b & 0xff)).toString("base64");
}

export function base64ToBytes(data: string): number[] {
  return [...Buffer.from(data, "base64")];
}
