/**
 * The package as others consume it: the built library entry imported by its
 * name, its declarations, and the README's quick start mirrored by .ci/run.
 */

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  type: string;
  bin: Record<string, string>;
  main: string;
  types: string;
  exports: Record<string, { types: string; import: string }>;
  scripts: Record<string, string>;
  engines: { node: string };
};

describe("the library entry", () => {
  it("points at built files that exist", () => {
    expect(pkg.name).toBe("txcript");
    expect(pkg.type).toBe("module");
    for (const path of [pkg.main, pkg.types, pkg.exports["."]!.import, pkg.exports["."]!.types]) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
    }
    expect(existsSync(join(ROOT, pkg.bin.txcript!))).toBe(true);
  });

  it('`import … from "txcript"` converts a document', () => {
    const script = `
      import { convert, parseSimple, toolFromCanonical, ParseError, HARNESS_IDS } from "txcript";
      const common = JSON.parse(convert('{"id": "s", "messages": [{"role": "user", "content": "hi"}]}', "simple", "common"));
      let error = "";
      try { parseSimple("[]", "x.json"); } catch (e) { error = e instanceof ParseError ? e.message : "wrong class"; }
      console.log(JSON.stringify({
        text: common.messages[0].content[0].text,
        tool: toolFromCanonical("Read", { file_path: "/a" }).name,
        error,
        simple: HARNESS_IDS.includes("simple"),
      }));
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      text: "hi",
      tool: "Read",
      error: "x.json: expected an object, got an array",
      simple: true,
    });
  });

  it("ships type declarations for the public API", () => {
    const dts = readFileSync(join(ROOT, pkg.types), "utf8");
    for (const name of ["common.js", "errors.js", "transcript.js", "convert.js", "time.js"]) {
      expect(dts).toContain(`./${name}`);
    }
  });
});

describe("README quick start and CI", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");

  /** The shell lines of the README's quick start block. */
  function quickStart(): string[] {
    const section = readme.split(/^## /m).find((s) => s.startsWith("Quick start"));
    expect(section, "README has a Quick start section").toBeDefined();
    const block = /```(?:sh|bash|console)?\n([\s\S]*?)```/.exec(section!);
    expect(block, "the Quick start has a code block").not.toBeNull();
    return block![1]!
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
  }

  it("the quick start is exactly two commands: install and demo, then the suite", () => {
    expect(quickStart()).toEqual(["npm ci && npm run demo", "npm test"]);
  });

  it(".ci/run runs the same commands and stops at the first failure", () => {
    const lines = ci.split("\n").map((l) => l.trim());
    expect(lines[0]).toMatch(/^#!\/usr\/bin\/env bash$|^#!\/bin\/(ba)?sh$/);
    // set -e (or -eu, -euo pipefail) before any command runs.
    const setE = lines.findIndex((l) => /^set -[a-z]*e[a-z]*\b/.test(l));
    expect(setE).toBeGreaterThan(0);
    const commands = quickStart().flatMap((l) => l.split("&&").map((c) => c.trim()));
    for (const command of commands) {
      const at = lines.indexOf(command);
      expect(at, `.ci/run runs "${command}"`).toBeGreaterThan(setE);
    }
    // In the README's order.
    const positions = commands.map((c) => lines.indexOf(c));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(statSync(join(ROOT, ".ci/run")).mode & 0o111).not.toBe(0);
  });

  it("npm test runs lint, type check and the tests, failing on the first failure", () => {
    const test = pkg.scripts.test!;
    const steps = test.split("&&").map((s) => s.trim());
    expect(steps).toContain("npm run lint");
    expect(steps).toContain("npm run typecheck");
    expect(steps.at(-1)).toMatch(/^vitest run\b/);
    expect(pkg.scripts.lint).toMatch(/^biome (check|ci)\b/);
    expect(pkg.scripts.typecheck).toMatch(/^tsc\b.*--noEmit/);
    // CLI tests run the built binary, so the build comes before vitest.
    expect(steps.indexOf("npm run build")).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf("npm run build")).toBeLessThan(steps.length - 1);
  });

  it("targets Node 20 or later", () => {
    expect(pkg.engines.node).toMatch(/^>=20(\.|$)/);
  });
});
