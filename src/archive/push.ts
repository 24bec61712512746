/**
 * `archive push`: every session on this machine that is new or changed
 * since its last push (by the local index's fingerprints, read through the
 * sessions service) sent to the archive, cut to the chosen content level
 * and redacted first (content.ts). Each session is written in its own
 * transaction, keyed by (machine, harness, id): a push killed at any point
 * leaves each session either as it was or whole, and the next push sends
 * the rest; a session whose version (fingerprint, level, redaction) is
 * already there is not written at all, so a second push changes no row.
 * Machines write only their own rows, so many can push at once. A session
 * deleted locally stays in the archive.
 */

import { createHash } from "node:crypto";
import { renderCommon } from "../common-json.js";
import { CopyLedger } from "../copies.js";
import { describeCause } from "../errors.js";
import type { RedactOptions } from "../render/redact.js";
import type { Sessions } from "../sessions/sessions.js";
import type { Discovered } from "../transcript.js";
import { type Client, type Pool, transaction, withClient } from "./connect.js";
import { type ContentLevel, type Outgoing, outgoing } from "./content.js";
import { migrate } from "./schema.js";
import { words } from "./words.js";

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
  /** Sessions that could not be read here, and why (one line each). */
  failed: { harness: string; id: string; reason: string }[];
  /** Strings the redactor replaced in what was sent. */
  redactions: number;
  /** Bytes of transcript and searchable text sent. */
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

async function write(
  client: Client,
  o: PushOptions,
  version: string,
  out: Outgoing,
  redacted: boolean,
): Promise<number> {
  const d = out.discovered;
  const transcript = out.transcript === undefined ? null : renderCommon(out.transcript);
  await transaction(client, async () => {
    const row = await client.query<{ sid: string }>(
      `INSERT INTO txcript.sessions AS s
         (machine, os_user, harness, id, version, content, redacted, updated_ms, cwd, title, discovered, transcript)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (machine, harness, id) DO UPDATE SET
         os_user = EXCLUDED.os_user, version = EXCLUDED.version, content = EXCLUDED.content,
         redacted = EXCLUDED.redacted, updated_ms = EXCLUDED.updated_ms, cwd = EXCLUDED.cwd,
         title = EXCLUDED.title, discovered = EXCLUDED.discovered,
         transcript = EXCLUDED.transcript, pushed_at = now()
       RETURNING sid`,
      [
        o.machine,
        o.user,
        d.harness,
        d.id,
        version,
        o.content,
        redacted,
        Date.parse(d.updated) || 0,
        d.meta.cwd ?? null,
        d.meta.title ?? null,
        JSON.stringify(d),
        transcript,
      ],
    );
    const sid = row.rows[0]?.sid;
    if (sid === undefined) throw new Error("the archive returned no row for the session");
    await client.query("DELETE FROM txcript.chunks WHERE sid = $1", [sid]);
    await client.query("DELETE FROM txcript.usage WHERE sid = $1", [sid]);
    if (out.chunks.length > 0)
      await client.query(
        `INSERT INTO txcript.chunks (sid, ordinal, kind, at, body, tsv)
         SELECT $1, o, k, a, b, to_tsvector('simple', w)
         FROM unnest($2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS t(o, k, a, b, w)`,
        [
          sid,
          out.chunks.map((c) => c.ordinal),
          out.chunks.map((c) => c.kind),
          out.chunks.map((c) => c.at),
          // PostgreSQL text holds no NUL character.
          out.chunks.map((c) => c.body.replaceAll("\u0000", " ")),
          out.chunks.map((c) => words(c.body)),
        ],
      );
    if (out.usage.length > 0)
      await client.query(
        `INSERT INTO txcript.usage (sid, at, model, input, output, cache_read, cache_write, messages)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::integer[])`,
        [
          sid,
          out.usage.map((u) => u.at),
          out.usage.map((u) => u.model ?? null),
          out.usage.map((u) => u.input_tokens),
          out.usage.map((u) => u.output_tokens),
          out.usage.map((u) => u.cache_read_input_tokens),
          out.usage.map((u) => u.cache_creation_input_tokens),
          out.usage.map((u) => u.messages),
        ],
      );
  });
  return (transcript?.length ?? 0) + out.chunks.reduce((n, c) => n + c.body.length, 0);
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
      ).rows.map((r) => [`${r.harness}/${r.id}`, r.version]),
    );
    // A copy `continue` wrote repeats its source's messages: as the local
    // index does, only its usage after it was written counts.
    const copies = new Map(
      new CopyLedger(sessions.options.env)
        .writtenCopies()
        .map(([harness, id, ms]) => [`${harness}/${id}`, ms]),
    );
    let done = 0;
    for (const d of listing.sessions) {
      const cut = copies.get(`${d.harness}/${d.id}`);
      const version = versionOf(d, o.content, redacted, cut);
      if (known.get(`${d.harness}/${d.id}`) === version) result.unchanged++;
      else {
        let out: Outgoing | undefined;
        try {
          const loaded = await sessions.load({ harness: d.harness, id: d.id });
          out = await outgoing(d, loaded.transcript, o.content, o.redaction);
          if (cut !== undefined) out.usage = out.usage.filter((u) => u.at > cut);
        } catch (error) {
          result.failed.push({
            harness: d.harness,
            id: d.id,
            reason: describeCause(error).split("\n")[0] ?? "",
          });
        }
        if (out !== undefined) {
          result.bytes += await write(client, o, version, out, redacted);
          result.redactions += out.redactions;
          result.sent++;
        }
      }
      o.onProgress?.(++done, listing.sessions.length);
    }
    return result;
  });
}
