/**
 * Writing a batch of sessions' text asks for each session's read just
 * before writing it, after the one before it is written: a batch read on
 * the writing thread holds one session at a time (its heap stays small
 * however large the store; bench/scale's first query), and what is written
 * is what was read, session by session.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openIndexDb } from "../../src/index/open.js";
import type { TextRead, TextTodo } from "../../src/index/read-text.js";
import { readInGroups, textWriter } from "../../src/index/write-text.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function indexDb() {
  const dir = mkdtempSync(join(tmpdir(), "txcript-write-text-"));
  dirs.push(dir);
  const { db } = openIndexDb(dir, () => {});
  db.prepare("INSERT INTO stores (id, harness, roots) VALUES (1, 'codex', '[]')").run();
  const todo: TextTodo[] = [1, 2, 3].map((rowid) => {
    const fingerprint = `fp${rowid}`;
    db.prepare(
      `INSERT INTO entries (rowid, store, path, fingerprint, state, harness, id, updated_ms)
       VALUES (?, 1, ?, ?, 'session', 'codex', ?, 0)`,
    ).run(rowid, `/s/${rowid}`, fingerprint, `s${rowid}`);
    return { rowid, harness: "codex", id: `s${rowid}`, fingerprint, updated_ms: 0, bytes: 10 };
  });
  return { db, todo };
}

const readOf = (row: TextTodo): TextRead => ({
  chunks: [{ ordinal: 0, kind: "user", at: 0, body: `words of ${row.id}` }],
  usage: {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    model: undefined,
    models: {},
  },
  rows: [],
});

describe("textWriter", () => {
  it("asks for each session's read after the one before it is written", () => {
    const { db, todo } = indexDb();
    const written = db.prepare<[], { n: number }>(
      "SELECT count(*) AS n FROM entries WHERE text_fp IS NOT NULL",
    );
    const seen: number[] = [];
    const write = db.transaction(() =>
      textWriter(db)(todo, (row, i) => {
        expect(i).toBe(seen.length);
        // Every session before this one is in, none after it.
        seen.push(written.get()?.n ?? -1);
        return readOf(row);
      }),
    );
    write.immediate();
    expect(seen).toEqual([0, 1, 2]);
    const bodies = db
      .prepare<[], { id: string; n: number }>(
        "SELECT e.id AS id, count(*) AS n FROM text t JOIN chunks c ON c.rowid = t.rowid JOIN entries e ON e.rowid = c.entry WHERE text MATCH 'words' GROUP BY e.id ORDER BY e.id",
      )
      .all();
    expect(bodies).toEqual([
      { id: "s1", n: 1 },
      { id: "s2", n: 1 },
      { id: "s3", n: 1 },
    ]);
    db.close();
  });

  it("reads a batch's sessions a few at a time as they are asked for, each once, in order", () => {
    const rows: TextTodo[] = Array.from({ length: 20 }, (_, k) => ({
      rowid: k + 1,
      harness: "codex",
      id: `s${k + 1}`,
      fingerprint: "fp",
      updated_ms: 0,
      bytes: 10,
    }));
    const read: number[] = [];
    const readOf = readInGroups(rows, (row) => {
      read.push(row.rowid);
      return { error: row.id };
    });
    const asked = rows.map((row, i) => {
      const got = readOf(row, i);
      // Never more than a group ahead of what was asked for.
      expect(read.length).toBeLessThanOrEqual(i + 8);
      return "error" in got ? got.error : "";
    });
    expect(asked).toEqual(rows.map((row) => row.id));
    expect(read).toEqual(rows.map((row) => row.rowid));
  });
});
