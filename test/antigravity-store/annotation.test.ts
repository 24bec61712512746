/**
 * Titles in agy's `annotations/<id>.pbtxt` on a real store: read ahead of
 * the checkpoint and the first prompt by discovery, load and `list`;
 * written by a save (and only there: the title's bytes are in no database
 * file), removed by delete and by an untitled overwrite, and never
 * touching another conversation's annotation. A folder in its place only
 * costs the title.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { antigravityCodec } from "../../src/harness/antigravity/codec.js";
import { AntigravityStore } from "../../src/harness/antigravity/store.js";
import { transcript } from "../index/support.js";
import { BIN } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

const ID = "5a5a5a5a-0000-4000-8000-000000000001";
const OTHER = "5b5b5b5b-0000-4000-8000-000000000002";
const TITLE = "Zebracorn refactor of the parser";

function setup() {
  const root = tempDir("txcript-annotation-");
  const store = new AntigravityStore({ root, env: {} });
  const save = (id: string, title?: string, overwrite = false) =>
    store.save(
      antigravityCodec.fromCommon(
        transcript({ id, texts: ["the first prompt", "an answer"], ...(title ? { title } : {}) }),
      ),
      { overwrite },
    );
  return { root, store, save, note: (id: string) => join(root, "annotations", `${id}.pbtxt`) };
}

describe("annotations", () => {
  it("a titled save writes the title beside the database, never into it, and reads it back", async () => {
    const { root, store, save, note } = setup();
    const saved = save(ID, TITLE);
    expect(saved.files).toContain(note(ID));
    expect(readFileSync(note(ID), "utf8")).toBe(`title: "${TITLE}"\n`);
    for (const f of [saved.path, `${saved.path}-wal`].filter(existsSync)) {
      expect(readFileSync(f).includes(Buffer.from("Zebracorn"))).toBe(false);
    }
    const found = (await store.discover()).sessions.find((s) => s.id === ID);
    expect(found?.meta.title).toBe(TITLE);
    expect(antigravityCodec.toCommon(store.load(ID)).meta.title).toBe(TITLE);
    const listed = spawnSync(process.execPath, [BIN, "--no-cache", "list", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: root, TXCRIPT_ANTIGRAVITY_ROOT: root },
      encoding: "utf8",
    });
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).sessions[0]).toMatchObject({ id: ID, title: TITLE });
  });

  it("an untitled overwrite and a delete remove it; another conversation's is untouched", () => {
    const { store, save, note } = setup();
    save(OTHER, "the other one");
    const before = readFileSync(note(OTHER));
    const mtime = statSync(note(OTHER)).mtimeMs;
    save(ID, TITLE);
    save(ID, undefined, true);
    expect(existsSync(note(ID))).toBe(false);
    save(ID, TITLE, true);
    expect(store.delete(ID)).toContain(note(ID));
    expect(existsSync(note(ID))).toBe(false);
    expect(readFileSync(note(OTHER))).toEqual(before);
    expect(statSync(note(OTHER)).mtimeMs).toBe(mtime);
  });

  it("an overwrite keeps what agy stored beside the title (the last view time)", () => {
    const { save, note } = setup();
    save(ID, TITLE);
    writeFileSync(note(ID), 'title: "Renamed"\nlast_user_view_time { seconds: 7 }\n');
    save(ID, "Newer title", true);
    expect(readFileSync(note(ID), "utf8")).toBe(
      'title: "Newer title"\nlast_user_view_time { seconds: 7 }\n',
    );
    save(ID, undefined, true);
    expect(readFileSync(note(ID), "utf8")).toBe("last_user_view_time { seconds: 7 }\n");
  });

  it("a title renamed in the annotation shows, and a folder in its place falls back", async () => {
    const { store, save, note } = setup();
    save(ID, TITLE);
    writeFileSync(note(ID), 'last_user_view_time { seconds: 5 }\ntitle:  "Renamed in agy"\n');
    expect((await store.discover()).sessions[0]?.meta.title).toBe("Renamed in agy");
    save(OTHER);
    mkdirSync(note(OTHER));
    const other = (await store.discover()).sessions.find((s) => s.id === OTHER);
    expect(other?.meta.title).toBe("the first prompt");
    expect(store.fingerprint(ID)?.files.map((f) => f.path)).toContain(note(ID));
  });
});
