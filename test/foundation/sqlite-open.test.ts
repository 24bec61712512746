/**
 * Read-only opens (src/sqlite.ts): the `file:` URIs they use give every
 * path back whole through a URI decoder; a database under a folder whose
 * name holds URI syntax (`%`, `?`, `#`, spaces) and non-ASCII opens
 * shared, creating nothing beside it; a missing database fails as missing,
 * with no temporary folder made on the way.
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

  it("fails on a missing database without making a temporary folder", () => {
    const home = tempDir("txcript-missing-");
    const tmp = join(home, "tmp");
    mkdirSync(tmp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp; // os.tmpdir() reads it at each call
    try {
      expect(() =>
        readSnapshot(join(home, "absent.db"), () => 1, { harness: "antigravity" }),
      ).toThrow(/cannot open the database file/);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});
