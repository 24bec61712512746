/**
 * The persistent index as a library: refresh by fingerprint (add, change,
 * delete, rename in every store; an unchanged file is not read again), a
 * damaged, foreign, newer or unusable index rebuilt or bypassed with one
 * warning, searches that never leak FTS5's errors, usage totals, and the
 * stores byte-identical throughout.
 */

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/errors.js";
import { storedHarnesses } from "../../src/harness/index.js";
import { SCHEMA_VERSION, SessionIndex } from "../../src/index/index.js";
import { addTextFunction, TEXT_FUNCTION } from "../../src/index/schema.js";
import type { HarnessId } from "../../src/transcript.js";
import { hashTree } from "../support/tmp.js";
import { type Machine, machine, put } from "./support.js";

const IDS = {
  a: "0a0a0a0a-0000-4000-8000-000000000001",
  b: "0b0b0b0b-0000-4000-8000-000000000002",
  c: "0c0c0c0c-0000-4000-8000-000000000003",
};

/** The index database at `path`, open for `look` (its text readable) and closed after. */
function inIndexDb(path: string, look: (db: Database.Database) => void): void {
  const db = new Database(path);
  addTextFunction(db);
  try {
    look(db);
  } finally {
    db.close();
  }
}

/** FTS5's own check against the chunks it indexes: it throws on any row missing or left over. */
const FTS5_INTEGRITY_CHECK = "INSERT INTO text (text, rank) VALUES ('integrity-check', 1)";

function open(m: Machine, warnings: string[] = []): SessionIndex {
  return SessionIndex.open({
    env: {},
    roots: m.roots,
    cache: m.cache,
    warn: (l) => warnings.push(l),
  });
}

async function listed(index: SessionIndex, from?: HarnessId) {
  await index.refresh(from ? { from } : {});
  return index
    .list(from ? { from } : {})
    .sessions.map((s) => ({ id: s.id, title: s.meta.title, path: s.path }));
}

// OpenCode and Kilo save only into a database they created, and mint their own
// ids (test/opencode/ and test/kilo/ cover their listing); Crush keeps a
// project's sessions in one database, so there is no file of one session to
// rename (test/crush/ covers its listing); a harness with no resume is
// read-only (Goose: test/goose/ covers it).
const HARNESSES = storedHarnesses()
  .filter((h) => h.resume !== undefined)
  .map((h) => h.id)
  .filter((id) => id !== "opencode" && id !== "kilo" && id !== "crush");

describe.each(HARNESSES)("refresh of %s", (h) => {
  it("follows adds, changes, deletes and renames, and re-reads only changed files", async () => {
    const m = machine();
    const index = open(m);
    expect(await listed(index, h)).toEqual([]);
    put(m, h, { id: IDS.a, title: "first title", texts: ["alpha question", "alpha answer"] });
    put(m, h, { id: IDS.b, title: "second", start: 100, texts: ["beta question", "beta answer"] });
    expect((await listed(index, h)).map((s) => s.id)).toEqual([IDS.b, IDS.a]);

    // Change: a new message in a.
    const a = put(m, h, {
      id: IDS.a,
      title: "first title",
      start: 200,
      texts: ["alpha question", "alpha answer", "gamma more"],
    });
    // A whole-second mtime, so that setting it back below restores it exactly
    // (a Date carries milliseconds; the file system keeps nanoseconds).
    const whole = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(a.path, whole, whole);
    await index.refresh({ from: h, text: true });
    expect(index.list({ from: h }).sessions.map((s) => [s.id, s.message_count])).toEqual([
      [IDS.a, 3],
      [IDS.b, 2],
    ]);
    expect(index.query("gamma", { from: h }).map((x) => [x.session.id, x.ordinal])).toEqual([
      [IDS.a, 3],
    ]);

    // A file rewritten behind the index's back with its size and mtime kept is not read again.
    const before = statSync(a.path);
    const original = readFileSync(a.path);
    const altered = Buffer.from(original);
    altered[altered.length - 2] = altered[altered.length - 2] === 0x41 ? 0x42 : 0x41;
    writeFileSync(a.path, altered);
    utimesSync(a.path, before.atime, before.mtime);
    const hits = index.query("gamma", { from: h }).length;
    await index.refresh({ from: h, text: true });
    expect(index.query("gamma", { from: h }).length).toBe(hits);
    writeFileSync(a.path, original);
    utimesSync(a.path, before.atime, before.mtime);

    // Rename (to a new id): the old path goes, the new one comes.
    // Gemini CLI names files by the id's first 8 characters only.
    const renamed = a.path.includes(IDS.a)
      ? a.path.replaceAll(IDS.a, IDS.c)
      : a.path.replace(IDS.a.slice(0, 8), IDS.c.slice(0, 8));
    if (basename(dirname(a.path)).includes(IDS.a)) {
      // A session in a folder of its own (Cline): the folder moves, then its files.
      renameSync(dirname(a.path), dirname(renamed));
      for (const f of readdirSync(dirname(renamed)))
        if (f.includes(IDS.a))
          renameSync(join(dirname(renamed), f), join(dirname(renamed), f.replaceAll(IDS.a, IDS.c)));
      // Copilot CLI names the session in its session.start and workspace too, and
      // skips a folder whose name disagrees (docs/formats/copilot.md): both move.
      if (h === "copilot")
        for (const f of readdirSync(dirname(renamed))) {
          const file = join(dirname(renamed), f);
          writeFileSync(file, readFileSync(file, "utf8").replaceAll(IDS.a, IDS.c));
        }
    } else renameSync(a.path, renamed);
    for (const suffix of ["-wal", "-shm"]) {
      try {
        renameSync(a.path + suffix, renamed + suffix);
      } catch {
        // not every store has these
      }
    }
    const after = await listed(index, h);
    expect(after.map((s) => s.path)).toContain(renamed);
    expect(after.map((s) => s.path)).not.toContain(a.path);

    // Delete.
    index.close();
    const stores = hashTree(join(m.home, "stores"));
    const again = open(m);
    await again.refresh({ text: true });
    again.query("beta");
    again.close();
    expect(hashTree(join(m.home, "stores"))).toEqual(stores);
  });
});

describe("the index file", () => {
  function populated(): Machine {
    const m = machine();
    put(m, "claude_code", {
      id: IDS.a,
      texts: ["the login test is flaky", "waiting for readiness fixes it"],
    });
    put(m, "codex", {
      id: IDS.b,
      texts: ["why is the cart one cent off", "floating point rounding"],
    });
    return m;
  }

  /** A populated machine whose index holds its text, and the index file. */
  async function indexedText(): Promise<{ m: Machine; path: string }> {
    const m = populated();
    const index = open(m);
    await index.refresh({ text: true });
    index.close();
    return { m, path: join(m.cache, "index.db") };
  }

  it("lives in the cache dir, is reused warm, and keeps usage totals", async () => {
    const m = populated();
    const index = open(m);
    await index.refresh({ text: true });
    expect(index.path).toBe(join(m.cache, "index.db"));
    index.close();
    const warm = open(m);
    // Nothing new to read: the text is already there.
    expect(warm.query("readiness").map((h) => h.session.id)).toEqual([IDS.a]);
    const usage = warm.usage().find((u) => u.session.id === IDS.b)?.usage;
    expect(usage).toMatchObject({
      input_tokens: 100,
      output_tokens: 20,
      cache_read_input_tokens: 5,
    });
    warm.close();
  });

  it("keeps the full-text index in step with the text through changes and deletes", async () => {
    const m = populated();
    const index = open(m);
    await index.refresh({ text: true });
    const a = put(m, "claude_code", {
      id: IDS.a,
      start: 300,
      texts: ["the signup test is flaky", "a retry hides it"],
    });
    await index.refresh({ text: true });
    expect(index.query("readiness")).toEqual([]);
    expect(index.query("retry").map((h) => h.session.id)).toEqual([IDS.a]);
    rmSync(a.path);
    await index.refresh({ text: true });
    expect(index.query("signup")).toEqual([]);
    expect(index.query("rounding").map((h) => h.session.id)).toEqual([IDS.b]);
    index.close();
    inIndexDb(join(m.cache, "index.db"), (db) => {
      expect(() => db.exec(FTS5_INTEGRITY_CHECK)).not.toThrow();
      const count = (sql: string) => db.prepare<[], { n: number }>(sql).get()?.n;
      expect(count("SELECT count(*) AS n FROM chunks")).toBeGreaterThan(0);
      expect(count("SELECT count(*) AS n FROM text_docsize")).toBe(
        count("SELECT count(*) AS n FROM chunks"),
      );
    });
  });

  it("reads text on a worker thread into the same index as on this thread", async () => {
    const m = machine();
    const ids: string[] = [];
    // 72 sessions: three batches, so the worker reads ahead of the writes.
    for (let i = 0; i < 72; i++) {
      const id = `0d0d0d0d-0000-4000-8000-${String(i).padStart(12, "0")}`;
      ids.push(id);
      put(m, HARNESSES[i % HARNESSES.length] ?? "claude_code", {
        id,
        start: i * 60,
        texts: [`question ${i} about parcel${i}`, `answer ${i}, with tokens`],
      });
    }
    const built = async (textWorker: boolean) => {
      const cache = join(m.home, `cache-${textWorker}`);
      const warnings: string[] = [];
      const index = SessionIndex.open({
        env: {},
        roots: m.roots,
        cache,
        textWorker,
        warn: (w) => warnings.push(w),
      });
      await index.refresh({ text: true });
      const hits = index.query("parcel41").map((h) => [h.session.id, h.ordinal]);
      const usage = index
        .usage()
        .map((u) => `${u.session.id} ${u.usage?.input_tokens} ${u.usage?.output_tokens}`)
        .sort();
      index.close();
      const db = new Database(join(cache, "index.db"), { readonly: true });
      addTextFunction(db);
      const chunks = db
        .prepare(
          `SELECT e.id, c.ordinal, c.kind, ${TEXT_FUNCTION}(c.body) AS body FROM chunks c
           JOIN entries e ON e.rowid = c.entry ORDER BY e.id, c.ordinal, c.kind, body`,
        )
        .raw()
        .all();
      db.close();
      return { warnings, hits, usage, chunks };
    };
    const there = await built(true);
    const here = await built(false);
    expect(there.warnings).toEqual([]);
    expect(there.hits).toEqual([[ids[41], 1]]);
    expect(there.usage).toHaveLength(72);
    expect(there.chunks.length).toBeGreaterThanOrEqual(72 * 2);
    expect(there).toEqual(here);
  });

  it("stores long text packed, finds its last word with a snippet, and drops it cleanly", async () => {
    const m = machine();
    const long = `${"the build log repeats this line again and again\n".repeat(400)}finally quokkaberry`;
    const a = put(m, "claude_code", { id: IDS.a, texts: ["show me the log", long] });
    put(m, "claude_code", { id: IDS.b, texts: ["short one", "nothing long here"] });
    const index = open(m);
    await index.refresh({ text: true });
    const [hit, ...rest] = index.query('"finally quokkaberry"');
    expect(rest).toEqual([]);
    expect([hit?.session.id, hit?.ordinal]).toEqual([IDS.a, 2]);
    expect(hit?.snippet).toMatch(/again finally quokkaberry$/);
    expect(hit?.highlights.map(([s, e]) => hit.snippet.slice(s, e))).toEqual([
      "finally quokkaberry",
    ]);
    const path = join(m.cache, "index.db");
    inIndexDb(path, (db) => {
      const kinds = db
        .prepare<[], [string, string]>(
          "SELECT typeof(body), count(*) FROM chunks GROUP BY typeof(body) ORDER BY 1",
        )
        .raw()
        .all();
      // The long body is a blob far smaller than its text; the short ones stay text.
      expect(kinds.map(([type]) => type)).toEqual(["blob", "text"]);
      const size = db
        .prepare<[], number>("SELECT max(length(body)) FROM chunks WHERE typeof(body) = 'blob'")
        .pluck()
        .get();
      expect(size).toBeLessThan(long.length / 10);
    });
    rmSync(a.path);
    await index.refresh({ text: true });
    expect(index.query("quokkaberry")).toEqual([]);
    index.close();
    inIndexDb(path, (db) => {
      expect(() => db.exec(FTS5_INTEGRITY_CHECK)).not.toThrow();
    });
  });

  it("is rebuilt in silence when an older txcript made it (schema 3 indexed text by trigger)", async () => {
    const { m, path } = await indexedText();
    const old = new Database(path);
    old.exec(`CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
      INSERT INTO text (rowid, body) VALUES (new.rowid, new.body);
    END; PRAGMA user_version = 3;`);
    old.close();
    const warnings: string[] = [];
    const index = open(m, warnings);
    await index.refresh({ text: true });
    expect(index.query("readiness").map((h) => h.session.id)).toEqual([IDS.a]);
    index.close();
    expect(warnings).toEqual([]);
    inIndexDb(path, (db) => {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(
        db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger'").pluck().all(),
      ).toEqual(["chunks_ad"]);
      expect(() => db.exec(FTS5_INTEGRITY_CHECK)).not.toThrow();
    });
  });

  it("is rebuilt with one warning when damaged", async () => {
    const m = populated();
    open(m).close();
    // Damaged past its header: still txcript's own file (its application id), so rebuilt.
    const path = join(m.cache, "index.db");
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 100);
    writeFileSync(path, bytes);
    const warnings: string[] = [];
    const index = open(m, warnings);
    expect(index.path).toBe(join(m.cache, "index.db"));
    expect(await listed(index)).toHaveLength(2);
    index.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/index\.db was damaged .*rebuilding it$/);
  });

  it("is rebuilt when its pages are damaged after it opened fine", async () => {
    const { m, path } = await indexedText();
    const bytes = readFileSync(path);
    // Keep the header (so it opens), wreck every page after the first.
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    writeFileSync(path, bytes);
    const warnings: string[] = [];
    const index = open(m, warnings);
    await index.refresh({ text: true });
    expect(index.query("rounding").map((h) => h.session.id)).toEqual([IDS.b]);
    index.close();
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.every((w) => !w.includes("\n"))).toBe(true);
  });

  it("is left alone and bypassed when a newer txcript or another program made it", async () => {
    const cases = [
      { ours: true, setup: "PRAGMA user_version = 99", why: /newer txcript/ },
      { ours: false, setup: "CREATE TABLE theirs (x)", why: /not a txcript index/ },
    ];
    for (const { ours, setup, why } of cases) {
      const m = populated();
      const path = join(m.cache, "index.db");
      if (ours) open(m).close();
      else mkdirSync(m.cache, { recursive: true });
      const db = new Database(path);
      db.exec(setup);
      db.close();
      const bytes = readFileSync(path);
      const warnings: string[] = [];
      const index = open(m, warnings);
      expect(index.path).toBeUndefined();
      expect(await listed(index)).toHaveLength(2);
      index.close();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(why);
      expect(readFileSync(path)).toEqual(bytes);
    }
  });

  it("is bypassed when the cache dir cannot be made", async () => {
    const m = populated();
    writeFileSync(join(m.home, "file"), "");
    const warnings: string[] = [];
    const index = SessionIndex.open({
      env: {},
      roots: m.roots,
      cache: join(m.home, "file", "cache"),
      warn: (l) => warnings.push(l),
    });
    expect(index.path).toBeUndefined();
    expect(await listed(index)).toHaveLength(2);
    index.close();
    expect(warnings).toEqual([
      expect.stringMatching(
        /^cannot create the index folder .*; reading the stores directly this time$/,
      ),
    ]);
  });

  it("keeps one configuration's sessions apart from another's (other roots)", async () => {
    const m = populated();
    const other = machine();
    put(other, "codex", { id: IDS.c, texts: ["elsewhere"] });
    const a = open(m);
    const b = SessionIndex.open({ env: {}, roots: other.roots, cache: m.cache });
    expect((await listed(a)).map((s) => s.id).sort()).toEqual([IDS.a, IDS.b]);
    expect((await listed(b)).map((s) => s.id)).toEqual([IDS.c]);
    a.close();
    b.close();
  });
});

describe("query", () => {
  let index: SessionIndex;
  beforeAll(async () => {
    // Made here, not at collection: temporary dirs go after each test of the file.
    const m = { ...machine() };
    const dir = mkdtempSync(join(tmpdir(), "txcript-index-query-"));
    Object.assign(m, { cache: join(dir, "cache"), roots: { claude_code: join(dir, "claude") } });
    put(m, "claude_code", {
      id: IDS.a,
      title: "Ünïcode and 日本語",
      texts: [
        "the naïve café test (flaky) fails: see *.ts",
        'he said "hello world" twice',
        "déjà vu 東京 tower",
      ],
    });
    index = open(m);
    await index.refresh({ text: true });
    return () => {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    };
  });

  it("finds words, phrases, prefixes, and excludes -terms", async () => {
    expect(index.query("flaky").map((h) => h.ordinal)).toEqual([1]);
    expect(index.query('"hello world"').map((h) => h.ordinal)).toEqual([2]);
    expect(index.query('"world hello"').map((h) => [h.ordinal, h.kind, h.snippet])).toEqual([]);
    expect(index.query("fla*").map((h) => h.ordinal)).toEqual([1]);
    expect(index.query("café -flaky").map((h) => [h.ordinal, h.kind, h.snippet])).toEqual([]);
    expect(index.query("cafe").map((h) => h.ordinal)).toEqual([1]); // diacritics folded
    expect(index.query("東京").map((h) => h.ordinal)).toEqual([3]);
    const hit = index.query("hello")[0]!;
    expect(hit.kind).toBe("assistant");
    expect(hit.highlights.map(([s, e]) => hit.snippet.slice(s, e))).toEqual(["hello"]);
  });

  it("never leaks FTS5 syntax errors, whatever is typed", async () => {
    for (const q of [
      '"',
      "*",
      ":",
      "(",
      ")",
      "a:b",
      "NEAR(a b)",
      "title:x",
      "^x",
      "a OR",
      "AND",
      '"unclosed',
      "-",
      "x".repeat(10_000),
      "a ".repeat(5000),
    ]) {
      try {
        index.query(q);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect((error as Error).message).not.toMatch(/fts5|syntax error|\n/i);
      }
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (q) => {
        try {
          index.query(q);
          return true;
        } catch (error) {
          return error instanceof InvalidRequestError && !/fts5|\n/i.test((error as Error).message);
        }
      }),
      { numRuns: 300 },
    );
  });
});
