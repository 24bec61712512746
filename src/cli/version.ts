/**
 * The package's version, read from package.json two folders up: true of
 * this module compiled (dist/cli/version.js) and of the bundled command
 * line (dist/cli/txcript.cjs, txcript-list.cjs and their chunks), so every command says the same.
 */

import { createRequire } from "node:module";

export function packageVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("../../package.json");
  const version =
    typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined;
  return typeof version === "string" ? version : "0.0.0";
}
