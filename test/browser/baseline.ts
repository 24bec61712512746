/**
 * Screenshots compared with the PNGs stored in test/browser/baselines,
 * pixel by pixel (pixelmatch) with a tolerance for antialiasing. With
 * TXCRIPT_UPDATE_BASELINES=1 (`npm run test:browser:update`) the
 * screenshot becomes the baseline; a failing comparison writes the actual
 * image and the diff to a temp dir and names them.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import { expect } from "vitest";

export const BASELINES = join(dirname(fileURLToPath(import.meta.url)), "baselines");
export const UPDATE = process.env.TXCRIPT_UPDATE_BASELINES === "1";
/** Share of pixels allowed to differ (after pixelmatch's per-pixel threshold). */
const TOLERANCE = 0.005;

/** Compare `actual` with the baseline `name`.png (or write it, when updating). */
export function compareBaseline(name: string, actual: Buffer, tolerance = TOLERANCE): void {
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
  if (share > tolerance) {
    const dir = mkdtempSync(join(tmpdir(), "txcript-shot-"));
    writeFileSync(join(dir, `${name}.actual.png`), actual);
    writeFileSync(join(dir, `${name}.diff.png`), PNG.sync.write(diff));
    throw new Error(
      `${name}: ${(share * 100).toFixed(2)}% of pixels differ from ${file}; actual and diff in ${dir}`,
    );
  }
}
