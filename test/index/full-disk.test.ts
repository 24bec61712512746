/**
 * An index that cannot be written (a full cache disk): `list` and `query`
 * answer from the stores in full, with one warning, never from whatever
 * the index held when the disk filled. The disk is "filled" without root
 * by a file-size limit on the CLI's process (`ulimit -f`, SIGXFSZ ignored
 * so a write past it fails with EFBIG, as on a full disk): the index
 * exists and reads, and every write to it fails.
 */

import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, txcript } from "../support/cli.js";
import { machine, put } from "./support.js";

const id = (n: number) => `5e5e5e5e-0000-4000-8000-${String(n).padStart(12, "0")}`;
const filler = "the words of a long session title that fills the index ".repeat(8);

/** The built CLI under a file-size limit of `blocks` (sh's units), SIGXFSZ ignored. */
function limited(env: Record<string, string>, blocks: number, args: string[]) {
  const words = [process.execPath, BIN, ...args].map((w) => `'${w.replaceAll("'", `'\\''`)}'`);
  const r = spawnSync("sh", ["-c", `trap '' XFSZ; ulimit -f ${blocks}; exec ${words.join(" ")}`], {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("an index on a full disk", () => {
  it("lists and finds every session from the stores, with one warning", () => {
    const m = machine();
    for (let n = 0; n < 7; n++) put(m, "claude_code", { id: id(n), start: n, texts: [`old ${n}`] });
    expect(txcript(["list", "--json"], { env: m.env }).status).toBe(0);
    const before = statSync(join(m.cache, "index.db")).size;
    for (let n = 7; n < 207; n++)
      put(m, "claude_code", {
        id: id(n),
        start: n,
        texts: [`new ${n} ${n === 150 ? "quokkaword " : ""}${filler}`, "done"],
      });

    // Room for the index's shared-memory file (32 KiB) and little more: the new sessions do not fit.
    const listed = limited(m.env, 100, ["list", "--json"]);
    expect(listed.stderr).toMatch(/^txcript: warning: cannot write the index .*index\.db \(/);
    expect(listed.stderr.trim().split("\n")).toHaveLength(1);
    expect(listed.status).toBe(0);
    const sessions: { id: string }[] = JSON.parse(listed.stdout).sessions;
    expect(sessions.map((s) => s.id).sort()).toEqual(Array.from({ length: 207 }, (_, n) => id(n)));

    const found = limited(m.env, 100, ["query", "quokkaword", "--json"]);
    expect(found.status).toBe(0);
    // One warning, beside the note that the text of 200+ sessions is being indexed.
    const lines = found.stderr.trim().split("\n");
    expect(
      lines.filter((l) => !/^txcript: (indexing|reading) the text of \d+ sessions/.test(l)),
    ).toHaveLength(1);
    const hits: { id: string }[] = JSON.parse(found.stdout).hits;
    expect(hits.length, found.stderr).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.id))).toEqual(new Set([id(150)]));

    // The index was left as it was, and a later run with room brings it up to date.
    expect(statSync(join(m.cache, "index.db")).size).toBe(before);
    const later = txcript(["list", "--json"], { env: m.env });
    expect(later.stderr).toBe("");
    expect(JSON.parse(later.stdout).sessions).toHaveLength(207);
  });
});
