/**
 * The layer rules in biome.json fail lint where they should: a codec that
 * does I/O, a store that converts, a probe that parses, console output
 * outside src/cli. Each
 * case is linted in a scratch copy of the project's Biome configuration, so
 * the repository is never written to.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/tmp.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

/** Lint `files` (path -> source) under the project's rules; the rules that fired, per file. */
function lint(files: Record<string, string>): Record<string, string[]> {
  const dir = tempDir("txcript-layers-");
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  config.vcs = { enabled: false };
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(BIOME, ["lint", "--reporter=json", "."], { cwd: dir, encoding: "utf8" });
  const report = JSON.parse(run.stdout) as {
    diagnostics: { category: string; location: { path: string } }[];
  };
  const fired: Record<string, string[]> = {};
  for (const d of report.diagnostics) {
    const path = d.location.path.replace(/^\.\//, "");
    const list = fired[path] ?? [];
    list.push(d.category);
    fired[path] = list;
  }
  return fired;
}

describe("layer rules", () => {
  const fired = lint({
    "src/harness/demo/codec.ts":
      'import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n',
    "src/harness/demo/text.ts":
      'import Database from "better-sqlite3";\nexport const x = Database;\n',
    "src/harness/demo/tools.ts":
      'import { openStore } from "../../sqlite.js";\nexport const x = openStore;\n',
    "src/harness/demo/store.ts":
      'import { toCommon } from "./codec.js";\nexport const x = toCommon;\n',
    "src/harness/demo/probe.ts":
      'import { readFileSync } from "node:fs";\nimport { parseDemo } from "./text.js";\nexport const x = [readFileSync, parseDemo];\n',
    "src/harness/other/probe.ts":
      'import { statSync } from "node:fs";\nimport { readSnapshot } from "../../sqlite.js";\nexport const x = [statSync, readSnapshot];\n',
    "src/harness/fine/probe.ts":
      'import { statSync } from "node:fs";\nimport { demoRoot } from "./paths.js";\nexport const x = [statSync, demoRoot];\n',
    "src/local2.ts": "export function f() {\n  console.log(1);\n}\n",
    "src/serve/x.ts": 'import { tell } from "../cli/output.js";\nexport const x = tell;\n',
    "src/serve/y.ts": 'import Database from "better-sqlite3";\nexport const x = Database;\n',
    "src/cli/commands/x.ts": "export function f() {\n  console.log(1);\n}\n",
    "src/model.ts": "export const f = (a?: string) => a!.length;\n",
    "src/index/open.ts": 'import Database from "better-sqlite3";\nexport const x = Database;\n',
    "src/sqlite.ts": 'import Database from "better-sqlite3";\nexport const x = Database;\n',
    // One import of another harness folder from each kind of harness file.
    "src/harness/alpha/tools.ts": 'import { t } from "../beta/tools.js";\nexport const x = t;\n',
    "src/harness/alpha/codec.ts": 'import { r } from "../beta/codec.js";\nexport const x = r;\n',
    "src/harness/alpha/index.ts": 'import { h } from "../beta/index.js";\nexport const x = h;\n',
    "src/harness/alpha/store.ts": 'import { s } from "../beta/store.js";\nexport const x = s;\n',
    "src/harness/alpha/probe.ts": 'import { p } from "../beta/probe.js";\nexport const x = p;\n',
    "src/harness/shared/results.ts": 'import { b } from "../beta/body.js";\nexport const x = b;\n',
    "src/harness/beta/body.ts":
      'import { isJsonObject } from "../../common.js";\nimport { str } from "../shared/fields.js";\nimport { HARNESSES } from "../index.js";\nexport const x = [isJsonObject, str, HARNESSES];\n',
  });

  it("better-sqlite3 imported anywhere but src/sqlite.ts fails", () => {
    expect(fired["src/index/open.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/sqlite.ts"] ?? []).not.toContain("lint/style/noRestrictedImports");
  });

  it("a codec or text codec importing the file system or SQLite fails", () => {
    expect(fired["src/harness/demo/codec.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/harness/demo/text.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/harness/demo/tools.ts"]).toContain("lint/style/noRestrictedImports");
  });

  it("a store importing its codec fails", () => {
    expect(fired["src/harness/demo/store.ts"]).toContain("lint/style/noRestrictedImports");
  });

  it("a probe may stat files but fails when it imports a parser or SQLite", () => {
    expect(fired["src/harness/demo/probe.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/harness/other/probe.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/harness/fine/probe.ts"] ?? []).not.toContain(
      "lint/style/noRestrictedImports",
    );
  });

  it("console output fails outside src/cli and passes inside it", () => {
    expect(fired["src/local2.ts"]).toContain("lint/suspicious/noConsole");
    expect(fired["src/cli/commands/x.ts"] ?? []).not.toContain("lint/suspicious/noConsole");
  });

  it("a harness folder importing another harness folder fails, whatever the file", () => {
    for (const file of ["tools", "codec", "index", "store", "probe"]) {
      expect(fired[`src/harness/alpha/${file}.ts`]).toContain("lint/style/noRestrictedImports");
    }
    // The shared module is shared because it belongs to no harness: it imports none.
    expect(fired["src/harness/shared/results.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/harness/beta/body.ts"] ?? []).not.toContain("lint/style/noRestrictedImports");
  });

  it("the server importing the CLI or SQLite fails", () => {
    expect(fired["src/serve/x.ts"]).toContain("lint/style/noRestrictedImports");
    expect(fired["src/serve/y.ts"]).toContain("lint/style/noRestrictedImports");
  });

  it("non-null assertions fail in src", () => {
    expect(fired["src/model.ts"]).toContain("lint/style/noNonNullAssertion");
  });
});

describe("harness folders", () => {
  // Biome's overrides replace a rule's options rather than merge them, so a
  // new override for harness files could drop the rule above; this reads the
  // imports themselves.
  it("no harness folder imports another (src/harness/shared is for what they share)", () => {
    const harness = join(ROOT, "src", "harness");
    const crossing: string[] = [];
    for (const folder of readdirSync(harness, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      for (const name of readdirSync(join(harness, folder.name))) {
        if (!name.endsWith(".ts")) continue;
        const text = readFileSync(join(harness, folder.name, name), "utf8");
        for (const m of text.matchAll(/from "\.\.\/([^./"][^/"]*)\//g)) {
          if (m[1] !== "shared") crossing.push(`${folder.name}/${name} imports ../${m[1]}/`);
        }
      }
    }
    expect(crossing).toEqual([]);
  });
});
