/**
 * What a listing needs, decoded from the few rows discovery reads (the
 * store reads them; this module interprets them, with no I/O).
 *
 * INTERFACE FIXED; implementation owned by the Antigravity codec work.
 */

import type { Meta } from "../../common.js";
import type { Timestamp } from "../../time.js";
import type {
  GenMetadataRow,
  IdxBlobRow,
  MetadataBlobRow,
  StepRow,
  TrajectoryMetaRow,
} from "./body.js";

export interface ListingRows {
  /** The database file stem. */
  id: string;
  trajectory_meta: TrajectoryMetaRow[];
  trajectory_metadata_blob: MetadataBlobRow[];
  parent_references: IdxBlobRow[];
  /** The first USER_INPUT step (lowest idx), if any. */
  first_user_input?: StepRow;
  /** The latest CHECKPOINT step (highest idx), if any. */
  latest_checkpoint?: StepRow;
  /** The latest PLANNER_RESPONSE step (highest idx), if any: the session model. */
  latest_planner?: StepRow;
  /** The latest gen_metadata row, if any: the readable model name. */
  latest_gen_metadata?: GenMetadataRow;
  /** The step with the lowest idx, for the created-at fallback. */
  first_step?: StepRow;
  /** The step with the highest idx, for last activity. */
  last_step?: StepRow;
}

export interface Listing {
  meta: Meta;
  /** Created-at of the last step, when it has one. */
  updated?: Timestamp;
  /** The conversation that spawned this one (a subagent). */
  parent_id?: string;
  /** The conversation this one was forked from. */
  forked_from?: string;
}

export declare function summarize(rows: ListingRows): Listing;
