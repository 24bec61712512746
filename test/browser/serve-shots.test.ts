/**
 * Layout regressions of `txcript serve`: the session list and the usage
 * dashboard (its three Chart.js charts drawn) in light and dark, compared
 * with the PNGs in test/browser/baselines (baseline.ts; rewritten by
 * `npm run test:browser:update`). The fixture sessions have fixed
 * timestamps and the server and browser both run in UTC, so the same
 * pixels come every run; the list's "last activity" column, which the
 * browser writes in its locale, is masked.
 */

import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serveHome, startServe } from "../support/serve.js";
import { compareBaseline } from "./baseline.js";
import { launch, type Session } from "./chromium.js";
import { openServed } from "./served.js";

let chromium: Session;
let served: Served;
let home: string;

beforeAll(async () => {
  // Both the server's usage days and the browser's clock in one zone.
  process.env.TZ = "UTC";
  home = serveHome();
  served = await startServe(home);
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
  await served?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** A screenshot with no caret and no animation. */
async function still(page: Page, mask: string[] = []): Promise<Buffer> {
  await page.addStyleTag({
    content: "*{caret-color:transparent!important;animation:none!important}",
  });
  return page.screenshot({ animations: "disabled", mask: mask.map((m) => page.locator(m)) });
}

describe("screenshots of txcript serve", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(`the session list, ${scheme}`, async () => {
      const o = await openServed(chromium, served.base, "", { colorScheme: scheme });
      await o.page.locator("#sessions tbody tr").nth(4).waitFor();
      expect(await o.page.locator("#count").textContent()).toBe("1–5 of 5 sessions");
      compareBaseline(`serve-list-${scheme}`, await still(o.page, ["#sessions td:nth-child(6)"]));
      expect(o.errors).toEqual([]);
      await o.page.close();
    });

    it(`the usage dashboard with its charts drawn, ${scheme}`, async () => {
      const o = await openServed(chromium, served.base, "#/usage", { colorScheme: scheme });
      for (const id of ["chart-day", "chart-model", "chart-harness"])
        await o.page.locator(`#${id}[data-drawn="1"]`).waitFor();
      // Chart.js redraws once its box is measured: let it settle.
      await o.page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      );
      await o.page.waitForTimeout(200);
      compareBaseline(`serve-usage-${scheme}`, await still(o.page));
      expect(o.errors).toEqual([]);
      expect(o.foreign).toEqual([]);
      await o.page.close();
    });
  }
});
