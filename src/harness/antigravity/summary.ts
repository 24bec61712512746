/**
 * What a listing needs, decoded from the few rows discovery reads (the
 * store reads them; this module interprets them, with no I/O).
 *
 * INTERFACE FIXED (ListingRows, Listing, summarize); implementation owned
 * by the Antigravity codec work.
 */

import type { Meta } from "../../common.js";
import { assignDefined } from "../../json.js";
import { decode, type ProtoMessage } from "../../protobuf.js";
import { EPOCH, formatTimestamp, type Timestamp } from "../../time.js";
import { annotationTitle } from "./annotation.js";
import type {
  AntigravityBody,
  GenMetadataRow,
  IdxBlobRow,
  MetadataBlobRow,
  StepRow,
  TrajectoryMetaRow,
} from "./body.js";
import {
  checkpointTitle,
  decodeStep,
  genMetadataModel,
  isBlank,
  modelName,
  stepCreatedAt,
  stepModelEnum,
  stepPayload,
  titleFromPrompt,
  uriToPath,
  userInputHead,
} from "./decode.js";
import {
  CortexTrajectoryMetadata,
  CortexTrajectoryReference,
  MAIN_BLOB_ID,
  StepType,
  TrajectoryReferenceType,
  Workspace,
} from "./schema.js";

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
  /**
   * The latest gen_metadata rows, newest first, at most RECENT_GEN_METADATA:
   * the readable model name is the newest that names one (a conversation's
   * last row may be an aggregate that names none).
   */
  recent_gen_metadata?: GenMetadataRow[];
  /** The step with the lowest idx, for the created-at fallback. */
  first_step?: StepRow;
  /** The step with the highest idx, for last activity. */
  last_step?: StepRow;
  /** `annotations/<id>.pbtxt`, verbatim, when the conversation has one: its title. */
  annotation?: string;
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

/**
 * The listing of a conversation from its few rows. toCommon derives its
 * meta through this same function (see `listingRows`), so a listing and a
 * loaded transcript always agree.
 *
 * - id: `trajectory_meta.cascade_id`, else the main blob's conversation id, else the db stem;
 * - timestamp: the main blob's created_at, else the first step's, else the epoch;
 * - cwd: the workspace URI (1.1, else 7) as a path; git_branch: workspace 1.4;
 * - title: the annotation's title (agy's picker title, set at creation and by
 *   a rename), else the latest checkpoint's title (else its user intent),
 *   else the first user prompt, whitespace collapsed, cut to 80 code points;
 * - model: the model name of the newest of the last 8 gen_metadata rows that names one,
 *   else `model-<n>` of the latest planner step;
 * - parent_id: the main blob's parent conversation (a subagent), else a SUBAGENT_FORK reference,
 *   else the root conversation the main blob names when it is not this one (desktop subagents);
 * - forked_from: the conversation a FORK reference names.
 */
export function summarize(rows: ListingRows): Listing {
  const main = mainBlob(rows.trajectory_metadata_blob);
  const workspace = main.message(CortexTrajectoryMetadata.workspace);

  const cascade = rows.trajectory_meta[0]?.cascade_id;
  const id =
    nonBlank(cascade ?? undefined) ??
    nonBlank(main.string(CortexTrajectoryMetadata.conversation_id)) ??
    rows.id;

  const created = main.timestamp(CortexTrajectoryMetadata.created_at);
  const firstStep = rows.first_step && decodeStep(rows.first_step);
  const timestamp =
    (created && formatTimestamp(created)) ?? (firstStep && stepCreatedAt(firstStep.meta)) ?? EPOCH;

  const meta: Meta = { id, timestamp };
  const uri =
    nonBlank(workspace?.string(Workspace.uri)) ??
    nonBlank(main.string(CortexTrajectoryMetadata.workspace_uri));
  const cwd = uri === undefined ? undefined : nonBlank(uriToPath(uri));
  assignDefined(meta, "cwd", cwd);
  const branch = nonBlank(workspace?.string(Workspace.git_branch));
  assignDefined(meta, "git_branch", branch);

  const title =
    annotationTitle(rows.annotation) ?? rowTitle(rows.latest_checkpoint, rows.first_user_input);
  assignDefined(meta, "title", title);

  const model = recentModel(rows.recent_gen_metadata) ?? plannerModel(rows.latest_planner);
  assignDefined(meta, "model", model);

  const listing: Listing = { meta };
  const lastStep = rows.last_step && decodeStep(rows.last_step);
  const updated = lastStep && stepCreatedAt(lastStep.meta);
  assignDefined(listing, "updated", updated);

  const refs = rows.parent_references.map((r) => decode(r.data));
  const refTo = (type: number): string | undefined => {
    for (const ref of refs) {
      if (ref.uint(CortexTrajectoryReference.type) !== type) continue;
      const conversation = nonBlank(ref.string(CortexTrajectoryReference.conversation_id));
      if (conversation !== undefined) return conversation;
    }
    return undefined;
  };
  // The desktop app's subagents name their root conversation in field 6
  // (docs/formats/antigravity.md, "Surfaces"): a root other than itself is its parent.
  const root = nonBlank(main.string(CortexTrajectoryMetadata.conversation_id));
  const parent =
    nonBlank(main.string(CortexTrajectoryMetadata.parent_conversation_id)) ??
    refTo(TrajectoryReferenceType.SUBAGENT_FORK) ??
    (root !== undefined && root !== id ? root : undefined);
  assignDefined(listing, "parent_id", parent);
  const fork = refTo(TrajectoryReferenceType.FORK);
  assignDefined(listing, "forked_from", fork);
  return listing;
}

/**
 * The rows `summarize` reads, picked from a whole Body the way discovery
 * picks them; from `steps` instead of the Body's own when given (the steps
 * of a Body made to be saved, seen as they are written).
 */
export function listingRows(
  body: AntigravityBody,
  steps: ListingSteps = stepsOf(body),
): ListingRows {
  const rows: ListingRows = {
    id: body.id,
    trajectory_meta: body.trajectory_meta,
    trajectory_metadata_blob: body.trajectory_metadata_blob,
    parent_references: body.parent_references,
  };
  assignDefined(rows, "annotation", body.annotation);
  assignDefined(rows, "first_user_input", steps.first_user_input);
  assignDefined(rows, "latest_checkpoint", steps.latest_checkpoint);
  assignDefined(rows, "latest_planner", steps.latest_planner);
  assignDefined(rows, "first_step", steps.first_step);
  assignDefined(rows, "last_step", steps.last_step);
  const recent = [...body.gen_metadata].sort((a, b) => b.idx - a.idx).slice(0, RECENT_GEN_METADATA);
  if (recent.length > 0) rows.recent_gen_metadata = recent;
  return rows;
}

function stepsOf(body: AntigravityBody): ListingSteps {
  const steps = new ListingSteps();
  for (const step of body.steps) steps.add(step);
  return steps;
}

/** The few steps a listing reads, kept as steps are seen one at a time, in any order. */
export class ListingSteps {
  first_user_input: StepRow | undefined;
  latest_checkpoint: StepRow | undefined;
  latest_planner: StepRow | undefined;
  first_step: StepRow | undefined;
  last_step: StepRow | undefined;

  add(step: StepRow): void {
    if (this.first_step === undefined || step.idx < this.first_step.idx) this.first_step = step;
    if (this.last_step === undefined || step.idx > this.last_step.idx) this.last_step = step;
    switch (step.step_type) {
      case StepType.USER_INPUT:
        if (this.first_user_input === undefined || step.idx < this.first_user_input.idx) {
          this.first_user_input = step;
        }
        break;
      case StepType.CHECKPOINT:
        if (this.latest_checkpoint === undefined || step.idx > this.latest_checkpoint.idx) {
          this.latest_checkpoint = step;
        }
        break;
      case StepType.PLANNER_RESPONSE:
        if (this.latest_planner === undefined || step.idx > this.latest_planner.idx) {
          this.latest_planner = step;
        }
        break;
    }
  }
}

/** How many of the latest gen_metadata rows are searched for a model name. */
export const RECENT_GEN_METADATA = 8;

function recentModel(rows: readonly GenMetadataRow[] | undefined): string | undefined {
  for (const row of rows ?? []) {
    const name = genMetadataModel(row);
    if (name !== undefined) return name;
  }
  return undefined;
}

/** The `main` row of `trajectory_metadata_blob`, decoded (empty when absent). */
export function mainBlob(rows: readonly MetadataBlobRow[]): ProtoMessage {
  return decode(rows.find((r) => r.id === MAIN_BLOB_ID)?.data);
}

function rowTitle(checkpoint: StepRow | undefined, firstInput: StepRow | undefined) {
  if (checkpoint !== undefined) {
    const title = checkpointTitle(decodeStep(checkpoint));
    if (title !== undefined) return title;
  }
  if (firstInput === undefined) return undefined;
  const text = userInputHead(stepPayload(decodeStep(firstInput)));
  return text === undefined ? undefined : titleFromPrompt(text);
}

function plannerModel(planner: StepRow | undefined): string | undefined {
  if (planner === undefined) return undefined;
  const n = stepModelEnum(decodeStep(planner).meta);
  return n === undefined ? undefined : modelName(n);
}

function nonBlank(text: string | undefined): string | undefined {
  return isBlank(text) ? undefined : text;
}
