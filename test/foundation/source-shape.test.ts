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

/*
 * One idiom for optional fields (src/json.ts): `assignDefined(o, "k", v)`
 * onto an object, `...defined({ k: v })` in a literal. The two idioms it
 * replaced are refused here; scripts/dev/optional-fields.mjs rewrites them.
 */
const EXPR = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
const REJECTED = [
  {
    name: "if (v !== undefined) o.k = v",
    pattern: new RegExp(String.raw`if \((${EXPR}) !== undefined\) ${EXPR}\.[\w$]+ = \1;`),
  },
  {
    name: "...(v === undefined ? {} : { k: v })",
    pattern: new RegExp(String.raw`\.\.\.\(${EXPR} (=== undefined \? \{\} :|!== undefined \? \{)`),
  },
];

it("copies optional fields one way", () => {
  const found: string[] = [];
  for (const f of sources()) {
    if (f.path === "src/json.ts") continue; // its comment names the rejected idioms
    f.text.split("\n").forEach((line, i) => {
      for (const r of REJECTED)
        if (r.pattern.test(line)) found.push(`${f.path}:${i + 1}: ${r.name}`);
    });
  }
  expect(found).toEqual([]);
});

it("recognizes the rejected idioms", () => {
  const [ifAssign, spread] = REJECTED;
  expect(ifAssign?.pattern.test("  if (cwd !== undefined) meta.cwd = cwd;")).toBe(true);
  expect(ifAssign?.pattern.test("  if (slot !== undefined) slot.consumed = true;")).toBe(false);
  expect(spread?.pattern.test("    ...(cwd === undefined ? {} : { cwd }),")).toBe(true);
  expect(spread?.pattern.test("    ...(a.b !== undefined ? { k: a.b } : {}),")).toBe(true);
  expect(spread?.pattern.test("    ...defined({ cwd }),")).toBe(false);
});
