/**
 * The native Body of an agy conversation: every row of every table of
 * `conversations/<id>.db`, byte-exact, plus the brain mirror logs. The store
 * reads and writes exactly this; the codec interprets it.
 */

/** A value as SQLite holds it (better-sqlite3 returns blobs as Buffers, a Uint8Array). */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** `trajectory_meta(trajectory_id text PRIMARY KEY, cascade_id text, trajectory_type integer, source integer)` */
export interface TrajectoryMetaRow {
  trajectory_id: string;
  cascade_id: string | null;
  trajectory_type: number | null;
  source: number | null;
}

/** One `steps` row: all eleven columns. `step_payload` is a `gemini_coder.Step`. */
export interface StepRow {
  idx: number;
  step_type: number;
  status: number;
  has_subtrajectory: boolean;
  metadata: Uint8Array | null;
  error_details: Uint8Array | null;
  permissions: Uint8Array | null;
  task_details: Uint8Array | null;
  render_info: Uint8Array | null;
  step_payload: Uint8Array | null;
  step_format: number;
}

/** `gen_metadata(idx integer PRIMARY KEY, data blob, size integer NOT NULL DEFAULT 0)` */
export interface GenMetadataRow {
  idx: number;
  data: Uint8Array | null;
  size: number;
}

/** `executor_metadata`, `parent_references`, `battle_mode_infos`: `(idx integer PRIMARY KEY, data blob)` */
export interface IdxBlobRow {
  idx: number;
  data: Uint8Array | null;
}

/** `trajectory_metadata_blob(id text DEFAULT "main" PRIMARY KEY, data blob)` */
export interface MetadataBlobRow {
  id: string;
  data: Uint8Array | null;
}

/** A table a later agy added: kept verbatim, recreated from its own SQL. */
export interface ExtraTable {
  name: string;
  /** The `CREATE TABLE` statement from sqlite_master. */
  sql: string;
  columns: string[];
  rows: SqlValue[][];
}

/** Which surface produced the conversation: the CLI, the ACP server, the desktop app, or the IDE. */
export type AntigravityLane = "cli" | "acp" | "desktop" | "ide";

export interface AntigravityBody {
  /** The conversation id: the database file stem. */
  id: string;
  trajectory_meta: TrajectoryMetaRow[];
  steps: StepRow[];
  gen_metadata: GenMetadataRow[];
  executor_metadata: IdxBlobRow[];
  parent_references: IdxBlobRow[];
  battle_mode_infos: IdxBlobRow[];
  trajectory_metadata_blob: MetadataBlobRow[];
  /** Tables this version does not know, in sqlite_master order. */
  extra_tables: ExtraTable[];
  /** `brain/<id>/.system_generated/logs/transcript.jsonl`, verbatim. */
  transcript?: string;
  /** `brain/<id>/.system_generated/logs/transcript_full.jsonl`, verbatim. */
  transcript_full?: string;
  /**
   * The brain mirror as fromCommon makes it, in place of `transcript` and
   * `transcript_full`: each file made from the steps a line at a time,
   * anew on each iteration, so that it is never held whole (the store
   * writes the lines as they are made; the text form joins them).
   */
  mirror?: { transcript: Iterable<string>; transcript_full: Iterable<string> };
  /** Where it was found (default `cli`). */
  lane?: AntigravityLane;
  /** The ACP lane's `<id>.meta` JSON sidecar, verbatim. */
  acp_meta?: string;
  /** `annotations/<id>.pbtxt`, verbatim: agy's picker title for the conversation. */
  annotation?: string;
  /**
   * Set only on a Body read to be shown once (`Store.loadFor`): the steps
   * and `gen_metadata` rows, read from the database as they are iterated,
   * once each (`gen_metadata` first), in idx order, so that no more than one
   * row and its decoding is held at a time. Such a Body's `steps` holds only
   * the rows a listing reads (the first and last step, the first user
   * input, the latest checkpoint and planner step), its `gen_metadata` the
   * latest few; it has no brain mirror nor other tables, and is never saved.
   */
  streams?: RowStreams;
  /**
   * Set only on a Body made to be saved (fromCommon told `forSave`): its
   * steps, made anew on each iteration, in idx order, each with its lines
   * of the brain mirror, so that no more than one is held at a time (the
   * store writes each row and its lines as it is made). Such a Body's
   * `steps` is empty and it has no `mirror`: it is for its store's save alone.
   */
  made?: Iterable<MadeStep>;
}

/** One step of a Body made to be saved: its row, and its line of each mirror file (none for a step agy does not log). */
export interface MadeStep {
  row: StepRow;
  mirror: { transcript: string; transcript_full: string } | undefined;
}

/** The rows of a Body read to be shown, as the database gives them. */
interface RowStreams {
  gen_metadata: Iterable<GenMetadataRow>;
  steps: Iterable<StepRow>;
}

export function emptyBody(id: string): AntigravityBody {
  return {
    id,
    trajectory_meta: [],
    steps: [],
    gen_metadata: [],
    executor_metadata: [],
    parent_references: [],
    battle_mode_infos: [],
    trajectory_metadata_blob: [],
    extra_tables: [],
  };
}
