/**
 * The schema module and its documentation: every field number the codec
 * uses has a provenance, numbers are unique within a message, and the
 * format document lists each one.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PAYLOAD_FIELD, SCHEMA, Step, StepType } from "../../src/harness/antigravity/schema.js";
import { ROOT } from "../support/cli.js";

const doc = readFileSync(join(ROOT, "docs", "formats", "antigravity.md"), "utf8");

describe("schema", () => {
  it("gives every entry a provenance from the seed, the wire reference or the samples", () => {
    expect(SCHEMA.length).toBeGreaterThan(100);
    for (const e of SCHEMA)
      expect(e.provenance, `${e.message}.${e.field}`).toMatch(/seed|wire §|sample/);
  });

  it("never gives two names the same number within one message", () => {
    const seen = new Map<string, string>();
    for (const e of SCHEMA) {
      const key = `${e.message}#${e.no}`;
      expect(
        seen.get(key),
        `${e.message}: ${e.field} and ${seen.get(key)} share ${e.no}`,
      ).toBeUndefined();
      seen.set(key, e.field);
    }
  });

  it("maps every step type to a payload field of gemini_coder.Step", () => {
    const stepFields = new Set(Object.values(Step));
    for (const type of Object.values(StepType)) {
      expect(stepFields.has(PAYLOAD_FIELD.get(type)!), String(type)).toBe(true);
    }
  });

  it("is documented, entry by entry, in docs/formats/antigravity.md", () => {
    for (const e of SCHEMA) {
      expect(doc).toContain(`| \`${e.message}\` | \`${e.field}\` | ${e.no} | ${e.provenance} |`);
    }
    expect(doc).toMatch(/^Last verified: \d{4}-\d{2}-\d{2}/m);
  });
});
