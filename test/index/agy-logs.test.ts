/**
 * agy's display logs through the index: a conversation whose logs folder
 * is empty and settled is keyed by that folder's stamp (one stat, not one
 * failed stat per log, on every warm refresh), and a log written
 * into the folder later still makes the next refresh discover it again;
 * a change to its database still shows in the next list.
 */

import { appendFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SessionIndex } from "../../src/index/index.js";
import { machine, put } from "./support.js";

const ID = "a9a90000-0000-4000-8000-000000000001";

describe("the index over agy's display logs", () => {
  it("sees a log written into a settled, empty logs folder, and a database change after it", async () => {
    const m = machine();
    const saved = put(m, "antigravity", { id: ID, texts: ["first question", "first answer"] });
    const root = m.roots.antigravity ?? "";
    const logs = join(root, "brain", ID, ".system_generated", "logs");
    for (const name of readdirSync(logs)) rmSync(join(logs, name));
    const past = new Date(Date.now() - 60_000);
    utimesSync(logs, past, past);
    const index = SessionIndex.open({ env: {}, roots: m.roots, cache: m.cache });
    // What the listing was discovered with, and the key the index keeps (the scan's).
    const files = async () => {
      await index.refresh({ from: "antigravity" });
      const [session] = index.list({ from: "antigravity" }).sessions;
      const raw = new Database(index.path ?? "", { readonly: true });
      const key = raw.prepare("SELECT fingerprint FROM entries").pluck().get();
      raw.close();
      const paths = (list: { path: string }[]) => list.map((f) => f.path.slice(root.length));
      return {
        listed: paths(session?.fingerprint.files ?? []),
        key: typeof key === "string" ? paths(JSON.parse(key)) : [],
      };
    };
    const db = `/conversations/${ID}.db`;
    const folder = `/brain/${ID}/.system_generated/logs`;
    expect(await files()).toEqual({ listed: [db], key: [db, folder] });
    expect(await files()).toEqual({ listed: [db], key: [db, folder] });

    const log = `${folder}/transcript.jsonl`;
    writeFileSync(join(logs, "transcript.jsonl"), "");
    expect(await files()).toEqual({ listed: [db, log], key: [db, log] });

    // The database grows (a -wal appears): the next list has it too.
    appendFileSync(`${saved.path}-wal`, "");
    expect(await files()).toEqual({ listed: [db, `${db}-wal`, log], key: [db, `${db}-wal`, log] });
    index.close();
  });
});
