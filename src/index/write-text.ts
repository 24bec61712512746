/**
 * Writing one batch of sessions' text into the index: each session's
 * searchable chunks (stored deflated where the reader packed them, entered into FTS5 here rather than
 * by trigger) and usage rows replace its old ones, and its entry records
 * the text's fingerprint, error and token totals. A session whose files
 * changed since it was read is left for the next refresh. Each session is
 * asked for (`read`) just before it is written: a batch read on the writing
 * thread then holds a few sessions at a time (`readInGroups`), not the
 * whole batch.
 */

import type { Db } from "../sqlite.js";
import type { TextRead, TextTodo } from "./read-text.js";

/**
 * Sessions a batch read on the writing thread reads at a time: few enough
 * that they die young (bench/scale's 20,000 sessions, first `query`: peak
 * RSS 195 to 225 MB in 6 runs, main's 261 to 273 MB in 6), many enough that
 * reading and writing alternate less often (a text build on the calling
 * thread alone at 1,000 sessions, 7 interleaved runs: CPU 1.42 s against
 * 1.52 s a session at a time and main's 1.38 s).
 */
const READ_GROUP = 8;

/** `read` for `textWriter` over `rows`, reading them `READ_GROUP` at a time as they are asked for. */
export function readInGroups(
  rows: readonly TextTodo[],
  read: (row: TextTodo) => TextRead,
): (row: TextTodo, i: number) => TextRead {
  let group: TextRead[] = [];
  return (_, i) => {
    if (i % READ_GROUP === 0) group = rows.slice(i, i + READ_GROUP).map(read);
    return group[i % READ_GROUP] ?? { error: "not read" };
  };
}

/** The statements prepared once; the returned function writes one batch (run it in a transaction). */
export function textWriter(
  db: Db,
): (rows: readonly TextTodo[], read: (row: TextTodo, i: number) => TextRead) => void {
  const dropChunks = db.prepare("DELETE FROM chunks WHERE entry = ?");
  const addChunk = db.prepare(
    "INSERT INTO chunks (entry, ordinal, kind, at, body) VALUES (?, ?, ?, ?, ?)",
  );
  const addText = db.prepare("INSERT INTO text (rowid, body) VALUES (?, ?)");
  const dropUsage = db.prepare("DELETE FROM usage WHERE entry = ?");
  const addUsage = db.prepare(
    `INSERT INTO usage (entry, at, model, input, output, cache_read, cache_write, messages)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const done = db.prepare(
    `UPDATE entries SET text_fp = fingerprint, text_error = @error, input_tokens = @input,
       output_tokens = @output, cache_read_input_tokens = @cacheRead,
       cache_creation_input_tokens = @cacheCreation, model = @model, models = @models
     WHERE rowid = @rowid AND fingerprint = @fingerprint`,
  );
  return (rows, readOf) => {
    for (const [i, row] of rows.entries()) {
      const read = readOf(row, i);
      const u = "usage" in read ? read.usage : undefined;
      const changed = done.run({
        rowid: row.rowid,
        fingerprint: row.fingerprint,
        error: "error" in read ? read.error : null,
        input: u?.input_tokens ?? null,
        output: u?.output_tokens ?? null,
        cacheRead: u?.cache_read_input_tokens ?? null,
        cacheCreation: u?.cache_creation_input_tokens ?? null,
        model: u?.model ?? null,
        models: u ? JSON.stringify(u.models) : null,
      }).changes;
      if (changed === 0) continue; // changed meanwhile: the next refresh reads it again
      dropChunks.run(row.rowid);
      for (const c of "chunks" in read ? read.chunks : []) {
        const { lastInsertRowid } = addChunk.run(
          row.rowid,
          c.ordinal,
          c.kind,
          c.at,
          c.packed ?? c.body,
        );
        addText.run(lastInsertRowid, c.body);
      }
      dropUsage.run(row.rowid);
      for (const r of "rows" in read ? read.rows : [])
        addUsage.run(
          row.rowid,
          r.at,
          r.model ?? null,
          r.input_tokens,
          r.output_tokens,
          r.cache_read_input_tokens,
          r.cache_creation_input_tokens,
          r.messages,
        );
    }
  };
}
