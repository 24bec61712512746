#!/usr/bin/env node
/**
 * Rewrites src/ to the one idiom for optional fields (docs/architecture.md,
 * "Optional fields"): an optional field copied onto an object that exists
 * is `assignDefined(target, "key", value)`, and one inside an object
 * literal is `...defined({ key: value })`, both from src/json.ts. It
 * rewrites the two idioms it replaces, when on one line:
 *
 *   if (E !== undefined) T.k = E;                  -> assignDefined(T, "k", E);
 *   ...(E === undefined ? {} : { k: E })           -> ...defined({ k: E })
 *   ...(E !== undefined ? { k: E } : {})           -> ...defined({ k: E })
 *
 * and adds the imports. Run `node scripts/dev/optional-fields.mjs` then
 * `npx biome check --write src` (import order, line width). Idempotent;
 * test/foundation/source-shape.test.ts counts what is left.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const JSON_TS = join(SRC, "json.ts");
// An expression without spaces or calls: a name, a property chain, an optional chain.
const E = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
const K = String.raw`[A-Za-z_$][\w$]*`;

const IF_ASSIGN = new RegExp(
  String.raw`^(\s*)if \((${E}) !== undefined\) (${E})\.(${K}) = \2;$`,
  "gm",
);
const SPREAD_EQ = new RegExp(
  String.raw`\.\.\.\((${E}) === undefined \? \{\} : \{ (?:(${K}): \1|(\1)) \}\)`,
  "g",
);
const SPREAD_NE = new RegExp(
  String.raw`\.\.\.\((${E}) !== undefined \? \{ (?:(${K}): \1|(\1)) \} : \{\}\)`,
  "g",
);

function field(key, expr) {
  return key === undefined || key === expr ? expr : `${key}: ${expr}`;
}

function rewrite(text) {
  const used = new Set();
  let out = text.replace(IF_ASSIGN, (_m, indent, expr, target, key) => {
    used.add("assignDefined");
    return `${indent}assignDefined(${target}, "${key}", ${expr});`;
  });
  const spread = (_m, expr, key, short) => {
    used.add("defined");
    return `...defined({ ${field(key ?? short, expr)} })`;
  };
  out = out.replace(SPREAD_EQ, spread).replace(SPREAD_NE, spread);
  return { out, used };
}

function addImports(file, text, names) {
  if (file === JSON_TS || names.size === 0) return text;
  let spec = relative(dirname(file), JSON_TS).replace(/\.ts$/, ".js");
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const existing = new RegExp(
    String.raw`import \{([^}]*)\} from "${spec.replace(/[.]/g, "\\.")}";`,
  );
  const m = existing.exec(text);
  if (m) {
    const have = new Set(
      m[1]
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );
    for (const n of names) have.add(n);
    return text.replace(existing, `import { ${[...have].join(", ")} } from "${spec}";`);
  }
  const line = `import { ${[...names].sort().join(", ")} } from "${spec}";\n`;
  const first = text.search(/^import /m);
  return first < 0 ? line + text : text.slice(0, first) + line + text.slice(first);
}

let changed = 0;
for (const name of readdirSync(SRC, { recursive: true, encoding: "utf8" })) {
  if (!name.endsWith(".ts")) continue;
  const file = join(SRC, name);
  const text = readFileSync(file, "utf8");
  const { out, used } = rewrite(text);
  if (out === text) continue;
  writeFileSync(file, addImports(file, out, used));
  changed++;
}
process.stdout.write(`${changed} files rewritten\n`);
