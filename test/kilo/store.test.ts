// Kilo Code CLI: the OpenCode family's store under Kilo's flavor, on real temp dirs and SQLite files.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseToCommon } from "../../src/convert.js";
import { harness } from "../../src/harness/index.js";
import { probeStore } from "../../src/harness/probes.js";
import { tempDir } from "../support/tmp.js";

const DOC = JSON.stringify({
  id: "3c0ffee0-0000-4000-8000-000000000001",
  timestamp: "2026-12-06T10:00:00.000Z",
  cwd: "/tmp/project",
  messages: [
    { role: "user", content: "list the files" },
    { role: "assistant", content: "Here they are." },
  ],
});

function kiloStore(options: Parameters<NonNullable<ReturnType<typeof harness>["store"]>>[0]) {
  const h = harness("kilo");
  const store = h.store?.(options);
  if (store === undefined) throw new Error("kilo has no store");
  return { h, store };
}

describe("kilo store", () => {
  it("creates Kilo 7.7.7's kilo.db where Kilo never ran, and reads back what it wrote", async () => {
    const home = tempDir();
    const { h, store } = kiloStore({ env: { HOME: home } });
    const saved = store.save(h.codec.fromCommon(parseToCommon(DOC, "simple")));
    const db = join(home, ".local", "share", "kilo", "kilo.db");
    expect(saved.path).toBe(db);
    expect(saved.id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const sqlite = new Database(db, { readonly: true });
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all();
    expect(tables).toEqual(expect.arrayContaining(["session", "kilo_board", "kilo_board_message"]));
    const migrations = sqlite.prepare("SELECT id FROM migration").pluck().all();
    expect(migrations).toContain("20260907102000_kilocode_model_usage_index");
    const agents = sqlite
      .prepare("SELECT json_extract(data, '$.agent') FROM message")
      .pluck()
      .all();
    expect(new Set(agents)).toEqual(new Set(["code"]));
    sqlite.close();
    const found = (await store.discover()).sessions;
    expect(found.map((s) => [s.harness, s.id, s.message_count])).toEqual([["kilo", saved.id, 2]]);
    const back = h.codec.toCommon(store.load(saved.id));
    expect(back.body.map((m) => m.content)).toEqual([
      [{ type: "text", text: "list the files" }],
      [{ type: "text", text: "Here they are." }],
    ]);
    expect(() => store.load("ses_000000000000AAAAAAAAAAAAAA")).toThrow(/no Kilo session/);
  });

  it("follows KILO_DB: a relative name under the data folder, an absolute path as it is", () => {
    const home = tempDir();
    const data = join(home, "data");
    const relative = kiloStore({ env: { HOME: home, XDG_DATA_HOME: data, KILO_DB: "other.db" } });
    expect(relative.store.roots).toEqual([join(data, "kilo")]);
    const saved = relative.store.save(relative.h.codec.fromCommon(parseToCommon(DOC, "simple")));
    expect(saved.path).toBe(join(data, "kilo", "other.db"));
    const abs = join(home, "elsewhere", "k.db");
    mkdirSync(join(home, "elsewhere"));
    const absolute = kiloStore({ env: { HOME: home, KILO_DB: abs } });
    expect(
      absolute.store.save(absolute.h.codec.fromCommon(parseToCommon(DOC, "simple"))).path,
    ).toBe(abs);
    expect(existsSync(abs)).toBe(true);
    // An explicit root ignores KILO_DB, as it ignores XDG_DATA_HOME; the probe agrees with the store.
    const root = join(home, "root");
    const explicit = kiloStore({ root, env: { HOME: home, KILO_DB: abs } });
    expect(
      explicit.store.save(explicit.h.codec.fromCommon(parseToCommon(DOC, "simple"))).path,
    ).toBe(join(root, "kilo.db"));
    expect(probeStore("kilo", { root, env: { KILO_DB: abs } }).roots).toEqual([root]);
  });

  it("refuses a damaged kilo.db in one line naming the file, and leaves it as it was", () => {
    const root = tempDir();
    const { h, store } = kiloStore({ root, env: {} });
    const db = new Database(join(root, "kilo.db"));
    db.exec("CREATE TABLE unrelated (x)");
    db.close();
    expect(() => store.save(h.codec.fromCommon(parseToCommon(DOC, "simple")))).toThrow(
      /kilo\.db: not a Kilo database this version knows: no session, message, part, project table$/,
    );
  });
});
