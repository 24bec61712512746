/**
 * A conversation's Meta and lineage (trajectory references, forks) as its
 * agy Body holds them. No I/O.
 */

import type { Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { decode } from "../../protobuf.js";
import { EPOCH } from "../../time.js";
import type { AntigravityBody } from "./body.js";
import { CortexTrajectoryReference } from "./schema.js";
import { listingRows, summarize } from "./summary.js";

// ---------------------------------------------------------------------------
// Meta and lineage

/** Session metadata derived from the Body alone (what a listing shows). */
export function antigravityMeta(body: AntigravityBody): Meta {
  return summarize(listingRows(body)).meta;
}

interface TrajectoryReference {
  trajectory_id?: string;
  step_index?: number;
  /** 2 FORK, 6 SUBAGENT_FORK, or another value agy adds. */
  type?: number;
  conversation_id?: string;
}

export interface Lineage {
  /** The conversation that spawned this one (a subagent). */
  parent_id?: string;
  /** The conversation this one was forked from. */
  forked_from?: string;
  /** Every `parent_references` row, decoded. */
  references: TrajectoryReference[];
}

/** Where a conversation comes from: its parent (subagents) and fork references. */
export function antigravityLineage(body: AntigravityBody): Lineage {
  const listing = summarize(listingRows(body));
  const lineage: Lineage = {
    references: body.parent_references.map((row) => {
      const m = decode(row.data);
      const ref: TrajectoryReference = {};
      const trajectory = m.string(CortexTrajectoryReference.trajectory_id);
      assignDefined(ref, "trajectory_id", trajectory);
      const step = m.uint(CortexTrajectoryReference.step_index);
      assignDefined(ref, "step_index", step);
      const type = m.uint(CortexTrajectoryReference.type);
      assignDefined(ref, "type", type);
      const conversation = m.string(CortexTrajectoryReference.conversation_id);
      assignDefined(ref, "conversation_id", conversation);
      return ref;
    }),
  };
  assignDefined(lineage, "parent_id", listing.parent_id);
  assignDefined(lineage, "forked_from", listing.forked_from);
  return lineage;
}

/** Body-derived meta, with the transcript's own values where the Body says nothing. */
export function mergedMeta(body: AntigravityBody, given: Meta | undefined): Meta {
  const meta = antigravityMeta(body);
  if (given === undefined) return meta;
  if (meta.timestamp === EPOCH && given.timestamp !== undefined) meta.timestamp = given.timestamp;
  for (const key of ["cwd", "git_branch", "title", "cli_version", "model"] as const) {
    const value = given[key];
    if (meta[key] === undefined && value !== undefined) meta[key] = value;
  }
  return meta;
}
