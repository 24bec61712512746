/**
 * The shape rules of src/ that no linter checks (docs/architecture.md): no
 * source file over 600 lines, so a module keeps one job and splits by job
 * when it grows (a store into store-*.ts, a codec into read.ts/write.ts).
 * A file that grows past the limit fails here with its name and length.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const MAX_LINES = 600;

function sources(): { path: string; text: string }[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => ({ path: `src/${f}`, text: readFileSync(join(SRC, f), "utf8") }));
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

it(`has no src file over ${MAX_LINES} lines`, () => {
  const files = sources();
  expect(files.length).toBeGreaterThan(50);
  const long = files
    .map((f) => ({ path: f.path, lines: lineCount(f.text) }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.path}: ${f.lines} lines`);
  expect(long).toEqual([]);
});

it("counts lines as wc -l does", () => {
  expect(lineCount("")).toBe(0);
  expect(lineCount("a\n")).toBe(1);
  expect(lineCount("a\nb")).toBe(2);
  expect(lineCount("a\nb\n")).toBe(2);
});
