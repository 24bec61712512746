/**
 * collectGarbage (src/cli/collect.ts): `continue` frees a load's garbage
 * before writing its copy. It must really collect, and must leave no `gc`
 * behind in the caller's context.
 */

import { setImmediate } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/cli/collect.js";

function unreachable(): WeakRef<object> {
  return new WeakRef({ payload: new Array(1_000).fill("garbage") });
}

describe("collectGarbage", () => {
  it("frees an object nothing holds", async () => {
    const before = typeof Reflect.get(globalThis, "gc");
    const ref = unreachable();
    // A WeakRef's target is kept until the current job ends.
    await setImmediate();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    collectGarbage();
    expect(typeof Reflect.get(globalThis, "gc")).toBe(before);
  });
});
