/**
 * The copies `continue` wrote: for each, the session it was copied from
 * (its lineage, shown as `forked_from`) and a SHA-256 of the file as
 * written, so that a repeat can tell a copy nobody touched (safe to bring
 * up to date) from one the user has worked in (never overwritten). A
 * JSON Lines file in txcript's state directory, appended to, read
 * tolerantly (a bad line is skipped); losing it loses lineage only.
 */

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { crypto } from "./builtins.js";
import { isJsonObject } from "./common.js";
import { type Env, stateDir } from "./env.js";
import { appendLine } from "./fsx.js";

import type { Timestamp } from "./time.js";
import type { Discovered, HarnessId, TextForm } from "./transcript.js";

/** Where a copy came from: a stored session, or a document (`simple`, `common`, …). */
export interface Origin {
  harness: TextForm;
  id: string;
}

export interface CopyRecord {
  harness: HarnessId;
  id: string;
  from: Origin;
  /** SHA-256 (hex) of the copy's main file as txcript wrote it. */
  sha256: string;
  path: string;
  written: Timestamp;
}

const COPIES_FILE = "copies.jsonl";

/** The chunk a file is hashed in: a copy's file may be hundreds of MB. */
const HASH_CHUNK = 1 << 20;

/**
 * SHA-256 of a file, or undefined when it cannot be read. Read a chunk at
 * a time: a whole read of a large copy (an agy database of a million
 * steps, 200 MB) was the peak of `continue`, on top of the transcript.
 */
export function fileSha256(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const hash = crypto().createHash("sha256");
    const chunk = Buffer.allocUnsafe(HASH_CHUNK);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, n));
    }
    return hash.digest("hex");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isRecord(value: unknown): value is CopyRecord {
  if (!isJsonObject(value)) return false;
  const from = value.from;
  return (
    typeof value.harness === "string" &&
    typeof value.id === "string" &&
    typeof value.sha256 === "string" &&
    typeof value.path === "string" &&
    isJsonObject(from) &&
    typeof from.harness === "string" &&
    typeof from.id === "string"
  );
}

export class CopyLedger {
  readonly path: string;
  private cache: Map<string, CopyRecord> | undefined;

  constructor(env: Env) {
    this.path = join(stateDir(env), COPIES_FILE);
  }

  private static key(harness: string, id: string): string {
    return `${harness}\u0000${id}`;
  }

  /** Every record, the last one per copy winning. */
  private records(): Map<string, CopyRecord> {
    if (this.cache) return this.cache;
    const out = new Map<string, CopyRecord>();
    let text = "";
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      // none yet, or unreadable: no lineage known
    }
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const value: unknown = JSON.parse(line);
        if (isRecord(value)) out.set(CopyLedger.key(value.harness, value.id), value);
      } catch {
        // a torn or hand-edited line
      }
    }
    this.cache = out;
    return out;
  }

  /**
   * Each copy `continue` wrote, as [harness, id, ms], with when it was
   * (last) written: what a copy holds from before then was counted in its
   * source, so `usage` counts only what the resumed harness added after.
   */
  writtenCopies(): [HarnessId, string, number][] {
    const out: [HarnessId, string, number][] = [];
    for (const r of this.records().values()) {
      const ms = Date.parse(r.written);
      if (Number.isFinite(ms)) out.push([r.harness, r.id, ms]);
    }
    return out;
  }

  lookup(harness: HarnessId, id: string): CopyRecord | undefined {
    return this.records().get(CopyLedger.key(harness, id));
  }

  /** Give each copy `continue` wrote its lineage (`forked_from`), unless its harness recorded one. */
  annotate(sessions: Discovered[]): void {
    for (const session of sessions) {
      if (session.forked_from !== undefined) continue;
      const from = this.lookup(session.harness, session.id)?.from;
      if (from === undefined) continue;
      session.forked_from = from.id;
      session.forked_from_harness = from.harness;
    }
  }

  /**
   * Append a record: one line in one append (`appendLine`), so concurrent
   * `continue`s need no lock (`test/hostile/ledger.test.ts`). The directory is created only below an existing parent of
   * the state root (a home that exists). Throws when it cannot be written.
   */
  record(record: CopyRecord): void {
    const dir = dirname(this.path);
    if (!existsSync(dir)) {
      let base = dir;
      while (!existsSync(base) && dirname(base) !== base) base = dirname(base);
      // Never conjure a home directory: with no home, no state.
      if (base === dirname(base) || base === "/") throw new Error(`no directory for ${dir}`);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    }
    appendLine(this.path, JSON.stringify(record), 0o600);
    this.records().set(CopyLedger.key(record.harness, record.id), record);
  }
}
