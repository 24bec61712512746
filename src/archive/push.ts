/**
 * `archive push`: every session on this machine that is new or changed
 * since its last push (by the local index's fingerprints, read through the
 * sessions service) sent to the archive, cut to the chosen content level
 * and redacted first (content.ts).
 *
 * Sessions go in batches (up to BATCH_SESSIONS sessions or BATCH_BYTES of
 * text), each batch one transaction of five statements whatever its size:
 * the sessions upserted from parameter arrays (`unnest`), their old chunks
 * and usage rows deleted, the new ones inserted from arrays. While one
 * batch is written, the next is read and redacted here, so the server's
 * work (vectors, the GIN index) and this process's overlap.
 *
 * - Idempotent: a session whose version (fingerprint, level, redaction) is
 *   already there is not written at all, so a second push changes no row.
 * - Resumable: a batch is written whole or not at all, keyed by (machine,
 *   harness, id); a push killed at any point leaves each session either as
 *   it was or whole, and the next push sends the rest.
 * - Many machines at once: each writes only its own rows, and a batch locks
 *   its rows in one order (harness, id), so two pushes of one machine
 *   cannot deadlock either.
 *
 * A session deleted locally stays in the archive unless `prune` is asked:
 * then this machine's sessions that no longer exist here are removed.
 */

import { createHash } from "node:crypto";
import { renderCommon } from "../common-json.js";
import { CopyLedger } from "../copies.js";
import { describeCause, InvalidRequestError } from "../errors.js";
import type { RedactOptions } from "../render/redact.js";
import type { Sessions } from "../sessions/sessions.js";
import type { Discovered } from "../transcript.js";
import { type Client, type Pool, transaction, withClient } from "./connect.js";
import { type ContentLevel, type Outgoing, outgoing } from "./content.js";
import { migrate } from "./schema.js";
import { words } from "./words.js";

/** At most this many sessions in one transaction. */
const BATCH_SESSIONS = 50;
/** ... and at most about this many characters of transcript and text. */
const BATCH_BYTES = 8_000_000;

export interface PushOptions {
  /** The archive's URL (for messages, always shown redacted). */
  url: string;
  pool: Pool;
  /** This machine's name and the user's, as the archive records them. */
  machine: string;
  user: string;
  content: ContentLevel;
  /** The redactor's options; undefined sends the text as it is (`--no-redact`). */
  redaction: RedactOptions | undefined;
  /** Sessions per transaction (default BATCH_SESSIONS). */
  batch?: number | undefined;
  /** Also remove this machine's sessions that no longer exist here. */
  prune?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface Pushed {
  machine: string;
  user: string;
  content: ContentLevel;
  redacted: boolean;
  /** Sessions on this machine. */
  total: number;
  /** Sessions written (new or changed). */
  sent: number;
  /** Sessions already in the archive as they are here. */
  unchanged: number;
  /** Sessions removed from the archive because they no longer exist here (`prune`). */
  pruned: number;
  /** Sessions that could not be read here, and why (one line each). */
  failed: { harness: string; id: string; reason: string }[];
  /** Strings the redactor replaced in what was sent. */
  redactions: number;
  /** Bytes of transcript and searchable text sent. */
  bytes: number;
}

/** One session ready to be written. */
interface Prepared {
  out: Outgoing;
  version: string;
  /** The Common JSON, or null at `metadata`. */
  transcript: string | null;
  bytes: number;
}

/** What makes two pushes of a session the same: its files, the level and the redaction. */
function versionOf(
  d: Discovered,
  content: ContentLevel,
  redacted: boolean,
  copiedAt: number | undefined,
): string {
  // A hash: the fingerprint names local paths, which do not leave the machine.
  return createHash("sha256")
    .update(JSON.stringify([content, redacted, copiedAt ?? null, d.fingerprint.files]))
    .digest("hex");
}

const key = (harness: string, id: string) => `${harness}/${id}`;

/** PostgreSQL text holds no NUL character. */
const text = (s: string) => s.replaceAll("\u0000", " ");

/** Write `batch` in one transaction: its sessions, and their chunks and usage rows replaced. */
async function writeBatch(
  client: Client,
  o: PushOptions,
  batch: readonly Prepared[],
  redacted: boolean,
): Promise<void> {
  // One lock order for every transaction (see the module comment).
  const rows = [...batch].sort((a, b) => {
    const x = key(a.out.discovered.harness, a.out.discovered.id);
    const y = key(b.out.discovered.harness, b.out.discovered.id);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const ds = rows.map((r) => r.out.discovered);
  await transaction(client, async () => {
    const upserted = await client.query<{
      sid: string;
      harness: string;
      id: string;
      existed: boolean;
    }>(
      `INSERT INTO txcript.sessions AS s
         (machine, os_user, harness, id, version, content, redacted, updated_ms, cwd, title, discovered, transcript)
       SELECT $1, $2, t.harness, t.id, t.version, $3, $4, t.updated_ms, t.cwd, t.title, t.discovered::jsonb, t.transcript
       FROM unnest($5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[])
         WITH ORDINALITY AS t(harness, id, version, updated_ms, cwd, title, discovered, transcript, n)
       ORDER BY t.n
       ON CONFLICT (machine, harness, id) DO UPDATE SET
         os_user = EXCLUDED.os_user, version = EXCLUDED.version, content = EXCLUDED.content,
         redacted = EXCLUDED.redacted, updated_ms = EXCLUDED.updated_ms, cwd = EXCLUDED.cwd,
         title = EXCLUDED.title, discovered = EXCLUDED.discovered,
         transcript = EXCLUDED.transcript, pushed_at = now()
       RETURNING sid, harness, id, (xmax::text <> '0') AS existed`,
      [
        o.machine,
        o.user,
        o.content,
        redacted,
        ds.map((d) => d.harness),
        ds.map((d) => d.id),
        rows.map((r) => r.version),
        ds.map((d) => Date.parse(d.updated) || 0),
        ds.map((d) => (d.meta.cwd === undefined ? null : text(d.meta.cwd))),
        ds.map((d) => (d.meta.title === undefined ? null : text(d.meta.title))),
        ds.map((d) => JSON.stringify(d)),
        rows.map((r) => r.transcript),
      ],
    );
    const sids = new Map(upserted.rows.map((r) => [key(r.harness, r.id), r.sid]));
    const sidOf = (d: Discovered): string => {
      const sid = sids.get(key(d.harness, d.id));
      if (sid === undefined) throw new Error("the archive returned no row for a session");
      return sid;
    };
    // A session written before: its old chunks and usage rows go (new ones have none).
    const old = upserted.rows.filter((r) => r.existed).map((r) => r.sid);
    if (old.length > 0) {
      await client.query("DELETE FROM txcript.chunks WHERE sid = ANY($1::bigint[])", [old]);
      await client.query("DELETE FROM txcript.usage WHERE sid = ANY($1::bigint[])", [old]);
    }
    const chunks = rows.flatMap((r) => {
      const sid = sidOf(r.out.discovered);
      return r.out.chunks.map((c) => ({ sid, c }));
    });
    if (chunks.length > 0)
      await client.query(
        `INSERT INTO txcript.chunks (sid, ordinal, kind, at, body, tsv)
         SELECT s, o, k, a, b, to_tsvector('simple', w)
         FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS t(s, o, k, a, b, w)`,
        [
          chunks.map((x) => x.sid),
          chunks.map((x) => x.c.ordinal),
          chunks.map((x) => x.c.kind),
          chunks.map((x) => x.c.at),
          chunks.map((x) => text(x.c.body)),
          chunks.map((x) => words(x.c.body)),
        ],
      );
    const usage = rows.flatMap((r) => {
      const sid = sidOf(r.out.discovered);
      return r.out.usage.map((u) => ({ sid, u }));
    });
    if (usage.length > 0)
      await client.query(
        `INSERT INTO txcript.usage (sid, at, model, input, output, cache_read, cache_write, messages)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::integer[])`,
        [
          usage.map((x) => x.sid),
          usage.map((x) => x.u.at),
          usage.map((x) => x.u.model ?? null),
          usage.map((x) => x.u.input_tokens),
          usage.map((x) => x.u.output_tokens),
          usage.map((x) => x.u.cache_read_input_tokens),
          usage.map((x) => x.u.cache_creation_input_tokens),
          usage.map((x) => x.u.messages),
        ],
      );
  });
}

/**
 * Remove this machine's sessions that are not in `here` (harness/id keys).
 * Row-level security narrows it further to the rows this role pushed.
 */
async function prune(client: Client, o: PushOptions, here: readonly Discovered[]): Promise<number> {
  if (here.length === 0)
    throw new InvalidRequestError(
      undefined,
      `no session is listed on this machine: --prune would remove every session of machine ${o.machine} from the archive; nothing removed`,
    );
  const gone = await client.query(
    `DELETE FROM txcript.sessions s WHERE s.machine = $1
       AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS h(harness, id)
                       WHERE h.harness = s.harness AND h.id = s.id)`,
    [o.machine, here.map((d) => d.harness), here.map((d) => d.id)],
  );
  return gone.rowCount ?? 0;
}

/** Push this machine's new and changed sessions (see the module comment). */
export async function push(sessions: Sessions, o: PushOptions): Promise<Pushed> {
  const redacted = o.redaction !== undefined;
  const result: Pushed = {
    machine: o.machine,
    user: o.user,
    content: o.content,
    redacted,
    total: 0,
    sent: 0,
    unchanged: 0,
    pruned: 0,
    failed: [],
    redactions: 0,
    bytes: 0,
  };
  return withClient(o.pool, o.url, "cannot push to the archive", async (client) => {
    await migrate(client);
    const listing = await sessions.list();
    result.total = listing.sessions.length;
    const known = new Map(
      (
        await client.query<{ harness: string; id: string; version: string }>(
          "SELECT harness, id, version FROM txcript.sessions WHERE machine = $1",
          [o.machine],
        )
      ).rows.map((r) => [key(r.harness, r.id), r.version]),
    );
    // A copy `continue` wrote repeats its source's messages: as the local
    // index does, only its usage after it was written counts.
    const copies = new Map(
      new CopyLedger(sessions.options.env)
        .writtenCopies()
        .map(([harness, id, ms]) => [key(harness, id), ms]),
    );
    // One batch is written while the next is prepared; a write's failure is
    // kept (not left unhandled) and ends the push at the next flush.
    let writing: Promise<void> = Promise.resolve();
    let failure: { error: unknown } | undefined;
    let batch: Prepared[] = [];
    let batchBytes = 0;
    const flush = async () => {
      await writing;
      if (failure !== undefined) throw failure.error;
      if (batch.length === 0) return;
      const b = batch;
      batch = [];
      batchBytes = 0;
      writing = writeBatch(client, o, b, redacted).then(
        () => {
          for (const p of b) {
            result.sent++;
            result.bytes += p.bytes;
            result.redactions += p.out.redactions;
          }
        },
        (error: unknown) => {
          failure = { error };
        },
      );
    };
    const seen = new Set<string>();
    let done = 0;
    for (const d of listing.sessions) {
      const k = key(d.harness, d.id);
      const cut = copies.get(k);
      const version = versionOf(d, o.content, redacted, cut);
      if (seen.has(k) || known.get(k) === version) result.unchanged++;
      else {
        seen.add(k);
        try {
          const loaded = await sessions.load({ harness: d.harness, id: d.id });
          const out = await outgoing(d, loaded.transcript, o.content, o.redaction);
          if (cut !== undefined) out.usage = out.usage.filter((u) => u.at > cut);
          const transcript = out.transcript === undefined ? null : renderCommon(out.transcript);
          const bytes =
            (transcript?.length ?? 0) + out.chunks.reduce((n, c) => n + c.body.length, 0);
          batch.push({ out, version, transcript, bytes });
          batchBytes += bytes;
        } catch (error) {
          result.failed.push({
            harness: d.harness,
            id: d.id,
            reason: describeCause(error).split("\n")[0] ?? "",
          });
        }
        if (failure !== undefined) throw failure.error;
        if (batch.length >= (o.batch ?? BATCH_SESSIONS) || batchBytes >= BATCH_BYTES) await flush();
      }
      o.onProgress?.(++done, listing.sessions.length);
    }
    await flush();
    await writing;
    if (failure !== undefined) throw failure.error;
    if (o.prune) result.pruned = await prune(client, o, listing.sessions);
    return result;
  });
}
