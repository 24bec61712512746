/**
 * An agy save killed while it writes the conversation's brain folder
 * leaves no brain/<id> beside no database: the folder is built under a
 * temporary name, renamed into place just before the database, and a killed
 * save's temporary is swept by the next save (issue 31, item 10).
 */

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, TEST_CACHE, txcript } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const DOC = join(ROOT, "test/fixtures/common/full.simple.json");

// Killed (SIGKILL, no handler runs) at its first write under .system_generated.
const KILLER = `data:text/javascript,const fs=process.getBuiltinModule("node:fs");const open=fs.openSync;fs.openSync=function(p,...r){if(typeof p==="string"&&p.includes(".system_generated"))process.kill(process.pid,"SIGKILL");return open.call(this,p,...r)};process.getBuiltinModule("node:module").syncBuiltinESMExports();`;

const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("an agy save killed midway", () => {
  it("leaves no orphan brain folder, and the next save sweeps what it left", () => {
    const root = tempDir("txcript-agy-kill-");
    const env = { TXCRIPT_ANTIGRAVITY_ROOT: root };
    const killed = spawnSync(
      process.execPath,
      ["--import", KILLER, BIN, "continue", DOC, "--with", "antigravity", "--no-resume"],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: "/nonexistent-txcript-home",
          NO_COLOR: "1",
          TXCRIPT_CACHE: TEST_CACHE,
          ...env,
        },
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    // No database, and no brain/<id> a picker or agy could trip over.
    expect(list(join(root, "conversations")).filter((n) => n.endsWith(".db"))).toEqual([]);
    expect(list(join(root, "brain")).filter((n) => !n.startsWith("."))).toEqual([]);

    const again = txcript(["continue", DOC, "--with", "antigravity", "--no-resume"], { env });
    expect(again.status, again.stderr).toBe(0);
    const dbs = list(join(root, "conversations")).filter((n) => n.endsWith(".db"));
    expect(dbs).toHaveLength(1);
    const id = dbs[0]?.replace(/\.db$/, "");
    // The killed save's temporary is gone; the conversation has its brain folder.
    expect(list(join(root, "brain"))).toEqual([id]);
    expect(existsSync(join(root, "brain", `${id}`, ".system_generated", "logs"))).toBe(true);
  }, 60_000);
});
