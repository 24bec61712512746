/**
 * `scan()`, the cheap check the index runs before every `list`: it lists
 * `conversations/`, `brain/` and `annotations/` once and stats only what
 * is there, building paths by concatenation. It must give exactly what
 * `fingerprint(id)` (which stats every candidate through `lanePaths`)
 * gives, on a store where some conversations have a `-wal`, logs, an
 * annotation or an ACP `.meta`, and others have none; and a change to any
 * one of those files must change that conversation's fingerprint alone.
 */

import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AntigravityProbe } from "../../src/harness/antigravity/probe.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { fingerprintKey, previousScan } from "../../src/index/read.js";
import type { FileStamp } from "../../src/transcript.js";
import { tempDir } from "../support/tmp.js";
import { handBody, writeAgyDatabase } from "./support.js";

const id = (n: number) => `5ca75ca7-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** Six conversations, each with a different set of side files. */
function setup(root: string, acpRoot: string) {
  for (let n = 0; n < 6; n++) writeAgyDatabase(n === 5 ? acpRoot : root, handBody(id(n), 3, n + 1));
  const conv = join(root, "conversations");
  writeFileSync(join(conv, `${id(1)}.db-wal`), "wal bytes");
  const logs = (n: number) => join(root, "brain", id(n), ".system_generated", "logs");
  mkdirSync(logs(2), { recursive: true });
  writeFileSync(join(logs(2), "transcript.jsonl"), "{}\n");
  mkdirSync(logs(4), { recursive: true }); // a logs folder with nothing in it
  mkdirSync(join(root, "annotations"));
  writeFileSync(join(root, "annotations", `${id(3)}.pbtxt`), 'title: "three"\n');
  writeFileSync(join(acpRoot, "conversations", `${id(5)}.meta`), "cwd: /w\n");
  return { logs };
}

function byId(store: AntigravityStore) {
  const out = new Map<string, unknown>();
  for (const fp of store.scan()) {
    const main = fp.files[0]?.path ?? "";
    out.set(main.split("/").pop()?.replace(/\.db$/, "") ?? "", fp);
  }
  return out;
}

describe("agy scan()", () => {
  it("gives what fingerprint(id) gives for every conversation, side files or none", () => {
    const root = tempDir("txcript-scan-");
    const acp = tempDir("txcript-scan-acp-");
    setup(root, acp);
    // A root spelled with a trailing slash and a `..` segment: paths still match.
    const spelled = `${join(root, "..")}/${root.split("/").pop()}/`;
    const store = new AntigravityStore({
      root: spelled,
      env: { TXCRIPT_ANTIGRAVITY_ACP_ROOT: acp },
    });
    const scanned = byId(store);
    expect([...scanned.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5].map(id));
    for (const [key, fp] of scanned) expect(fp, key).toEqual(store.fingerprint(key));
    const files = (n: number) =>
      (scanned.get(id(n)) as { files: { path: string }[] }).files.map((f) =>
        f.path.slice(f.path.lastIndexOf("/") + 1),
      );
    expect(files(0)).toEqual([`${id(0)}.db`]);
    expect(files(1)).toEqual([`${id(1)}.db`, `${id(1)}.db-wal`]);
    expect(files(2)).toEqual([`${id(2)}.db`, "transcript.jsonl"]);
    expect(files(3)).toEqual([`${id(3)}.db`, `${id(3)}.pbtxt`]);
    expect(files(4)).toEqual([`${id(4)}.db`]);
    expect(files(5)).toEqual([`${id(5)}.db`, `${id(5)}.meta`]);
  });

  it("a change to any covered file changes that conversation's fingerprint alone", () => {
    const root = tempDir("txcript-scan-");
    const acp = tempDir("txcript-scan-acp-");
    const { logs } = setup(root, acp);
    const store = new AntigravityStore({ root, env: { TXCRIPT_ANTIGRAVITY_ACP_ROOT: acp } });
    const changes: [number, () => void][] = [
      [0, () => writeFileSync(join(root, "conversations", `${id(0)}.db-wal`), "new wal")],
      [1, () => appendFileSync(join(root, "conversations", `${id(1)}.db-wal`), "more")],
      [2, () => writeFileSync(join(logs(2), "transcript_full.jsonl"), "{}\n")],
      [3, () => rmSync(join(root, "annotations", `${id(3)}.pbtxt`))],
      [4, () => writeFileSync(join(root, "annotations", `${id(4)}.pbtxt`), 'title: "4"\n')],
      [5, () => utimesSync(join(acp, "conversations", `${id(5)}.meta`), 1, 1)],
    ];
    for (const [n, change] of changes) {
      const before = byId(store);
      change();
      const after = byId(store);
      for (const key of before.keys()) {
        if (key === id(n)) expect(after.get(key), `change ${n}`).not.toEqual(before.get(key));
        else expect(after.get(key), `change ${n}, ${key}`).toEqual(before.get(key));
      }
    }
  });

  it("with brain/ or annotations/ missing or a file in its place, still what fingerprint(id) gives", () => {
    for (const [dir, as] of [
      ["annotations", "missing"],
      ["brain", "missing"],
      ["annotations", "file"],
      ["brain", "file"],
    ] as const) {
      const root = tempDir("txcript-scan-");
      const acp = tempDir("txcript-scan-acp-");
      setup(root, acp);
      rmSync(join(root, dir), { recursive: true });
      if (as === "file") writeFileSync(join(root, dir), "not a folder");
      const store = new AntigravityStore({ root, env: {} });
      const scanned = byId(store);
      expect(scanned.size, `${dir} ${as}`).toBe(5);
      for (const [key, fp] of scanned) expect(fp, `${dir} ${as}`).toEqual(store.fingerprint(key));
    }
  });

  it("for the index, an empty logs folder settled for 5 s stands in its stamp; a log written into it changes the fingerprint", () => {
    const root = tempDir("txcript-scan-");
    const acp = tempDir("txcript-scan-acp-");
    const { logs } = setup(root, acp);
    const probe = new AntigravityProbe({ root, env: { TXCRIPT_ANTIGRAVITY_ACP_ROOT: acp } });
    const store = new AntigravityStore({ root, env: { TXCRIPT_ANTIGRAVITY_ACP_ROOT: acp } });
    // As the index scans: with the last scan's files (none the first time), as it stores them.
    const scanOf = (previous?: Map<string, readonly FileStamp[]>) =>
      new Map(
        probe
          .scan(
            previousScan(
              new Map(
                [...(previous ?? [])].map(([main, files]) => [
                  main,
                  { fingerprint: fingerprintKey(files) },
                ]),
              ),
            ),
          )
          .map((fp) => [fp.files[0]?.path ?? "", fp.files]),
      );
    const db = join(root, "conversations", `${id(4)}.db`);
    // Made just now: not settled, so no stamp of the folder (its logs are statted each time).
    expect(
      scanOf()
        .get(db)
        ?.map((f) => f.path),
    ).toEqual([db]);
    const past = new Date(Date.now() - 60_000);
    utimesSync(logs(4), past, past);
    const settled = scanOf();
    expect(settled.get(db)?.map((f) => f.path)).toEqual([db, logs(4)]);
    // Outside the index (discovery, fingerprint(id)), the logs alone, as before.
    expect(store.fingerprint(id(4))?.files.map((f) => f.path)).toEqual([db]);
    expect(
      probe
        .scan()
        .find((fp) => fp.files[0]?.path === db)
        ?.files.map((f) => f.path),
    ).toEqual([db]);
    // With the last scan given, the same answer (the folder's stamp alone is statted).
    expect(scanOf(settled)).toEqual(settled);
    // And a change beside the unchanged folder is seen: the database's stamp, or a new -wal.
    utimesSync(db, past, past);
    const touched = scanOf(settled);
    expect(touched.get(db)?.[0]).not.toEqual(settled.get(db)?.[0]);
    expect(touched).toEqual(scanOf());
    writeFileSync(`${db}-wal`, "wal");
    expect(
      scanOf(touched)
        .get(db)
        ?.map((f) => f.path),
    ).toEqual([db, `${db}-wal`, logs(4)]);
    rmSync(`${db}-wal`);
    expect(scanOf(touched)).toEqual(touched);
    // A log written into the folder moves its mtime: the scan sees the log.
    writeFileSync(join(logs(4), "transcript.jsonl"), "{}\n");
    const written = scanOf(settled);
    expect(written.get(db)?.map((f) => f.path)).toEqual([db, join(logs(4), "transcript.jsonl")]);
    expect(written).toEqual(scanOf());
    for (const [main, files] of written)
      if (main !== db) expect(files, main).toEqual(settled.get(main));
    // The stamp is trusted as it stands: a log hidden by putting the old mtime back is not seen.
    // (This is the rule at work, not a case agy makes: a new file always moves a folder's mtime.)
    rmSync(join(logs(4), "transcript.jsonl"));
    utimesSync(logs(4), past, past);
    const again = scanOf();
    writeFileSync(join(logs(4), "transcript_full.jsonl"), "{}\n");
    utimesSync(logs(4), past, past);
    expect(scanOf(again).get(db)).toEqual(again.get(db));
    expect(
      scanOf()
        .get(db)
        ?.map((f) => f.path),
    ).toEqual([db, join(logs(4), "transcript_full.jsonl")]);
  });
});
