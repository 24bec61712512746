/**
 * What the index checks of agy's store before every command, from
 * directory listings and stat alone: the fingerprint of each conversation
 * (its database, `-wal`, display logs, annotation and ACP `.meta`). No
 * SQLite, protobuf or codec here, so a warm `list` loads none of them.
 */

import { readdirSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { errnoCode } from "../../errors.js";
import { statOrUndefined } from "../../fsx.js";
import {
  type FileStamp,
  type Fingerprint,
  fileStamp,
  type PreviousScan,
  type StoreProbe,
} from "../../transcript.js";
import {
  type AntigravityStoreOptions,
  antigravityLanes,
  type LaneRoot,
  lanePaths,
  type Paths,
} from "./paths.js";

/** The names in a lane's conversations folder, or undefined when it cannot be read. */
export function conversationNames(lane: LaneRoot): string[] | undefined {
  try {
    return readdirSync(join(lane.root, "conversations"));
  } catch {
    return undefined;
  }
}

/**
 * What `scan()` listed of a lane: the names in `conversations/`, and in
 * `brain/` and `annotations/` where those could be read (undefined: not
 * known, so every candidate there is statted). A name not listed is not
 * statted: most conversations have no `-wal` at rest and no annotation,
 * and a failed stat costs as much as a good one.
 */
interface Listed {
  conversations: ReadonlySet<string>;
  brain: ReadonlySet<string> | undefined;
  annotations: ReadonlySet<string> | undefined;
}

/**
 * `lanePaths` for the fingerprint by string concatenation: `path.join` on
 * every name of a large store costs more than the stats. Only for a plain
 * name (undefined otherwise: "", "." and ".." are what `join` would
 * normalize, and a readdir name holds no separator).
 */
function lanePrefixes(lane: LaneRoot): { paths(id: string): FingerprintPaths | undefined } {
  const p = lanePaths(lane, "x");
  const conversations = p.conversations + sep;
  const annotations = p.annotations + sep;
  const brain = dirname(p.brain) + sep;
  const logs = sep + relative(p.brain, p.logs) + sep;
  const logNames = p.logFiles.map(([key, file]) => [key, basename(file)] as const);
  return {
    paths(id) {
      if (id === "" || id === "." || id === "..") return undefined;
      const db = `${conversations}${id}.db`;
      const inLogs = `${brain}${id}${logs}`;
      return {
        db,
        wal: `${db}-wal`,
        meta: `${conversations}${id}.meta`,
        annotation: `${annotations}${id}.pbtxt`,
        logs: inLogs.slice(0, -sep.length),
        logFiles: logNames.map(([key, name]) => [key, inLogs + name] as const),
      };
    },
  };
}

/** A folder's names; empty when it does not exist, undefined when it cannot be read. */
function namesIn(dir: string): ReadonlySet<string> | undefined {
  try {
    return new Set(readdirSync(dir));
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? new Set() : undefined;
  }
}

/** The files a fingerprint covers, as `lanePaths` names them. */
type FingerprintPaths = Pick<Paths, "db" | "wal" | "logs" | "logFiles" | "annotation" | "meta">;

/**
 * How old a logs folder's mtime must be before its stamp stands for "no
 * log in it": a file made in it later moves the mtime past it, even where
 * mtimes are as coarse as two seconds.
 */
const LOGS_SETTLED_MS = 5000;

/** The stamps of the regular files among `paths`. */
function stampsOf(paths: readonly string[]): FileStamp[] {
  const files: FileStamp[] = [];
  for (const path of paths) {
    const st = statOrUndefined(path);
    if (st?.isFile()) files.push(fileStamp(path, st));
  }
  return files;
}

/**
 * The display logs' part of a fingerprint: the logs that exist. For the
 * index's scan (`folder`), when none exists, the logs folder's own stamp
 * stands for them once its mtime has settled (a log made in it later moves
 * that mtime); and with `prior` (the last scan's files) holding that stamp
 * and no log, an unchanged folder stamp is the whole answer: one stat
 * instead of a failed stat per log on every warm refresh (bench/list's
 * store has empty logs folders; agy's own usually holds both logs, which
 * are statted as before). The folder is statted before the second look at
 * the logs, so a log written in between is seen. Discovery and
 * `fingerprint(id)` stat the logs alone: the folder stamp is the index's
 * own key, which it compares only with itself.
 */
function logStamps(
  paths: FingerprintPaths,
  folder: boolean,
  prior: readonly FileStamp[] | undefined,
): FileStamp[] {
  const logs = paths.logFiles.map(([, file]) => file);
  if (!folder) return stampsOf(logs);
  const vouched = prior?.find((f) => f.path === paths.logs);
  if (vouched && !prior?.some((f) => logs.includes(f.path))) {
    const dir = statOrUndefined(paths.logs);
    if (dir?.isDirectory() && dir.mtimeMs === vouched.mtime_ms && dir.size === vouched.size)
      return [fileStamp(paths.logs, dir)];
  }
  const found = stampsOf(logs);
  if (found.length > 0) return found;
  const dir = statOrUndefined(paths.logs);
  if (!dir?.isDirectory() || Date.now() - dir.mtimeMs < LOGS_SETTLED_MS) return [];
  const again = stampsOf(logs); // a log written since the first look
  return again.length > 0 ? again : [fileStamp(paths.logs, dir)];
}

/**
 * The fingerprint of one conversation: its database and `-wal`, display
 * logs, annotation and ACP `.meta`, where `listed` (a scan's listings)
 * says they may be. `previous`: the index's scan (see `logStamps`).
 */
export function fingerprintOf(
  lane: LaneRoot,
  paths: FingerprintPaths,
  id: string,
  listed?: Listed,
  previous?: PreviousScan,
): Fingerprint {
  const main =
    !listed || listed.conversations.has(`${id}.db-wal`) ? [paths.db, paths.wal] : [paths.db];
  const logs = !listed?.brain || listed.brain.has(id);
  const rest: string[] = [];
  // The annotation holds the title: a rename in agy changes only that file.
  if (!listed?.annotations || listed.annotations.has(`${id}.pbtxt`)) rest.push(paths.annotation);
  if (lane.lane === "acp" && (!listed || listed.conversations.has(`${id}.meta`)))
    rest.push(paths.meta);
  const unchanged = logs && previous && unchangedBehindFolder(paths, main, rest, previous);
  if (unchanged) return { files: unchanged };
  const files = stampsOf(main);
  if (logs) files.push(...logStamps(paths, previous !== undefined, previous?.files(paths.db)));
  files.push(...stampsOf(rest));
  return { files };
}

/**
 * The index's scan, where the last one stamped the logs folder in place of
 * its logs: the fingerprint with that folder's stamp, when it is the last
 * scan's stamp for stamp (so that scan held no log, and the folder has not
 * moved: what `logStamps` vouches for, in the same stats), without reading
 * the last scan's files back; undefined otherwise, and the fingerprint is
 * made afresh.
 */
function unchangedBehindFolder(
  paths: FingerprintPaths,
  main: readonly string[],
  rest: readonly string[],
  previous: PreviousScan,
): FileStamp[] | undefined {
  if (!previous.holds(paths.db, paths.logs)) return undefined;
  const files = stampsOf(main);
  const dir = statOrUndefined(paths.logs);
  if (!dir?.isDirectory()) return undefined;
  files.push(fileStamp(paths.logs, dir), ...stampsOf(rest));
  return previous.same(paths.db, files) ? files : undefined;
}

export class AntigravityProbe implements StoreProbe {
  readonly lanes: readonly LaneRoot[];
  readonly roots: readonly string[];

  /** The lanes of these options, or the lanes a store already resolved. */
  constructor(options: AntigravityStoreOptions | { lanes: readonly LaneRoot[] } = {}) {
    this.lanes = "lanes" in options ? options.lanes : antigravityLanes(options);
    this.roots = this.lanes.map((l) => l.root);
  }

  scan(previous?: PreviousScan): Fingerprint[] {
    const out: Fingerprint[] = [];
    for (const lane of this.lanes) {
      const names = conversationNames(lane);
      if (names === undefined) continue; // discover() reports unreadable directories
      const listed: Listed = {
        conversations: new Set(names),
        brain: namesIn(join(lane.root, "brain")),
        annotations: namesIn(join(lane.root, "annotations")),
      };
      const prefix = lanePrefixes(lane);
      for (const name of names.sort()) {
        if (!name.endsWith(".db")) continue;
        const id = name.slice(0, -3);
        const paths = prefix.paths(id) ?? lanePaths(lane, id);
        const found = fingerprintOf(lane, paths, id, listed, previous);
        // A dangling or unreadable .db still goes to discovery, which says why it is skipped.
        if (found.files[0]?.path !== paths.db)
          found.files.unshift({ path: paths.db, mtime_ms: 0, size: -1 });
        out.push(found);
      }
    }
    return out;
  }
}
