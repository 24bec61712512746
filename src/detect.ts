/**
 * Format detection: which text form (or store file) a file is, from its
 * first bytes. Each harness's detector sits beside its text codec
 * (`TextCodec.detect`); this dispatcher asks every harness in the registry,
 * then Common JSON, so a harness added to the registry is detected too.
 */

import { detectCommon } from "./common-json.js";
import { allHarnesses, harness } from "./harness/index.js";
import type { Recognized, Sample, TextForm } from "./transcript.js";

export interface Detected {
  form: TextForm;
  /** The form's text (parse it), or a file only the harness's store reads. */
  as: Recognized;
}

/**
 * The first harness (in registry order, Simple last: any JSON object with
 * `messages` fits it, OpenCode's export and Gemini CLI's document too)
 * whose detector claims the sample, else Common, else undefined.
 */
export function detectForm(sample: Sample): Detected | undefined {
  const all = allHarnesses();
  for (const h of [
    ...all.filter((x) => x.id !== "simple"),
    ...all.filter((x) => x.id === "simple"),
  ]) {
    const as = h.text.detect?.(sample);
    if (as !== undefined) return { form: h.id, as };
  }
  return detectCommon(sample) ? { form: "common", as: "text" } : undefined;
}

/** "a Claude Code session", "a Simple document", "an Antigravity CLI (agy) conversation database". */
export function describeForm(form: TextForm, as: Recognized = "text"): string {
  if (form === "common") return "a Common JSON document";
  if (form === "simple") return "a Simple document";
  const label = harness(form).label;
  if (as === "store-file")
    return form === "antigravity"
      ? `an ${label} conversation database`
      : `a compressed ${label} session file`;
  if (form === "antigravity") return `an ${label} text dump`;
  return `${/^[AEIOU]/.test(label) ? "an" : "a"} ${label} session`;
}
