/**
 * A Body as plain JSON for deep equality, in a module of its own so that
 * child scripts run as another user can bundle it without the test
 * support's tooling (esbuild).
 */

import type { AntigravityBody } from "../../src/harness/antigravity/body.js";

/** The body as plain JSON values (blobs as hex), for deep equality across Buffer/Uint8Array. */
export function comparable(body: AntigravityBody): unknown {
  return JSON.parse(
    JSON.stringify(body, (_key, value: unknown) => {
      if (typeof value === "bigint") return `bigint:${value}`;
      if (value && typeof value === "object" && "buffer" in value && "byteLength" in value) {
        const v = value as Uint8Array;
        return `hex:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
      }
      // Buffer.toJSON runs before the replacer sees a Buffer.
      if (
        value &&
        typeof value === "object" &&
        (value as { type?: unknown }).type === "Buffer" &&
        Array.isArray((value as { data?: unknown }).data)
      ) {
        return `hex:${Buffer.from((value as { data: number[] }).data).toString("hex")}`;
      }
      return value;
    }),
  );
}
