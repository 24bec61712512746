/**
 * Layout regressions: screenshots of a fixed session's page (the
 * cross-harness session, light and dark, the top and a stretch of tool
 * calls, and a narrow window) compared with the PNGs stored in
 * test/browser/baselines, pixel by pixel (pixelmatch) with a tolerance for
 * antialiasing. `npm run test:browser:update` rewrites the baselines; a
 * failing comparison writes the actual image and the diff to a temp dir
 * and names them.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/render/html.js";
import { sourceSession } from "../render/sessions.js";
import { launch, openPage, type Session } from "./chromium.js";

const BASELINES = join(dirname(fileURLToPath(import.meta.url)), "baselines");
const UPDATE = process.env.TXCRIPT_UPDATE_BASELINES === "1";
/** Share of pixels allowed to differ (after pixelmatch's per-pixel threshold). */
const TOLERANCE = 0.005;

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

function compare(name: string, actual: Buffer): void {
  const file = join(BASELINES, `${name}.png`);
  if (UPDATE) {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`no baseline ${file}: run npm run test:browser:update`);
  const want = PNG.sync.read(readFileSync(file));
  const got = PNG.sync.read(actual);
  expect({ width: got.width, height: got.height }).toEqual({
    width: want.width,
    height: want.height,
  });
  const diff = new PNG({ width: want.width, height: want.height });
  const bad = pixelmatch(want.data, got.data, diff.data, want.width, want.height, {
    threshold: 0.1,
  });
  const share = bad / (want.width * want.height);
  if (share > TOLERANCE) {
    const dir = mkdtempSync(join(tmpdir(), "txcript-shot-"));
    writeFileSync(join(dir, `${name}.actual.png`), actual);
    writeFileSync(join(dir, `${name}.diff.png`), PNG.sync.write(diff));
    throw new Error(
      `${name}: ${(share * 100).toFixed(2)}% of pixels differ from ${file}; actual and diff in ${dir}`,
    );
  }
}

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
