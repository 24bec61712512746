/**
 * One huge step (issue 11, item 5): a session txcript wrote with a prompt
 * of tens of MiB lists and views again, within a small heap: the title is
 * built from the prompt's first characters only, and listing decodes only
 * the head of the prompt.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { titleFromPrompt } from "../../src/harness/antigravity/decode.js";
import { txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { commonDoc, SID, saveAs } from "./support.js";

/** The title rule as first written (whole-text split), the reference on small inputs. */
function reference(text: string): string | undefined {
  const line = text.trim().split(/\s+/u).join(" ");
  if (line === "") return undefined;
  const points = Array.from(line);
  return points.length <= 80 ? line : `${points.slice(0, 79).join("")}…`;
}

describe("titleFromPrompt", () => {
  it("is the whole-text rule, on every text", () => {
    const unit = fc.oneof(
      fc.constantFrom(" ", "\n", "\t", "\u3000", "\u00a0", "\u2028", "a", "é", "😀", "\r\n"),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 140 }), (parts) => {
        const text = parts.join("");
        expect(titleFromPrompt(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a session with a 8 MiB prompt", () => {
  it("lists with its title and views, listing in a 48 MiB heap (the whole-text title needed more)", () => {
    const home = tempDir("txcript-huge-");
    const doc = commonDoc(SID);
    const prompt = `  Please\n\n review ${"word ".repeat((8 * 1024 * 1024) / 5)}`;
    doc.body[0]!.content = [{ type: "text", text: prompt }];
    // Untitled, so the listing builds its title from the huge prompt (a title is kept as is).
    delete doc.meta.title;
    saveAs(doc, "antigravity", { env: { HOME: home } });
    const env = { HOME: home, NODE_OPTIONS: "--max-old-space-size=48" };
    const list = txcript(["list", "--json"], { env });
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    const sessions = (JSON.parse(list.stdout) as { sessions: { id: string; title: string }[] })
      .sessions;
    expect(sessions.map((s) => s.id)).toEqual([SID]);
    expect(sessions[0]?.title).toBe(`Please review ${"word ".repeat(13)}…`);
    const view = txcript(["view", SID, "--format", "json"], { env: { HOME: home } });
    expect(view.stderr).toBe("");
    expect(view.status).toBe(0);
  }, 60_000);
});
