/**
 * The `file:` URIs read-only opens use (src/sqlite.ts `uri`): every path
 * comes back whole through a URI decoder, and a database under a folder
 * whose name holds URI syntax (`%`, `?`, `#`, spaces) and non-ASCII opens
 * shared, creating nothing beside it.
 */

import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDatabase, type ReadMode, readSnapshot, uri } from "../../src/sqlite.js";
import { tempDir } from "../support/tmp.js";

/** A UTF-16 surrogate without its pair: UTF-8 cannot encode it, so it becomes U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

describe("sqlite uri", () => {
  it("gives every absolute path back through a URI decoder", () => {
    const segment = fc
      .string({ unit: "binary", minLength: 1, maxLength: 12 })
      .filter((s) => !s.includes("/") && !s.includes("\0"));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join("/")}`;
        const u = uri(path, "mode=ro");
        expect(u.endsWith("?mode=ro")).toBe(true);
        const bare = u.slice(0, -"?mode=ro".length);
        expect(bare).not.toMatch(/[?#\s]/);
        // fileURLToPath decodes as SQLite does (%HH to bytes, UTF-8).
        expect(fileURLToPath(bare)).toBe(path.replace(LONE_SURROGATE, "\uFFFD"));
      }),
      { numRuns: 500 },
    );
  });

  it("opens a database under a folder named with URI syntax, shared, creating nothing", () => {
    const dir = join(tempDir("txcript-uri-"), "a %41 b?c#d é 日本");
    mkdirSync(dir);
    const path = join(dir, "x.db");
    const db = createDatabase(path);
    db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('ok')");
    db.close();
    const before = readdirSync(dir).sort();
    const seen = readSnapshot(
      path,
      (snap, mode): [string | undefined, ReadMode] => [
        snap.prepare<[], string>("SELECT v FROM t").pluck().get(),
        mode,
      ],
      { harness: "antigravity" },
    );
    expect(seen).toEqual(["ok", "shared"]);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
