/**
 * The row agy's summaries cache (`conversation_summaries.db`) holds for a
 * conversation, derived from its Body with no I/O: the documented columns,
 * the status values, and what txcript writes for a conversation it saved.
 * The store writes it (store-summaries.ts); facts and their sources are in
 * docs/formats/antigravity.md, "The summaries cache".
 */

import type { Timestamp } from "../../time.js";
import type { AntigravityBody, StepRow } from "./body.js";
import { decodeStep, pathToUri, stepCreatedAt, stepPayload, userInputHead } from "./decode.js";
import { StepType } from "./schema.js";
import { ListingSteps, listingRows, summarize } from "./summary.js";

/** The 19 documented columns, in table order ([SM] `_SUMMARY_COLUMNS`). */
export const SUMMARY_COLUMNS = [
  "conversation_id",
  "title",
  "preview",
  "step_count",
  "last_modified_time",
  "workspace_uris",
  "status",
  "source",
  "project_id",
  "agent_name",
  "parent_conversation_id",
  "nesting_depth",
  "battle_id",
  "winning_conversation_id",
  "not_fully_idle",
  "killed",
  "last_user_input_time",
  "last_user_input_step_index",
  "app_data_dir",
] as const;

/** One row, by documented column. */
export type SummaryRow = Record<(typeof SUMMARY_COLUMNS)[number], string | number>;

/** The status value of an idle conversation. */
export const IDLE_STATUS = "CASCADE_RUN_STATUS_IDLE";
/** The status value of a running one. */
export const RUNNING_STATUS = "CASCADE_RUN_STATUS_RUNNING";

/**
 * What each surface writes in the row's `source`, `project_id` and
 * `app_data_dir`: the CLI's as [SM] writes them for agy 1.1.16, the desktop
 * app's as [SM-D] writes them for desktop 2.18.1 (an empty `source`).
 */
const SURFACE_VALUES = {
  cli: {
    source: "antigravity-cli",
    project_id: "default-cli-project",
    app_data_dir: "antigravity-cli",
  },
  desktop: { source: "", project_id: "outside-of-project", app_data_dir: "antigravity" },
} as const;

/** A preview is the first prompt, cut as [SM] cuts it. */
const PREVIEW_LIMIT = 16_384;

/**
 * A timestamp as the cache stores its `datetime` columns: `YYYY-MM-DD
 * HH:MM:SS[.fraction]+00:00` (observed in agy's own rows and written so by [SM]).
 */
function cacheTime(ts: Timestamp): string {
  return ts.replace("T", " ").replace(/Z$/, "+00:00");
}

function createdAt(step: StepRow): Timestamp | undefined {
  return stepCreatedAt(decodeStep(step).meta);
}

/**
 * The steps' part of a summaries row, seen one at a time in idx order: the
 * listing's few steps, the first prompt, the last user input, the last
 * step's time and the count. A Body made to be saved gives its steps so
 * as the store writes them; `summaryRowFor` sorts a whole Body's.
 */
export class SummarySteps {
  readonly listing = new ListingSteps();
  count = 0;
  preview = "";
  lastInput: StepRow | undefined;
  lastTime: Timestamp | undefined;

  add(step: StepRow): void {
    this.listing.add(step);
    this.count++;
    this.lastTime = createdAt(step) ?? this.lastTime;
    if (step.step_type !== StepType.USER_INPUT) return;
    this.lastInput = step;
    if (this.preview === "") {
      const text = userInputHead(stepPayload(decodeStep(step)));
      if (text !== undefined) this.preview = [...text.trim()].slice(0, PREVIEW_LIMIT).join("");
    }
  }
}

/**
 * The row for `body` written for `surface`: idle (a conversation txcript
 * just wrote runs nowhere), its title or else its first prompt, the step
 * count, the last step's time, the workspace as a `file://` URI list, the
 * last user input's step and time, and no subagent, battle or nesting.
 * The steps are `seen`'s when given, else the Body's own.
 */
export function summaryRowFor(
  body: AntigravityBody,
  surface: "cli" | "desktop",
  seen?: SummarySteps,
): SummaryRow {
  const steps = seen ?? stepsOf(body);
  const { meta } = summarize(listingRows(body, steps.listing));
  const { preview, lastInput, lastTime } = steps;
  const modified = cacheTime(lastTime ?? meta.timestamp);
  const inputTime = lastInput === undefined ? undefined : createdAt(lastInput);
  return {
    conversation_id: body.id,
    title: meta.title ?? "",
    preview,
    step_count: steps.count,
    last_modified_time: modified,
    workspace_uris: JSON.stringify(meta.cwd === undefined ? [] : [pathToUri(meta.cwd)]),
    status: IDLE_STATUS,
    source: SURFACE_VALUES[surface].source,
    project_id: SURFACE_VALUES[surface].project_id,
    agent_name: "",
    parent_conversation_id: "",
    nesting_depth: 0,
    battle_id: "",
    winning_conversation_id: "",
    not_fully_idle: 0,
    killed: 0,
    last_user_input_time: inputTime === undefined ? modified : cacheTime(inputTime),
    last_user_input_step_index: lastInput?.idx ?? -1,
    app_data_dir: SURFACE_VALUES[surface].app_data_dir,
  };
}

function stepsOf(body: AntigravityBody): SummarySteps {
  const steps = new SummarySteps();
  for (const step of [...body.steps].sort((a, b) => a.idx - b.idx)) steps.add(step);
  return steps;
}
