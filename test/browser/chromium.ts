/**
 * Debian's Chromium driven by playwright-core, for the browser suite, the
 * baseline script and the page benchmark: a fresh profile per launch, the
 * flags that keep Chromium from calling home, and a page that blocks and
 * counts every request that is not the page itself.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.TXCRIPT_CHROMIUM ?? "/usr/bin/chromium";

export interface Session {
  context: BrowserContext;
  profile: string;
  close(): Promise<void>;
}

export async function launch(): Promise<Session> {
  const profile = mkdtempSync(join(tmpdir(), "txcript-chromium-"));
  // playwright passes the fresh profile as --user-data-dir itself.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    deviceScaleFactor: 1,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--font-render-hinting=none",
      "--force-color-profile=srgb",
    ],
  });
  return {
    context,
    profile,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Opened {
  page: Page;
  /** Every request other than the page's own file (all of them blocked). */
  requests: string[];
  /** console.error messages, page errors and CSP violations. */
  errors: string[];
  /** Dialogs (alert/confirm/prompt) a script opened. */
  dialogs: string[];
}

/** Write `html` to a temp file and open it: file:// like a user double-clicking it. */
export async function openPage(
  s: Session,
  html: string,
  options: { width?: number; height?: number; colorScheme?: "light" | "dark" } = {},
): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), "txcript-page-"));
  const file = join(dir, "page.html");
  writeFileSync(file, html);
  const page = await s.context.newPage();
  await page.setViewportSize({ width: options.width ?? 1200, height: options.height ?? 900 });
  await page.emulateMedia({ colorScheme: options.colorScheme ?? "light" });
  const url = `file://${file}`;
  const requests: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  await page.route("**/*", (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith(`${url}#`)) return route.continue();
    requests.push(u);
    return route.abort();
  });
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("close", () => rmSync(dir, { recursive: true, force: true }));
  await page.goto(url, { waitUntil: "load", timeout: 180_000 });
  return { page, requests, errors, dialogs };
}
