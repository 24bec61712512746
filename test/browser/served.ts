/**
 * A page of a running `txcript serve` in Chromium: every request that
 * leaves the server's origin blocked and counted, console errors, page
 * errors and dialogs collected.
 */

import type { Page } from "playwright-core";
import type { Session } from "./chromium.js";

export interface OpenedServed {
  page: Page;
  /** Requests to anywhere but the server (all blocked). */
  foreign: string[];
  errors: string[];
  dialogs: string[];
}

/** Open `path` (relative to `base`, the server's URL ending in "/") in light mode. */
export async function openServed(
  chromium: Session,
  base: string,
  path = "",
  options: { colorScheme?: "light" | "dark" } = {},
): Promise<OpenedServed> {
  const page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: options.colorScheme ?? "light" });
  const origin = new URL(base).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  await page.route("**/*", (route) => {
    const u = route.request().url();
    if (new URL(u).origin === origin) return route.continue();
    foreign.push(u);
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
  await page.goto(path.startsWith("http") ? path : `${base}${path}`, { waitUntil: "load" });
  return { page, foreign, errors, dialogs };
}
