/**
 * Pages running in headless Chromium: pages from every harness render with
 * no console error and no request beyond the page itself (every other
 * request is blocked and counted); the theme toggle, expand-all, call ->
 * result links and search work; the print stylesheet hides the controls;
 * a hostile transcript runs nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/render/html.js";
import type { Common, Transcript } from "../../src/transcript.js";
import { hostileSession, pageSessions, sourceSession } from "../render/sessions.js";
import { launch, openPage, type Session } from "./chromium.js";

let chromium: Session;
beforeAll(async () => {
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
});

function longResultSession(): Transcript<Common> {
  const at = "2026-09-01T10:00:00Z";
  const lines = Array.from(
    { length: 400 },
    (_, i) => `row ${i}${i === 333 ? " needle-in-output" : ""}`,
  );
  return {
    meta: { id: "long", timestamp: at, title: "long output" },
    body: [
      { role: "user", content: [{ type: "text", text: "print rows" }], timestamp: at },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "a thought with needle-in-thinking inside" },
          { type: "tool_use", id: "t1", tool: { name: "Bash", command: "seq 400" } },
        ],
        timestamp: at,
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: lines.join("\n") }],
        timestamp: at,
      },
      { role: "assistant", content: [{ type: "text", text: "Printed." }], timestamp: at },
    ],
  };
}

describe("pages in Chromium", () => {
  it("control: the harness does see requests, console errors and scripts when a page has them", async () => {
    const o = await openPage(
      chromium,
      `<!doctype html><img src="http://127.0.0.1:9/x.png"><script>window.__pwned=1;console.error("boom")</script>`,
    );
    await o.page.waitForTimeout(200);
    expect(o.requests).toEqual(["http://127.0.0.1:9/x.png"]);
    expect(o.errors.some((e) => e.includes("boom"))).toBe(true);
    expect(await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(
      1,
    );
    await o.page.close();
  });

  for (const { name, transcript, harness } of pageSessions()) {
    it(`${name}: no console error, no request`, async () => {
      const o = await openPage(chromium, renderHtml({ transcript, harness }));
      expect(await o.page.locator("article.msg").count()).toBeGreaterThan(0);
      expect(await o.page.locator(".toc li").count()).toBeGreaterThan(0);
      await o.page.locator("#expand").click();
      await o.page.close();
      expect(o.errors).toEqual([]);
      expect(o.requests).toEqual([]);
    });
  }

  it("theme toggle cycles auto, light, dark and changes the colors; the OS preference applies on auto", async () => {
    const o = await openPage(chromium, renderHtml({ transcript: sourceSession() }));
    const bg = () => o.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const theme = () => o.page.evaluate(() => document.documentElement.dataset.theme);
    expect(await theme()).toBe("auto");
    const light = await bg();
    await o.page.locator("#theme").click();
    expect(await theme()).toBe("light");
    await o.page.locator("#theme").click();
    expect(await theme()).toBe("dark");
    const dark = await bg();
    expect(dark).not.toBe(light);
    await o.page.locator("#theme").click();
    expect(await theme()).toBe("auto");
    await o.page.emulateMedia({ colorScheme: "dark" });
    expect(await bg()).toBe(dark);
    await o.page.close();
    expect(o.errors).toEqual([]);
  });

  it("expand all opens every <details>, and the print stylesheet hides the controls", async () => {
    const o = await openPage(chromium, renderHtml({ transcript: longResultSession() }));
    const closed = () => o.page.locator("main details:not([open])").count();
    expect(await closed()).toBeGreaterThan(0);
    await o.page.locator("#expand").click();
    expect(await closed()).toBe(0);
    await o.page.locator("#expand").click();
    expect(await o.page.locator("main details[open]").count()).toBe(0);
    await o.page.emulateMedia({ media: "print" });
    expect(await o.page.locator(".bar").isVisible()).toBe(false);
    expect(await o.page.locator(".toc").isVisible()).toBe(false);
    await o.page.close();
  });

  it("a call links to its result (opening it) and the result back to its call", async () => {
    const o = await openPage(chromium, renderHtml({ transcript: longResultSession() }), {
      height: 600,
    });
    const result = o.page.locator("#r1");
    expect(await result.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await o.page.locator('#c1 a[href="#r1"]').click();
    expect(await result.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(o.page.url()).toMatch(/#r1$/);
    await o.page.locator('#r1 a[href="#c1"]').click();
    expect(o.page.url()).toMatch(/#c1$/);
    expect(await o.page.locator("#c1").isVisible()).toBe(true);
    await o.page.close();
    expect(o.errors).toEqual([]);
  });

  it("search marks matches, steps through them and opens the collapsed ones", async () => {
    const o = await openPage(chromium, renderHtml({ transcript: longResultSession() }));
    await o.page.locator("#q").fill("needle-in");
    await o.page.waitForFunction(() => document.querySelectorAll("main mark").length === 2);
    expect(await o.page.locator("#qcount").textContent()).toBe("1 / 2");
    expect(
      await o.page.locator("details.thinking").evaluate((d) => (d as HTMLDetailsElement).open),
    ).toBe(true);
    await o.page.locator("#q").press("Enter");
    expect(await o.page.locator("#qcount").textContent()).toBe("2 / 2");
    expect(await o.page.locator("#r1").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await o.page.locator("mark.cur").textContent()).toBe("needle-in");
    await o.page.locator("#q").fill("no such text anywhere");
    await o.page.waitForFunction(
      () => document.getElementById("qcount")?.textContent === "no match",
    );
    expect(await o.page.locator("main mark").count()).toBe(0);
    // The page's text is whole again after the marks are removed.
    expect(await o.page.locator("#r1 pre").textContent()).toContain("row 333 needle-in-output");
    await o.page.close();
    expect(o.errors).toEqual([]);
  });

  it("a hostile transcript runs nothing and loads nothing", async () => {
    const o = await openPage(chromium, renderHtml({ transcript: hostileSession() }));
    await o.page.locator("#expand").click();
    await o.page.waitForTimeout(300);
    expect(
      await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(o.dialogs).toEqual([]);
    expect(o.requests).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(
      await o.page
        .locator(
          'main a[href^="javascript:" i], main iframe, main svg, main [onerror], main [onload]',
        )
        .count(),
    ).toBe(0);
    expect(await o.page.locator("main script").count()).toBe(0);
    expect(await o.page.title()).toContain("<script>");
    await o.page.close();
  });
});
