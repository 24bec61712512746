/**
 * The Antigravity store: agy's conversation databases on disk. Finds the
 * roots (the CLI lane and the ACP lane, paths.ts), lists conversations (one
 * listing in store-discover.ts, on worker threads for large stores,
 * discover-worker.ts) from the few rows a listing needs
 * (store-listing.ts), loads every row of every table into the
 * Body and writes a Body back as the database agy itself creates
 * (store-rows.ts; atomically here, with its brain directory), deletes
 * inside the root only, and fingerprints the files. No conversion to
 * Common here: `summarize()` interprets the listing rows.
 * See docs/formats/antigravity.md, section "Store".
 */

import {
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  type Stats,
  unlinkSync,
} from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import type { Meta } from "../../common.js";
import {
  ConflictError,
  describeCause,
  errnoCode,
  InvalidRequestError,
  NotFoundError,
  StoreError,
  TxcriptError,
  UnsafePathError,
  UnsupportedError,
} from "../../errors.js";
import {
  checkInside,
  fsyncPath,
  mkdirInside,
  publish,
  statOrUndefined,
  sweepTemps,
  TargetExistsError,
  tempPath,
  tryLock,
  writeFileAtomic,
} from "../../fsx.js";
import { assignDefined, defined } from "../../json.js";
import { checkPathComponent, isInside, pathComponentProblem } from "../../paths.js";
import { type Db, isBusy, openForWriting, readSnapshot } from "../../sqlite.js";
import type {
  Discovered,
  DiscoverOptions,
  Discovery,
  Fingerprint,
  Saved,
  SaveOptions,
  Skipped,
  Store,
  Transcript,
} from "../../transcript.js";
import { runShared, workerModule } from "../../workers.js";
import {
  type AntigravityStoreOptions,
  antigravityLanes,
  type LaneRoot,
  lanePaths,
} from "./paths.js";
import { AntigravityProbe, conversationNames, fingerprintOf } from "./probe.js";
import {
  acpCwd,
  applyCached,
  type Candidate,
  type CandidateResult,
  candidateAt,
  checkFile,
  type DiscoverJob,
  discoverCandidate,
  readAnnotation,
  readTextIfPresent,
} from "./store-discover.js";
import { HARNESS, readDatabase, readShownDatabase, writeConversation } from "./store-rows.js";
import { readSummaries, summariesPath, writeSummaryRow } from "./store-summaries.js";
import { SummarySteps, summaryRowFor } from "./summary-row.js";

export {
  type AntigravityStoreOptions,
  antigravityLanes,
  type LaneRoot,
} from "./paths.js";

import { mergeAnnotation } from "./annotation.js";
import { type AntigravityBody, emptyBody } from "./body.js";
import { listingRows, summarize } from "./summary.js";

// ---------------------------------------------------------------------------
// The store

interface Located {
  lane: LaneRoot;
  db: string;
}

/**
 * Discovery reads databases on worker threads from this many candidates
 * up: below it, starting a worker (tens of milliseconds) costs more than it
 * saves. See docs/formats/antigravity-store.md, "Discovery" (Threads).
 */
export const PARALLEL_DISCOVERY_FROM = 64;
/**
 * Each worker loads its own copy of the store's modules and SQLite's caches.
 * @public bench/antigravity-store.bench.ts reads it through a namespace import.
 */
export const MAX_DISCOVERY_WORKERS = 3;
/** How long past the busy timeout a silent discovery worker is waited for. */
const WORKER_STALL_MS = 30_000;

/** The discovery worker module, beside this one (`.ts` when run from source). */
const DISCOVER_WORKER = workerModule("discover-worker", import.meta.url);

export class AntigravityStore implements Store<AntigravityBody> {
  readonly harness = HARNESS;
  readonly roots: readonly string[];
  readonly lanes: readonly LaneRoot[];
  private readonly busyTimeoutMs: number;
  private readonly workers: number | undefined;

  constructor(options: AntigravityStoreOptions = {}) {
    this.lanes = antigravityLanes(options);
    this.roots = this.lanes.map((l) => l.root);
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.workers = options.discoveryWorkers;
  }

  /** Worker threads for a discovery of `count` candidates. */
  private discoveryWorkers(count: number): number {
    if (this.workers !== undefined) return Math.max(0, Math.floor(this.workers));
    if (count < PARALLEL_DISCOVERY_FROM) return 0;
    return Math.max(0, Math.min(MAX_DISCOVERY_WORKERS, availableParallelism() - 1));
  }

  /** The first lane holding `<id>.db` (anything by that name, even a dangling link). */
  private locate(id: string): Located | undefined {
    checkPathComponent(id, HARNESS);
    for (const lane of this.lanes) {
      const db = lanePaths(lane, id).db;
      if (statOrUndefined(db, false)) return { lane, db };
    }
    return undefined;
  }

  private notFound(id: string): NotFoundError {
    return new NotFoundError(
      HARNESS,
      `no conversation ${JSON.stringify(id)} in ${this.roots.map((r) => join(r, "conversations")).join(" or ")}`,
    );
  }

  // -- discover ------------------------------------------------------------

  ids(): string[] {
    const ids = new Set<string>();
    for (const lane of this.lanes) {
      const names = conversationNames(lane);
      if (names === undefined) continue; // discover() reports unreadable directories
      for (const name of names) {
        if (!name.endsWith(".db")) continue;
        const id = name.slice(0, -3);
        if (pathComponentProblem(id) === undefined) ids.add(id);
      }
    }
    return [...ids].sort();
  }

  async discover(options: DiscoverOptions = {}): Promise<Discovery> {
    const candidates: Candidate[] = [];
    const skipped: Skipped[] = [];
    for (const lane of this.lanes) {
      const dir = join(lane.root, "conversations");
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (error) {
        const code = errnoCode(error);
        if (code !== "ENOENT" && code !== "ENOTDIR")
          skipped.push({ path: dir, reason: `unreadable (${describeCause(error)})` });
        continue;
      }
      const dbs = new Set(names.filter((n) => n.endsWith(".db")));
      const only = options.paths;
      for (const name of names.sort()) {
        if (name.endsWith(".db")) {
          if (!only || only.has(join(dir, name))) candidates.push({ lane, name });
        } else if (name.endsWith(".pb") && !dbs.has(`${name.slice(0, -3)}.db`)) {
          // A .pb beside its .db is the opaque copy /fork writes: nothing to list.
          skipped.push({
            path: join(dir, name),
            reason:
              "a lone .pb file: an encrypted conversation from agy before 1.0.4, which txcript cannot read",
          });
        }
      }
    }
    const { onProgress } = options;
    const results = await runShared<DiscoverJob, CandidateResult, Candidate>({
      count: candidates.length,
      run: (i) => discoverCandidate(candidateAt(candidates, i), this.busyTimeoutMs),
      module: DISCOVER_WORKER,
      data: { busyTimeoutMs: this.busyTimeoutMs },
      item: (i) => candidateAt(candidates, i),
      threads: this.discoveryWorkers(candidates.length),
      // A worker that died or hung took this candidate with it: the rest are still listed.
      lost: (i, why) => ({
        skipped: {
          path: join(
            candidateAt(candidates, i).lane.root,
            "conversations",
            candidateAt(candidates, i).name,
          ),
          reason: `not read: ${why}`,
        },
      }),
      stallMs: this.busyTimeoutMs + WORKER_STALL_MS,
      ...defined({ onProgress }),
    });
    const sessions: Discovered[] = [];
    const caches = new Map(this.lanes.map((l) => [l.root, readSummaries(l.root)] as const));
    for (const result of results) {
      if ("session" in result) {
        const lane = this.lanes.find((l) => l.lane === result.session.lane);
        const cached = lane && caches.get(lane.root)?.get(result.session.id);
        if (lane && cached) applyCached(result.session, cached, summariesPath(lane.root));
        sessions.push(result.session);
      } else skipped.push(result.skipped);
    }
    return { sessions, skipped };
  }

  // -- load ----------------------------------------------------------------

  load(id: string): Transcript<AntigravityBody> {
    const { lane, db } = this.found(id);
    const wal = checkFile(db);
    const body = readSnapshot(db, (conn) => readDatabase(conn, db, id), {
      harness: HARNESS,
      busyTimeoutMs: this.busyTimeoutMs,
      wal,
    });
    for (const [key, file] of lanePaths(lane, id).logFiles) {
      const text = readTextIfPresent(file);
      if (text !== undefined) body[key] = text;
    }
    return this.withSidecars(lane, body);
  }

  /**
   * Load for one reading that needs no round trip: `read` gets a Body whose
   * steps and `gen_metadata` rows stream from the database inside its read
   * transaction (body.ts, `streams`), without the brain mirror, so that a
   * conversation is never held whole beside what is made of it.
   */
  loadFor<T>(id: string, read: (transcript: Transcript<AntigravityBody>) => T): T {
    const { lane, db } = this.found(id);
    const wal = checkFile(db);
    const sidecars = this.withSidecars(lane, emptyBody(id));
    return readSnapshot(
      db,
      (conn) => {
        const body = { ...readShownDatabase(conn, db, id), ...sidecarsOf(sidecars.body) };
        return read({ meta: this.metaOf(lane, body), body });
      },
      { harness: HARNESS, busyTimeoutMs: this.busyTimeoutMs, wal },
    );
  }

  /** Where `<id>.db` is, or why it cannot be loaded. */
  private found(id: string): Located {
    const found = this.locate(id);
    if (found) return found;
    const pb = this.lanes
      .map((lane) => lanePaths(lane, id).pb)
      .find((p) => statOrUndefined(p) !== undefined);
    if (pb)
      throw new UnsupportedError(
        HARNESS,
        "an encrypted conversation from agy before 1.0.4 (a lone .pb file), which txcript cannot read",
        { file: pb },
      );
    throw this.notFound(id);
  }

  /** The Body with its lane, ACP sidecar and annotation, and its meta. */
  private withSidecars(lane: LaneRoot, body: AntigravityBody): Transcript<AntigravityBody> {
    const paths = lanePaths(lane, body.id);
    if (lane.lane !== "cli") body.lane = lane.lane;
    if (lane.lane === "acp") {
      const sidecar = readTextIfPresent(paths.meta);
      assignDefined(body, "acp_meta", sidecar);
    }
    const annotation = readAnnotation(paths.annotation);
    assignDefined(body, "annotation", annotation);
    return { meta: this.metaOf(lane, body), body };
  }

  private metaOf(lane: LaneRoot, body: AntigravityBody): Meta {
    const { meta } = summarize(listingRows(body));
    if (lane.lane === "acp" && meta.cwd === undefined) {
      const cwd = acpCwd(body.acp_meta);
      assignDefined(meta, "cwd", cwd);
    }
    return meta;
  }

  // -- save ----------------------------------------------------------------

  save(transcript: Transcript<AntigravityBody>, options: SaveOptions = {}): Saved {
    const { body } = transcript;
    const id = checkPathComponent(transcript.meta.id, HARNESS);
    if (body.streams !== undefined)
      throw new InvalidRequestError(HARNESS, "a conversation read to be shown cannot be saved");
    if (body.id !== id) {
      throw new InvalidRequestError(
        HARNESS,
        `the transcript's id ${JSON.stringify(id)} differs from its body's ${JSON.stringify(body.id)}`,
      );
    }
    // The CLI lane (what `agy --conversation` resumes), unless the Body was
    // written for the desktop app: then its lane, or the one root given.
    const surface = body.lane === "desktop" ? "desktop" : "cli";
    const lane =
      (surface === "desktop" ? this.lanes.find((l) => l.lane === "desktop") : undefined) ??
      this.lanes[0];
    if (!lane) throw new StoreError(HARNESS, "no store root to save into");
    const paths = lanePaths(lane, id);
    // Folders through symlinks are refused before anything is created.
    checkInside(lane.root, paths.logs, HARNESS);
    checkInside(lane.root, paths.annotations, HARNESS);
    mkdirInside(lane.root, paths.conversations, HARNESS);
    // One save of a conversation at a time: the loser of a race hears so,
    // rather than both writing brain/<id> and one database silently winning.
    const lock = tryLock(paths.conversations, `${id}.db`);
    if ("heldBy" in lock) {
      throw new ConflictError(
        HARNESS,
        `conversation ${id} is being saved by another process (pid ${lock.heldBy})`,
        { file: paths.db },
      );
    }
    let tmp: string | undefined;
    // A new conversation's brain folder is built under a temporary name and
    // renamed into place just before the database: a save killed before
    // then leaves a temporary the next save sweeps, never an orphan
    // brain/<id> beside no database.
    let building: string | undefined;
    let madeBrain = false;
    // Folders this save created, removed again (when empty) if it fails.
    const madeDirs: string[] = [];
    try {
      const realRoot = realpathSync(lane.root);
      const existing = statOrUndefined(paths.db, false);
      if (existing && !options.overwrite) {
        throw new ConflictError(
          HARNESS,
          `conversation ${id} already exists (overwriting was not asked for)`,
          { file: paths.db },
        );
      }
      if (existing?.isSymbolicLink()) {
        const target = realpathOrUndefined(paths.db);
        if (target !== undefined && !isInside(realRoot, target))
          throw new UnsafePathError(
            HARNESS,
            `${paths.db} resolves to ${target}, outside ${realRoot}`,
          );
      } else if (existing?.isDirectory()) {
        throw new StoreError(HARNESS, "is a directory, not a conversation database", {
          file: paths.db,
        });
      }
      sweepTemps(paths.conversations);
      // The brain directory is made ready first: a Body made to be saved
      // gives each step's mirror lines as its row is written.
      const brainRoot = dirname(paths.brain);
      madeDirs.push(...mkdirInside(lane.root, brainRoot, HARNESS));
      sweepTemps(brainRoot);
      if (statOrUndefined(paths.brain, false) === undefined) building = tempPath(brainRoot, id);
      const logs = building ? join(building, relative(paths.brain, paths.logs)) : paths.logs;
      madeDirs.push(...mkdirInside(lane.root, logs, HARNESS));
      if (!building) sweepTemps(logs);
      const files = [paths.db, paths.brain];
      tmp = tempPath(paths.conversations, `${id}.db`);
      // A Body made to be saved gives its steps once: the summaries row is
      // gathered from them as they are written.
      const seen = body.made ? new SummarySteps() : undefined;
      files.push(...writeConversation(tmp, body, logs, paths.logFiles, seen));
      // The brain directory's files come before the database: agy wedges on a database without them.
      fsyncPath(tmp, "r+");
      fsyncPath(logs, "r");
      // The title, where agy's picker reads it; never inside the steps the model sees.
      // Fields agy keeps there besides the title (the last view time) outlive an overwrite.
      const existingNote = existing ? readAnnotation(paths.annotation) : undefined;
      const note = mergeAnnotation(existingNote, body.annotation);
      if (note.trim() !== "") {
        mkdirInside(lane.root, paths.annotations, HARNESS);
        sweepTemps(paths.annotations);
        writeFileAtomic(paths.annotation, note);
        fsyncPath(paths.annotations, "r");
        files.push(paths.annotation);
      } else if (statOrUndefined(paths.annotation, false)?.isFile()) {
        rmSync(paths.annotation, { force: true }); // the title of a replaced conversation
      }
      this.retire(paths.db, existing);
      if (building !== undefined) {
        // Fails (rather than merging) if agy made brain/<id> meanwhile.
        renameSync(building, paths.brain);
        building = undefined;
        madeBrain = true;
        fsyncPath(brainRoot, "r");
      }
      // The commit point; exclusive unless overwriting, so that a database
      // that appeared meanwhile (agy itself) is never replaced.
      publish(tmp, paths.db, !options.overwrite);
      tmp = undefined;
      madeBrain = false;
      fsyncPath(paths.conversations, "r");
      // The app's picker row, after the database it describes exists; only
      // into a table with exactly the documented columns, else said why not.
      const row = writeSummaryRow(
        lane.root,
        summaryRowFor(body, surface, seen),
        this.busyTimeoutMs,
      );
      const saved: Saved = { harness: HARNESS, id, path: paths.db, files, lane: surface };
      if (row.written) files.push(summariesPath(lane.root));
      else saved.notes = [`no summaries row written: ${row.reason}`];
      return saved;
    } catch (error) {
      if (tmp !== undefined) {
        for (const suffix of ["", "-journal", "-wal", "-shm"])
          rmSync(tmp + suffix, { force: true });
      }
      // Nothing of a failed new conversation stays: its brain folder neither.
      if (building !== undefined) rmSync(building, { recursive: true, force: true });
      if (madeBrain) rmSync(paths.brain, { recursive: true, force: true });
      for (const dir of madeDirs.reverse()) rmdirIfEmpty(dir);
      if (error instanceof TargetExistsError) {
        throw new ConflictError(HARNESS, `conversation ${id} already exists`, { file: paths.db });
      }
      if (error instanceof TxcriptError) throw error;
      throw new StoreError(HARNESS, describeCause(error), { file: paths.db, cause: error });
    } finally {
      lock.release();
    }
  }

  /**
   * Make way for a new database at `path`: fold the old one's `-wal` into it
   * (so that a crash before the rename still leaves the whole old
   * conversation), then remove its `-wal` and `-shm`, which SQLite would
   * otherwise replay over the new file.
   */
  private retire(path: string, existing: Stats | undefined): void {
    if (existing?.isFile()) {
      let db: Db | undefined;
      try {
        db = openForWriting(path, this.busyTimeoutMs);
        // `simple`: the first column of the row, which is `busy` (1 when blocked).
        const busy: unknown = db.pragma("wal_checkpoint(TRUNCATE)", { simple: true });
        if (busy) throw Object.assign(new Error("checkpoint blocked"), { code: "SQLITE_BUSY" });
      } catch (error) {
        if (isBusy(error)) {
          throw new StoreError(
            HARNESS,
            "conversation is in use by another process (a running agy?); not overwritten",
            { file: path, cause: error },
          );
        }
        // Not a database, or a damaged one: there is nothing to fold in.
      } finally {
        db?.close();
      }
    }
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }

  // -- delete --------------------------------------------------------------

  delete(id: string): string[] {
    const found = this.locate(id);
    if (!found) throw this.notFound(id);
    const paths = lanePaths(found.lane, id);
    // Check everything before removing anything.
    const realRoot = realpathSync(found.lane.root);
    const realConversations = realpathSync(paths.conversations);
    if (!isInside(realRoot, realConversations))
      throw new UnsafePathError(
        HARNESS,
        `${paths.conversations} resolves to ${realConversations}, outside ${realRoot}`,
      );
    const target = realpathOrUndefined(paths.db);
    if (target === undefined || dirname(target) !== realConversations) {
      throw new UnsafePathError(
        HARNESS,
        `${paths.db} resolves to ${target ?? "nothing"}, not a conversation directly in ${realConversations}`,
      );
    }
    const brain = statOrUndefined(paths.brain, false);
    if (brain && !brain.isSymbolicLink()) {
      const realBrain = realpathSync(paths.brain);
      if (!isInside(realRoot, realBrain))
        throw new UnsafePathError(
          HARNESS,
          `${paths.brain} resolves to ${realBrain}, outside ${realRoot}`,
        );
    }
    const removed: string[] = [];
    try {
      // The database first: a crash after it leaves only orphans, never a
      // database without its -wal.
      for (const file of [paths.db, paths.wal, paths.shm]) {
        if (statOrUndefined(file, false)) {
          unlinkSync(join(realConversations, file.slice(paths.conversations.length + 1)));
          removed.push(file);
        }
      }
      if (brain) {
        // A symlinked brain/<id> loses the link only, never what it points to.
        rmSync(paths.brain, { recursive: !brain.isSymbolicLink(), force: true });
        removed.push(paths.brain);
      }
      // The title file, or a link by its name (never what the link points to).
      const note = statOrUndefined(paths.annotation, false);
      if (note && (note.isFile() || note.isSymbolicLink())) {
        const dir = realpathOrUndefined(paths.annotations);
        if (dir !== undefined && isInside(realRoot, dir)) {
          unlinkSync(join(dir, basename(paths.annotation)));
          removed.push(paths.annotation);
        }
      }
    } catch (error) {
      throw new StoreError(HARNESS, `delete stopped part-way (${describeCause(error)})`, {
        file: paths.db,
        cause: error,
      });
    }
    return removed;
  }

  // -- fingerprint ---------------------------------------------------------

  scan(): Fingerprint[] {
    return new AntigravityProbe({ lanes: this.lanes }).scan();
  }

  fingerprint(id: string): Fingerprint | undefined {
    if (pathComponentProblem(id)) return undefined;
    const found = this.locate(id);
    return found && fingerprintOf(found.lane, lanePaths(found.lane, id), id);
  }
}

/** What `withSidecars` adds to a Body. */
function sidecarsOf(body: AntigravityBody): Partial<AntigravityBody> {
  const { lane, acp_meta, annotation } = body;
  return defined({ lane, acp_meta, annotation });
}

function rmdirIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (another writer's), or gone already.
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
