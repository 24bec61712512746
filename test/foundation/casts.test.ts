/**
 * Casts in src/ are kept for the few places that need them, each with its
 * reason (docs/architecture.md, "Types at the edges"). Every `as` other than
 * `as const` must carry a comment on its own lines or in the comment block
 * just above it; a new unexplained cast fails here with its file and line.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Cast {
  line: number;
  type: string;
  explained: boolean;
}

function castsIn(name: string, text: string): Cast[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const out: Cast[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const type = node.type.getText(source).replace(/\s+/g, " ");
      if (type !== "const") {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        let context = lines.slice(first, last + 1).join("\n");
        for (let i = first - 1; i >= 0 && /^\s*(\/\/|\/\*|\*)/.test(lines[i] ?? ""); i--)
          context += `\n${lines[i]}`;
        out.push({ line: first + 1, type, explained: /\/\/|\/\*|^\s*\*/m.test(context) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(dir, name));
}

describe("casts in src/", () => {
  it("finds an unexplained cast, and takes a comment above or beside one as its reason", () => {
    const casts = castsIn(
      "x.ts",
      [
        "const a = b as string;",
        "// cast: b is a string here",
        "const c = b as string;",
        "const d = b as number; // cast: why",
        "const e = [1] as const;",
        "const f = (b as unknown) as Json;",
      ].join("\n"),
    );
    expect(casts.map((c) => [c.line, c.type, c.explained])).toEqual([
      [1, "string", false],
      [3, "string", true],
      [4, "number", true],
      [6, "Json", false],
      [6, "unknown", false],
    ]);
  });

  it("every cast in src/ says why it is needed", () => {
    const unexplained: string[] = [];
    let total = 0;
    for (const file of sourceFiles(join(ROOT, "src"))) {
      for (const cast of castsIn(file, readFileSync(file, "utf8"))) {
        total++;
        if (!cast.explained)
          unexplained.push(`${relative(ROOT, file)}:${cast.line}: as ${cast.type}`);
      }
    }
    expect(unexplained).toEqual([]);
    // A few, not a habit: the count is in docs/architecture.md.
    expect(total).toBeLessThanOrEqual(12);
  });
});
