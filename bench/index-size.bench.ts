/**
 * The index's size beside its sources', and what FTS5's options would make
 * of it. The index of a generated store (bench/list.bench.ts's 1,000 agy
 * conversations) is built once by the CLI (list, then a first query); its
 * chunks are then copied into a fresh database per variant, the full-text
 * index rebuilt with that variant's options and the file vacuumed:
 * - schema 4: external content, unicode61 remove_diacritics 2, detail=full,
 *   the text stored as text;
 * - schema 5 (shipped): the same, each body deflated where that saves a
 *   tenth, the full-text index reading it through a view;
 * - detail=column and detail=none (no positions: phrases cannot be asked);
 * - the porter stemmer over unicode61;
 * - columnsize=0 (no per-row token counts);
 * - prefix indexes of 2 and 3 characters (faster `prefix*` queries);
 * - contentless (content='', contentless_delete=1): no text kept, so no
 *   snippets; the floor of what the full-text index alone weighs;
 * - tool output cut to 4 KB and 16 KB per piece (instead of 64 KB);
 * - trigram (substring search), with --trigram (slow).
 * Recall: each variant answers the same queries (rare and common words,
 * a prefix, a phrase) and its matching chunks are counted beside the
 * schema 4 variant's.
 *
 *   npx tsx bench/index-size.bench.ts [conversations] [steps]
 */

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { addTextFunction, packedBody, TEXT_FUNCTION } from "../src/index/schema.js";
import { createDatabase, type Db, openForWriting } from "../src/sqlite.js";
import { beside, GOALS } from "./goals.js";
import { agyStore } from "./list.bench.js";
import { mb, report } from "./util.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "dist", "cli", "main.cjs");
const DATA = join(ROOT, ".bench-data", "index-size-v7");

interface Variant {
  fts: string;
  /** Bodies stored as packedBody makes them, read through a view (schema 5). */
  packed?: boolean;
  /** Characters of tool output kept per piece (default: all the index keeps). */
  toolCap?: number;
  /** Phrases are asked as AND of their words (no positions). */
  noPhrases?: boolean;
  /** content='' (no text kept: no snippets, and deletes by contentless_delete). */
  contentless?: boolean;
}

const SHIPPED = "tokenize = 'unicode61 remove_diacritics 2'";
const SHIPPED_NAME = "packed (schema 5 and 6, shipped)";
const VARIANTS: Record<string, Variant> = {
  "text (schema 4)": { fts: SHIPPED },
  [SHIPPED_NAME]: { fts: SHIPPED, packed: true },
  "detail=column": { fts: `${SHIPPED}, detail = column`, noPhrases: true },
  "detail=none": { fts: `${SHIPPED}, detail = none`, noPhrases: true },
  porter: { fts: "tokenize = 'porter unicode61 remove_diacritics 2'" },
  "prefix index 2 and 3": { fts: `${SHIPPED}, prefix = '2 3'`, packed: true },
  "contentless (no snippets)": { fts: `${SHIPPED}, contentless_delete = 1`, contentless: true },
  "columnsize=0": { fts: `${SHIPPED}, columnsize = 0` },
  "tool output 16 KB": { fts: SHIPPED, toolCap: 16 * 1024 },
  "tool output 4 KB": { fts: SHIPPED, toolCap: 4 * 1024 },
  // Measured once (1,000 conversations): 2.21x the text variant's size and
  // 127 s to build; run with --trigram.
  ...(process.argv.includes("--trigram")
    ? { trigram: { fts: "tokenize = 'trigram remove_diacritics 1'" } }
    : {}),
};

function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

/** Bytes per table or index, by dbstat. */
function sizes(db: Db): Map<string, number> {
  const rows = db
    .prepare<[], { name: string; bytes: number }>(
      "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name",
    )
    .all();
  return new Map(rows.map((r) => [r.name, r.bytes]));
}

/** Time spent in packedBody while building the packed variant. */
const packing = { ms: 0, chars: 0 };

function build(source: string, file: string, v: Variant): Db {
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const db = createDatabase(file);
  addTextFunction(db);
  db.exec(`ATTACH ${JSON.stringify(source).replaceAll('"', "'")} AS src`);
  // The source index may be either schema: its bodies as text either way.
  const text = `${TEXT_FUNCTION}(body)`;
  const body = v.toolCap
    ? `CASE WHEN kind = 'tool_output' THEN substr(${text}, 1, ${v.toolCap}) ELSE ${text} END`
    : text;
  db.exec(`CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, entry INTEGER NOT NULL, ordinal INTEGER NOT NULL, kind TEXT NOT NULL, at INTEGER NOT NULL, body NOT NULL);
    CREATE TABLE entries AS SELECT * FROM src.entries;
    CREATE TABLE usage AS SELECT * FROM src.usage;`);
  if (v.packed) {
    // Read through a second connection: one cannot insert while it iterates.
    const from = openForWriting(source, 5000);
    addTextFunction(from);
    const add = db.prepare("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?)");
    const rows = from
      .prepare<[], [number, number, number, string, number, string]>(
        `SELECT rowid, entry, ordinal, kind, at, ${body} FROM chunks`,
      )
      .raw();
    db.exec("BEGIN");
    for (const [rowid, entry, ordinal, kind, at, t] of rows.iterate()) {
      const t0 = performance.now();
      const stored = packedBody(t) ?? t;
      packing.ms += performance.now() - t0;
      packing.chars += t.length;
      add.run(rowid, entry, ordinal, kind, at, stored);
    }
    db.exec("COMMIT");
    from.close();
  } else
    db.exec(`INSERT INTO chunks SELECT rowid, entry, ordinal, kind, at, ${body} FROM src.chunks`);
  db.exec(`DETACH src;
    CREATE VIEW chunk_text AS SELECT rowid, ${TEXT_FUNCTION}(body) AS body FROM chunks;
    CREATE VIRTUAL TABLE text USING fts5 (body, content = '${v.contentless ? "" : v.packed ? "chunk_text" : "chunks"}', ${v.contentless ? "" : "content_rowid = 'rowid',"} ${v.fts});`);
  if (v.contentless)
    db.exec(`INSERT INTO text (rowid, body) SELECT rowid, body FROM chunks;
      DROP VIEW chunk_text; DROP TABLE chunks;`);
  else db.exec("INSERT INTO text (text) VALUES ('rebuild');");
  db.exec("INSERT INTO text (text) VALUES ('optimize');");
  db.exec("VACUUM");
  return db;
}

function main(): void {
  const count = Number(process.argv[2] ?? 1000);
  const steps = Number(process.argv[3] ?? 200);
  const root = agyStore(count, steps);
  if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" }).status !== 0)
    throw new Error("build failed");
  const cache = join(DATA, `cache-${count}x${steps}`);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: join(DATA, "home"),
    TXCRIPT_ANTIGRAVITY_ROOT: root,
    TXCRIPT_CLAUDE_CODE_ROOT: join(DATA, "none"),
    TXCRIPT_CODEX_ROOT: join(DATA, "none"),
    TXCRIPT_CACHE: cache,
  };
  const index = join(cache, "index.db");
  if (!existsSync(index)) {
    const r = spawnSync(process.execPath, [BIN, "query", "zanzibarquux", "--json"], { env });
    if (r.status !== 0 && r.status !== 1) throw new Error(`query failed: ${r.stderr}`);
  }
  const sourceBytes = bytesUnder(root);
  report([
    {
      store: `${count} agy conversations of ~${steps} steps`,
      sources: mb(sourceBytes),
      "index as the CLI built it (index.db + -wal)": mb(
        ["", "-wal"].reduce(
          (s, x) => s + (existsSync(index + x) ? statSync(index + x).size : 0),
          0,
        ),
      ),
    },
  ]);

  // Queries whose hits each variant should keep.
  rmSync(join(DATA, "probe.db"), { force: true });
  const probe = createDatabase(join(DATA, "probe.db"));
  addTextFunction(probe);
  probe.exec(`ATTACH '${index.replaceAll("'", "''")}' AS src`);
  const kinds = probe
    .prepare<[], { kind: string; n: number; chars: number }>(
      `SELECT kind, count(*) AS n, sum(length(${TEXT_FUNCTION}(body))) AS chars FROM src.chunks GROUP BY kind ORDER BY chars DESC`,
    )
    .all();
  probe.close();
  rmSync(join(DATA, "probe.db"), { force: true });
  report([
    Object.fromEntries(
      kinds.map((k) => [`chunks ${k.kind}`, `${k.n} pieces, ${mb(k.chars)} of text`]),
    ),
  ]);
  const queries = [
    "module",
    "request",
    "fail*",
    '"request client"',
    '"file delete handler"',
    "zanzibarquux",
  ];

  const baseline: Record<string, number> = {};
  let shippedBytes = 0;
  for (const [name, v] of Object.entries(VARIANTS)) {
    const file = join(DATA, `variant.db`);
    const t0 = performance.now();
    const db = build(index, file, v);
    const ms = performance.now() - t0;
    const parts = sizes(db);
    const fts = [...parts].filter(([n]) => n.startsWith("text_")).reduce((s, [, b]) => s + b, 0);
    const chunks = parts.get("chunks") ?? 0;
    const total = statSync(file).size;
    if (name === "text (schema 4)") shippedBytes = total;
    const recall: string[] = [];
    for (const q of queries) {
      const asked = v.noPhrases ? q.replaceAll('"', "").split(" ").join(" AND ") : q;
      let n: number;
      try {
        n =
          db
            .prepare<[string], number>("SELECT count(*) FROM text WHERE text MATCH ?")
            .pluck()
            .get(asked) ?? 0;
      } catch {
        n = -1;
      }
      if (name === "text (schema 4)") baseline[q] = n;
      const base = baseline[q] ?? 0;
      recall.push(`${q} ${n === base ? "=" : `${n} vs ${base}`}`);
    }
    db.close();
    rmSync(file, { force: true });
    report([
      {
        variant: name,
        index: `${mb(total)}, ${name === SHIPPED_NAME ? beside(GOALS.sizeShipped, total / sourceBytes) : `${(total / sourceBytes).toFixed(2)}x`} the sources, ${(total / shippedBytes).toFixed(2)}x schema 4`,
        "full-text index": mb(fts),
        "chunk text": mb(chunks),
        rebuilt: `${(ms / 1000).toFixed(1)} s`,
        ...(v.packed
          ? {
              "of which packing": `${(packing.ms / 1000).toFixed(1)} s, ${(packing.chars / 1048576 / (packing.ms / 1000)).toFixed(0)} MB/s of text`,
            }
          : {}),
        "hits (= same as schema 4)": recall.join(", "),
      },
    ]);
  }
}

main();
