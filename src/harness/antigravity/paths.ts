/**
 * Where agy keeps conversations: the lanes a store reads (roots from
 * options and the environment) and every path of one conversation in a lane.
 */

import { join, resolve } from "node:path";
import { homeDir, nonEmpty } from "../../env.js";
import type { StoreOptions } from "../../transcript.js";
import type { AntigravityLane } from "./body.js";

/** Our environment variable for the CLI lane's root (an explicit root). */
const ROOT_ENV = "TXCRIPT_ANTIGRAVITY_ROOT";
/** Our environment variable for the ACP lane's root. */
const ACP_ROOT_ENV = "TXCRIPT_ANTIGRAVITY_ACP_ROOT";
/** Our environment variable for the desktop app's lane root. */
const DESKTOP_ROOT_ENV = "TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT";
/** Our environment variable for the Antigravity IDE's lane root. */
const IDE_ROOT_ENV = "TXCRIPT_ANTIGRAVITY_IDE_ROOT";
/**
 * agy's own app-data directory: absolute, or a name under `<gemini>`; agy
 * sets it to `antigravity-cli` for its tools, and profile switchers point
 * it elsewhere (docs/formats/antigravity.md, "Surfaces").
 */
const AGY_DATA_ENV = "JETSKI_APP_DATA_DIR";

/** One place agy keeps conversations: `<root>/conversations`, `<root>/brain`. */
export interface LaneRoot {
  lane: AntigravityLane;
  root: string;
}

export interface AntigravityStoreOptions extends StoreOptions {
  /** How long a locked database is retried before it is reported, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Whose home variable applies: `USERPROFILE` on win32, `HOME` elsewhere (default: this platform). */
  platform?: NodeJS.Platform;
  /**
   * Worker threads discovery reads databases on, beside the calling thread
   * (0: the calling thread alone). Default: none below
   * `PARALLEL_DISCOVERY_FROM` conversations, else one fewer than the
   * available cores, at most `MAX_DISCOVERY_WORKERS`.
   */
  discoveryWorkers?: number;
}

/**
 * The lanes a store reads, the CLI lane first (where `save` writes):
 * - an explicit root (`root`, else `$TXCRIPT_ANTIGRAVITY_ROOT`) means that
 *   root alone as the CLI lane, plus `$TXCRIPT_ANTIGRAVITY_ACP_ROOT` and
 *   `$TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT` and `$TXCRIPT_ANTIGRAVITY_IDE_ROOT` when set;
 * - otherwise agy's `$JETSKI_APP_DATA_DIR` (absolute, or a name under
 *   `<gemini>`), else `<gemini>/antigravity-cli`; `<gemini>/antigravity-acp` (or
 *   `$TXCRIPT_ANTIGRAVITY_ACP_ROOT`) and the desktop app's
 *   `<gemini>/antigravity` (or `$TXCRIPT_ANTIGRAVITY_DESKTOP_ROOT`) and the
 *   IDE's `<gemini>/antigravity-ide` (or `$TXCRIPT_ANTIGRAVITY_IDE_ROOT`), where
 *   `<gemini>` is `$GEMINI_HOME`, else `~/.gemini` (home from `HOME`,
 *   `USERPROFILE` on Windows).
 */
export function antigravityLanes(options: AntigravityStoreOptions = {}): LaneRoot[] {
  const env = options.env ?? process.env;
  const acp = nonEmpty(env[ACP_ROOT_ENV]);
  const desktop = nonEmpty(env[DESKTOP_ROOT_ENV]);
  const ide = nonEmpty(env[IDE_ROOT_ENV]);
  const explicit = nonEmpty(options.root) ?? nonEmpty(env[ROOT_ENV]);
  const lanes: LaneRoot[] = [];
  if (explicit !== undefined) {
    lanes.push({ lane: "cli", root: resolve(explicit) });
    if (acp !== undefined) lanes.push({ lane: "acp", root: resolve(acp) });
    if (desktop !== undefined) lanes.push({ lane: "desktop", root: resolve(desktop) });
    if (ide !== undefined) lanes.push({ lane: "ide", root: resolve(ide) });
  } else {
    const home = homeDir(env, options.platform);
    const gemini = resolve(nonEmpty(env.GEMINI_HOME) ?? join(home, ".gemini"));
    const agyData = nonEmpty(env[AGY_DATA_ENV]);
    lanes.push({ lane: "cli", root: resolve(gemini, agyData ?? "antigravity-cli") });
    lanes.push({ lane: "acp", root: resolve(acp ?? join(gemini, "antigravity-acp")) });
    lanes.push({ lane: "desktop", root: resolve(desktop ?? join(gemini, "antigravity")) });
    lanes.push({ lane: "ide", root: resolve(ide ?? join(gemini, "antigravity-ide")) });
  }
  return lanes.filter((l, i) => lanes.findIndex((m) => m.root === l.root) === i);
}

const LOG_FILES = [
  ["transcript", "transcript.jsonl"],
  ["transcript_full", "transcript_full.jsonl"],
] as const;

/** Where everything of conversation `id` lives in a lane. */
export function lanePaths(lane: LaneRoot, id: string) {
  const conversations = join(lane.root, "conversations");
  const db = join(conversations, `${id}.db`);
  const brain = join(lane.root, "brain", id);
  const logs = join(brain, ".system_generated", "logs");
  return {
    conversations,
    db,
    wal: `${db}-wal`,
    shm: `${db}-shm`,
    pb: join(conversations, `${id}.pb`),
    meta: join(conversations, `${id}.meta`),
    annotations: join(lane.root, "annotations"),
    annotation: join(lane.root, "annotations", `${id}.pbtxt`),
    brain,
    logs,
    logFiles: LOG_FILES.map(([key, name]) => [key, join(logs, name)] as const),
  };
}

export type Paths = ReturnType<typeof lanePaths>;
