/**
 * `txcript serve --allow-write` in Chromium: the session page's continue
 * and delete, through the built binary on a temporary home. A browser that
 * opened the printed URL (the token moved into a cookie) continues a
 * session into Claude Code and sees the resume command, and deletes one
 * after confirming (Cancel first leaves it); a browser without the token
 * is refused and told why, and nothing is written. The read-only server's
 * page has neither (serve.test.ts).
 */

import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";
import {
  claudeProject,
  PLANTED_SID,
  type Served,
  serveHome,
  startServe,
} from "../support/serve.js";
import { launch, type Session } from "./chromium.js";
import { openServed } from "./served.js";

const AGY_SID = "0f4c7a2e-91b3-4d5f-8e6a-3c2b1d0e9f87";
const AGY_TITLE = "Fix the flaky login test";

/** With TXCRIPT_SCREENSHOTS=1, the screenshots docs/serve.md shows. */
const SHOTS = process.env.TXCRIPT_SCREENSHOTS === "1" ? join(ROOT, "docs", "serve") : undefined;

let chromium: Session;
let served: Served;
let home: string;

beforeAll(async () => {
  home = serveHome();
  served = await startServe(home, ["--allow-write"]);
  chromium = await launch();
});
afterAll(async () => {
  await chromium?.close();
  await served?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Every .jsonl file under the home's Claude Code projects. */
function claudeFiles(): string[] {
  const projects = join(home, ".claude", "projects");
  return readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".jsonl"),
  );
}

describe("txcript serve --allow-write in Chromium", () => {
  it("refuses a write from a browser without the token, and says how to get it", async () => {
    await chromium.context.clearCookies();
    const before = claudeFiles();
    const o = await openServed(chromium, served.base, `s/antigravity/${AGY_SID}`);
    await o.page.click("#continue");
    const result = o.page.locator("#write-result");
    await expect.poll(() => result.textContent()).toMatch(/^Failed: a write needs the token/);
    expect(await result.textContent()).toContain("?token=");
    expect(claudeFiles()).toEqual(before);
    await o.page.close();
  });

  it("continues a session into another harness and shows its resume command", async () => {
    // Opening the printed URL moves the token into a cookie and forgets it in the address.
    const o = await openServed(chromium, served.base, served.url);
    expect(o.page.url()).toBe(served.base);
    await o.page.goto(`${served.base}s/antigravity/${AGY_SID}`);
    expect(await o.page.locator("#continue-target").inputValue()).toBe("claude_code");
    const before = claudeFiles().length;
    await o.page.click("#continue");
    const resume = o.page.locator("#continued-resume");
    await resume.waitFor();
    expect(await resume.textContent()).toMatch(/^(cd .* && )?claude --resume [0-9a-f-]{36}/);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await o.page.locator(".serve-bar").screenshot({ path: join(SHOTS, "continue.png") });
    }
    const path = (await o.page.locator("#continued-path").textContent()) ?? "";
    expect(existsSync(path)).toBe(true);
    expect(claudeFiles()).toHaveLength(before + 1);
    // The copy opens as its own session page, the same conversation.
    await o.page.click("#continued");
    await o.page.waitForURL(/\/s\/claude_code\/[0-9a-f-]{36}$/);
    expect(await o.page.locator("h1").textContent()).toBe(AGY_TITLE);
    expect(o.foreign).toEqual([]);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it("deletes a session only once the confirmation is accepted", async () => {
    const file = join(claudeProject(home), `${PLANTED_SID}.jsonl`);
    const o = await openServed(chromium, served.base, `s/claude_code/${PLANTED_SID}`);
    const confirm = o.page.locator("#delete-confirm");
    expect(await confirm.isVisible()).toBe(false);
    await o.page.click("#delete");
    expect(await confirm.isVisible()).toBe(true);
    expect(await confirm.textContent()).toContain("Where does the parser live?");
    if (SHOTS) await o.page.locator(".serve-bar").screenshot({ path: join(SHOTS, "delete.png") });
    await o.page.click("#delete-no");
    expect(await confirm.isVisible()).toBe(false);
    expect(existsSync(file)).toBe(true);
    // The keyboard reaches it too: the confirmation takes the focus off the button.
    await o.page.focus("#delete");
    await o.page.keyboard.press("Enter");
    await o.page.locator("#delete-yes").click();
    await expect
      .poll(() => o.page.locator("#write-result").textContent())
      .toBe("Deleted (1 file removed). Back to all sessions");
    expect(existsSync(file)).toBe(false);
    expect(await o.page.locator("#continue").isDisabled()).toBe(true);
    await o.page.click("#deleted-back");
    await o.page.locator("#sessions tbody tr").first().waitFor();
    expect(await o.page.locator(`#sessions tbody tr[data-id="${PLANTED_SID}"]`).count()).toBe(0);
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    await o.page.close();
  });
});
