/**
 * `txcript serve` in headless Chromium, the built binary serving a
 * temporary home: the list with its filters and keys, search landing on
 * the message, the session page's script running under the server's CSP
 * with hostile text inert, theme switching, the usage charts drawn, and a
 * session added while the page is open showing up. No request leaves the
 * server's origin. With TXCRIPT_SCREENSHOTS=1 it also writes the
 * screenshots docs/serve.md shows.
 */

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";
import {
  claudeProject,
  claudeSession,
  HOSTILE_SID,
  PLANTED,
  PLANTED_SID,
  type Served,
  serveHome,
  startServe,
} from "../support/serve.js";
import { launch, type Session } from "./chromium.js";
import { openServed } from "./served.js";

let chromium: Session;
let served: Served;
let home: string;
const SHOTS = process.env.TXCRIPT_SCREENSHOTS === "1" ? join(ROOT, "docs", "serve") : undefined;

beforeAll(async () => {
  home = serveHome();
  served = await startServe(home);
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
  await served?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const open = (path = "") => openServed(chromium, served.base, path);

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const rows = (page: Page) => page.locator("#sessions tbody tr");

describe("txcript serve in Chromium", () => {
  it("lists the sessions, filters by harness and text, and opens one from the keyboard", async () => {
    const o = await open();
    await expect.poll(() => rows(o.page).count()).toBe(5);
    await shot(o.page, "list");
    await o.page.selectOption("#harness", "claude_code");
    await expect.poll(() => rows(o.page).count()).toBe(2);
    await o.page.selectOption("#harness", "");
    await o.page.keyboard.press("/");
    await o.page.keyboard.type("flaky");
    await expect.poll(() => rows(o.page).count()).toBe(1);
    expect(await rows(o.page).first().locator("td.title").textContent()).toBe(
      "Fix the flaky login test",
    );
    await o.page.locator("#filter").blur();
    await o.page.keyboard.press("Enter");
    await o.page.waitForURL(/\/s\/antigravity\/0f4c7a2e/);
    expect(await o.page.locator("h1").textContent()).toBe("Fix the flaky login test");
    expect(o.foreign).toEqual([]);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it("moves the selection with j and k", async () => {
    const o = await open();
    await expect.poll(() => rows(o.page).count()).toBe(5);
    await o.page.keyboard.press("j");
    await o.page.keyboard.press("j");
    await o.page.keyboard.press("k");
    const selected = await o.page.locator("#sessions tbody tr.sel").getAttribute("data-id");
    expect(selected).toBe(await rows(o.page).nth(1).getAttribute("data-id"));
    await o.page.close();
  });

  it("searches a planted word, highlights it, and opens the hit at its message", async () => {
    const o = await open("#/search");
    await o.page.fill("#search", PLANTED);
    await o.page.keyboard.press("Enter");
    const hit = o.page.locator(".hits li").first();
    await hit.waitFor();
    expect(await hit.locator("mark").first().textContent()).toBe(PLANTED);
    await shot(o.page, "search");
    await hit.locator("a.hit").click();
    await o.page.waitForURL(new RegExp(`/s/claude_code/${PLANTED_SID}#m\\d+$`));
    const anchor = new URL(o.page.url()).hash.slice(1);
    const message = o.page.locator(`#${anchor}`);
    expect(await message.textContent()).toContain(PLANTED);
    expect(await message.isVisible()).toBe(true);
    // Landed on it: the message is in the viewport.
    await expect
      .poll(() =>
        message.evaluate((e) => {
          const r = e.getBoundingClientRect();
          return r.top >= 0 && r.top < window.innerHeight;
        }),
      )
      .toBe(true);
    await shot(o.page, "session");
    // The export's script runs from /assets/session.js under the server's CSP.
    await expect
      .poll(() => o.page.evaluate(() => document.documentElement.classList.contains("js")))
      .toBe(true);
    await o.page.click("#theme");
    expect(await o.page.evaluate(() => document.documentElement.getAttribute("data-theme"))).toBe(
      "light",
    );
    expect(await o.page.locator("#resume-cmd").textContent()).toContain(PLANTED_SID);
    // Read-only: no continue or delete on the page.
    expect(await o.page.locator("#serve-write, #continue, #delete").count()).toBe(0);
    expect(o.foreign).toEqual([]);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it("keeps a hostile session inert: nothing runs, nothing is fetched", async () => {
    const o = await open(`s/claude_code/${HOSTILE_SID}`);
    await o.page.waitForTimeout(300);
    expect(o.dialogs).toEqual([]);
    expect(o.foreign).toEqual([]);
    expect(await o.page.locator("main img").count()).toBe(0);
    expect(await o.page.locator("main").textContent()).toContain('<script>alert("xss")</script>');
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it("switches themes and remembers the choice", async () => {
    const o = await open();
    const theme = () => o.page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    // The session page and the app share the choice (one origin, one key): start from none.
    await o.page.evaluate(() => localStorage.removeItem("txcript-theme"));
    await o.page.reload();
    expect(await theme()).toBe("auto");
    await o.page.click("#theme");
    expect(await theme()).toBe("light");
    await o.page.click("#theme");
    expect(await theme()).toBe("dark");
    await o.page.reload();
    expect(await theme()).toBe("dark");
    await o.page.click("#theme");
    await o.page.close();
  });

  it("draws the usage dashboard's charts", async () => {
    const o = await open("#/usage");
    await o.page.locator("#usage-totals").waitFor();
    expect(await o.page.locator("#usage-totals").textContent()).toMatch(/tokens/);
    for (const id of ["chart-day", "chart-model", "chart-harness"]) {
      await o.page.locator(`#${id}[data-drawn="1"]`).waitFor();
      // Pixels painted on the canvas, not an empty box.
      const painted = await o.page.evaluate((cid) => {
        const c = document.getElementById(cid);
        if (!(c instanceof HTMLCanvasElement)) return 0;
        const d = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        if (d) for (let i = 3; i < d.length; i += 4) if ((d[i] ?? 0) > 0) n++;
        return n;
      }, id);
      expect(painted, id).toBeGreaterThan(500);
    }
    const models = await o.page.locator("#usage-models tbody td:first-child").allTextContents();
    expect(models).toContain("claude-sonnet-4-5");
    await shot(o.page, "usage");
    expect(o.errors).toEqual([]);
    expect(o.foreign).toEqual([]);
    await o.page.close();
  });

  it("shows a session added while the page is open, without a reload", async () => {
    const o = await open();
    await expect.poll(() => rows(o.page).count()).toBe(5);
    const sid = "7a1b2c3d-0000-4000-8000-00000000dddd";
    writeFileSync(
      join(claudeProject(home), `${sid}.jsonl`),
      claudeSession(sid, "Brand new session", "hello"),
    );
    await o.page.locator(`#sessions tbody tr[data-id="${sid}"]`).waitFor({ timeout: 30_000 });
    expect(await o.page.locator("#live").textContent()).toMatch(/updated/);
    await o.page.close();
  });
});
