/**
 * Reading one conversation's listing for discovery, the same on the calling
 * thread and on the discovery workers (discover-worker.ts): the database's
 * header checked before SQLite opens it, the few listing rows, the title
 * file and the ACP sidecar, and what the app's summaries cache adds.
 */

import { readFileSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject } from "../../common.js";
import {
  describeCause,
  errnoCode,
  ParseError,
  StoreError,
  TxcriptError,
  UnsafePathError,
} from "../../errors.js";
import { statOrUndefined } from "../../fsx.js";
import { assignDefined } from "../../json.js";
import { pathComponentProblem } from "../../paths.js";
import { type DatabaseFile, inspectDatabaseFile, readSnapshot } from "../../sqlite.js";
import { timestampFromMillis } from "../../time.js";
import { type Discovered, fileStamp, type Skipped } from "../../transcript.js";
import { type LaneRoot, lanePaths } from "./paths.js";
import { fingerprintOf } from "./probe.js";
import { readListing } from "./store-listing.js";
import { HARNESS } from "./store-rows.js";
import type { CachedSummary } from "./store-summaries.js";
import { summarize } from "./summary.js";

/** `cwd` from the ACP lane's `<id>.meta` JSON sidecar, when it names one. */
export function acpCwd(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const cwd = isJsonObject(parsed) ? parsed.cwd : undefined;
    return typeof cwd === "string" && cwd !== "" ? cwd : undefined;
  } catch {
    return undefined; // a damaged sidecar only costs the listing its cwd
  }
}

/**
 * `annotations/<id>.pbtxt` when it is a readable file. Anything else (a
 * folder, a dangling link, an unreadable file) costs only the title.
 */
export function readAnnotation(path: string): string | undefined {
  // The stat first: a FIFO by that name would block a read. Unlike
  // readTextIfPresent, no error here fails the conversation.
  if (!statOrUndefined(path)?.isFile()) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export function readTextIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new StoreError(HARNESS, describeCause(error), { file: path, cause: error });
  }
}

/**
 * Reasons a file cannot be read as a database, before SQLite opens it.
 * Returns whether its header says WAL.
 */
export function checkFile(path: string): boolean {
  const unreadable = (error: unknown) =>
    new StoreError(HARNESS, `unreadable (${describeCause(error)})`, { file: path, cause: error });
  let st: Stats;
  try {
    st = statSync(path);
  } catch (error) {
    throw unreadable(error);
  }
  if (!st.isFile()) throw new ParseError(HARNESS, "not a regular file", { file: path });
  let file: DatabaseFile;
  try {
    file = inspectDatabaseFile(path, st.size);
  } catch (error) {
    throw unreadable(error);
  }
  if (!file.ok) throw new ParseError(HARNESS, file.problem, { file: path });
  return file.wal;
}

/** Candidate `i` of a batch (indexes come from the batch itself: an invariant). */
export function candidateAt(candidates: readonly Candidate[], i: number): Candidate {
  const c = candidates[i];
  if (!c) throw new Error(`no discovery candidate ${i}`);
  return c;
}

/** A `.db` file discovery will read. */
export interface Candidate {
  lane: LaneRoot;
  name: string;
}

/** What reading one candidate gives: a listing, or the reason it is skipped. */
export type CandidateResult = { session: Discovered } | { skipped: Skipped };

/**
 * Read one candidate's listing. Never throws for a bad file: the calling
 * thread and the discovery workers (discover-worker.ts) both run this, so
 * either gives the same result.
 */
export function discoverCandidate(candidate: Candidate, busyTimeoutMs: number): CandidateResult {
  const { lane, name } = candidate;
  const path = join(lane.root, "conversations", name);
  try {
    return { session: discoverOne(lane, name.slice(0, -3), path, busyTimeoutMs) };
  } catch (error) {
    const reason = error instanceof TxcriptError ? error.detail : describeCause(error);
    return { skipped: { path, reason } };
  }
}

function discoverOne(lane: LaneRoot, id: string, path: string, busyTimeoutMs: number): Discovered {
  const problem = pathComponentProblem(id);
  if (problem) throw new UnsafePathError(HARNESS, `unusable conversation id: the name ${problem}`);
  const wal = checkFile(path);
  const { rows, messageCount } = readSnapshot(path, (db) => readListing(db, path, id), {
    harness: HARNESS,
    busyTimeoutMs,
    wal,
  });
  const files = lanePaths(lane, id);
  const annotation = readAnnotation(files.annotation);
  assignDefined(rows, "annotation", annotation);
  const listing = summarize(rows);
  const fingerprint = fingerprintOf(lane, files, id);
  const meta = { ...listing.meta };
  if (lane.lane === "acp" && meta.cwd === undefined) {
    const cwd = acpCwd(readTextIfPresent(files.meta));
    assignDefined(meta, "cwd", cwd);
  }
  const newest = Math.max(
    ...fingerprint.files
      .filter((f) => f.path === files.db || f.path === files.wal)
      .map((f) => f.mtime_ms),
  );
  const found: Discovered = {
    harness: HARNESS,
    id,
    path,
    meta,
    updated: listing.updated ?? timestampFromMillis(Math.floor(newest)),
    message_count: messageCount,
    fingerprint,
    lane: lane.lane,
  };
  assignDefined(found, "parent_id", listing.parent_id);
  assignDefined(found, "forked_from", listing.forked_from);
  return found;
}

/**
 * What the summaries cache adds to a listing: the run status, and the
 * title (else preview) where the conversation's own files give none. A
 * running conversation's fingerprint also covers the cache, which the
 * probe never lists: so the index reads it afresh on every command until
 * it is idle, rather than keeping a stale "running".
 */
export function applyCached(found: Discovered, cached: CachedSummary, cache: string): void {
  assignDefined(found, "status", cached.status);
  if (cached.running) {
    found.running = true;
    const st = statOrUndefined(cache);
    if (st?.isFile())
      found.fingerprint = {
        files: [...found.fingerprint.files, fileStamp(cache, st)],
      };
  }
  const title = cached.title ?? cached.preview;
  if (found.meta.title === undefined && title !== undefined) found.meta.title = title;
}

/** What the discovery workers receive with every chunk (its candidates come as its items). */
export interface DiscoverJob {
  busyTimeoutMs: number;
}
