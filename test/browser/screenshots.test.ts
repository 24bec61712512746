/**
 * Layout regressions: screenshots of a fixed session's page (the
 * cross-harness session, light and dark, the top and a stretch of tool
 * calls, and a narrow window) compared with the PNGs stored in
 * test/browser/baselines, pixel by pixel with a tolerance for antialiasing
 * (baseline.ts). `npm run test:browser:update` rewrites the baselines.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/render/html.js";
import { sourceSession } from "../render/sessions.js";
import { compareBaseline as compare } from "./baseline.js";
import { launch, openPage, type Session } from "./chromium.js";

let chromium: Session;
beforeAll(async () => {
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
});

interface Shot {
  name: string;
  width: number;
  height: number;
  scheme: "light" | "dark";
  /** Element to scroll to the top first. */
  at?: string;
}

const SHOTS: Shot[] = [
  { name: "top-light", width: 1200, height: 900, scheme: "light" },
  { name: "top-dark", width: 1200, height: 900, scheme: "dark" },
  { name: "calls-light", width: 1200, height: 900, scheme: "light", at: "#c4" },
  { name: "narrow-light", width: 480, height: 900, scheme: "light", at: "#m2" },
];

describe("screenshots of a fixed session", () => {
  const html = renderHtml({ transcript: sourceSession(), harness: "codex", home: "/home/dana" });
  for (const shot of SHOTS) {
    it(shot.name, async () => {
      const o = await openPage(chromium, html, {
        width: shot.width,
        height: shot.height,
        colorScheme: shot.scheme,
      });
      if (shot.at) {
        await o.page.locator(shot.at).evaluate((el) => el.scrollIntoView({ block: "start" }));
      }
      // No caret, no animation: the same pixels every run.
      await o.page.addStyleTag({
        content: "*{caret-color:transparent!important;animation:none!important}",
      });
      const png = await o.page.screenshot({ animations: "disabled" });
      await o.page.close();
      expect(o.errors).toEqual([]);
      compare(shot.name, png);
    });
  }
});
