/**
 * Kilo's database as txcript creates it where Kilo never ran
 * (src/harness/kilo/schema.ts) against the one the real kilo creates: the
 * real CLI runs `kilo session list` in an empty HOME, txcript continues an
 * agy conversation into another empty HOME, and both `kilo.db` files must
 * hold the same sqlite_master (every table, index and trigger, its SQL text,
 * in the same order), the same migration ids and the same user_version.
 */

import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./server/index.js";
import {
  CLIS,
  cliEnv,
  cliVersion,
  knownHarnesses,
  REPO,
  run,
  type Sandbox,
  sandbox,
  txcript,
} from "./support/cli.js";

const known = (await knownHarnesses()).includes("kilo");
const version = cliVersion("kilo");
if (!known) console.log(`[test:real] kilo ${version}: skipped, txcript has no harness "kilo" yet`);

interface Shape {
  master: { type: string; name: string; tbl_name: string; sql: string | null }[];
  migrations: string[];
  userVersion: unknown;
}

function shape(path: string): Shape {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      master: db
        .prepare<[], Shape["master"][number]>(
          "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid",
        )
        .all(),
      migrations: db.prepare<[], string>("SELECT id FROM migration ORDER BY id").pluck().all(),
      userVersion: db.pragma("user_version", { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe.skipIf(!known)(`kilo ${version}: the database txcript creates is Kilo's own`, () => {
  let server: MockServer;
  const boxes: Sandbox[] = [];
  beforeAll(async () => {
    server = await startMockServer();
  });
  afterAll(async () => {
    await server?.close();
    for (const b of boxes) b.dispose();
  });

  it("has the sqlite_master, migrations and user_version of a fresh kilo.db", async () => {
    const native = sandbox("kilo-schema-native");
    const written = sandbox("kilo-schema-txcript");
    boxes.push(native, written);

    const r = await run(CLIS.kilo.bin, ["session", "list"], {
      cwd: native.project,
      env: cliEnv("kilo", native.home, server.url),
      timeoutMs: 120_000,
    });
    expect(r.status, `kilo session list exited ${r.status}\n${r.stderr.slice(-3000)}`).toBe(0);
    const nativeDb = join(native.home, ".local", "share", "kilo", "kilo.db");
    expect(existsSync(nativeDb), "the real kilo made no kilo.db").toBe(true);

    cpSync(join(REPO, "examples", "home", ".gemini"), join(written.home, ".gemini"), {
      recursive: true,
    });
    await txcript(
      [
        "continue",
        "8c1f2e4a-53b7-4d0e-9a61-7f3c2b9d0e15",
        "--from",
        "antigravity",
        "--with",
        "kilo",
        "--no-resume",
      ],
      written.home,
    );
    const writtenDb = join(written.home, ".local", "share", "kilo", "kilo.db");

    const want = shape(nativeDb);
    const got = shape(writtenDb);
    console.log(
      `[test:real] kilo ${version}: ${want.master.length} sqlite_master rows, ${want.migrations.length} migrations, user_version ${String(want.userVersion)}`,
    );
    expect(got.master).toEqual(want.master);
    expect(got.migrations).toEqual(want.migrations);
    expect(got.userVersion).toEqual(want.userVersion);
    expect(server.unexpected).toEqual([]);
  });
});
